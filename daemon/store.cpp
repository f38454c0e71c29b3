#include "daemon/store.hpp"

#include "daemon/sqlite_file.hpp"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string_view>
#include <unordered_map>

namespace eboard::daemon {
using ojson = nlohmann::ordered_json;

namespace {

const char* const kSchema = R"sql(
CREATE TABLE IF NOT EXISTS games(
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  board TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  start_fen TEXT NOT NULL,
  rules TEXT NOT NULL,
  tags TEXT NOT NULL,
  result TEXT NOT NULL DEFAULT '*',
  termination TEXT NOT NULL DEFAULT '',
  confirmed INTEGER NOT NULL DEFAULT 0,
  ended INTEGER NOT NULL DEFAULT 0,
  white_side TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS moves(
  game TEXT NOT NULL,
  ply INTEGER NOT NULL,
  san TEXT NOT NULL,
  uci TEXT NOT NULL,
  fen TEXT NOT NULL,
  completed INTEGER NOT NULL,
  white_ms INTEGER,
  black_ms INTEGER,
  stands INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(game, ply));
CREATE TABLE IF NOT EXISTS comments(
  game TEXT NOT NULL,
  after_ply INTEGER NOT NULL,
  text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events(
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  time_ms INTEGER NOT NULL,
  board TEXT NOT NULL,
  game TEXT NOT NULL,
  class TEXT NOT NULL,
  json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_game ON events(game, seq);
CREATE TABLE IF NOT EXISTS board_settings(
  board TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(board, key));
CREATE TABLE IF NOT EXISTS attached_boards(
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  uri TEXT NOT NULL,
  device TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS pgn_pending(
  game TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS outbox(
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL,
  payload TEXT NOT NULL,
  retain INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS outbox_id(
  id TEXT NOT NULL);
)sql";

// Version 2 added moves.stands (an illegal move that stood, [23] A.5.2); version 3 the
// attached_boards table, version 4 the pgn_pending table (games whose PGN file may lag the
// store: recorder.hpp); both created by kSchema's IF NOT EXISTS when an older file is opened.
// Version 5 added games.white_side (the clock side `--white-side auto` found for the game, so
// that a restarted daemon reads the lever the same way): added to an older file's games.
// Version 6 added the outbox table (the MQTT messages the broker has not acknowledged:
// hall_publisher.hpp), created by kSchema; AUTOINCREMENT so that a seq is never used twice.
// Version 7 added the outbox_id table (one row: the id that tells this store's outbox seqs from
// those of another store under the same host name; the hub's `received` marks carry it).
constexpr int kSchemaVersion = 7;

using StatementCache = std::unordered_map<const char*, std::pair<sqlite3_stmt*, bool>>;

// A prepared statement from the connection's cache (reset and unbound on scope exit), or, if
// the cached one is in use, one of its own (finalized on scope exit).
class Stmt {
  public:
    Stmt(sqlite3* db, StatementCache& cache, const char* sql) : db_(db) {
        auto& [stmt, in_use] = cache[sql];
        if (!in_use) {
            if (!stmt && sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
                stmt = nullptr;
            if (stmt) {
                in_use = true;
                in_use_ = &in_use;
                s_ = stmt;
                return;
            }
        }
        if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) s_ = nullptr;
    }
    ~Stmt() {
        if (!in_use_) {
            sqlite3_finalize(s_);
            return;
        }
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
        *in_use_ = false;
    }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    [[nodiscard]] bool ok() const { return s_ != nullptr; }
    Stmt& bind(int i, const std::string& v) {
        sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(int i, std::string_view v) {
        sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(s_, i, v);
        return *this;
    }
    Stmt& bind_null(int i) {
        sqlite3_bind_null(s_, i);
        return *this;
    }
    /// SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return s_ ? sqlite3_step(s_) : SQLITE_ERROR; }
    [[nodiscard]] std::string text(int col) const {
        const auto* p = sqlite3_column_text(s_, col);
        return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
    }
    [[nodiscard]] std::int64_t integer(int col) const { return sqlite3_column_int64(s_, col); }
    [[nodiscard]] bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
    [[nodiscard]] Error error(const char* what) const {
        return Error{std::string("store: ") + what + ": " + sqlite3_errmsg(db_)};
    }

  private:
    sqlite3* db_;
    sqlite3_stmt* s_ = nullptr;
    bool* in_use_ = nullptr; // the cache's flag, when s_ is the cached statement
};

// One statement that returns no rows, `params` bound to its ?s in order; an error names `what`.
template <typename... Params>
Expected<bool> execute(sqlite3* db, StatementCache& cache, const char* what, const char* sql,
                       const Params&... params) {
    Stmt s(db, cache, sql);
    int i = 0;
    (s.bind(++i, params), ...);
    if (s.step() != SQLITE_DONE) return s.error(what);
    return true;
}

std::string utc_day(std::int64_t time_ms, const char* format) {
    const std::time_t t = static_cast<std::time_t>(time_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

ojson tags_json(const PgnTags& t) {
    return ojson{{"event", t.event}, {"site", t.site},   {"date", t.date},
                 {"round", t.round}, {"white", t.white}, {"black", t.black},
                 {"board", t.board}, {"time_control", t.time_control}};
}

PgnTags tags_from(const std::string& text) {
    PgnTags t;
    const ojson j = ojson::parse(text, nullptr, false);
    if (!j.is_object()) return t;
    auto get = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
    t.event = get("event");
    t.site = get("site");
    t.date = get("date");
    t.round = get("round");
    t.white = get("white");
    t.black = get("black");
    t.board = get("board");
    t.time_control = get("time_control");
    return t;
}

// The irregularities that go into the PGN as comments (docs/client-api.md: illegal moves never
// appear as moves; an irregularity goes in a comment).
bool is_pgn_comment(AlertKind kind) {
    return kind == AlertKind::IllegalMove || kind == AlertKind::Flag || kind == AlertKind::DeadPosition;
}

} // namespace

Store::Store(sqlite3* db) : db_(db) {}

Store::~Store() {
    // Close cleanly so the WAL is checkpointed; a kill -9 instead leaves the WAL, which the
    // next open replays.
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt.first);
    sqlite3_close_v2(db_);
}

Expected<bool> Store::exec(const char* sql) const { return exec_sql(db_, sql, "store"); }

Expected<std::unique_ptr<Store>> Store::open(const std::filesystem::path& state_dir) {
    const std::string path = (state_dir / "eboardd.db").string();
    auto db = open_sqlite_file(state_dir, "eboardd.db", "store");
    if (!db) return db.error();
    std::unique_ptr<Store> s(new Store(*db));
    if (auto ok = s->exec("PRAGMA foreign_keys=ON;"); !ok) return Error{ok.error().message + " (" + path + ")"};
    if (auto ok = s->migrate(); !ok) return Error{ok.error().message + " (" + path + ")"};
    return s;
}

Expected<bool> Store::migrate() {
    int version = 0;
    {
        Stmt q(db_, statements_, "PRAGMA user_version;");
        if (q.step() == SQLITE_ROW) version = static_cast<int>(q.integer(0));
    }
    if (version > kSchemaVersion)
        return Error{"store: schema version " + std::to_string(version) + " is newer than this eboardd (" +
                     std::to_string(kSchemaVersion) + ")"};
    if (version == kSchemaVersion) return true;
    if (auto ok = exec("BEGIN IMMEDIATE;"); !ok) return ok;
    Expected<bool> ok = exec(kSchema);
    if (ok && version == 1) ok = exec("ALTER TABLE moves ADD COLUMN stands INTEGER NOT NULL DEFAULT 0;");
    if (ok && version >= 1 && version < 5)
        ok = exec("ALTER TABLE games ADD COLUMN white_side TEXT NOT NULL DEFAULT '';");
    if (ok) ok = exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion) + ";").c_str());
    if (!ok) {
        (void)exec("ROLLBACK;");
        return ok;
    }
    return exec("COMMIT;");
}

Expected<bool> Store::run(const char* sql) const {
    Stmt st(db_, statements_, sql);
    const int rc = st.step();
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return st.error(sql);
    return true;
}

Expected<bool> Store::set_synchronous_full(bool full) {
    // Only a change is run: a durable batch (every move) needs no statement for it. The mode
    // is remembered only once set, so a failed reset is tried again by the next batch.
    if (full == synchronous_full_) return true;
    auto ok = run(full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;");
    if (ok) synchronous_full_ = full;
    return ok;
}

Expected<bool> Store::begin() {
    if (batch_) return true;
    return run("BEGIN IMMEDIATE;");
}

Expected<bool> Store::commit() {
    if (batch_) return true;
    return run("COMMIT;");
}

void Store::rollback() {
    if (batch_) {
        batch_failed_ = true;
        return;
    }
    (void)run("ROLLBACK;");
}

Expected<bool> Store::begin_batch(bool durable) {
    if (batch_) return Error{"store: a batch is already open"};
    if (auto ok = set_synchronous_full(durable); !ok) return ok;
    if (auto ok = run("BEGIN IMMEDIATE;"); !ok) return ok;
    batch_ = true;
    batch_failed_ = false;
    batch_durable_ = durable;
    return true;
}

Expected<bool> Store::commit_batch() {
    if (!batch_) return Error{"store: no batch is open"};
    batch_ = false;
    if (batch_failed_) {
        (void)run("ROLLBACK;");
        (void)set_synchronous_full(true);
        return Error{"store: a write of the batch failed; nothing of it was recorded"};
    }
    auto ok = run("COMMIT;");
    if (!ok) (void)run("ROLLBACK;");
    // Every other write is durable when it returns.
    (void)set_synchronous_full(true);
    return ok;
}

void Store::rollback_batch() {
    if (!batch_) return;
    batch_ = false;
    (void)run("ROLLBACK;");
    (void)set_synchronous_full(true);
}

Expected<std::string> Store::create_game(const std::string& board, const std::string& start_fen,
                                         PgnTags tags, const std::string& rules,
                                         std::int64_t time_ms) {
    if (tags.date.empty()) tags.date = utc_day(time_ms, "%Y.%m.%d");
    if (auto ok = begin(); !ok) return ok.error();
    std::int64_t seq = 1;
    {
        Stmt q(db_, statements_, "SELECT COALESCE(MAX(seq), 0) + 1 FROM games;");
        if (q.step() == SQLITE_ROW) seq = q.integer(0);
    }
    char id[48];
    std::snprintf(id, sizeof id, "%s-%04lld", utc_day(time_ms, "%Y%m%d").c_str(),
                  static_cast<long long>(seq));
    Stmt ins(db_, statements_, "INSERT INTO games(seq, id, board, created_ms, start_fen, rules, tags) "
                  "VALUES(?,?,?,?,?,?,?);");
    ins.bind(1, seq).bind(2, std::string(id)).bind(3, board).bind(4, time_ms).bind(5, start_fen);
    ins.bind(6, rules).bind(7, tags_json(tags).dump());
    if (ins.step() != SQLITE_DONE) {
        Error e = ins.error("create game");
        rollback();
        return e;
    }
    if (auto ok = commit(); !ok) return ok.error();
    return std::string(id);
}

Expected<bool> Store::apply_event(const Event& event) {
    if (const auto* m = std::get_if<MoveEvent>(&event)) {
        Stmt del(db_, statements_, "DELETE FROM moves WHERE game = ? AND ply > ?;");
        del.bind(1, m->game).bind(2, std::int64_t{m->ply});
        if (del.step() != SQLITE_DONE) return del.error("move");
        Stmt ins(db_, statements_, "INSERT OR REPLACE INTO moves(game, ply, san, uci, fen, completed, "
                      "white_ms, black_ms) VALUES(?,?,?,?,?,?,?,?);");
        ins.bind(1, m->game).bind(2, std::int64_t{m->ply}).bind(3, m->san).bind(4, m->uci);
        ins.bind(5, m->fen).bind(6, std::int64_t{m->is_completed() ? 1 : 0});
        if (m->clock) ins.bind(7, m->clock->white_ms).bind(8, m->clock->black_ms);
        else ins.bind_null(7).bind_null(8);
        if (ins.step() != SQLITE_DONE) return ins.error("move");
    } else if (const auto* r = std::get_if<ResultEvent>(&event)) {
        return set_result(r->game, r->result, r->termination, r->confirmed);
    } else if (const auto* g = std::get_if<GameEvent>(&event)) {
        if (g->kind == GameEvent::Kind::End) {
            if (auto ok = execute(db_, statements_, "game end", "UPDATE games SET ended = 1 WHERE id = ?;", g->game);
                !ok)
                return ok;
        } else if (g->kind == GameEvent::Kind::Takeback) {
            const std::int64_t ply = g->ply.value_or(0);
            Stmt del(db_, statements_, "DELETE FROM moves WHERE game = ? AND ply > ?;");
            del.bind(1, g->game).bind(2, ply);
            Stmt delc(db_, statements_, "DELETE FROM comments WHERE game = ? AND after_ply > ?;");
            delc.bind(1, g->game).bind(2, ply);
            if (del.step() != SQLITE_DONE || delc.step() != SQLITE_DONE) return del.error("take back");
        }
    } else if (const auto* a = std::get_if<AlertEvent>(&event)) {
        if (a->ply && !a->game.empty() && is_pgn_comment(a->kind)) {
            Stmt ins(db_, statements_, "INSERT INTO comments(game, after_ply, text) VALUES(?,?,?);");
            ins.bind(1, a->game).bind(2, std::int64_t{*a->ply - 1}).bind(3, a->text);
            if (ins.step() != SQLITE_DONE) return ins.error("comment");
        }
    }
    return true;
}

Expected<bool> Store::record(const Event& event, std::int64_t time_ms) {
    return record(event, time_ms, to_line(event));
}

Expected<bool> Store::record(const Event& event, std::int64_t time_ms, const std::string& line) {
    if (auto ok = begin(); !ok) return ok.error();
    Stmt ins(db_, statements_, "INSERT INTO events(time_ms, board, game, class, json) VALUES(?,?,?,?,?);");
    ins.bind(1, time_ms).bind(2, event_board(event)).bind(3, event_game(event));
    ins.bind(4, std::string(event_class(event)));
    std::string_view json = line;
    if (!json.empty() && json.back() == '\n') json.remove_suffix(1);
    ins.bind(5, json);
    Expected<bool> ok = ins.step() == SQLITE_DONE ? Expected<bool>(true) : Expected<bool>(ins.error("event"));
    if (ok) ok = apply_event(event);
    if (!ok) {
        rollback();
        return ok.error();
    }
    return commit();
}

Expected<bool> Store::record_stands(const std::string& board, const std::string& game,
                                   const RecordedMove& move, std::int64_t time_ms) {
    if (auto ok = begin(); !ok) return ok.error();
    const ojson note{{"ply", move.ply}, {"move", move.san}, {"fen", move.fen}};
    Stmt ev(db_, statements_, "INSERT INTO events(time_ms, board, game, class, json) VALUES(?,?,?,?,?);");
    ev.bind(1, time_ms).bind(2, board).bind(3, game).bind(4, std::string("STANDS")).bind(5, note.dump());
    Stmt del(db_, statements_, "DELETE FROM moves WHERE game = ? AND ply >= ?;");
    del.bind(1, game).bind(2, std::int64_t{move.ply});
    Stmt ins(db_, statements_, "INSERT INTO moves(game, ply, san, uci, fen, completed, stands) VALUES(?,?,?,?,?,1,1);");
    ins.bind(1, game).bind(2, std::int64_t{move.ply}).bind(3, move.san).bind(4, move.uci).bind(5, move.fen);
    if (ev.step() != SQLITE_DONE || del.step() != SQLITE_DONE || ins.step() != SQLITE_DONE) {
        Error e = ins.error("illegal move that stands");
        rollback();
        return e;
    }
    return commit();
}

Expected<bool> Store::set_board_setting(const std::string& board, const std::string& key,
                                        const std::string& value) {
    return execute(db_, statements_, "board setting",
                   "INSERT OR REPLACE INTO board_settings(board, key, value) VALUES(?,?,?);", board, key, value);
}

std::map<std::string, std::string> Store::board_settings(const std::string& board) {
    std::map<std::string, std::string> out;
    Stmt q(db_, statements_, "SELECT key, value FROM board_settings WHERE board = ?;");
    q.bind(1, board);
    while (q.step() == SQLITE_ROW) out[q.text(0)] = q.text(1);
    return out;
}

Expected<bool> Store::remember_attached(const AttachedBoard& board) {
    // A new seq on every ATTACH: the boards reopen in the order they were last attached.
    return execute(db_, statements_, "attached board",
                   "INSERT OR REPLACE INTO attached_boards(name, uri, device) VALUES(?,?,?);", board.name, board.uri,
                   board.device);
}

Expected<bool> Store::forget_attached(const std::string& name) {
    return execute(db_, statements_, "detached board", "DELETE FROM attached_boards WHERE name = ?;", name);
}

std::vector<AttachedBoard> Store::attached_boards() const {
    std::vector<AttachedBoard> out;
    Stmt q(db_, statements_, "SELECT name, uri, device FROM attached_boards ORDER BY seq;");
    while (q.step() == SQLITE_ROW) out.push_back(AttachedBoard{q.text(0), q.text(1), q.text(2)});
    return out;
}

Expected<bool> Store::record_note(const std::string& board, const std::string& game,
                                  const std::string& cls, const std::string& json,
                                  std::int64_t time_ms) {
    return execute(db_, statements_, "note", "INSERT INTO events(time_ms, board, game, class, json) VALUES(?,?,?,?,?);",
                   time_ms, board, game, cls, json);
}

Expected<bool> Store::mark_pgn_pending(const std::string& game) {
    return execute(db_, statements_, "pgn pending", "INSERT OR IGNORE INTO pgn_pending(game) VALUES(?);", game);
}

Expected<bool> Store::clear_pgn_pending(const std::string& game) {
    return execute(db_, statements_, "pgn pending", "DELETE FROM pgn_pending WHERE game = ?;", game);
}

std::vector<std::string> Store::pgn_pending() const {
    std::vector<std::string> ids;
    Stmt q(db_, statements_, "SELECT game FROM pgn_pending ORDER BY game;");
    while (q.step() == SQLITE_ROW) ids.push_back(q.text(0));
    return ids;
}

Expected<bool> Store::add_outbox(const std::string& topic, std::string_view payload, bool retain) {
    return execute(db_, statements_, "outbox", "INSERT INTO outbox(topic, payload, retain) VALUES(?,?,?);", topic,
                   payload, static_cast<std::int64_t>(retain ? 1 : 0));
}

Expected<std::int64_t> Store::add_outbox_numbered(const std::string& topic,
                                                  const std::function<std::string(std::int64_t)>& payload,
                                                  bool retain) {
    std::int64_t seq = 1;
    {
        // AUTOINCREMENT's counter: above every seq ever used, removed rows included.
        Stmt q(db_, statements_,
               "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) + 1;");
        if (q.step() != SQLITE_ROW) return q.error("outbox");
        seq = q.integer(0);
    }
    if (auto ok = execute(db_, statements_, "outbox", "INSERT INTO outbox(seq, topic, payload, retain) VALUES(?,?,?,?);",
                          seq, topic, payload(seq), static_cast<std::int64_t>(retain ? 1 : 0));
        !ok)
        return ok.error();
    return seq;
}

Expected<std::string> Store::outbox_id() {
    {
        Stmt q(db_, statements_, "SELECT id FROM outbox_id LIMIT 1;");
        if (q.step() == SQLITE_ROW) return q.text(0);
    }
    std::random_device random;
    char id[24];
    std::snprintf(id, sizeof id, "%08x%08x", random(), random());
    if (auto ok = execute(db_, statements_, "outbox id", "INSERT INTO outbox_id(id) VALUES(?);", std::string(id)); !ok)
        return ok.error();
    return std::string(id);
}

Expected<bool> Store::remove_outbox_through(std::int64_t seq) {
    if (auto ok = begin_batch(false); !ok) return ok;
    if (auto ok = execute(db_, statements_, "outbox", "DELETE FROM outbox WHERE seq <= ?;", seq); !ok) {
        rollback_batch();
        return ok;
    }
    return commit_batch();
}

std::vector<OutboxMessage> Store::outbox_after(std::int64_t after, int limit) const {
    std::vector<OutboxMessage> out;
    Stmt q(db_, statements_, "SELECT seq, topic, payload, retain FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?;");
    q.bind(1, after).bind(2, static_cast<std::int64_t>(limit));
    while (q.step() == SQLITE_ROW) out.push_back(OutboxMessage{q.integer(0), q.text(1), q.text(2), q.integer(3) != 0});
    return out;
}

Expected<bool> Store::remove_outbox(const std::vector<std::int64_t>& seqs) {
    if (seqs.empty()) return true;
    if (auto ok = begin_batch(false); !ok) return ok;
    for (const std::int64_t seq : seqs)
        if (auto ok = execute(db_, statements_, "outbox", "DELETE FROM outbox WHERE seq = ?;", seq); !ok) {
            rollback_batch();
            return ok;
        }
    return commit_batch();
}

std::int64_t Store::outbox_size() const {
    Stmt q(db_, statements_, "SELECT count(*) FROM outbox;");
    return q.step() == SQLITE_ROW ? q.integer(0) : 0;
}

Expected<bool> Store::set_result(const std::string& game, const std::string& result,
                                 const std::string& termination, bool confirmed) {
    return execute(db_, statements_, "result",
                   "UPDATE games SET result = ?, termination = ?, confirmed = ? WHERE id = ?;", result, termination,
                   std::int64_t{confirmed ? 1 : 0}, game);
}

Expected<bool> Store::set_white_side(const std::string& game, const std::string& side) {
    return execute(db_, statements_, "white side", "UPDATE games SET white_side = ? WHERE id = ?;", side, game);
}

Expected<StoredGame> Store::load(const std::string& id) const {
    StoredGame g;
    {
        Stmt q(db_, statements_, "SELECT id, board, start_fen, rules, tags, result, termination, confirmed, "
                    "ended, white_side FROM games WHERE id = ?;");
        q.bind(1, id);
        if (q.step() != SQLITE_ROW) return Error{"no game '" + id + "'"};
        g.id = q.text(0);
        g.board = q.text(1);
        g.start_fen = q.text(2);
        g.rules = q.text(3);
        g.tags = tags_from(q.text(4));
        g.result = q.text(5);
        g.termination = q.text(6);
        g.confirmed = q.integer(7) != 0;
        g.ended = q.integer(8) != 0;
        g.white_side = q.text(9);
    }
    Stmt q(db_, statements_, "SELECT ply, san, uci, fen, completed, white_ms, black_ms, stands FROM moves "
                "WHERE game = ? ORDER BY ply;");
    q.bind(1, id);
    while (q.step() == SQLITE_ROW) {
        RecordedMove m;
        m.ply = static_cast<int>(q.integer(0));
        m.san = q.text(1);
        m.uci = q.text(2);
        m.fen = q.text(3);
        m.completed = q.integer(4) != 0;
        if (!q.is_null(5)) m.clock = MoveClock{q.integer(5), q.integer(6)};
        m.illegal_stands = q.integer(7) != 0;
        g.moves.push_back(std::move(m));
    }
    Stmt c(db_, statements_, "SELECT after_ply, text FROM comments WHERE game = ? ORDER BY rowid;");
    c.bind(1, id);
    while (c.step() == SQLITE_ROW) {
        const auto after = c.integer(0);
        if (after >= 1 && static_cast<std::size_t>(after) <= g.moves.size())
            g.moves[static_cast<std::size_t>(after - 1)].comments.push_back(c.text(1));
        else if (after < 1)
            g.comments.push_back(c.text(1));
    }
    return g;
}

std::vector<std::string> Store::unfinished_games() const {
    std::vector<std::string> ids;
    Stmt q(db_, statements_, "SELECT id FROM games WHERE ended = 0 ORDER BY seq;");
    while (q.step() == SQLITE_ROW) ids.push_back(q.text(0));
    return ids;
}

std::vector<GameSummary> Store::list_games(int limit) const {
    std::vector<GameSummary> out;
    Stmt q(db_, statements_, "SELECT g.id, g.board, g.result, g.ended, "
                "(SELECT COUNT(*) FROM moves m WHERE m.game = g.id) FROM games g "
                "ORDER BY g.seq DESC LIMIT ?;");
    q.bind(1, std::int64_t{limit});
    while (q.step() == SQLITE_ROW)
        out.push_back(GameSummary{q.text(0), q.text(1), q.text(2), static_cast<int>(q.integer(4)),
                                  q.integer(3) != 0});
    return out;
}

std::vector<std::string> Store::game_events(const std::string& game) const {
    std::vector<std::string> out;
    Stmt q(db_, statements_, "SELECT json FROM events WHERE game = ? ORDER BY seq;");
    q.bind(1, game);
    while (q.step() == SQLITE_ROW) out.push_back(q.text(0));
    return out;
}

} // namespace eboard::daemon
