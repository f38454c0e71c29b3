// Internal to standings/: the line reading the TRF reader and the profile reader share.
#pragma once

#include <cstddef>
#include <string_view>

namespace eboard::standings::detail {

/// Takes the next line off the front of `text`: without its '\n', nor a '\r' before it.
[[nodiscard]] constexpr std::string_view take_line(std::string_view& text) noexcept {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

/// The byte offset of the first control character but tab in `line`; npos if none.
[[nodiscard]] constexpr std::size_t first_control(std::string_view line) noexcept {
    for (std::size_t i = 0; i < line.size(); ++i)
        if (static_cast<unsigned char>(line[i]) < 0x20 && line[i] != '\t') return i;
    return std::string_view::npos;
}

} // namespace eboard::standings::detail
