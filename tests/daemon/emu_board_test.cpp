// `--board emu-KIND[:PGN]` (eboardd(8), BOARDS; daemon/emu_board.hpp):
// the eboardd process runs the emulators of drivers/emu itself, each read by its real driver
// (DGT, Certabo, Sentio, Millennium over in-process ptys; Chessnut through the report
// loopback), and a simulated player replays the PGN on each. Every board's recorded game must
// be the source game, ended by the checkmate on the board.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include <sys/stat.h>

#include <future>
#include <map>
#include <tuple>

#include "daemon/store.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

const std::string kGames = std::string(EBOARD_REPO_DATA) + "/games/";

} // namespace

TEST_CASE("emu- boards: every built-in emulator plays a game through its real driver") {
    TempDir dir("eboardd-emu");
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string pgn = kGames + "molinari-bordais-1979.pgn"; // 10 plies, ends in checkmate
    const std::vector<std::string> kinds{"dgt", "certabo", "sentio", "millennium", "chessnut"};
    std::string conf = "pgn-dir = " + pgn_dir.string() + "\nwhite-side = left\n";
    for (const auto& k : kinds) conf += "[board." + k + "]\nuri = emu-" + k + ":" + pgn + "\n";
    conf += "[board.idle]\nuri = emu-millennium\n"; // nobody plays: it stands in the start position
    ReadyDaemon eboardd(dir.path, config_args(dir.path, conf, {"--speed", "20"}));
    Process& d = eboardd.process;
    EventLog log(d);
    const GameRecord source = source_game("molinari-bordais-1979.pgn");
    std::map<std::string, std::string> game_of; // kind -> its game
    for (const auto& k : kinds) {
        INFO("emu-" << k);
        const ojson board = log.wait_for("BOARD", k);
        REQUIRE_FALSE(board.is_null());
        CHECK(board["state"] == "connected");
        CHECK(board["driver"] == "emu-" + k);
        const ojson result = log.wait_for("RESULT", k, {}, 60000);
        if (result.is_null()) UNSCOPED_INFO(slurp(dir.path / "stderr"));
        REQUIRE_FALSE(result.is_null());
        CHECK(result["result"] == "0-1");
        CHECK(result["termination"] == "checkmate");
        const auto alerts = log.of("ALERT", k);
        for (const auto& a : alerts) UNSCOPED_INFO(a.dump());
        CHECK(alerts.empty());
        game_of[k] = result["game"].get<std::string>();
        // Only the DGT board has a clock: the others complete a move by the next one.
        CHECK(log.of("MOVE", k).back()["status"] == "completed");
        CHECK(log.of("MOVE", k).back().contains("clock") == (k == "dgt"));
    }
    const ojson idle = log.wait_for("GAME", "idle");
    CHECK(idle["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(log.of("MOVE", "idle").empty());
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    // The PGN files follow the announcements (daemon/recorder.hpp); at the exit they are written.
    for (const auto& [k, game] : game_of) {
        INFO("emu-" << k);
        auto recorded = read_pgn_game(slurp(pgn_dir / (game + ".pgn")));
        REQUIRE(recorded.has_value());
        CHECK(sans_of(*recorded) == sans_of(source));
    }
}

TEST_CASE("emu- boards: an unknown emulator or an unreadable game is refused at start") {
    TempDir dir("eboardd-emu-bad");
    // An unknown KIND is a configuration that cannot work (exit 2, issue 26); a game file that
    // does not read, a start that fails (exit 1).
    for (auto [uri, says, status] : {std::tuple<std::string, std::string, int>{"emu-foo", "emu-dgt, emu-certabo", 2},
                                     {"emu-dgt:" + (dir.path / "none.pgn").string(), "cannot read", 1}}) {
        Process d(eboardd_bin(), {"--board", uri, "--state-dir", (dir.path / "state").string()}, "",
                  (dir.path / "stderr").string());
        CHECK(d.wait_exit() == status);
        CHECK(slurp(dir.path / "stderr").find(says) != std::string::npos);
    }
}

TEST_CASE("emu- boards: a game that is no regular file or too large is refused at start, its content never quoted") {
    // Issue 26: /dev/zero was read without end (RSS +200 MB/s), a FIFO blocked the daemon, and
    // a file that is no PGN had its first word quoted in the error.
    TempDir dir("eboardd-emu-file");
    const std::string fifo = (dir.path / "fifo").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const std::string secret = (dir.path / "shadow").string();
    std::ofstream(secret) << "root:SECRET-HASH:19000:0:99999:7:::\n";
    const std::string huge = (dir.path / "huge.pgn").string();
    std::ofstream(huge) << std::string(5 << 20, ' ');
    for (auto [file, says] : {std::pair<std::string, std::string>{fifo, "not a regular file"},
                              {"/dev/zero", "not a regular file"},
                              {huge, "larger than"},
                              {secret, "not a PGN game"}}) {
        INFO(file);
        Process d(eboardd_bin(), {"--board", "emu-dgt:" + file, "--state-dir", (dir.path / "state").string()}, "",
                  (dir.path / "stderr").string());
        auto exited = std::async(std::launch::async, [&] { return d.wait_exit(); });
        const bool gone = exited.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
        if (!gone) d.signal(SIGKILL);
        REQUIRE(gone);
        CHECK(exited.get() == 1);
        const std::string err = slurp(dir.path / "stderr");
        CHECK(err.find(says) != std::string::npos);
        CHECK(err.find("SECRET") == std::string::npos);
        CHECK(err.find("root:") == std::string::npos);
        fs::remove(dir.path / "stderr");
    }
}

TEST_CASE("emu- boards: restarted mid-game, the Certabo calibration and Millennium orientation come from the store") {
    TempDir dir("eboardd-emu-restart");
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string state = (dir.path / "state").string();
    const std::string pgn = kGames + "molinari-bordais-1979.pgn";
    const auto args = config_args(dir.path,
                                  "pgn-dir = " + pgn_dir.string() + "\n[board.cert]\nuri = emu-certabo:" + pgn +
                                      "\n[board.mill]\nuri = emu-millennium:" + pgn + "\n",
                                  {"--speed", "4"});
    std::map<std::string, std::string> game_of;
    {
        ReadyDaemon eboardd(dir.path, args);
        Process& d = eboardd.process;
        EventLog log(d);
        for (const std::string b : {"cert", "mill"}) {
            game_of[b] = log.wait_for("GAME", b).value("game", "");
            REQUIRE(log.wait_for("MOVE", b, [](const ojson& e) { return e.value("ply", 0) == 4; }).is_object());
        }
        d.signal(SIGTERM);
        CHECK(d.wait_exit() == 0);
    }
    {
        auto store = daemon::Store::open(state);
        REQUIRE(store.has_value());
        CHECK((*store)->board_settings("cert").count("calibration") == 1);
        CHECK((*store)->board_settings("mill").at("orientation") == "h1-first");
    }
    // Restarted: the boards stand mid-game (the emulators set up from the store); the Certabo
    // reads its pieces with the stored calibration, and both games go on to the checkmate.
    ReadyDaemon eboardd(dir.path, args, "2");
    Process& d = eboardd.process;
    EventLog log(d);
    const GameRecord source = source_game("molinari-bordais-1979.pgn");
    for (const std::string b : {"cert", "mill"}) {
        INFO(b);
        const ojson result = log.wait_for("RESULT", b, {}, 60000);
        if (result.is_null()) UNSCOPED_INFO(slurp(dir.path / "stderr2"));
        REQUIRE_FALSE(result.is_null());
        CHECK(result["game"] == game_of[b]);
        CHECK(result["termination"] == "checkmate");
        CHECK(log.of("GAME", b).size() <= 1); // only the end: no new game
        CHECK(log.of("ALERT", b).empty());
    }
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    for (const std::string b : {"cert", "mill"}) {
        INFO(b);
        auto recorded = read_pgn_game(slurp(pgn_dir / (game_of[b] + ".pgn")));
        REQUIRE(recorded.has_value());
        CHECK(sans_of(*recorded) == sans_of(source));
    }
}
