// The eboardd process with three emulated DGT boards at once, configured in [board.NAME]
// sections (name, round, players, rules, time control): three real games replayed at the same
// time through the real DGT driver on ptys. Each board's PGN must equal its source game with
// its own tags; an illegal move injected on the rapid board gives the ALERT with that board's
// penalty (A.3: +1min), the clock text and a beep, and the arbiter's PENALTY sets the clock.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"


using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

// Reads the recorded PGN of the board's game.
GameRecord recorded(const fs::path& pgn_dir, const std::string& game) {
    const std::string text = slurp(pgn_dir / (game + ".pgn"));
    auto g = read_pgn_game(text);
    INFO(text);
    REQUIRE(g.has_value());
    return std::move(g.value());
}

std::string tag(const GameRecord& g, const char* name) {
    const std::string* v = g.tag(name);
    return v ? *v : std::string("(none)");
}

} // namespace

TEST_CASE("eboardd with three boards: each game recorded exactly, with its board's tags, rules and time control") {
    TempDir dir("eboardd-multi");
    const double speed = 150;
    EmulatedBoard t1("t1", dir.path / "t1", source_game("kasparov-deep-blue-1997.pgn", 1), 11, speed);
    EmulatedBoard t2("t2", dir.path / "t2", source_game("lichess-db-sample.pgn"), 22, speed);
    EmulatedBoard t3("t3", dir.path / "t3", source_game("cutechess-fischerrandom.pgn", 2), 33, speed);
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(
        dir.path,
        "pgn-dir = " + pgn_dir.string() + "\n" +
            "event = Integration\nsite = Emulated\ntime-control = 5400+30\nwhite-side = left\n" +
            "[board.t1]\nuri = " + t1.uri() + "\nround = 1\nwhite = Anastasian, A\nblack = Lewis, D\n" +
            "[board.t2]\nuri = " + t2.uri() + "\nround = 2.1\nwhite = alanbrito4\nblack = Meridyan\n" +
            "rules = fide-2023-rapid\ntime-control = 900+10\n" +
            "[board.t3]\nuri = " + t3.uri() + "\nround = 3\nevent = Chess960 side event\n",
        {"--socket", socket});
    ReadyDaemon eboardd(dir.path, args);
    Process& d = eboardd.process;
    EventLog log(d);
    std::map<std::string, std::string> game_of;
    for (auto* b : {&t1, &t2, &t3}) {
        const ojson start = log.wait_for("GAME", b->name());
        REQUIRE_FALSE(start.is_null());
        CHECK(start["event"] == "start");
        game_of[b->name()] = start["game"];
    }

    // The boards as the arbiter sees them: each with its own rules.
    const ojson boards = request(socket, {{"class", "BOARDS"}});
    REQUIRE(boards["boards"].size() == 3);
    CHECK(boards["boards"][0]["rules"] == "fide-2023");
    CHECK(boards["boards"][1]["rules"] == "fide-2023-rapid");
    CHECK(boards["boards"][1]["time_control"] == "900+10");

    // t2: before White's 4th move, the a1 rook jumps to a4 and the clock is pressed.
    std::atomic<bool> illegal_checked{false};
    t2.no_press_at(7);
    auto inject = [&](int ply) {
        if (ply != 7) return;
        auto& emu = t2.emulator();
        emu.move(Square::parse("a1"), Square::parse("a4"));
        emu.press_lever(drivers::ClockSide::Left);
        const ojson alert = log.wait_for("ALERT", "t2", [](const ojson& e) { return e["kind"] == "illegal_move"; });
        REQUIRE_FALSE(alert.is_null());
        CHECK(alert["article"] == "7.5.1, A.5.2"); // the rapid profile: unsupervised
        CHECK(alert["player"] == "white");
        CHECK(alert["count"] == 1);
        CHECK(alert["penalty"] == "+1min"); // [23] A.3: rapid
        CHECK(alert["ply"] == 7);
        CHECK(alert["fen"] == "r1bqkbnr/ppp2ppp/2np4/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 4");
        // The players learn of it when it is completed: text and beep on the DGT3000.
        CHECK(emu.wait_until([](const drivers::emu::DgtBoardEmu& m) {
            return m.clock().state().text.rfind("illegal", 0) == 0 && m.clock().state().beeps > 0;
        }, 10000));
        // The arbiter applies the penalty: Black gets one more minute, set and run.
        const auto before = emu.clock().times;
        const ojson ok = request(socket, {{"class", "PENALTY"}, {"board", "t2"}, {"decision", "apply"}, {"id", 5}});
        CHECK(ok["class"] == "OK");
        CHECK(ok["penalty"] == "+1min");
        CHECK(ok["id"] == 5);
        CHECK(emu.wait_until([&](const drivers::emu::DgtBoardEmu& m) {
            return m.clock().state().times.right_ms >= before.right_ms + 50 * 1000 && m.clock().state().text.empty();
        }, 10000));
        // The rook goes back: the game goes on from the position before the illegal move.
        emu.move(Square::parse("a4"), Square::parse("a1"));
        illegal_checked = true;
    };

    bool ok1 = false, ok2 = false, ok3 = false;
    std::thread p1([&] { ok1 = t1.play(log, 1000); });
    std::thread p2([&] { ok2 = t2.play(log, 1000, inject); });
    std::thread p3([&] { ok3 = t3.play(log, 1000); });
    p1.join();
    p2.join();
    p3.join();
    REQUIRE(ok1);
    REQUIRE(ok2);
    REQUIRE(ok3);
    CHECK(illegal_checked);

    // t2 ended in checkmate: the daemon said so at once, unconfirmed (Art. 8.7).
    const ojson mate = log.wait_for("RESULT", "t2");
    REQUIRE_FALSE(mate.is_null());
    CHECK(mate["result"] == "0-1");
    CHECK(mate["termination"] == "checkmate");
    CHECK(mate["confirmed"] == false);
    // The arbiter confirms every result.
    for (auto* b : {&t1, &t2, &t3}) {
        const ojson r = request(socket, {{"class", "RESULT"}, {"board", b->name()}, {"result", b->game().result},
                                         {"termination", b->name() == "t2" ? "checkmate" : "resignation"}});
        CHECK(r["class"] == "OK");
        CHECK_FALSE(log.wait_for("GAME", b->name(), [](const ojson& e) { return e["event"] == "end"; }).is_null());
    }
    CHECK(log.of("ALERT", "t1").empty());
    CHECK(log.of("ALERT", "t3").empty());

    // A GAMES reply names the PGN files once they show what the store holds (they follow the
    // announcements, daemon/recorder.hpp).
    CHECK(request(socket, {{"class", "GAMES"}})["class"] == "GAMES");
    for (auto* b : {&t1, &t2, &t3}) {
        INFO("board " << b->name());
        const GameRecord g = recorded(pgn_dir, game_of[b->name()]);
        CHECK(sans_of(g) == sans_of(b->game()));
        CHECK(g.result == b->game().result);
        CHECK(tag(g, "Board") == b->name());
        CHECK(tag(g, "Site") == "Emulated");
        for (std::size_t i = 0; i < g.moves.size(); ++i)
            if (!(b->name() == "t2" && i == 6)) CHECK(g.moves[i].clock_ms.has_value()); // [%clk]
    }
    const GameRecord g1 = recorded(pgn_dir, game_of["t1"]);
    CHECK(tag(g1, "White") == "Anastasian, A");
    CHECK(tag(g1, "Round") == "1");
    CHECK(tag(g1, "Event") == "Integration");
    CHECK(tag(g1, "TimeControl") == "5400+30");
    const GameRecord g2 = recorded(pgn_dir, game_of["t2"]);
    CHECK(tag(g2, "Round") == "2.1");
    CHECK(tag(g2, "TimeControl") == "900+10");
    CHECK(tag(g2, "Termination") == "normal");
    CHECK(g2.moves[5].comment.find("illegal") != std::string::npos); // a comment, never a move
    const GameRecord g3 = recorded(pgn_dir, game_of["t3"]);
    CHECK(tag(g3, "Event") == "Chess960 side event");
    CHECK(g3.chess960);
    CHECK(g3.start_fen.rfind("rnkqnbbr/pppppppp/8/8/8/8/PPPPPPPP/RNKQNBBR w", 0) == 0);

    // SIGTERM: exit 0 within 2 s, everything recorded.
    const auto t0 = std::chrono::steady_clock::now();
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    log.stop();
}
