#include "hub/store.hpp"

#include "daemon/hall_topics.hpp"
#include "daemon/sqlite_file.hpp"

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <ctime>

namespace eboard::hub {

bool is_store_failure(const Error& e) {
    const std::string_view m = e.message;
    return m.size() > kStoreErrorLabel.size() && m.substr(0, kStoreErrorLabel.size()) == kStoreErrorLabel &&
           m[kStoreErrorLabel.size()] == ':';
}

namespace {

using nlohmann::json;

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS hosts(host TEXT PRIMARY KEY, status TEXT NOT NULL DEFAULT '',
  seen_ms INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS boards(host TEXT NOT NULL, board TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT '', driver TEXT NOT NULL DEFAULT '', live TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(host, board));
CREATE TABLE IF NOT EXISTS games(seq INTEGER PRIMARY KEY AUTOINCREMENT, host TEXT NOT NULL,
  board TEXT NOT NULL, game TEXT NOT NULL, start_fen TEXT NOT NULL, date TEXT NOT NULL,
  ended INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '*',
  termination TEXT NOT NULL DEFAULT '', confirmed INTEGER NOT NULL DEFAULT 0,
  UNIQUE(host, game));
CREATE TABLE IF NOT EXISTS moves(host TEXT NOT NULL, game TEXT NOT NULL, ply INTEGER NOT NULL,
  san TEXT NOT NULL, uci TEXT NOT NULL, fen TEXT NOT NULL, completed INTEGER NOT NULL,
  white_ms INTEGER, black_ms INTEGER, PRIMARY KEY(host, game, ply));
CREATE TABLE IF NOT EXISTS alerts(id INTEGER PRIMARY KEY, host TEXT NOT NULL, board TEXT NOT NULL,
  game TEXT NOT NULL, kind TEXT NOT NULL, ply INTEGER, payload TEXT NOT NULL,
  received_ms INTEGER NOT NULL, UNIQUE(host, board, payload));
CREATE TABLE IF NOT EXISTS counters(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS received(host TEXT PRIMARY KEY, outbox TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS push_queue(round INTEGER PRIMARY KEY, generation INTEGER NOT NULL,
  due_ms INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0);
)";

constexpr const char* kStandardFen = daemon::kStandardFen;

// One prepared statement, finalized at the end of the scope.
class Stmt {
  public:
    Stmt(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) s_ = nullptr;
    }
    ~Stmt() { sqlite3_finalize(s_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    Stmt& bind(int i, std::string_view v) {
        sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(s_, i, v);
        return *this;
    }
    Stmt& bind(int i, std::optional<std::int64_t> v) {
        if (v) return bind(i, *v);
        sqlite3_bind_null(s_, i);
        return *this;
    }
    /// SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return s_ ? sqlite3_step(s_) : SQLITE_ERROR; }
    /// Runs a statement that returns no row.
    Expected<bool> run() {
        const int rc = step();
        if (rc == SQLITE_DONE || rc == SQLITE_ROW) return true;
        return Error{std::string(kStoreErrorLabel) + ": " + sqlite3_errmsg(db_)};
    }
    [[nodiscard]] std::int64_t integer(int c) const { return sqlite3_column_int64(s_, c); }
    [[nodiscard]] bool null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }
    [[nodiscard]] std::string text(int c) const {
        const auto* p = sqlite3_column_text(s_, c);
        return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, c)))
                 : std::string();
    }

