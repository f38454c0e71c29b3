#include "daemon/sqlite_file.hpp"

#include <sqlite3.h>

namespace eboard::daemon {

Expected<sqlite3*> open_sqlite_file(const std::filesystem::path& state_dir, const std::string& file_name,
                                    const std::string& who) {
    std::error_code ec;
    std::filesystem::create_directories(state_dir, ec);
    if (ec) return Error{who + ": cannot create " + state_dir.string() + ": " + ec.message()};
    const std::string path = (state_dir / file_name).string();
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        Error e{who + ": cannot open " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory")};
        sqlite3_close_v2(db);
        return e;
    }
    sqlite3_busy_timeout(db, 2000);
    for (const char* sql : {"PRAGMA journal_mode=WAL;", "PRAGMA synchronous=FULL;"}) {
        if (auto ok = exec_sql(db, sql, who); !ok) {
            sqlite3_close_v2(db);
            return Error{ok.error().message + " (" + path + ")"};
        }
    }
    return db;
}

Expected<bool> exec_sql(sqlite3* db, const char* sql, const std::string& who) {
    char* msg = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
        Error e{who + ": " + (msg ? msg : sqlite3_errmsg(db))};
        sqlite3_free(msg);
        return e;
    }
    return true;
}

} // namespace eboard::daemon
