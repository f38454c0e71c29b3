// The arbiters' console of eboardd --http in a real headless Chromium (Debian's chromium and
// chromium-driver over WebDriver): three boards (an emulated DGT Bluetooth board with a low
// battery and DGT3000 clock moved by the test, two emulated boards replaying a real game that
// ends in checkmate), the low battery marked on the page, an illegal move whose alert the page must
// show within 1 s of the ALERT event, the arbiter's login (a wrong password refused), the penalty
// applied from the page and seen on the clock, a cross-site form refused, and every board's
// data-fen against the events. It also writes the screenshot docs/console.png is made from
// (build/tests/console.png). Waits are on events, the emulator's state and DOM observers.
#include <catch2/catch.hpp>

#include "tests/console_browser/console_page.hpp"
#include "tests/support/process.hpp"
#include "tests/support/webdriver.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/post.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "daemon/daemon.hpp"
#include "drivers/emu/dgt_emulator.hpp"

using namespace eboard;
using namespace eboard::daemon;
using nlohmann::json;

using consoletest::kWaitFor;
using consoletest::wall_ms;
using consoletest::Watch;

TEST_CASE("7.5.5 the arbiters' console in Chromium: an illegal move's alert within 1 s, the penalty applied from the page") {
    eboard::test::TempDir dir("eboardd-console");
    drivers::emu::DgtEmulatorOptions eo;
    eo.clock.left_ms = eo.clock.right_ms = 10 * 60 * 1000;
    eo.battery_percent = 12; // a Bluetooth board nearly flat (dgt.md 4.1)
    drivers::emu::DgtEmulator board(eo);
    const auto password = (dir.path / "arbiter-password").string();
    std::ofstream(password) << "hall-arbiter\n";
    ::chmod(password.c_str(), 0600);
    const int port = eboard::test::free_loopback_port();

    Config c;
    c.boards.push_back(BoardConfig{"dgt.bluetooth:" + board.pty_slave_path(), "t1", {}, {}, {}, {}, {}, {}, {}});
    c.boards.push_back(BoardConfig{"emu-dgt:" EBOARD_REPO_DATA "/games/molinari-bordais-1979.pgn", "t2", {}, {}, {}, {}, {}, {}, {}});
    c.boards.push_back(BoardConfig{"emu-certabo:" EBOARD_REPO_DATA "/games/molinari-bordais-1979.pgn", "t3", {}, {}, {}, {}, {}, {}, {}});
    c.speed = 100;
    c.state_dir = (dir.path / "state").string();
    c.socket = (dir.path / "s").string();
    c.white_side = WhiteSide::Left;
    c.http = "127.0.0.1:" + std::to_string(port);
    c.arbiter_password_file = password;
    consoletest::RunningDaemon daemon(c, dir.path);
    Watch watch(c.socket);

    eboard::test::Browser browser;
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
    browser.open(url);
    browser.run_async(kWaitFor, {"[data-board='t1'][data-fen*='/']"});
    // t1's battery (its BOARD event): shown, marked low in colour and in its text.
    consoletest::check_low_battery(browser, "t1", 12);

    // The game on t1 starts from the board's start position.
    for (;;) {
        const json e = watch.next();
        if (e["class"] == "GAME" && e["board"] == "t1") break;
    }

    // White moves e2-e5 (illegal) and presses the clock.
    board.move(Square::parse("e2"), Square::parse("e5"));
    board.press_lever(drivers::ClockSide::Left);
    const json alert = watch.next_of("ALERT");
    const std::int64_t event_ms = wall_ms();
    REQUIRE(alert["kind"] == "illegal_move");
    const auto shown_ms = browser.run_async(kWaitFor, {"[data-alert-kind='illegal_move'][data-board='t1']"}, 5000)
                              .get<std::int64_t>();
    const std::int64_t delay = std::max<std::int64_t>(0, shown_ms - event_ms);
    std::printf("console: ALERT event -> shown on the page: %lld ms\n", static_cast<long long>(delay));
    CHECK(delay < 1000);
    std::ofstream(EBOARD_BIN_DIR "/../tests/console.png", std::ios::binary)
        << browser.screenshot_png();

    // A wrong password is refused; the right one opens the actions.
    consoletest::log_in(browser);

    // The penalty from the board's page: Black's clock gets 2 more minutes (Art. 7.5.5, 2023).
    consoletest::apply_penalty(browser, board, "t1", 20000);
    // The board's alert is settled by the action.
    browser.run("location.hash = '';");
    CHECK(browser.run("return document.querySelectorAll(\"[data-alert-kind][data-board='t1']\").length;") == 0);

    // A form on another site posting to the console is refused, cookie or not.
    const auto form = dir.path / "cross-site.html";
    std::ofstream(form) << "<form method=post action='" << url << "api/request'>"
                        << "<input name=class value=PENALTY><input name=board value=t1></form>"
                        << "<script>document.forms[0].submit()</script>";
    browser.open("file://" + form.string());
    browser.run_async(kWaitFor, {"body"});
    CHECK(browser.run("return document.body.innerText;").get<std::string>().find("must be JSON") != std::string::npos);

    // Every board's data-fen is the position after its last move made, once the replays end
    // (the game ends in checkmate: a RESULT).
    while (watch.results["t2"] == 0 || watch.results["t3"] == 0) (void)watch.next();
    browser.open(url);
    for (const auto& [name, fen] : watch.fen) {
        INFO(name);
        const std::string selector = "[data-board='" + name + "'][data-fen='" + fen + "']";
        CHECK_NOTHROW(browser.run_async(kWaitFor, {selector}, 5000));
    }
    CHECK(watch.fen.size() == 3);

    CHECK(daemon.stop() == 0);
}
