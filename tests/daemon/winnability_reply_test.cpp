// The RESULT event and the OK reply of a RESULT request say `winnability: "undecided"` when a
// resignation stands only because the full winnability mode decided nothing ([23] 5.1.2;
// docs/client-api.md, proto_minor 6; issue 25), through the eboardd process and its socket.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("5.1.2 resignation on an undecided winnability: OK and RESULT say undecided, decided ones do not") {
    TempDir dir("eboardd-undecided");
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(dir.path, "[board.s1]\nuri = emu-sentio\n", {"--socket", socket});
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);

    // Black's king boxed in behind its pawns (data/deadpos/chasolver_positions.txt 'W-'):
    // whether Black can checkmate is not decided within the loop's 50 ms (full mode's closure
    // walk proves it in about 0.2 s of CPU: rules/winnable_tempo.cpp), so White's
    // resignation stands as a win for Black, and both the reply and the event say so.
    const auto new_game = [&](const char* fen) {
        const ojson ok = request(socket, {{"class", "NEW_GAME"}, {"board", "s1"}, {"fen", fen}});
        REQUIRE(ok["class"] == "OK");
        return ok["game"].get<std::string>();
    };
    const std::string undecided = new_game("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 60");
    const ojson ok = request(socket, {{"class", "RESULT"}, {"board", "s1"}, {"result", "0-1"},
                                      {"termination", "resignation"}, {"id", 7}});
    CHECK(ok["class"] == "OK");
    CHECK(ok["id"] == 7);
    CHECK(ok["winnability"] == "undecided");
    const ojson result = log.wait_for("RESULT", "s1", [&](const ojson& e) { return e["game"] == undecided; });
    REQUIRE_FALSE(result.is_null());
    CHECK(result["result"] == "0-1");
    CHECK(result["winnability"] == "undecided");

    // K+Q against K: decided (White can mate), no field in either.
    const std::string decided = new_game("4k3/8/8/8/8/8/8/4K1Q1 b - - 0 40");
    const ojson ok2 = request(socket, {{"class", "RESULT"}, {"board", "s1"}, {"result", "1-0"},
                                       {"termination", "resignation"}});
    CHECK(ok2["class"] == "OK");
    CHECK_FALSE(ok2.contains("winnability"));
    const ojson result2 = log.wait_for("RESULT", "s1", [&](const ojson& e) { return e["game"] == decided; });
    REQUIRE_FALSE(result2.is_null());
    CHECK_FALSE(result2.contains("winnability"));

    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    log.stop();
}
