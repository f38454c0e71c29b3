#include <catch2/catch.hpp>

#include "tests/support/test_io.hpp"

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/atomic_file.hpp"
#include "daemon/game_tracker.hpp"
#include "rules/pgn.hpp"
#include "daemon/pgn_export.hpp"
#include "daemon/recorder.hpp"
#include "tests/daemon/stored_games.hpp"
#include "daemon/store.hpp"

using namespace eboard::daemon;
using eboard::Completion;
using eboard::MoveClock;
namespace fs = std::filesystem;

namespace {

// A fresh directory under /tmp, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/eboardd-test-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
};

std::unique_ptr<Store> open_store(const fs::path& dir) {
    auto s = Store::open(dir);
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

MoveEvent move(const std::string& game, int ply, const char* san, const char* uci, bool completed,
               std::int64_t w = 0, std::int64_t b = 0) {
    MoveEvent m = MoveEvent::of("t1", game, ply, san, uci, "fen", completed, std::nullopt);
    if (completed) m.clock = MoveClock{w, b};
    return m;
}

using eboard::test::slurp;

// The store file as an older eboardd left it: created with one game (its id is returned), then
// `sql` takes away what later schema versions added and sets the older user_version.
std::string downgraded_store(const fs::path& dir, const char* sql) {
    std::string id;
    {
        auto store = open_store(dir);
        id = *store->create_game("t1", kStandardFen, {}, "fide-2023", 0);
    }
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir / "eboardd.db").c_str(), &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    return id;
}

} // namespace

TEST_CASE("store: games, moves made then completed, result, in order") {
    TempDir dir;
    auto store = open_store(dir.path);
    PgnTags tags;
    tags.white = "Kasparov, Garry";
    auto id = store->create_game("t1", kStandardFen, tags, "fide-2023", 1700000000000);
    REQUIRE(id.has_value());
    CHECK(*id == "20231114-0001");
    REQUIRE(store->record(move(*id, 1, "e4", "e2e4", false), 1).has_value());
    REQUIRE(store->record(move(*id, 1, "e4", "e2e4", true, 5399000, 5400000), 2).has_value());
    REQUIRE(store->record(move(*id, 2, "c5", "c7c5", false), 3).has_value());
    auto g = store->load(*id);
    REQUIRE(g.has_value());
    CHECK(g->tags.white == "Kasparov, Garry");
    CHECK(g->tags.date == "2023.11.14");
    REQUIRE(g->moves.size() == 2);
    CHECK(g->moves[0].completed);
    REQUIRE(g->moves[0].clock.has_value());
    CHECK(g->moves[0].clock->white_ms == 5399000);
    CHECK_FALSE(g->moves[1].completed);
    CHECK(store->unfinished_games() == std::vector<std::string>{*id});
    ResultEvent resigned;
    resigned.board = "t1";
    resigned.game = *id;
    resigned.result = "1-0";
    resigned.termination = "resignation";
    resigned.confirmed = true;
    REQUIRE(store->record(resigned, 4).has_value());
    REQUIRE(store->record(GameEvent::of("t1", *id, GameEvent::Kind::End, "fen"), 5).has_value());
    CHECK(store->unfinished_games().empty());
    CHECK(store->load(*id)->result == "1-0");
    CHECK(store->game_events(*id).size() == 5);
    auto second = store->create_game("t1", kStandardFen, tags, "fide-2023", 1700000000000);
    CHECK(*second == "20231114-0002");
}

TEST_CASE("store: a made move replaced at the same ply drops the later ones, take back") {
    TempDir dir;
    auto store = open_store(dir.path);
    auto id = *store->create_game("t1", kStandardFen, {}, "fide-2023", 0);
    REQUIRE(store->record(move(id, 1, "e4", "e2e4", true), 1).has_value());
    REQUIRE(store->record(move(id, 2, "e5", "e7e5", true), 2).has_value());
    REQUIRE(store->record(move(id, 3, "Nf3", "g1f3", false), 3).has_value());
    REQUIRE(store->record(move(id, 2, "c5", "c7c5", false), 4).has_value());
    auto g = store->load(id);
    REQUIRE(g->moves.size() == 2);
    CHECK(g->moves[1].san == "c5");
    REQUIRE(store->record(GameEvent::of("t1", id, GameEvent::Kind::Takeback, "fen", 1), 5).has_value());
    CHECK(store->load(id)->moves.size() == 1);
    CHECK(store->game_events(id).back().find("\"event\":\"takeback\"") != std::string::npos);
}

