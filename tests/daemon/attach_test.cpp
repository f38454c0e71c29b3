// Boards opened and closed at run time (ATTACH / DETACH, docs/client-api.md; `eboardctl
// attach|detach`; eboardd-device@.service): the eboardd process starts with no board, an
// emulated DGT board is attached by its URI (BOARD connected, the game starts and is played),
// detached in mid-game (BOARD disconnected, the game stays unfinished) and attached again (the
// same game goes on); bad requests get ERROR objects and eboardctl exit status 1.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("ATTACH opens a board at run time, DETACH closes it, the game goes on when it is back") {
    TempDir dir("eboardd-attach");
    EmulatedBoard t("late", dir.path / "late", source_game("kasparov-deep-blue-1997.pgn", 1), 5, 150);
    const std::string socket = (dir.path / "s").string();
    NotifySocket notify((dir.path / "notify").string());
    Process d(eboardd_bin(),
              {"--state-dir", (dir.path / "state").string(), "--socket", socket, "--events", "-", "--white-side",
               "left"},
              notify.path(), (dir.path / "stderr").string());
    REQUIRE(notify.wait_for("READY=1"));
    EventLog log(d);
    CHECK(request(socket, {{"class", "BOARDS"}})["boards"].empty());

    // Bad requests: ERROR objects naming what is wrong.
    auto error_of = [&](const ojson& req) {
        const ojson r = request(socket, req);
        CHECK(r["class"] == "ERROR");
        CHECK(r["request"] == req["class"]);
        return r.value("message", "");
    };
    CHECK(error_of({{"class", "ATTACH"}}).find("either 'uri' or 'device'") != std::string::npos);
    CHECK(error_of({{"class", "ATTACH"}, {"uri", "nosuch:/dev/ttyACM0"}}).find("unknown driver") != std::string::npos);
    CHECK(error_of({{"class", "ATTACH"}, {"uri", "dgt.nosuch:/dev/ttyACM0"}}).find("no model") != std::string::npos);
    CHECK(error_of({{"class", "ATTACH"}, {"uri", "emu-foo"}}).find("unknown emulator") != std::string::npos);
    CHECK(error_of({{"class", "ATTACH"}, {"device", "/dev/null"}}).find("/dev/null") != std::string::npos);
    CHECK(error_of({{"class", "DETACH"}, {"board", "late"}}).find("no board 'late'") != std::string::npos);

    const ojson ok = request(socket, {{"class", "ATTACH"}, {"uri", t.uri()}, {"name", "late"}, {"id", 4}});
    CHECK(ok["class"] == "OK");
    CHECK(ok["board"] == "late");
    CHECK(ok["attached"] == true);
    CHECK(ok["id"] == 4);
    CHECK(log.wait_for("BOARD", "late")["state"] == "connected");
    const std::string game = log.wait_for("GAME", "late").value("game", "");
    REQUIRE_FALSE(game.empty());
    // The same device again (by name or by another path to it): already open.
    CHECK(request(socket, {{"class", "ATTACH"}, {"uri", t.uri()}})["attached"] == false);
    CHECK(error_of({{"class", "ATTACH"}, {"uri", "emu-dgt"}, {"name", "late"}}).find("already open") !=
          std::string::npos);
    REQUIRE(t.wait_driver_ready());
    REQUIRE(t.play(log, 6));

    // eboardctl detach: the board goes, its game stays unfinished.
    auto ctl = [&](const std::string& args) {
        return run_command("EBOARD_SOCKET=" + socket + " " + eboardctl_bin() + " " + args + " 2>&1");
    };
    const CommandResult detached = ctl("detach late");
    CHECK(detached.status == 0);
    CHECK(detached.out == "late detached\n");
    CHECK(log.wait_count("BOARD", "late", 1, [](const ojson& e) { return e["state"] == "disconnected"; }));
    CHECK(request(socket, {{"class", "BOARDS"}})["boards"].empty());
    CHECK(ctl("detach late").status == 1);
    CHECK(ctl("detach --device /dev/ttyACM7").out == "already closed\n");
    CHECK(ctl("attach").status == 2);

    // Attached again: the same game goes on from ply 6.
    const CommandResult again = ctl("attach " + t.uri() + " --name late");
    CHECK(again.status == 0);
    CHECK(again.out == "late attached\n");
    CHECK(log.wait_count("BOARD", "late", 2, [](const ojson& e) { return e["state"] == "connected"; }));
    const ojson boards = request(socket, {{"class", "BOARDS"}});
    REQUIRE(boards["boards"].size() == 1);
    CHECK(boards["boards"][0]["game"] == game);
    CHECK(boards["boards"][0]["ply"] == 6);
    REQUIRE(t.wait_driver_ready(2));
    REQUIRE(t.play(log, 10));
    CHECK(log.of("GAME", "late").size() == 1); // no new game
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
}
