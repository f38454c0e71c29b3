// Expected<T>: a value or the reason there is none. C++20 has no std::expected; this is the
// small subset eboardd needs. Parsers of outside text return Expected so callers learn *why*.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace eboard {

/// Why a parse or a request failed: a message for people and, for text input, where
/// (1-based line and column; 0 when not applicable).
struct Error {
    std::string message;
    int line = 0;
    int column = 0;
};

/// Either a T or an Error. Check with has_value()/operator bool before value().
template <typename T>
class [[nodiscard]] Expected {
  public:
    Expected(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
    Expected(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool has_value() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }
    [[nodiscard]] T& value() & { return std::get<0>(v_); }
    [[nodiscard]] const T& value() const& { return std::get<0>(v_); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(v_)); }
    [[nodiscard]] const Error& error() const { return std::get<1>(v_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

  private:
    std::variant<T, Error> v_;
};

} // namespace eboard