TEST_CASE("store: a completed move survives kill -9 of the recording process") {
    TempDir dir;
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The recording process: records, says so, then waits to be killed.
        close(ready[0]);
        auto s = Store::open(dir.path);
        if (!s) _exit(1);
        auto id = (*s)->create_game("t1", kStandardFen, {}, "fide-2023", 0);
        if (!id || !(*s)->record(move(*id, 1, "e4", "e2e4", true, 100, 200), 1) ||
            !(*s)->record(move(*id, 2, "e5", "e7e5", true, 100, 150), 2))
            _exit(1);
        if (write(ready[1], "R", 1) != 1) _exit(1);
        for (;;) pause();
    }
    close(ready[1]);
    char c = 0;
    REQUIRE(read(ready[0], &c, 1) == 1); // the moves were recorded (and acknowledged)
    close(ready[0]);
    REQUIRE(kill(child, SIGKILL) == 0);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    auto store = open_store(dir.path);
    const auto open = store->unfinished_games();
    REQUIRE(open.size() == 1);
    auto g = store->load(open[0]);
    REQUIRE(g.has_value());
    REQUIRE(g->moves.size() == 2);
    CHECK(g->moves[1].san == "e5");
    CHECK(g->moves[1].completed);
    CHECK(g->moves[1].clock->black_ms == 150);
}

TEST_CASE("store: attached boards are remembered in attach order until forgotten, across a reopen") {
    TempDir dir;
    {
        auto store = open_store(dir.path);
        CHECK(store->attached_boards().empty());
        REQUIRE(store->remember_attached({"b1", "dgt:/dev/eboard-dgt-1", "/dev/ttyACM0"}).has_value());
        REQUIRE(store->remember_attached({"b2", "emu-chessnut", ""}).has_value());
        REQUIRE(store->remember_attached({"b1", "dgt:/dev/eboard-dgt-2", "/dev/ttyACM1"}).has_value());
        REQUIRE(store->forget_attached("nosuch").has_value());
    }
    auto store = open_store(dir.path);
    const auto boards = store->attached_boards();
    REQUIRE(boards.size() == 2);
    CHECK(boards[0].name == "b2"); // b1 was attached again after b2
    CHECK(boards[0].uri == "emu-chessnut");
    CHECK(boards[0].device.empty());
    CHECK(boards[1].name == "b1");
    CHECK(boards[1].uri == "dgt:/dev/eboard-dgt-2");
    CHECK(boards[1].device == "/dev/ttyACM1");
    REQUIRE(store->forget_attached("b1").has_value());
    REQUIRE(store->attached_boards().size() == 1);
    CHECK(store->attached_boards()[0].name == "b2");
}

TEST_CASE("store: a version 2 file gets the attached_boards table, its games kept") {
    TempDir dir;
    const std::string id = downgraded_store(
        dir.path, "DROP TABLE attached_boards; DROP TABLE pgn_pending; ALTER TABLE games DROP COLUMN white_side; "
                  "PRAGMA user_version = 2;");
    auto store = open_store(dir.path);
    REQUIRE(store->remember_attached({"b1", "emu-dgt", ""}).has_value());
    CHECK(store->attached_boards().size() == 1);
    CHECK(store->unfinished_games() == std::vector<std::string>{id});
}

TEST_CASE("store: a version 3 file gets the pgn_pending table, its games kept") {
    TempDir dir;
    const std::string id = downgraded_store(
        dir.path, "DROP TABLE pgn_pending; ALTER TABLE games DROP COLUMN white_side; PRAGMA user_version = 3;");
    auto store = open_store(dir.path);
    REQUIRE(store->mark_pgn_pending(id).has_value());
    CHECK(store->pgn_pending() == std::vector<std::string>{id});
    CHECK(store->unfinished_games() == std::vector<std::string>{id});
}

