// `--white-side auto` (eboardd(8): "the side whose clock runs when the game starts, or whose
// player completes the first move"), through the eboardd process with an emulated DGT board and
// DGT3000 clock: before the first move the clock's time reports carry the lever (BWTIME status
// bit 1, dgt.md 10.1), whose high side is the side whose clock runs or will run when started -
// White's. A press before the first move that no touched piece goes with is the clock being set
// up (Black starting White's clock, the arbiter turning it), not a move's press. The side is
// learnt per game and kept with it in the store (games.white_side).
// Waits are on events and on the emulator's state, never sleeps.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include "daemon/store.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kClockMs = 10 * 60 * 1000;

// The clock has run `ms` for the player on `side` (a report showing it was sent): a human's
// first-move thinking, so that his first touch is not taken for part of the starting press.
bool clock_ran(EmulatedBoard& b, drivers::ClockSide side, std::int64_t ms) {
    return b.emulator().wait_until(
        [side, ms](const drivers::emu::DgtBoardEmu& m) {
            const auto& t = m.clock().state().times;
            return (side == drivers::ClockSide::Left ? t.left_ms : t.right_ms) <= kClockMs - ms;
        },
        20000);
}

// The white_side the store keeps for `game`.
std::string stored_white_side(const fs::path& state, const std::string& game) {
    auto store = daemon::Store::open(state);
    REQUIRE(store.has_value());
    auto g = (*store)->load(game);
    REQUIRE(g.has_value());
    return g->white_side;
}

int completed_moves(EventLog& log, const std::string& game) {
    int n = 0;
    for (const auto& m : log.of("MOVE", "t1"))
        n += m.value("game", "") == game && m["status"] == "completed" ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("white side auto: the lever before the first move tells White's side, and Black starting the clock is no move") {
    TempDir dir("eboardd-white-lever");
    // White plays on the right. The clock stands with Black's (left) side up; Black starts
    // White's clock by pressing his side down, as clubs do.
    EmulatedBoard t1("t1", dir.path / "t1", source_game("kasparov-deep-blue-1997.pgn", 5), 3, 20, kClockMs,
                     drivers::ClockSide::Left); // powers up with its left side up
    t1.seat_white(drivers::ClockSide::Right, 0);
    REQUIRE(t1.emulator().clock().times.lever_high == drivers::ClockSide::Left);
    const auto args = config_args(dir.path, "white-side = auto\n[board.t1]\nuri = " + t1.uri() + "\n");
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);
    const ojson game = log.wait_for("GAME", "t1");
    REQUIRE_FALSE(game.is_null());
    REQUIRE(t1.wait_driver_ready());
    t1.emulator().press_lever(drivers::ClockSide::Left); // Black starts White's clock
    REQUIRE(clock_ran(t1, drivers::ClockSide::Right, 1000));
    // Each move is completed by its player's press: White's on the right, Black's on the left.
    CHECK(t1.play(log, 4));
    CHECK(completed_moves(log, game["game"]) == 4);
    for (const auto& a : log.of("ALERT", "t1")) UNSCOPED_INFO(a.dump());
    CHECK(log.of("ALERT", "t1").empty()); // Black's start was no press without a move (7.5.3)
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    CHECK(stored_white_side(dir.path / "state", game["game"]) == "right");
}

TEST_CASE("white side auto: a new game on the same board with the clock turned round learns its own side") {
    TempDir dir("eboardd-white-per-game");
    EmulatedBoard t1("t1", dir.path / "t1", source_game("kasparov-deep-blue-1997.pgn", 5), 4, 20, kClockMs,
                     drivers::ClockSide::Left);
    const auto args = config_args(dir.path, "white-side = auto\n[board.t1]\nuri = " + t1.uri() + "\n");
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);
    const std::string first = log.wait_for("GAME", "t1").value("game", "");
    REQUIRE_FALSE(first.empty());
    REQUIRE(t1.wait_driver_ready());
    REQUIRE(t1.play(log, 2)); // White on the left
    // The players set up a new game and turn the clock round: White now sits on the right.
    const std::size_t mark = log.size();
    t1.seat_white(drivers::ClockSide::Right, 0);
    const ojson second = log.wait_for("GAME", "t1", [&](const ojson& e) { return e.value("game", "") != first; },
                                      30000, mark);
    REQUIRE_FALSE(second.is_null());
    // The arbiter turns the lever to White's new side (it runs his clock): set up, no move.
    t1.emulator().press_lever(drivers::ClockSide::Left);
    REQUIRE(clock_ran(t1, drivers::ClockSide::Right, 1000));
    CHECK(t1.play(log, 4));
    CHECK(completed_moves(log, second["game"]) == 4);
    for (const auto& a : log.of("ALERT", "t1")) UNSCOPED_INFO(a.dump());
    CHECK(log.of("ALERT", "t1").empty());
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    CHECK(stored_white_side(dir.path / "state", first) == "left");
    CHECK(stored_white_side(dir.path / "state", second["game"]) == "right");
}

TEST_CASE("white side auto: the first mover's press reported before his move still completes it") {
    TempDir dir("eboardd-white-press-first");
    EmulatedBoard t1("t1", dir.path / "t1", source_game("kasparov-deep-blue-1997.pgn", 5), 5, 20, kClockMs,
                     drivers::ClockSide::Right);
    const auto args = config_args(dir.path, "white-side = auto\n[board.t1]\nuri = " + t1.uri() + "\n");
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);
    const ojson game = log.wait_for("GAME", "t1");
    REQUIRE_FALSE(game.is_null());
    REQUIRE(t1.wait_driver_ready());
    // A board that lags behind its clock: the press reaches the daemon before the move.
    t1.emulator().press_lever(drivers::ClockSide::Right);
    t1.make_next_move();
    CHECK(log.wait_completed("t1", 1));
    CHECK(t1.play(log, 3));
    CHECK(log.of("ALERT", "t1").empty());
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    CHECK(stored_white_side(dir.path / "state", game["game"]) == "right");
}
