// The quickplay finish comes from the board's time control ([01] Art. 10 and 10.3): under the
// 2001 Laws an illegal move carries no penalty in standard play, but +2 min in a quickplay
// finish (a last period without increment). Two emulated boards, the same 2001 rules, two
// time controls: the same illegal move, two ALERTs.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"


using namespace eboard;
using namespace eboard::test;

TEST_CASE("10.3 2001: an illegal move in a quickplay finish costs 2 minutes, in standard play nothing") {
    TempDir dir("eboardd-qpf");
    EmulatedBoard slow("slow", dir.path / "slow", source_game("lichess-db-sample.pgn"), 1, 150);
    EmulatedBoard sd("sd", dir.path / "sd", source_game("lichess-db-sample.pgn"), 2, 150);
    ReadyDaemon eboardd(dir.path, config_args(dir.path, "white-side = left\nrules = fide-2001\n[board.slow]\nuri = " +
                                                            slow.uri() + "\ntime-control = 5400+30\n[board.sd]\nuri = " +
                                                            sd.uri() + "\ntime-control = 600\n"));
    Process& d = eboardd.process;
    EventLog log(d);
    for (auto* b : {&slow, &sd}) {
        REQUIRE_FALSE(log.wait_for("GAME", b->name()).is_null());
        REQUIRE(b->play(log, 2));
        (void)b->illegal_move_and_press(drivers::ClockSide::Left);
    }
    const ojson standard = log.wait_for("ALERT", "slow", [](const ojson& e) { return e["kind"] == "illegal_move"; });
    REQUIRE_FALSE(standard.is_null());
    CHECK(standard["article"] == "7.4");
    CHECK_FALSE(standard.contains("penalty"));
    const ojson quickplay = log.wait_for("ALERT", "sd", [](const ojson& e) { return e["kind"] == "illegal_move"; });
    REQUIRE_FALSE(quickplay.is_null());
    CHECK(quickplay["article"] == "10.3");
    CHECK(quickplay["penalty"] == "+2min");
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    log.stop();
}