TEST_CASE("store: a version 4 file gets games.white_side, its games kept, the side kept across a reopen") {
    TempDir dir;
    const std::string id =
        downgraded_store(dir.path, "ALTER TABLE games DROP COLUMN white_side; PRAGMA user_version = 4;");
    {
        auto store = open_store(dir.path);
        CHECK(store->unfinished_games() == std::vector<std::string>{id});
        REQUIRE(store->load(id).has_value());
        CHECK(store->load(id)->white_side.empty()); // not known for a game of an older eboardd
        REQUIRE(store->set_white_side(id, "right").has_value());
    }
    auto store = open_store(dir.path);
    CHECK(store->load(id)->white_side == "right");
}

TEST_CASE("store: a version 5 file gets the MQTT outbox, its games kept") {
    TempDir dir;
    const std::string id = downgraded_store(dir.path, "DROP TABLE outbox; PRAGMA user_version = 5;");
    auto store = open_store(dir.path);
    CHECK(store->unfinished_games() == std::vector<std::string>{id});
    REQUIRE(store->add_outbox("eboard/v1/h/t1/move", "{}", false).has_value());
    CHECK(store->outbox_size() == 1);
}

TEST_CASE("store: the outbox in order from a seq, removed by seq, a seq never used twice") {
    TempDir dir;
    auto store = open_store(dir.path);
    REQUIRE(store->add_outbox("a", "1", false).has_value());
    REQUIRE(store->add_outbox("b", "2", true).has_value());
    REQUIRE(store->add_outbox("c", "3", false).has_value());
    auto all = store->outbox_after(0, 10);
    REQUIRE(all.size() == 3);
    CHECK(all[0].topic == "a");
    CHECK(all[1].retain);
    CHECK(all[2].payload == "3");
    const auto after_first = store->outbox_after(all[0].seq, 1);
    REQUIRE(after_first.size() == 1);
    CHECK(after_first[0].topic == "b");
    REQUIRE(store->remove_outbox({all[0].seq, all[1].seq, all[2].seq}).has_value());
    CHECK(store->outbox_size() == 0);
    // Emptied, then one more: its seq is after every earlier one (a sender's cursor stays valid).
    REQUIRE(store->add_outbox("d", "4", false).has_value());
    const auto next = store->outbox_after(0, 10);
    REQUIRE(next.size() == 1);
    CHECK(next[0].seq > all[2].seq);
}

TEST_CASE("store: an outbox write that fails takes its event with it (one transaction), retried with it") {
    TempDir dir;
    auto store = open_store(dir.path);
    Recorder recorder(*store, "");
    const std::string id = *store->create_game("t1", kStandardFen, {}, "fide-2023", 0);
    bool fail = true;
    recorder.set_outbox([&fail](Store& s, const Event& e, const std::string& line) -> eboard::Expected<bool> {
        if (auto ok = s.add_outbox(std::string("t/") + event_class(e), line, false); !ok) return ok;
        if (fail) return eboard::Error{"refused"};
        return true;
    });
    recorder.publish(move(id, 1, "e4", "e2e4", true), 1);
    CHECK(recorder.failing());
    CHECK(store->outbox_size() == 0);
    CHECK(store->load(id)->moves.empty()); // the move is not recorded without its message
    fail = false;
    recorder.flush();
    CHECK_FALSE(recorder.failing());
    CHECK(store->load(id)->moves.size() == 1);
    const auto rows = store->outbox_after(0, 10);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].topic == "t/MOVE");
}

TEST_CASE("store: an unusable state directory is a clear error") {
    auto s = Store::open("/proc/eboardd-cannot-be-here");
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().message.find("/proc/eboardd-cannot-be-here") != std::string::npos);
}

