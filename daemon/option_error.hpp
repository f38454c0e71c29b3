// The text of a Boost.Program_options error, made without Boost's own what().
//
// Boost 1.74's error_with_option_name::what() fills its message template ("unrecognised option
// '%canonical_option%'") by replacing each placeholder until none is left, re-scanning the text
// it has just put in. When that text is the user's and holds a placeholder itself
// (`--%original_token%`, `--x%canonical_option%`, `speed = %value%`, a file line
// `%invalid_line%`), the replacement never ends: eboardd hung on such a command line (fuzz
// finding, fuzz_config). Never call what() on a program_options error; use this.
#pragma once

#include <boost/program_options/errors.hpp>
#include <string>

namespace eboard::daemon {

/// Boost's message for `e`, its placeholders filled in one pass: the option name, the value
/// and the file line given by the user are copied as they are (control characters shown as
/// `\n`, `\xNN`), never read as placeholders. Other errors: their what(), which holds no
/// placeholders. Never throws on user text, never loops.
[[nodiscard]] std::string option_error_text(const boost::program_options::error& e);

} // namespace eboard::daemon
