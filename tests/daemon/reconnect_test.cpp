// Unplug and replug lose nothing (issue 5 item 1): the eboardd process with two emulated
// boards; one is unplugged in mid-game (its pty closes, its /dev path goes away) while the
// other plays on. BOARD disconnected/connected and ALERT board_disconnected are reported; when
// the board is back its position is checked against the game: the same position goes on, a
// move made while it was away is made, a displaced piece is a position_mismatch until put
// back. Both PGNs equal their source games.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"


using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

std::pair<std::int64_t, std::int64_t> clock_of(EmulatedBoard& b) {
    const auto t = b.emulator().clock().times;
    return {t.left_ms, t.right_ms};
}

} // namespace

TEST_CASE("unplug and replug in mid-game: BOARD events, board_disconnected, the game resumes after the check") {
    TempDir dir("eboardd-replug");
    const double speed = 150;
    EmulatedBoard t1("t1", dir.path / "t1", source_game("kasparov-deep-blue-1997.pgn", 0), 5, speed);
    EmulatedBoard t2("t2", dir.path / "t2", source_game("lichess-db-sample.pgn", 3), 6, speed);
    const fs::path pgn_dir = dir.path / "pgn";
    ReadyDaemon eboardd(dir.path, config_args(dir.path, "pgn-dir = " + pgn_dir.string() +
                                                            "\nwhite-side = left\nmismatch-grace = 0.5\n[board.t1]\nuri = " +
                                                            t1.uri() + "\n[board.t2]\nuri = " + t2.uri() + "\n"));
    Process& d = eboardd.process;
    EventLog log(d);
    const std::string game1 = log.wait_for("GAME", "t1").value("game", "");
    const std::string game2 = log.wait_for("GAME", "t2").value("game", "");
    REQUIRE_FALSE(game1.empty());
    REQUIRE_FALSE(game2.empty());
    auto connected = [&](const std::string& board, std::size_t n) {
        return log.wait_count("BOARD", board, n, [](const ojson& e) { return e["state"] == "connected"; });
    };
    REQUIRE(connected("t1", 1));

    // The other board plays on meanwhile: one board's absence stalls nothing.
    bool ok2 = false;
    std::thread p2([&] { ok2 = t2.play(log, 1000); });

    // 1. Unplugged after ply 10, back with the same position and clock.
    REQUIRE(t1.play(log, 10));
    auto [left, right] = clock_of(t1);
    t1.unplug();
    const ojson gone = log.wait_for("BOARD", "t1", [](const ojson& e) { return e["state"] == "disconnected"; });
    REQUIRE_FALSE(gone.is_null());
    CHECK(gone["driver"] == "dgt");
    const ojson alert = log.wait_for("ALERT", "t1", [](const ojson& e) { return e["kind"] == "board_disconnected"; });
    REQUIRE_FALSE(alert.is_null());
    CHECK(alert["article"] == "7.6");
    CHECK(alert["ply"] == 10);
    CHECK(alert["game"] == game1);
    t1.plug(t1.player().position(), left, right);
    REQUIRE(connected("t1", 2));
    REQUIRE(t1.wait_driver_ready());
    const bool ok20 = t1.play(log, 20);
    if (!ok20) {
        for (const auto& e : log.events())
            if (e.value("board", "") == "t1") UNSCOPED_INFO(e.dump());
        UNSCOPED_INFO(slurp(dir.path / "stderr"));
        p2.join();
    }
    REQUIRE(ok20);

    // 2. Unplugged after ply 20; the player makes ply 21 while it is away; back, he presses.
    std::tie(left, right) = clock_of(t1);
    t1.unplug();
    REQUIRE(log.wait_count("BOARD", "t1", 4));
    t1.plug_after_next_move(left, right);
    REQUIRE(connected("t1", 3));
    REQUIRE(t1.wait_driver_ready());
    CHECK_FALSE(log.wait_for("MOVE", "t1", [](const ojson& e) { return e["ply"] == 21; }).is_null());
    t1.emulator().press_lever(drivers::ClockSide::Left); // ply 21 is White's
    REQUIRE(log.wait_completed("t1", 21));

    // 3. Unplugged after ply 30; back with a piece knocked one square aside during the outage
    // (a knight or bishop of the side to move, which cannot step so): position_mismatch with
    // the squares and the position to restore, until it is put back; then the game goes on.
    REQUIRE(t1.play(log, 30));
    std::tie(left, right) = clock_of(t1);
    t1.unplug();
    REQUIRE(log.wait_count("BOARD", "t1", 6));
    const Position at30 = t1.player().position().copy();
    Square from, to;
    for (int s = 0; s < 64 && !to.valid(); ++s) {
        const Piece p = at30.piece_on(Square(s));
        if (p == Piece::None || color_of(p) != at30.side_to_move() ||
            (type_of(p) != PieceType::Knight && type_of(p) != PieceType::Bishop))
            continue;
        for (int df : {-1, 1}) {
            const int f = Square(s).file() + df;
            if (f >= 0 && f < 8 && at30.piece_on(Square::at(f, Square(s).rank())) == Piece::None && !to.valid()) {
                from = Square(s);
                to = Square::at(f, Square(s).rank());
            }
        }
    }
    REQUIRE(to.valid());
    t1.plug(at30, left, right);
    t1.emulator().move(from, to); // knocked aside while the board was away
    REQUIRE(connected("t1", 4));
    REQUIRE(t1.wait_driver_ready());
    const ojson mismatch = log.wait_for("ALERT", "t1", [](const ojson& e) { return e["kind"] == "position_mismatch"; });
    REQUIRE_FALSE(mismatch.is_null());
    CHECK(mismatch["squares"].size() == 2);
    CHECK(mismatch["fen"] == at30.fen());
    t1.emulator().move(to, from); // put back
    REQUIRE(t1.play(log, 1000));
    p2.join();
    REQUIRE(ok2);

    // Nothing lost: both games as played.
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    log.stop();
    for (auto [board, game] : {std::pair{&t1, game1}, std::pair{&t2, game2}}) {
        auto g = read_pgn_game(slurp(pgn_dir / (game + ".pgn")));
        REQUIRE(g.has_value());
        CHECK(sans_of(*g) == sans_of(board->game()));
    }
    CHECK(log.of("ALERT", "t2").empty());
}