  private:
    sqlite3* db_;
    sqlite3_stmt* s_ = nullptr;
};

std::string utc_date(std::int64_t ms) {
    const std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    return buf;
}

std::string str(const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::int64_t> integer(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

// The topic's parts after "eboard/v1/".
std::vector<std::string> topic_parts(std::string_view topic) {
    constexpr std::string_view prefix = "eboard/v1/";
    std::vector<std::string> out;
    if (topic.substr(0, prefix.size()) != prefix) return out;
    topic.remove_prefix(prefix.size());
    std::size_t start = 0;
    for (;;) {
        const auto slash = topic.find('/', start);
        out.emplace_back(topic.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return out;
}

// The board's name between the host and the class: a board name may hold '/' (a device path).
std::string topic_board(const std::vector<std::string>& parts) {
    std::string b;
    for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
        if (i > 1) b += '/';
        b += parts[i];
    }
    return b;
}

} // namespace

Expected<std::unique_ptr<HallStore>> HallStore::open(const std::filesystem::path& state_dir) {
    auto db = daemon::open_sqlite_file(state_dir, "eboard-hub.db", std::string(kStoreErrorLabel));
    if (!db) return db.error();
    // The readers' connection (WAL: it sees what is committed, never the open batch).
    auto rd = daemon::open_sqlite_file(state_dir, "eboard-hub.db", std::string(kStoreErrorLabel));
    if (!rd) {
        sqlite3_close_v2(*db);
        return rd.error();
    }
    std::unique_ptr<HallStore> s(new HallStore(*db, *rd));
    if (auto ok = s->exec(kSchema); !ok)
        return Error{ok.error().message + " (" + (state_dir / "eboard-hub.db").string() + ")"};
    return s;
}

HallStore::~HallStore() {
    if (open_) (void)exec("ROLLBACK;"); // not committed: as after a crash
    sqlite3_close_v2(rd_);
    sqlite3_close_v2(db_);
}

Expected<bool> HallStore::exec(const char* sql) const { return daemon::exec_sql(db_, sql, std::string(kStoreErrorLabel)); }

Expected<Ingested> HallStore::ingest(std::string_view topic, std::string_view payload, std::int64_t now_ms) {
    auto r = stage(topic, payload, now_ms);
    if (auto ok = commit(); !ok) return ok.error();
    return r;
}

Expected<Ingested> HallStore::stage(std::string_view topic, std::string_view payload, std::int64_t now_ms) {
    // The hub's own marks (and any other subscriber's) come back on its subscription.
    constexpr std::string_view kReceived = "/received";
    if (topic.size() > kReceived.size() && topic.substr(topic.size() - kReceived.size()) == kReceived) return Ingested{};
    std::lock_guard lock(mutex_);
    if (!open_) {
        if (auto ok = exec("BEGIN IMMEDIATE;"); !ok) return ok.error();
        open_ = true;
    }
    // Each message in a savepoint of its own: one that fails is undone alone, the batch stays.
    if (auto ok = exec("SAVEPOINT message;"); !ok) return ok.error();
    ++staged_;
    // The outbox row the message was sent from (eboardd --mqtt-confirm): one the host's mark
    // covers is committed already (a resend), the one right after it moves the mark.
    const auto row = daemon::read_outbox_seq(payload);
    const auto mark = row ? received_mark(row->host) : std::nullopt;
    // Committed before it is acknowledged (the header: no row to send it again by, or a row
    // that starts the host's mark, which must not start later after a crash).
    if (!row || !mark || mark->outbox != row->outbox) commit_now_ = true;
    Expected<Ingested> r = Error{""};
    if (row && mark && mark->outbox == row->outbox && row->seq <= mark->seq) {
        Ingested dup;
        dup.duplicate = true;
        dup.host = row->host;
        dup.received = mark; // sent again: the host may lack the mark
        r = dup;
    } else {
        r = apply(topic, payload, now_ms);
        // A message the hub does not take (not the contract's) is done with all the same: the
        // mark moves past it, without what it did.
        const auto next = row ? daemon::next_mark(mark, *row) : std::nullopt;
        if (!r && next && !is_store_failure(r.error())) {
            (void)exec("ROLLBACK TO message;");
            if (auto ok = set_received(*next); !ok) r = ok.error();
            if (auto ok = exec("RELEASE message;"); !ok) return ok.error();
            return r;
        }
        if (r && next) {
            if (auto ok = set_received(*next); !ok) r = ok.error();
            else r->received = next;
        }
    }
    if (r && r->duplicate) {
        auto ok = Stmt(db_, "INSERT INTO counters(name, value) VALUES('duplicates', 1) "
                            "ON CONFLICT(name) DO UPDATE SET value = value + 1;").run();
        if (!ok) r = ok.error();
    }
    if (!r) (void)exec("ROLLBACK TO message;");
    if (auto ok = exec("RELEASE message;"); !ok) return ok.error();
    return r;
}

Expected<bool> HallStore::commit() {
    std::lock_guard lock(mutex_);
    if (!open_) return false;
    open_ = false;
    staged_ = 0;
    commit_now_ = false;
    if (auto ok = exec("COMMIT;"); !ok) {
        (void)exec("ROLLBACK;");
        return ok.error();
    }
    return true;
}

std::size_t HallStore::staged() const {
    std::lock_guard lock(mutex_);
    return staged_;
}

bool HallStore::must_commit() const {
    std::lock_guard lock(mutex_);
    return commit_now_;
}

Expected<Ingested> HallStore::apply(std::string_view topic, std::string_view payload, std::int64_t now_ms) {
    const auto parts = topic_parts(topic);
    if (parts.size() < 2) return Error{"not a hall topic: " + std::string(topic)};
    Ingested out;
    out.host = parts[0];
    const std::string& cls = parts.back();
    if (auto ok = Stmt(db_, "INSERT INTO hosts(host, seen_ms) VALUES(?1, ?2) "
                            "ON CONFLICT(host) DO UPDATE SET seen_ms = ?2;").bind(1, out.host).bind(2, now_ms).run();
        !ok)
        return ok.error();
    if (parts.size() == 2 && cls == "status") {
        // `online` / `offline`: plain text, or a JSON object with `status` (or `state`).
        std::string status(payload);
        if (auto j = json::parse(payload, nullptr, false); !j.is_discarded()) {
            if (j.is_object()) status = !str(j, "status").empty() ? str(j, "status") : str(j, "state");
            else if (j.is_string()) status = j.get<std::string>();
        }
        Stmt q(db_, "UPDATE hosts SET status = ?2 WHERE host = ?1 AND status <> ?2;");
        if (auto ok = q.bind(1, out.host).bind(2, status).run(); !ok) return ok.error();
        out.changed = sqlite3_changes(db_) > 0;
        out.duplicate = !out.changed;
        return out;
    }
    const json j = json::parse(payload, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return Error{"not a JSON object on " + std::string(topic)};
    out.board = str(j, "board").empty() ? topic_board(parts) : str(j, "board");
    if (!str(j, "host").empty()) out.host = str(j, "host");
    if (out.board.empty()) return Error{"no board on " + std::string(topic)};
    if (auto ok = Stmt(db_, "INSERT OR IGNORE INTO boards(host, board) VALUES(?1, ?2);")
                      .bind(1, out.host).bind(2, out.board).run();
        !ok)
        return ok.error();
    const std::string game = str(j, "game");
    out.game = game;

    // The game's row, created by its first event (GAME start normally).
    auto ensure_game = [&](const std::string& fen) -> Expected<bool> {
        Stmt q(db_, "INSERT OR IGNORE INTO games(host, board, game, start_fen, date) VALUES(?1, ?2, ?3, ?4, ?5);");
        return q.bind(1, out.host).bind(2, out.board).bind(3, game).bind(4, fen.empty() ? kStandardFen : fen)
            .bind(5, utc_date(now_ms)).run();
    };
    auto changes = [&] { return sqlite3_changes(db_) > 0; };

    if (cls == "state") {
        Stmt q(db_, "UPDATE boards SET live = ?3 WHERE host = ?1 AND board = ?2 AND live <> ?3;");
        if (auto ok = q.bind(1, out.host).bind(2, out.board).bind(3, payload).run(); !ok) return ok.error();
        out.changed = changes();
        out.duplicate = !out.changed;
        return out;
    }
    if (cls == "board") {
        Stmt q(db_, "UPDATE boards SET state = ?3, driver = ?4 WHERE host = ?1 AND board = ?2 "
                    "AND (state <> ?3 OR driver <> ?4);");
        if (auto ok = q.bind(1, out.host).bind(2, out.board).bind(3, str(j, "state")).bind(4, str(j, "driver")).run(); !ok)
            return ok.error();
        out.changed = changes();
        // A battery report (BOARD `battery`) comes with an unchanged state: not kept here, it
        // goes on to the console all the same.
        out.duplicate = !out.changed && !j.contains("battery");
        return out;
    }
    if (cls == "touch") return out; // not kept
    if (game.empty()) {
        if (cls == "alert") { // an alert with no game (board_disconnected at rest)
        } else {
            return Error{"no game on " + std::string(topic)};
        }
    }
    if (cls == "game") {
        const std::string event = str(j, "event");
        const std::string fen = str(j, "fen");
        if (event == "start") {
            if (auto ok = ensure_game(fen); !ok) return ok.error();
            out.changed = changes();
            if (!out.changed) { // created by an earlier event: the start position is this one
                Stmt q(db_, "UPDATE games SET start_fen = ?3 WHERE host = ?1 AND game = ?2 AND start_fen <> ?3 "
                            "AND NOT EXISTS (SELECT 1 FROM moves WHERE host = ?1 AND game = ?2);");
                if (auto ok = q.bind(1, out.host).bind(2, game).bind(3, fen).run(); !ok) return ok.error();
                out.changed = changes();
            }
        } else if (event == "end") {
            if (auto ok = ensure_game(""); !ok) return ok.error();
            Stmt q(db_, "UPDATE games SET ended = 1 WHERE host = ?1 AND game = ?2 AND ended = 0;");
            if (auto ok = q.bind(1, out.host).bind(2, game).run(); !ok) return ok.error();
            out.changed = changes();
        } else if (event == "takeback") {
            const auto ply = integer(j, "ply");
            if (!ply) return Error{"GAME takeback without ply on " + std::string(topic)};
            Stmt q(db_, "DELETE FROM moves WHERE host = ?1 AND game = ?2 AND ply > ?3;");
            if (auto ok = q.bind(1, out.host).bind(2, game).bind(3, *ply).run(); !ok) return ok.error();
            out.changed = changes();
        } else {
            return Error{"GAME event '" + event + "' on " + std::string(topic)};
        }
        out.duplicate = !out.changed;
        return out;
    }
    if (cls == "move") {
        const auto ply = integer(j, "ply");
        const std::string status = str(j, "status");
        const std::string uci = str(j, "uci");
        if (!ply || *ply < 1 || (status != "made" && status != "completed") || uci.empty())
            return Error{"MOVE without ply, status or uci on " + std::string(topic)};
        if (auto ok = ensure_game(""); !ok) return ok.error();
        const bool completed = status == "completed";
        std::optional<std::int64_t> white_ms, black_ms;
        if (auto c = j.find("clock"); c != j.end() && c->is_object()) {
            white_ms = integer(*c, "white_ms");
            black_ms = integer(*c, "black_ms");
        }
        Stmt q(db_, "SELECT uci, completed, white_ms, black_ms FROM moves WHERE host = ?1 AND game = ?2 AND ply = ?3;");
        q.bind(1, out.host).bind(2, game).bind(3, *ply);
        if (q.step() == SQLITE_ROW && q.text(0) == uci) {
            const bool stored_completed = q.integer(1) != 0;
            const bool same_clock = (q.null(2) ? std::nullopt : std::optional(q.integer(2))) == white_ms &&
                                    (q.null(3) ? std::nullopt : std::optional(q.integer(3))) == black_ms;
            // The same move again: made after completed is an old resend; completed twice
            // (a restart announces the last completed move again) changes nothing.
            if (!completed || (stored_completed && same_clock)) {
                out.duplicate = true;
                return out;
            }
            Stmt u(db_, "UPDATE moves SET completed = 1, white_ms = ?4, black_ms = ?5 "
                        "WHERE host = ?1 AND game = ?2 AND ply = ?3;");
            if (auto ok = u.bind(1, out.host).bind(2, game).bind(3, *ply).bind(4, white_ms).bind(5, black_ms).run(); !ok)
                return ok.error();
            out.changed = true;
            return out;
        }
        // A new ply, or another move at a stored ply: the line from that ply is replaced.
        Stmt d(db_, "DELETE FROM moves WHERE host = ?1 AND game = ?2 AND ply >= ?3;");
        if (auto ok = d.bind(1, out.host).bind(2, game).bind(3, *ply).run(); !ok) return ok.error();
        Stmt i(db_, "INSERT INTO moves(host, game, ply, san, uci, fen, completed, white_ms, black_ms) "
                    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9);");
        i.bind(1, out.host).bind(2, game).bind(3, *ply).bind(4, str(j, "san")).bind(5, uci).bind(6, str(j, "fen"));
        i.bind(7, std::int64_t{completed ? 1 : 0}).bind(8, white_ms).bind(9, black_ms);
        if (auto ok = i.run(); !ok) return ok.error();
        out.changed = true;
        return out;
    }
    if (cls == "alert") {
        Stmt q(db_, "INSERT OR IGNORE INTO alerts(host, board, game, kind, ply, payload, received_ms) "
                    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7);");
        q.bind(1, out.host).bind(2, out.board).bind(3, game).bind(4, str(j, "kind")).bind(5, integer(j, "ply"));
        if (auto ok = q.bind(6, payload).bind(7, now_ms).run(); !ok) return ok.error();
        out.changed = changes();
        out.duplicate = !out.changed;
        return out;
    }
    if (cls == "result") {
        const std::string result = str(j, "result");
        if (result != "1-0" && result != "0-1" && result != "1/2-1/2")
            return Error{"RESULT '" + result + "' on " + std::string(topic)};
        const auto c = j.find("confirmed");
        const bool confirmed = c != j.end() && c->is_boolean() && c->get<bool>();
        if (auto ok = ensure_game(""); !ok) return ok.error();
        // A confirmed result is not undone by an older unconfirmed resend of the same result.
        Stmt q(db_, "UPDATE games SET result = ?3, termination = ?4, confirmed = ?5 WHERE host = ?1 AND game = ?2 "
                    "AND NOT (result = ?3 AND termination = ?4 AND confirmed >= ?5);");
        q.bind(1, out.host).bind(2, game).bind(3, result).bind(4, str(j, "termination"));
        if (auto ok = q.bind(5, std::int64_t{confirmed ? 1 : 0}).run(); !ok) return ok.error();
        out.changed = changes();
        out.duplicate = !out.changed;
        return out;
    }
    return Error{"unknown class '" + cls + "' on " + std::string(topic)};
}

std::optional<daemon::ReceivedMark> HallStore::received_mark(const std::string& host) const {
    Stmt q(db_, "SELECT outbox, seq FROM received WHERE host = ?1;");
    q.bind(1, host);
    if (q.step() != SQLITE_ROW) return std::nullopt;
    return daemon::ReceivedMark{host, q.text(0), q.integer(1)};
}

Expected<bool> HallStore::set_received(const daemon::ReceivedMark& mark) {
    Stmt q(db_, "INSERT INTO received(host, outbox, seq) VALUES(?1, ?2, ?3) "
                "ON CONFLICT(host) DO UPDATE SET outbox = ?2, seq = ?3;");
    return q.bind(1, mark.host).bind(2, mark.outbox).bind(3, mark.seq).run();
}

std::vector<daemon::ReceivedMark> HallStore::received_marks() const {
    std::lock_guard lock(read_mutex_);
    std::vector<daemon::ReceivedMark> out;
    Stmt q(rd_, "SELECT host, outbox, seq FROM received ORDER BY host;");
    while (q.step() == SQLITE_ROW) out.push_back(daemon::ReceivedMark{q.text(0), q.text(1), q.integer(2)});
    return out;
}

std::vector<GameRow> HallStore::games() const {
    std::lock_guard lock(read_mutex_);
    std::vector<GameRow> out;
    Stmt q(rd_, "SELECT g.seq, g.host, g.board, g.game, g.date, g.ended, g.result, g.confirmed, "
                "(SELECT COUNT(*) FROM moves m WHERE m.host = g.host AND m.game = g.game), "
                "COALESCE((SELECT m.fen FROM moves m WHERE m.host = g.host AND m.game = g.game "
                "ORDER BY m.ply DESC LIMIT 1), g.start_fen) FROM games g ORDER BY g.seq;");
    while (q.step() == SQLITE_ROW) {
        GameRow g;
        g.seq = q.integer(0);
        g.host = q.text(1);
        g.board = q.text(2);
        g.game = q.text(3);
        g.date = q.text(4);
        g.ended = q.integer(5) != 0;
        g.result = q.text(6);
        g.confirmed = q.integer(7) != 0;
        g.plies = static_cast<int>(q.integer(8));
        g.fen = q.text(9);
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<std::string> HallStore::sources() const {
    std::lock_guard lock(read_mutex_);
    std::vector<std::string> out;
    Stmt q(rd_, "SELECT host || '/' || board AS s FROM boards UNION SELECT host || '/' || board FROM games ORDER BY s;");
    while (q.step() == SQLITE_ROW) out.push_back(q.text(0));
    return out;
}

std::optional<daemon::StoredGame> HallStore::load(const std::string& host, const std::string& game) const {
    std::lock_guard lock(read_mutex_);
    Stmt q(rd_, "SELECT board, start_fen, result, termination, confirmed, ended FROM games WHERE host = ?1 AND game = ?2;");
    q.bind(1, host).bind(2, game);
    if (q.step() != SQLITE_ROW) return std::nullopt;
    daemon::StoredGame g;
    g.id = game;
    g.board = q.text(0);
    g.start_fen = q.text(1);
    g.result = q.text(2);
    g.termination = q.text(3);
    g.confirmed = q.integer(4) != 0;
    g.ended = q.integer(5) != 0;
    Stmt m(rd_, "SELECT ply, san, uci, fen, completed, white_ms, black_ms FROM moves WHERE host = ?1 AND game = ?2 "
                "ORDER BY ply;");
    m.bind(1, host).bind(2, game);
    while (m.step() == SQLITE_ROW) {
        daemon::RecordedMove r;
        r.ply = static_cast<int>(m.integer(0));
        r.san = m.text(1);
        r.uci = m.text(2);
        r.fen = m.text(3);
        r.completed = m.integer(4) != 0;
        if (!m.null(5) && !m.null(6)) r.clock = MoveClock{m.integer(5), m.integer(6)};
        g.moves.push_back(std::move(r));
    }
    return g;
}

std::int64_t HallStore::duplicates() const {
    std::lock_guard lock(read_mutex_);
    Stmt q(rd_, "SELECT value FROM counters WHERE name = 'duplicates';");
    return q.step() == SQLITE_ROW ? q.integer(0) : 0;
}

int HallStore::alert_count(const std::string& host, const std::string& board) const {
    std::lock_guard lock(read_mutex_);
    Stmt q(rd_, "SELECT COUNT(*) FROM alerts WHERE host = ?1 AND board = ?2;");
    q.bind(1, host).bind(2, board);
    return q.step() == SQLITE_ROW ? static_cast<int>(q.integer(0)) : 0;
}

std::string HallStore::host_status(const std::string& host) const {
    std::lock_guard lock(read_mutex_);
    Stmt q(rd_, "SELECT status FROM hosts WHERE host = ?1;");
    q.bind(1, host);
    return q.step() == SQLITE_ROW ? q.text(0) : std::string();
}

Expected<bool> HallStore::push_mark(int round, std::int64_t due_ms) {
    std::lock_guard lock(mutex_);
    Stmt q(db_, "INSERT INTO push_queue(round, generation, due_ms) VALUES(?1, 1, ?2) ON CONFLICT(round) "
                "DO UPDATE SET generation = generation + 1, due_ms = MIN(due_ms, ?2);");
    return q.bind(1, std::int64_t{round}).bind(2, due_ms).run();
}

std::optional<PushItem> HallStore::push_next() const {
    std::lock_guard lock(mutex_);
    Stmt q(db_, "SELECT round, generation, due_ms, attempts FROM push_queue ORDER BY due_ms, round LIMIT 1;");
    if (q.step() != SQLITE_ROW) return std::nullopt;
    return PushItem{static_cast<int>(q.integer(0)), q.integer(1), q.integer(2), static_cast<int>(q.integer(3))};
}

Expected<bool> HallStore::push_done(const PushItem& item, std::int64_t next_due_ms) {
    std::lock_guard lock(mutex_);
    Stmt d(db_, "DELETE FROM push_queue WHERE round = ?1 AND generation = ?2;");
    if (auto ok = d.bind(1, std::int64_t{item.round}).bind(2, item.generation).run(); !ok) return ok;
    Stmt u(db_, "UPDATE push_queue SET attempts = 0, due_ms = MAX(due_ms, ?2) WHERE round = ?1;");
    return u.bind(1, std::int64_t{item.round}).bind(2, next_due_ms).run();
}

Expected<bool> HallStore::push_failed(const PushItem& item, std::int64_t due_ms) {
    std::lock_guard lock(mutex_);
    Stmt u(db_, "UPDATE push_queue SET attempts = attempts + 1, due_ms = ?2 WHERE round = ?1;");
    return u.bind(1, std::int64_t{item.round}).bind(2, due_ms).run();
}

} // namespace eboard::hub
