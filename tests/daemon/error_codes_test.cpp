// Every ERROR reply carries a machine-readable `code` beside its message (docs/client-api.md
// "Error codes", proto_minor 3): each code of the vocabulary but `internal` (a failing store)
// is produced here by a real request to the eboardd process, with an emulated DGT board and
// clock (t1) and an emulated Sentio board without a clock (s1).
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("client api: every ERROR reply has its code, VERSION says proto_minor 7") {
    TempDir dir("eboardd-codes");
    EmulatedBoard t1("t1", dir.path / "t1", source_game("lichess-db-sample.pgn", 4), 9, 150);
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(dir.path,
                                  "white-side = left\n[board.t1]\nuri = " + t1.uri() + "\n[board.s1]\nuri = emu-sentio\n",
                                  {"--socket", socket});
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);
    LineSocket client(socket);
    auto version = client.line();
    REQUIRE(version.has_value());
    CHECK(ojson::parse(*version)["proto_minor"] == 7);
    REQUIRE_FALSE(log.wait_for("GAME", "t1").is_null());

    // One request on the connection; the ERROR's code ("" for any other reply), its message
    // and the request's class checked.
    auto code_of = [&](const std::string& line) {
        REQUIRE(client.send(line + "\n"));
        auto reply = client.line();
        REQUIRE(reply.has_value());
        const ojson r = ojson::parse(*reply);
        if (r.value("class", "") != "ERROR") return std::string();
        CHECK_FALSE(r.value("message", "").empty());
        return r.value("code", "(none)");
    };
    auto code = [&](const ojson& request) { return code_of(request.dump()); };

    CHECK(code_of("this is not json") == "bad_request");
    CHECK(code({{"class", "TAKEBACK"}, {"board", "t1"}}) == "bad_request"); // no ply
    CHECK(code({{"class", "RESULT"}, {"board", "t1"}, {"result", "2-0"}}) == "bad_request");
    CHECK(code({{"class", "INFO"}, {"board", "t1"}, {"request", "fly"}}) == "bad_request");
    CHECK(code({{"class", "FLY"}}) == "unknown_class");
    CHECK(code({{"class", "RESULT"}, {"board", "nosuch"}, {"result", "1-0"}}) == "unknown_board");
    CHECK(code({{"class", "DETACH"}, {"board", "nosuch"}}) == "unknown_board");
    CHECK(code({{"class", "INFO"}, {"board", "nosuch"}, {"request", "clocks"}}) == "unknown_board");
    CHECK(code({{"class", "NEW_GAME"}, {"board", "t1"}, {"fen", "8/8/8 w - - 0 1"}}) == "bad_fen");
    CHECK(code({{"class", "SET_POSITION"}, {"board", "t1"}, {"fen", "no fen"}}) == "bad_fen");
    CHECK(code({{"class", "TAKEBACK"}, {"board", "t1"}, {"ply", 9}}) == "bad_ply");
    // [23] 5.2.3: no agreement before each player has moved.
    CHECK(code({{"class", "RESULT"}, {"board", "t1"}, {"result", "1/2-1/2"}, {"termination", "agreement"}}) ==
          "refused");
    CHECK(code({{"class", "PENALTY"}, {"board", "t1"}, {"decision", "apply"}}) == "no_penalty");
    CHECK(code({{"class", "CLOCK"}, {"board", "s1"}, {"white_ms", 60000}, {"black_ms", 60000}}) == "no_clock");
    CHECK(code({{"class", "ATTACH"}, {"uri", "nosuch:/dev/ttyACM0"}}) == "bad_uri");
    CHECK(code({{"class", "ATTACH"}, {"uri", "emu-foo"}}) == "bad_uri");
    CHECK(code({{"class", "ATTACH"}, {"device", "/dev/null"}}) == "unknown_device");
    CHECK(code({{"class", "ATTACH"}, {"uri", "emu-dgt"}, {"name", "t1"}}) == "name_taken");

    // The game ends with the arbiter's result: then there is no game to act on.
    CHECK(code({{"class", "RESULT"}, {"board", "t1"}, {"result", "1-0"}}).empty());
    REQUIRE_FALSE(log.wait_for("GAME", "t1", [](const ojson& e) { return e["event"] == "end"; }).is_null());
    CHECK(code({{"class", "TAKEBACK"}, {"board", "t1"}, {"ply", 0}}) == "no_game");
    CHECK(code({{"class", "RESULT"}, {"board", "t1"}, {"result", "0-1"}, {"termination", "resignation"}}) ==
          "no_game");
    // A request that is fine still gets its reply on the same connection.
    CHECK(code({{"class", "BOARDS"}}).empty());

    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    log.stop();
}
