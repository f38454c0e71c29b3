// `driver-options` in the real eboardd (docs/configuration.md "Driver options"): a misspelt key
// or a bad value stops it at start even for a board not plugged in, and a configured option
// reaches the board's driver - over a pty (a Sentio's vote-frames against a one-frame reed
// bounce, certabo-sentio.md 3.2) and on a built-in emulated board (the DGT update mode, dgt.md 3,
// seen in the `--trace dgt` bytes).
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include <sstream>

#include "daemon/store.hpp"
#include "drivers/emu/line_emulator.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

/// The writes eboardd made to the DGT board, as traced ("45 42 43": serial number, dump, update
/// mode in one write, dgt.md 15).
std::vector<std::string> written(const std::string& log) {
    std::vector<std::string> out;
    std::istringstream in(log);
    for (std::string l; std::getline(in, l);)
        if (const auto at = l.find("dgt > "); at != std::string::npos) out.push_back(l.substr(at + 6));
    return out;
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

/// eboardd on an emu-dgt board replaying a game, with `driver-options` if not empty and
/// `--trace dgt`, until its first move came through (the board's updates flow: the update
/// mode was sent); returns the writes it made to the board.
std::vector<std::string> dgt_writes(const std::string& options) {
    TempDir dir("eboardd-drvopts-dgt");
    const std::string pgn = std::string(EBOARD_REPO_DATA) + "/games/molinari-bordais-1979.pgn";
    std::string conf = "[board.d]\nuri = emu-dgt:" + pgn + "\n";
    if (!options.empty()) conf += "driver-options = " + options + "\n";
    ReadyDaemon eboardd(dir.path, config_args(dir.path, conf, {"--trace", "dgt", "--speed", "20"}));
    EventLog log(eboardd.process);
    const bool moved = log.wait_for("MOVE", "d").is_object();
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    const std::string err = slurp(dir.path / "stderr");
    INFO(err);
    CHECK(moved);
    return written(err);
}

/// eboardd on an emulated Sentio (a frame every 100 ms, over a pty) given by `--board` alone
/// with `more` options. e2's pawn bounces in exactly one frame, then White plays Ng1-f3.
/// Returns the squares of the TOUCH events up to the knight placed on f3 ("e2 lift", ...).
std::vector<std::string> touches_around_bounce(const std::vector<std::string>& more) {
    TempDir dir("eboardd-drvopts-sentio");
    drivers::emu::LineEmulatorOptions eo;
    eo.kind = drivers::emu::LineBoardKind::Sentio;
    eo.frame_period_ms = 100;
    drivers::emu::LineEmulator board(eo);
    std::vector<std::string> args{"--board", "sentio:" + board.pty_slave_path(), "--clock", "none",
                                  "--state-dir", (dir.path / "state").string(), "--events", "-"};
    args.insert(args.end(), more.begin(), more.end());
    NotifySocket notify((dir.path / "notify").string());
    Process d(eboardd_bin(), args, notify.path(), (dir.path / "stderr").string());
    REQUIRE(notify.wait_for("READY=1"));
    EventLog log(d);
    const std::string name = "sentio:" + board.pty_slave_path();
    REQUIRE(log.wait_for("GAME", name).is_object());
    // The bounce: exactly one frame reads e2 empty; then two frames as they were.
    const int before = board.frames_sent();
    board.bounce_next_frame(Square::parse("e2"));
    REQUIRE(board.wait_until([&](const drivers::emu::LineBoardEmu& m) { return m.frames_sent() >= before + 3; }, 5000));
    board.move(Square::parse("g1"), Square::parse("f3"));
    const ojson placed = log.wait_for("TOUCH", name, [](const ojson& e) {
        return e.value("square", "") == "f3" && e.value("action", "") == "place";
    });
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    INFO(slurp(dir.path / "stderr"));
    REQUIRE(placed.is_object());
    std::vector<std::string> out;
    for (const auto& e : log.of("TOUCH", name)) out.push_back(e.value("square", "") + " " + e.value("action", ""));
    return out;
}

} // namespace

TEST_CASE("driver-options: eboardd refuses to start on an unknown key or a bad value, the board unplugged") {
    TempDir dir("eboardd-drvopts-bad");
    const std::string absent = (dir.path / "no-such-tty").string(); // never plugged in
    const std::string state = (dir.path / "state").string();
    std::ofstream(dir.path / "typo.conf") << "[board.table1]\nuri = sentio:" << absent << "\ndriver-options = vote-frame=1\n";
    std::ofstream(dir.path / "value.conf") << "[board.table2]\nuri = dgt:" << absent
                                           << "\ndriver-options = orientation=rotated,update-mode=fast\n";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--config", (dir.path / "typo.conf").string()},
         "board table1: driver-options: unknown option 'vote-frame' (sentio knows: orientation, vote-frames, "
         "silence-ms, led-interval-ms, led-repeats)"},
        {{"--config", (dir.path / "value.conf").string()},
         "board table2: driver-options: update-mode must be nice or update, not 'fast'"},
        {{"--board", "millennium:" + absent, "--driver-options", "debounce=9"},
         "board millennium:" + absent + ": driver-options: millennium: debounce must be 0..4"},
        // The board --simulate adds (emu-dgt) is checked when eboardd opens its boards.
        {{"--simulate", "--driver-options", "vote-frames=1"},
         "board simulated: driver-options: unknown option 'vote-frames' (dgt knows:"},
    };
    for (const auto& [more, says] : cases) {
        INFO(says);
        std::vector<std::string> args{"--state-dir", state, "--events", "-"};
        args.insert(args.end(), more.begin(), more.end());
        Process d(eboardd_bin(), args, "", (dir.path / "stderr").string());
        // A refused start closes stdout at once; a daemon that started anyway is stopped after
        // 10 s of quiet (and exits 0, failing the test) rather than waited for forever.
        while (d.line(10000)) {
        }
        d.signal(SIGTERM);
        CHECK(d.wait_exit() != 0);
        const std::string err = slurp(dir.path / "stderr");
        INFO(err);
        CHECK(err.find(says) != std::string::npos);
        CHECK(err.find("READY") == std::string::npos);
    }
}

