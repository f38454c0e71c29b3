// A durable SQLite file in a state directory, opened as eboardd's store and eboard-hub's are:
// the directory created if missing, the file created if missing, one connection per thread
// (SQLITE_OPEN_NOMUTEX), a 2 s busy timeout, WAL with synchronous=FULL (a commit survives a
// power cut, docs/quality.md).
#pragma once

#include <filesystem>
#include <string>

#include "base/expected.hpp"

struct sqlite3;

namespace eboard::daemon {

/// Opens `state_dir`/`file_name`. The caller owns the handle (sqlite3_close_v2). Errors start
/// with `who` ("store", "hub store") and name the path: the directory cannot be created, the
/// file cannot be opened, a pragma fails.
[[nodiscard]] Expected<sqlite3*> open_sqlite_file(const std::filesystem::path& state_dir, const std::string& file_name,
                                                  const std::string& who);

/// Runs `sql` (one or more statements, no results) on `db`. The error starts with `who` and
/// gives SQLite's message.
[[nodiscard]] Expected<bool> exec_sql(sqlite3* db, const char* sql, const std::string& who);

} // namespace eboard::daemon
