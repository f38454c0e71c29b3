// The arbiter's commands end to end through eboardctl, the command-line client, against the
// eboardd process with an emulated board: --help, usage errors (exit 2), an unreachable daemon
// (3), refusals (1, the daemon's message on stderr); boards, games, take-back to a ply (a GAME
// takeback event, then the board put back), set position (a restoration), clock adjustment
// (+T/-T, set and run), new game, result; `eboardctl watch`. A client that never reads is
// connected the whole time: it stalls nothing.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"


using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

struct Ctl {
    std::string socket;
    std::string err_file;
    // eboardctl ARGS; its stdout, exit status, and stderr in `err`.
    CommandResult run(const std::string& args, std::string* err = nullptr) const {
        CommandResult r = run_command(eboardctl_bin() + " --socket " + socket + " " + args + " 2>" + err_file);
        if (err) *err = slurp(err_file);
        return r;
    }
};

} // namespace

TEST_CASE("eboardctl: help, exit codes and errors, take-back, set position, clock, new game, result") {
    TempDir dir("eboardd-arbiter");
    EmulatedBoard t1("t1", dir.path / "t1", source_game("lichess-db-sample.pgn", 4), 9, 150);
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(
        dir.path, "white-side = left\npgn-dir = " + pgn_dir.string() + "\n[board.t1]\nuri = " + t1.uri() + "\n",
        {"--socket", socket});
    const Ctl ctl{socket, (dir.path / "ctl.err").string()};
    std::string err;

    // Before any daemon: usage errors are 2 and name the problem, an absent daemon is 3.
    const CommandResult help = run_command(eboardctl_bin() + " --help");
    CHECK(help.status == 0);
    CHECK(help.out.find("Commands:") != std::string::npos);
    CHECK(help.out.find("Exit status:") != std::string::npos);
    CHECK(ctl.run("", &err).status == 2);
    CHECK(err.find("no command") != std::string::npos);
    CHECK(ctl.run("fly", &err).status == 2);
    CHECK(err.find("unknown command 'fly'") != std::string::npos);
    CHECK(ctl.run("--fast boards", &err).status == 2);
    CHECK(ctl.run("result t1 2-0", &err).status == 2);
    CHECK(err.find("'2-0' is not 1-0, 0-1 or 1/2-1/2") != std::string::npos);
    CHECK(ctl.run("takeback t1 -3", &err).status == 2);
    CHECK(ctl.run("clock t1 soon 5:00", &err).status == 2);
    CHECK(ctl.run("penalty t1 maybe", &err).status == 2);
    CHECK(ctl.run("boards", &err).status == 3);
    CHECK(err.find("cannot connect to " + socket) != std::string::npos);

    ReadyDaemon eboardd(dir.path, args);
    Process& d = eboardd.process;
    EventLog log(d);
    LineSocket sleeper(socket); // WATCH, then never reads again
    REQUIRE(sleeper.send("{\"class\":\"WATCH\"}\n"));
    const std::string game = log.wait_for("GAME", "t1").value("game", "");
    REQUIRE_FALSE(game.empty());

    // Refusals: exit 1 with the daemon's message.
    CHECK(ctl.run("result nosuch 1-0", &err).status == 1);
    CHECK(err == "eboardctl: no board 'nosuch'\n");
    CHECK(ctl.run("penalty t1 apply", &err).status == 1);
    CHECK(err.find("no illegal move awaits a decision on board t1") != std::string::npos);
    CHECK(ctl.run("takeback t1 9", &err).status == 1);
    CHECK(err.find("cannot take back to ply 9: the game has 0 plies") != std::string::npos);
    const CommandResult boards = ctl.run("boards");
    CHECK(boards.status == 0);
    CHECK(boards.out.rfind("t1\tconnected\t" + game + " ply 0", 0) == 0);

    // Take back to ply 4: the clients hear of it, the moves after it are gone.
    REQUIRE(t1.play(log, 6));
    CHECK(ctl.run("takeback t1 4").out == "ok (game " + game + ")\n");
    const ojson tb = log.wait_for("GAME", "t1", [](const ojson& e) { return e["event"] == "takeback"; });
    REQUIRE_FALSE(tb.is_null());
    CHECK(tb["ply"] == 4);
    CHECK(tb["fen"] == t1.position_at(4).fen());
    CHECK(ojson::parse(ctl.run("--json boards").out)["boards"][0]["ply"] == 4);
    // The pieces go back on the board; the game goes on.
    t1.rewind(4);
    REQUIRE(t1.play(log, 8));

    // Set position: one of the game's positions is a restoration (back to ply 2).
    CHECK(ctl.run("position t1 '" + t1.position_at(2).fen() + "'").status == 0);
    CHECK_FALSE(log.wait_for("GAME", "t1", [](const ojson& e) {
                        return e["event"] == "takeback" && e["ply"] == 2;
                    }).is_null());
    t1.rewind(2);
    REQUIRE(t1.play(log, 10));

    // Clock: +1:00 for White, -0:10 for Black, from what the clock shows; set and run.
    const auto before = t1.emulator().clock().times;
    CHECK(ctl.run("clock t1 +1:00 -0:10", &err).status == 0);
    CHECK(t1.emulator().wait_until([&](const drivers::emu::DgtBoardEmu& m) {
        const auto& t = m.clock().state().times;
        return t.left_ms >= before.left_ms + 55000 && t.right_ms <= before.right_ms - 9000 && t.running;
    }, 10000));
    CHECK(ctl.run("clock nosuch +1:00 0", &err).status == 1);

    // New game: the one in progress ends unfinished; both are listed.
    const CommandResult fresh = ctl.run("new t1");
    CHECK(fresh.status == 0);
    const ojson end = log.wait_for("GAME", "t1", [](const ojson& e) { return e["event"] == "end"; });
    CHECK(end["game"] == game);
    const ojson games = ojson::parse(ctl.run("--json games").out);
    REQUIRE(games["games"].size() == 2);
    CHECK(games["games"][1]["game"] == game);
    CHECK(games["games"][1]["result"] == "*");
    CHECK(games["games"][1]["plies"] == 10);
    CHECK(games["games"][1]["pgn"] == (pgn_dir / (game + ".pgn")).string());
    auto g = read_pgn_game(slurp(pgn_dir / (game + ".pgn")));
    REQUIRE(g.has_value());
    std::vector<std::string> want = sans_of(t1.game());
    want.resize(10);
    CHECK(sans_of(*g) == want);

    // `eboardctl watch` prints the events as they come; the result of the new game ends it.
    // As JSON lines it is an event stream: the VERSION line first (docs/client-api.md "Events"),
    // then the WATCH reply (watching from there on).
    Process watch(eboardctl_bin(), {"--socket", socket, "--json", "watch"});
    auto greeting = watch.line();
    REQUIRE(greeting.has_value());
    const ojson version = ojson::parse(*greeting);
    CHECK(version["class"] == "VERSION");
    CHECK(version["proto_major"] == 1);
    CHECK(version.contains("release"));
    CHECK(version.contains("proto_minor"));
    auto watching = watch.line();
    REQUIRE(watching.has_value());
    CHECK(ojson::parse(*watching)["class"] == "WATCH");
    // [23] 5.2.3: no agreement before both players moved; the arbiter's decision passes.
    CHECK(ctl.run("result t1 1/2-1/2 agreement", &err).status == 1);
    CHECK(err.find("no draw by agreement before each player has made 1 move(s)") != std::string::npos);
    CHECK(ctl.run("result t1 1/2-1/2").status == 0);
    bool seen = false;
    while (auto l = watch.line(10000)) {
        const ojson e = ojson::parse(*l);
        if (e["class"] == "GAME" && e["event"] == "end") {
            seen = true;
            break;
        }
    }
    CHECK(seen);
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    CHECK(watch.wait_exit() == 3); // the daemon hung up
    log.stop();
}
