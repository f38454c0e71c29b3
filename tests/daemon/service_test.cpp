// eboardd under the service manager's protocol (sd_notify(3)), as systemd sees it through
// $NOTIFY_SOCKET: READY=1 with STATUS, STATUS as boards come and go, WATCHDOG=1 pings when
// WATCHDOG_USEC asks, and a SIGHUP reload (RELOADING=1, then READY=1) whose tags and rules apply
// to the next game, while a file with an error changes nothing.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include <fstream>

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {


void write_config(const fs::path& file, const std::string& uri, const std::string& white, const std::string& rules) {
    std::ofstream conf(file);
    conf << "white-side = left\nevent = Service test\n[board.t1]\nuri = " << uri << "\nwhite = " << white
         << "\nrules = " << rules << "\n";
}

} // namespace

TEST_CASE("sd_notify: READY and STATUS, watchdog pings, SIGHUP reload for the next game, SIGTERM") {
    TempDir dir("eboardd-service");
    EmulatedBoard t1("t1", dir.path / "t1", source_game("lichess-db-sample.pgn", 6), 3, 150);
    const fs::path conf = dir.path / "eboardd.conf";
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string socket = (dir.path / "s").string();
    write_config(conf, t1.uri(), "Before, Reload", "fide-2023");
    NotifySocket notify((dir.path / "notify").string());
    Process d(eboardd_bin(),
              {"--config", conf.string(), "--state-dir", (dir.path / "state").string(), "--pgn-dir",
               pgn_dir.string(), "--socket", socket, "--events", "-"},
              notify.path(), (dir.path / "stderr").string(), {{"WATCHDOG_USEC", "100000"}});
    CHECK(notify.wait_for("READY=1\nSTATUS="));
    // The watchdog: pings at half of WATCHDOG_USEC; the board connecting: a STATUS line.
    CHECK(notify.wait_for("WATCHDOG=1"));
    CHECK(notify.wait_for("STATUS=1/1 boards connected"));
    EventLog log(d);
    const std::string first = log.wait_for("GAME", "t1").value("game", "");
    REQUIRE(t1.play(log, 4));

    // SIGHUP: new White and rules for the next game; the game in progress keeps its own.
    write_config(conf, t1.uri(), "After, Reload", "fide-2023-rapid");
    d.signal(SIGHUP);
    CHECK(notify.wait_for("RELOADING=1"));
    CHECK(notify.wait_for("READY=1"));
    CHECK(request(socket, {{"class", "BOARDS"}})["boards"][0]["rules"] == "fide-2023");
    const ojson ng = request(socket, {{"class", "NEW_GAME"}, {"board", "t1"}});
    REQUIRE(ng["class"] == "OK");
    const std::string second = ng["game"];
    CHECK(second != first);
    CHECK(request(socket, {{"class", "BOARDS"}})["boards"][0]["rules"] == "fide-2023-rapid");
    CHECK_FALSE(log.wait_for("GAME", "t1", [&](const ojson& e) { return e["game"] == second; }).is_null());
    // The first game ended unfinished; its PGN keeps its own White, the new one has the new.
    // (A GAMES reply names the PGN files once they are written: they follow the announcements.)
    CHECK(request(socket, {{"class", "GAMES"}})["class"] == "GAMES");
    auto g1 = read_pgn_game(slurp(pgn_dir / (first + ".pgn")));
    REQUIRE(g1.has_value());
    CHECK(*g1->tag("White") == "Before, Reload");
    CHECK(g1->result == "*");
    CHECK(g1->moves.size() == 4);
    auto g2 = read_pgn_game(slurp(pgn_dir / (second + ".pgn")));
    REQUIRE(g2.has_value());
    CHECK(*g2->tag("White") == "After, Reload");

    // A file with an error: nothing changes, the daemon goes on (and says READY again).
    {
        std::ofstream bad(conf);
        bad << "[board.t1]\nuri = " << t1.uri() << "\nrules = fide-1999\n";
    }
    d.signal(SIGHUP);
    CHECK(notify.wait_for("READY=1"));
    CHECK(request(socket, {{"class", "BOARDS"}})["boards"][0]["rules"] == "fide-2023-rapid");
    CHECK(slurp(dir.path / "stderr").find("SIGHUP: configuration not reloaded: board t1: rules: no profile "
                                          "'fide-1999'") != std::string::npos);

    const auto t0 = std::chrono::steady_clock::now();
    d.signal(SIGTERM);
    CHECK(notify.wait_for("STOPPING=1"));
    CHECK(d.wait_exit() == 0);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    log.stop();
}