TEST_CASE("atomic PGN rewrite: the file is replaced whole, no temporary left") {
    TempDir dir;
    const fs::path p = dir.path / "g.pgn";
    REQUIRE(write_file_atomically(p, "old\n").has_value());
    CHECK(slurp(p) == "old\n");
    REQUIRE(write_file_atomically(p, "new content\n").has_value());
    CHECK(slurp(p) == "new content\n");
    CHECK_FALSE(fs::exists(dir.path / "g.pgn.tmp"));
    auto bad = write_file_atomically(dir.path / "missing-dir" / "g.pgn", "x");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message.find("missing-dir") != std::string::npos);
    CHECK(slurp(p) == "new content\n");
}

TEST_CASE("PGN export: Seven Tag Roster, TimeControl, [%clk] per completed move, * in progress") {
    StoredGame g;
    g.tags.event = "Match";
    g.tags.date = "1997.05.11";
    g.tags.white = "Deep Blue";
    g.tags.black = "Kasparov, Garry";
    g.tags.board = "table1";
    g.tags.time_control = "40/7200:3600";
    g.moves.push_back({1, "e4", "e2e4", "", true, MoveClock{7199000, 7200000}, {}, false});
    g.moves.push_back({2, "c6", "c7c6", "", true, MoveClock{7199000, 7190500}, {}, false});
    g.moves.push_back({3, "d4", "d2d4", "", false, std::nullopt, {}, false});
    CHECK(to_pgn(g) ==
          "[Event \"Match\"]\n[Site \"?\"]\n[Date \"1997.05.11\"]\n[Round \"?\"]\n"
          "[White \"Deep Blue\"]\n[Black \"Kasparov, Garry\"]\n[Result \"*\"]\n[Board \"table1\"]\n"
          "[TimeControl \"40/7200:3600\"]\n\n"
          "1. e4 {[%clk 1:59:59]} 1... c6 {[%clk 1:59:50]} 2. d4 *\n");
}

TEST_CASE("PGN export: an irregularity is a comment, never a move, lines stay within 79") {
    StoredGame g;
    g.start_fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40";
    g.result = "1/2-1/2";
    g.moves.push_back({1, "Kd7", "e8d7", "", true, std::nullopt, {"illegal move {Ke2} by White"}, false});
    for (int i = 0; i < 30; ++i) g.moves.push_back({i + 2, "Ke2", "x", "", true, std::nullopt, {}, false});
    const std::string pgn = to_pgn(g);
    CHECK(pgn.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]") != std::string::npos);
    CHECK(pgn.find("40... Kd7 {illegal move (Ke2) by White} 41. Ke2") != std::string::npos);
    std::istringstream lines(pgn);
    for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 79);
    CHECK(pgn.substr(pgn.size() - 9) == " 1/2-1/2\n");
}

TEST_CASE("PGN export: Termination takes a PGN value, the exact reason goes in a comment") {
    StoredGame g;
    g.result = "0-1";
    g.termination = "checkmate";
    g.moves.push_back({1, "f3", "f2f3", "", true, std::nullopt, {}, false});
    std::string pgn = to_pgn(g);
    CHECK(pgn.find("[Termination \"normal\"]") != std::string::npos);
    CHECK(pgn.find("1. f3 {checkmate} 0-1\n") != std::string::npos);
    g.termination = "flag";
    CHECK(to_pgn(g).find("[Termination \"time forfeit\"]") != std::string::npos);
    g.termination = "rules infraction";
    pgn = to_pgn(g);
    CHECK(pgn.find("[Termination \"rules infraction\"]") != std::string::npos);
    CHECK(pgn.find("{rules infraction}") == std::string::npos);
}