TEST_CASE("driver-options: update-mode=update reaches the driver of an emu-dgt board (UPDATE 43, not UPDATE_NICE 4b)") {
    // The start-up's one write: serial number (45), dump (42), then the update mode.
    const auto configured = dgt_writes("update-mode=update");
    INFO(configured.size() << " writes");
    CHECK(has(configured, "45 42 43"));
    CHECK_FALSE(has(configured, "45 42 4b"));
    const auto by_default = dgt_writes("");
    CHECK(has(by_default, "45 42 4b"));
    CHECK_FALSE(has(by_default, "45 42 43"));
}

TEST_CASE("driver-options: a Sentio with vote-frames=1 reports a one-frame bounce, the default 2-of-3 vote does not") {
    const auto voted = touches_around_bounce({});
    CHECK(voted == std::vector<std::string>{"g1 lift", "f3 place"});
    const auto every_frame = touches_around_bounce({"--driver-options", "vote-frames=1"});
    CHECK(every_frame == std::vector<std::string>{"e2 lift", "e2 place", "g1 lift", "f3 place"});
}

TEST_CASE("driver-options: a configured Millennium orientation wins over the learnt one, and the log says so once") {
    TempDir dir("eboardd-drvopts-learnt");
    const std::string state = (dir.path / "state").string();
    {   // The board shows the start position: the driver learns h1-first, the store keeps it.
        ReadyDaemon eboardd(dir.path, config_args(dir.path, "[board.m]\nuri = emu-millennium\n"));
        EventLog log(eboardd.process);
        REQUIRE(log.wait_for("GAME", "m").is_object());
        eboardd.process.signal(SIGTERM);
        CHECK(eboardd.process.wait_exit() == 0);
    }
    {
        auto store = daemon::Store::open(state);
        REQUIRE(store.has_value());
        REQUIRE((*store)->board_settings("m").at("orientation") == "h1-first");
    }
    // Restarted with `normal` configured (the same square order under another name, so the
    // board still reads right): the configured value goes to the driver, said once.
    ReadyDaemon eboardd(dir.path, config_args(dir.path, "[board.m]\nuri = emu-millennium\ndriver-options = orientation=normal\n"), "2");
    EventLog log(eboardd.process);
    // (Its game goes on: no GAME event, the board connects.)
    REQUIRE(log.wait_for("BOARD", "m", [](const ojson& e) { return e.value("state", "") == "connected"; }).is_object());
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    const std::string err = slurp(dir.path / "stderr2");
    INFO(err);
    const std::string says = "board m: driver option orientation=normal as configured, not the learnt h1-first";
    const auto at = err.find(says);
    CHECK(at != std::string::npos);
    CHECK(err.find(says, at + 1) == std::string::npos);
}

TEST_CASE("driver-options: a SIGHUP keeps the options the driver was opened with, and refuses a bad one") {
    TempDir dir("eboardd-drvopts-hup");
    const std::string board = "[board.d]\nuri = emu-dgt\n";
    ReadyDaemon eboardd(dir.path, config_args(dir.path, board + "driver-options = update-mode=update\n"));
    Process& d = eboardd.process;
    EventLog log(d);
    REQUIRE(log.wait_for("BOARD", "d", [](const ojson& e) { return e.value("state", "") == "connected"; }).is_object());
    const std::string conf = (dir.path / "eboardd.conf").string();
    // Changed options: the file is reloaded, the options wait for the next start (said so).
    std::ofstream(conf) << "driver-options = orientation=rotated\n" << board << "driver-options = update-mode=nice\n";
    d.signal(SIGHUP);
    CHECK(eboardd.notify.wait_for("RELOADING=1"));
    CHECK(eboardd.notify.wait_for("READY=1"));
    // A misspelt key: the file is not applied at all.
    std::ofstream(conf) << board << "driver-options = update-mod=nice\n";
    d.signal(SIGHUP);
    CHECK(eboardd.notify.wait_for("RELOADING=1"));
    CHECK(eboardd.notify.wait_for("READY=1"));
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    const std::string err = slurp(dir.path / "stderr");
    INFO(err);
    CHECK(err.find("SIGHUP: driver-options apply at the next start, not now") != std::string::npos);
    CHECK(err.find("SIGHUP: board d: driver-options apply at the next start, not now") != std::string::npos);
    CHECK(err.find("SIGHUP: configuration not reloaded: " + conf +
                   ": board d: driver-options: unknown option 'update-mod' (dgt knows: orientation, update-mode,") !=
          std::string::npos);
}
