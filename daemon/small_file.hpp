// Reading a small file whose name comes from outside (a board's game in `emu-KIND:PGN`): never
// blocks and never reads without bound (issue 26): only a regular file, opened without waiting
// (a FIFO with no writer, a device), read up to a size limit.
#pragma once

#include <cstddef>
#include <string>

#include "base/expected.hpp"

namespace eboard::daemon {

/// The whole content of the regular file `path`, at most `max_bytes` long. Errors name the
/// path and what is wrong (cannot open: strerror; not a regular file; larger than the limit);
/// they never quote the file's content.
[[nodiscard]] Expected<std::string> read_small_file(const std::string& path, std::size_t max_bytes);

} // namespace eboard::daemon
