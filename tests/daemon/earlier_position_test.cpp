// Issue 19 through the eboardd process: an illegal move that recreates an earlier position of the
// game (the knight one square forward in a repetitive endgame, the clock pressed) is an illegal
// move (Art. 7.5.1, FIDE Laws 2023) alerted with the earlier position it matches, never a
// takeback: no GAME takeback event, no completed move deleted from the store or the PGN; the
// arbiter restores the position and the game goes on being recorded.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

TEST_CASE("7.5.1 eboardd: an illegal move that recreates an earlier position is alerted with it, nothing taken back, PGN whole") {
    TempDir dir("eboardd-earlier");
    // After 51.Nh2 Kd6 52.Nf3 Kd7 53.Nh2 Kd6 54.Ng4 Kd7 55.Nf2 Kd6, the illegal Nf2-f3 puts the
    // position after 52.Nf3 (ply 3) back on the board.
    const std::string fen = "8/3k4/7p/2p3p1/2P5/3BKNPP/8/r7 w - - 29 51";
    auto source = read_pgn_game("[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"" + fen +
                                "\"]\n\n51. Nh2 Kd6 52. Nf3 Kd7 53. Nh2 Kd6 54. Ng4 Kd7 55. Nf2 Kd6 "
                                "56. Ng4 Ke6 57. Nf2 *\n");
    REQUIRE(source.has_value());
    EmulatedBoard t1("t1", dir.path / "t1", std::move(*source), 19, 200);
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(
        dir.path, "white-side = left\npgn-dir = " + pgn_dir.string() + "\n[board.t1]\nuri = " + t1.uri() + "\n",
        {"--socket", socket});
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);
    REQUIRE(t1.wait_driver_ready());
    REQUIRE(request(socket, {{"class", "NEW_GAME"}, {"board", "t1"}, {"fen", fen}})["class"] == "OK");
    const std::string game = log.wait_for("GAME", "t1").value("game", "");
    REQUIRE_FALSE(game.empty());

    const std::string after_ply3 = t1.position_at(3).fen();
    ojson alert;
    t1.no_press_at(11);  // White's lever is down after his illegal press: 56.Ng4 is completed by the next move
    auto illegal_at_11 = [&](int ply) {
        if (ply != 11) return;
        const std::size_t mark = log.size();
        t1.emulator().move(Square::parse("f2"), Square::parse("f3"));
        t1.emulator().press_lever(drivers::ClockSide::Left);
        alert = log.wait_for("ALERT", "t1", [](const ojson& e) { return e["kind"] == "illegal_move"; }, 30000, mark);
        t1.emulator().move(Square::parse("f3"), Square::parse("f2"));  // the arbiter restores the position
    };
    REQUIRE(t1.play(log, 13, illegal_at_11));

    REQUIRE_FALSE(alert.is_null());
    CHECK(alert["article"] == "7.5.1");
    CHECK(alert["count"] == 1);
    CHECK(alert["player"] == "white");
    CHECK(alert["earlier_ply"] == 3);
    CHECK(alert["earlier_fen"] == after_ply3);
    CHECK(alert["text"].get<std::string>().find("after ply 3") != std::string::npos);
    for (const ojson& g : log.of("GAME", "t1")) CHECK(g["event"] != "takeback");

    // Every move of the game is recorded, in the events, the store's PGN and in order.
    std::vector<int> completed;
    for (const ojson& m : log.of("MOVE", "t1"))
        if (m["status"] == "completed") completed.push_back(m["ply"].get<int>());
    REQUIRE_FALSE(completed.empty());
    CHECK(completed.back() == 13);
    // Stopped (SIGTERM drains the recorder): the PGN on disk holds the whole game.
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    const fs::path pgn = pgn_dir / (game + ".pgn");
    auto recorded = read_pgn_game(slurp(pgn));
    REQUIRE(recorded.has_value());
    CHECK(sans_of(*recorded) == sans_of(t1.game()));
}