TEST_CASE("PGN export: the RESULT vocabulary maps to the PGN 9.8.1 Termination values") {
    StoredGame g;
    g.result = "1/2-1/2";
    g.moves.push_back({1, "f3", "f2f3", "", true, std::nullopt, {}, false});
    const std::vector<std::pair<std::string, std::string>> cases{
        {"checkmate", "normal"},          {"stalemate", "normal"},
        {"dead_position", "normal"},      {"fivefold_repetition", "normal"},
        {"seventy_five_moves", "normal"}, {"threefold_repetition", "normal"},
        {"fifty_moves", "normal"},        {"resignation", "normal"},
        {"agreement", "normal"},          {"time_forfeit", "time forfeit"},
        {"illegal_moves", "rules infraction"}, {"arbiter", "adjudication"},
        {"dead position", "normal"}, // a game recorded before the vocabulary was one
    };
    for (const auto& [termination, tag] : cases) {
        INFO(termination);
        g.termination = termination;
        const std::string pgn = to_pgn(g);
        CHECK(pgn.find("[Termination \"" + tag + "\"]") != std::string::npos);
        CHECK(pgn.find("1. f3 {" + termination + "} 1/2-1/2\n") != std::string::npos);
    }
}

TEST_CASE("PGN export: [%clk] is whole seconds, rounded down (the rules writer adds no fraction)") {
    StoredGame g;
    g.moves.push_back({1, "e4", "e2e4", "", true, MoveClock{299999, 300000}, {}, false});
    CHECK(to_pgn(g).find("1. e4 {[%clk 0:04:59]} *") != std::string::npos);
}

TEST_CASE("A.5.2 an illegal move that stood: never a move, a comment and a continuation record") {
    // 1. e4 e5, then White's illegal Ke1-e3 stands, then Black replies ...Nc6 and White Kd3.
    StoredGame g = test::illegal_move_stood_game();
    g.tags.board = "t1";
    const auto records = to_pgn_records(g);
    REQUIRE(records.size() == 2);
    CHECK(records[0].result == "*");
    REQUIRE(records[0].moves.size() == 2);
    CHECK(records[0].moves[1].comment.find("White's illegal move e1-e3 stood") != std::string::npos);
    CHECK(records[1].start_fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq - 0 2");
    CHECK(records[1].result == "0-1");
    CHECK(*records[1].tag("White") == "A");
    CHECK(*records[1].tag("Termination") == "normal");
    // Both records read back as legal games (what standard tools check), in order.
    const std::string pgn = to_pgn(g);
    eboard::PgnReader reader(pgn);
    auto first = reader.next();
    REQUIRE(first.has_value());
    REQUIRE(first->has_value());
    CHECK(first->value().moves.size() == 2);
    auto second = reader.next();
    REQUIRE(second.has_value());
    REQUIRE(second->has_value());
    REQUIRE(second->value().moves.size() == 2);
    CHECK(second->value().moves[0].san == "Nc6");
    CHECK(second->value().moves[0].clock_ms == 58000);
    CHECK(second->value().result == "0-1");
    CHECK_FALSE(reader.next().has_value());
    CHECK(pgn.find("e1-e3 ") == pgn.find("e1-e3 stood")); // only in comments
}

TEST_CASE("store: an illegal move that stood is kept, and the game resumes across it") {
    TempDir dir;
    auto store = open_store(dir.path);
    auto id = *store->create_game("t1", kStandardFen, {}, "fide-2023-rapid", 0);
    REQUIRE(store->record(move(id, 1, "e4", "e2e4", true), 1).has_value());
    REQUIRE(store->record(move(id, 2, "e5", "e7e5", true), 2).has_value());
    auto tracker = GameTracker::resume(*store->load(id));
    REQUIRE(tracker.has_value());
    auto row = tracker->illegal_stands(3, eboard::Square::parse("e1"), eboard::Square::parse("e3"),
                                       "rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq - 0 2");
    REQUIRE(row.has_value());
    REQUIRE(store->record_stands("t1", id, *row, 3).has_value());
    auto reply = tracker->play(4, eboard::move_from_uci(tracker->position(), "b8c6"), Completion::Clock, std::nullopt);
    REQUIRE(reply.has_value());
    REQUIRE(store->record(*reply, 4).has_value());
    auto g = store->load(id);
    REQUIRE(g->moves.size() == 4);
    CHECK(g->moves[2].illegal_stands);
    auto again = GameTracker::resume(*g);
    REQUIRE(again.has_value());
    CHECK(again->position().fen() == tracker->position().fen());
    // Taken back across the illegal move: the line before it.
    REQUIRE(again->take_back(2).has_value());
    CHECK(again->position().fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}
