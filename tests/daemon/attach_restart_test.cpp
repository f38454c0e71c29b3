// Boards attached at run time are remembered across restarts (docs/client-api.md ATTACH): the
// eboardd process starts with no board, two emulated DGT boards are attached by their URIs and
// play; a SIGHUP keeps both; eboardd is killed with -9 and one board is unplugged while it is
// down. Restarted on the same state directory, eboardd is ready at once, takes both games up,
// the present board plays on and the absent one is waited for like a configured board: when it
// is plugged in its game goes on. A DETACH forgets a board: the next restart opens only the other.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("attached boards reopen after kill -9, an absent one is waited for, SIGHUP keeps them, DETACH forgets") {
    TempDir dir("eboardd-attach-restart");
    const double speed = 150;
    EmulatedBoard a("a", dir.path / "a", source_game("kasparov-deep-blue-1997.pgn", 3), 11, speed);
    EmulatedBoard b("b", dir.path / "b", source_game("lichess-db-sample.pgn", 2), 12, speed);
    const std::string socket = (dir.path / "s").string();
    // No boards: SIGHUP has a file to read.
    const auto args = config_args(dir.path, "white-side = left\nevent = Attached\n", {"--socket", socket});
    auto boards = [&] { return request(socket, {{"class", "BOARDS"}})["boards"]; };
    std::string game_a, game_b;
    std::int64_t b_left = 0, b_right = 0;
    {
        ReadyDaemon eboardd(dir.path, args, "1");
        Process& d = eboardd.process;
        NotifySocket& notify = eboardd.notify;
        EventLog log(d);
        for (const EmulatedBoard* t : {&a, &b})
            REQUIRE(request(socket, {{"class", "ATTACH"}, {"uri", t->uri()}, {"name", t->name()}})["attached"] ==
                    true);
        game_a = log.wait_for("GAME", "a").value("game", "");
        game_b = log.wait_for("GAME", "b").value("game", "");
        REQUIRE_FALSE(game_a.empty());
        REQUIRE_FALSE(game_b.empty());
        REQUIRE(a.wait_driver_ready());
        REQUIRE(b.wait_driver_ready());
        REQUIRE(a.play(log, 6));
        REQUIRE(b.play(log, 4));

        // SIGHUP (configuration reload): the attached boards stay open, their games go on.
        d.signal(SIGHUP);
        REQUIRE(notify.wait_for("RELOADING=1"));
        REQUIRE(notify.wait_for("READY=1"));
        const ojson reloaded = boards();
        REQUIRE(reloaded.size() == 2);
        CHECK(reloaded[0]["game"] == game_a);
        CHECK(reloaded[1]["game"] == game_b);
        REQUIRE(a.play(log, 8));

        d.signal(SIGKILL);
        CHECK(d.wait_exit() == 128 + SIGKILL);
        log.stop();
    }
    // Board b is unplugged while eboardd is down.
    b_left = b.emulator().clock().times.left_ms;
    b_right = b.emulator().clock().times.right_ms;
    b.unplug();

    {
        NotifySocket notify((dir.path / "notify2").string());
        Process d(eboardd_bin(), args, notify.path(), (dir.path / "stderr2").string());
        const auto ready = notify.receive();
        REQUIRE(ready.has_value());
        CHECK(ready->find("READY=1") != std::string::npos);
        CHECK(ready->find("/2 boards connected, 2 games in progress") != std::string::npos);
        EventLog log(d);
        const ojson reopened = boards();
        REQUIRE(reopened.size() == 2);
        CHECK(reopened[0]["board"] == "a");
        CHECK(reopened[0]["uri"] == a.uri());
        CHECK(reopened[0]["game"] == game_a);
        CHECK(reopened[0]["ply"] == 8);
        CHECK(reopened[1]["board"] == "b");
        CHECK(reopened[1]["game"] == game_b);
        CHECK(reopened[1]["ply"] == 4);
        CHECK(reopened[1]["state"] == "disconnected");
        // The present board plays on; the absent one stalls nothing.
        REQUIRE(a.wait_driver_ready(2));
        REQUIRE(a.play(log, 12));
        // Plugged in: it is opened (the waiter retries) and its game goes on.
        b.plug(b.position_at(4), b_left, b_right);
        REQUIRE(log.wait_count("BOARD", "b", 1, [](const ojson& e) { return e["state"] == "connected"; }));
        REQUIRE(b.wait_driver_ready());
        REQUIRE(b.play(log, 8));
        CHECK(log.of("GAME", "a").empty()); // the same games, no new ones
        CHECK(log.of("GAME", "b").empty());

        const CommandResult detached =
            run_command("EBOARD_SOCKET=" + socket + " " + eboardctl_bin() + " detach b 2>&1");
        CHECK(detached.status == 0);
        CHECK(detached.out == "b detached\n");
        d.signal(SIGTERM);
        CHECK(d.wait_exit() == 0);
    }

    // Detached before the restart: forgotten; the other board is open again with its game.
    ReadyDaemon eboardd(dir.path, args, "3");
    Process& d = eboardd.process;
    EventLog log(d);
    const ojson last = boards();
    REQUIRE(last.size() == 1);
    CHECK(last[0]["board"] == "a");
    CHECK(last[0]["game"] == game_a);
    CHECK(last[0]["ply"] == 12);
    REQUIRE(a.wait_driver_ready(3));
    REQUIRE(a.play(log, 14));
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    CHECK(log.of("BOARD", "b").empty());
}
