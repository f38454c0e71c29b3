// Logging on stderr with syslog priority prefixes ("<6>..."), which journald and
// systemd's stderr capture turn into message priorities (sd-daemon(3), SD_INFO etc.).
#pragma once

#include <string_view>

namespace eboard::daemon {

/// syslog(3) priorities, as journald reads them from a "<N>" line prefix.
enum class Priority : int { Error = 3, Warning = 4, Notice = 5, Info = 6, Debug = 7 };

/// Writes one line "<N>text\n" to stderr in a single write(2), so lines from one process
/// never interleave; a control character in `text` is written escaped (`\n`, `\t`, `\r`,
/// `\xNN`), so that text from a client never makes a line of its own. Never throws.
void log(Priority priority, std::string_view text) noexcept;

inline void log_error(std::string_view text) noexcept { log(Priority::Error, text); }
inline void log_warning(std::string_view text) noexcept { log(Priority::Warning, text); }
inline void log_notice(std::string_view text) noexcept { log(Priority::Notice, text); }
inline void log_info(std::string_view text) noexcept { log(Priority::Info, text); }

} // namespace eboard::daemon
