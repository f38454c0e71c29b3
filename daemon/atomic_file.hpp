// Crash-safe replacement of a whole file (the usual POSIX recipe: write a
// temporary file, fsync it, rename it over the old one, fsync the directory). A reader sees
// either the old or the new content, never a mix, even after a crash or a power cut.
#pragma once

#include <filesystem>
#include <string_view>

#include "base/expected.hpp"

namespace eboard::daemon {

/// Replaces `path` with `content` atomically (mode 0644). The temporary file is
/// `<path>.tmp` in the same directory. Errors name the step and errno text. Returns the
/// number of bytes written. `sync_dir` false: the caller syncs the directory afterwards (once
/// for many files).
[[nodiscard]] Expected<std::size_t> write_file_atomically(const std::filesystem::path& path,
                                                          std::string_view content, bool sync_dir = true);

/// fsync(2) of a directory, so that a rename or a new file in it is durable.
[[nodiscard]] Expected<bool> sync_directory(const std::filesystem::path& dir);

} // namespace eboard::daemon
