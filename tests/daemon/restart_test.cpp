// kill -9 in mid-game loses no completed move (issue 5 items 2 and 8): the eboardd process
// with two emulated boards is killed while both games run; every completed move it announced
// is in the store; restarted on the same state directory (readiness: READY=1 on
// $NOTIFY_SOCKET) it takes both games up on their boards, with the illegal moves already made
// (the 7.5.5 ladder goes on: the second illegal move loses), and the games go on to the end.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"


#include "daemon/store.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

TEST_CASE("kill -9 with two games in progress, restart: no completed move lost, the games go on") {
    TempDir dir("eboardd-kill");
    const double speed = 150;
    EmulatedBoard t1("t1", dir.path / "t1", source_game("kasparov-deep-blue-1997.pgn", 2), 7, speed);
    EmulatedBoard t2("t2", dir.path / "t2", source_game("lichess-db-sample.pgn", 1), 8, speed);
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string state = (dir.path / "state").string();
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(dir.path,
                                  "pgn-dir = " + pgn_dir.string() + "\nwhite-side = left\n[board.t1]\nuri = " + t1.uri() +
                                      "\n[board.t2]\nuri = " + t2.uri() + "\n",
                                  {"--socket", socket});
    std::string game1, game2;
    {
        ReadyDaemon eboardd(dir.path, args);
        Process& d = eboardd.process;
        EventLog log(d);
        game1 = log.wait_for("GAME", "t1").value("game", "");
        game2 = log.wait_for("GAME", "t2").value("game", "");
        // t2: White's first illegal move at ply 5; the arbiter declines the +2min.
        t2.no_press_at(5);
        auto first_illegal = [&](int ply) {
            if (ply != 5) return;
            auto [from, to] = t2.illegal_move_and_press(drivers::ClockSide::Left);
            const ojson a = log.wait_for("ALERT", "t2", [](const ojson& e) { return e["kind"] == "illegal_move"; });
            CHECK(a["count"] == 1);
            CHECK(a["penalty"] == "+2min");
            CHECK(request(socket, {{"class", "PENALTY"}, {"board", "t2"}, {"decision", "decline"}})["penalty"] ==
                  "declined");
            t2.emulator().move(to, from);
        };
        bool ok1 = false, ok2 = false;
        std::thread p1([&] { ok1 = t1.play(log, 17); });
        std::thread p2([&] { ok2 = t2.play(log, 12, first_illegal); });
        p1.join();
        p2.join();
        REQUIRE(ok1);
        REQUIRE(ok2);
        // Announced, hence durable: kill -9 now.
        d.signal(SIGKILL);
        CHECK(d.wait_exit() == 128 + SIGKILL);
        log.stop();
        for (auto [board, game, plies] : {std::tuple{&t1, game1, 17}, std::tuple{&t2, game2, 12}}) {
            auto store = daemon::Store::open(state);
            REQUIRE(store.has_value());
            auto g = (*store)->load(game);
            REQUIRE(g.has_value());
            REQUIRE(g->moves.size() >= static_cast<std::size_t>(plies));
            for (int i = 0; i < plies; ++i) {
                const auto& m = g->moves[static_cast<std::size_t>(i)];
                CHECK(m.san == board->game().moves[static_cast<std::size_t>(i)].san);
                CHECK((m.completed || (board == &t2 && i == 4)));
            }
        }
    }

    // Restarted: both games are taken up where they were.
    NotifySocket notify((dir.path / "notify2").string());
    Process d(eboardd_bin(), args, notify.path(), (dir.path / "stderr2").string());
    auto ready = notify.receive();
    REQUIRE(ready.has_value());
    CHECK(ready->rfind("READY=1\nSTATUS=", 0) == 0);
    CHECK(ready->find("2 games in progress") != std::string::npos);
    EventLog log(d);
    const ojson boards = request(socket, {{"class", "BOARDS"}});
    CHECK(boards["boards"][0]["game"] == game1);
    CHECK(boards["boards"][0]["ply"] == 17);
    CHECK(boards["boards"][1]["game"] == game2);
    REQUIRE(t1.wait_driver_ready(2));
    REQUIRE(t2.wait_driver_ready(2));
    // t2: White's second illegal move: the ladder went on across the restart ([23] 7.5.5).
    bool second_seen = false;
    auto second_illegal = [&](int ply) {
        if (ply != 13) return;
        (void)t2.illegal_move_and_press(drivers::ClockSide::Left);
        const ojson a = log.wait_for("ALERT", "t2", [](const ojson& e) { return e["kind"] == "illegal_move"; });
        CHECK(a["count"] == 2);
        CHECK(a["penalty"] == "loss");
        const ojson ok = request(socket, {{"class", "PENALTY"}, {"board", "t2"}, {"decision", "apply"}});
        CHECK(ok["penalty"] == "loss");
        const ojson r = log.wait_for("RESULT", "t2");
        CHECK(r["result"] == "0-1");
        CHECK(r["termination"] == "illegal_moves");
        CHECK(r["confirmed"] == true);
        second_seen = true;
    };
    second_illegal(13);
    REQUIRE(second_seen);
    const bool played = t1.play(log, 1000);
    if (!played) {
        for (const auto& e : log.events())
            if (e.value("board", "") == "t1") UNSCOPED_INFO(e.dump());
        UNSCOPED_INFO(slurp(dir.path / "stderr2"));
    }
    REQUIRE(played);
    CHECK(log.of("GAME", "t1").empty()); // no new game: the same one went on
    CHECK(request(socket, {{"class", "RESULT"}, {"board", "t1"}, {"result", t1.game().result}})["class"] == "OK");
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    log.stop();

    auto g1 = read_pgn_game(slurp(pgn_dir / (game1 + ".pgn")));
    REQUIRE(g1.has_value());
    CHECK(sans_of(*g1) == sans_of(t1.game()));
    CHECK(g1->result == t1.game().result);
    auto g2 = read_pgn_game(slurp(pgn_dir / (game2 + ".pgn")));
    REQUIRE(g2.has_value());
    CHECK(g2->moves.size() == 12);
    CHECK(g2->result == "0-1");
    CHECK(*g2->tag("Termination") == "rules infraction");
}
