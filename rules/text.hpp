// Small text helpers shared by the readers of our own text formats (rules profiles,
// docs/profiles.md; eboardd's driver-options, docs/configuration.md).
#pragma once

#include <string_view>

namespace eboard {

/// `s` without the spaces and tabs at its start and end (a view into `s`).
[[nodiscard]] constexpr std::string_view trim_blanks(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

} // namespace eboard
