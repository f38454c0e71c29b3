// The arbiters' console of eboard-hub in a real headless Chromium: a real mosquitto, eboard-hub
// as a process with pairings and an arbiter password, and one eboardd (host pi1, --mqtt) with
// two boards: an emulated DGT Bluetooth board (a low battery) and DGT3000 clock moved by the test, and an emulated board
// replaying a real game that ends in checkmate. The page shows the boards under the pairings'
// numbers and names; an illegal move's alert shows within 1 s of the ALERT event (the delay is
// printed); the arbiter logs in and applies the penalty from the hub's page, the request goes
// over the broker to the host, the host's clock gets the time, and the reply comes back on the
// page; every board's data-fen is its last move's position. Waits are on events, the
// emulator's state and DOM observers.
#include <catch2/catch.hpp>

#include "tests/console_browser/console_page.hpp"
#include "tests/support/mosquitto.hpp"
#include "tests/support/process.hpp"
#include "tests/support/webdriver.hpp"

#include <sys/stat.h>

#include <boost/asio/post.hpp>

#include <chrono>
#include <fstream>
#include <map>
#include <thread>

#include "daemon/daemon.hpp"
#include "drivers/emu/dgt_emulator.hpp"

using namespace eboard;
using namespace eboard::daemon;
using nlohmann::json;

using consoletest::kWaitFor;
using consoletest::Watch;

TEST_CASE("eboard-hub's console in Chromium: boards from the pairings, an alert within 1 s, the penalty sent to the host over MQTT") {
    eboard::test::MosquittoBroker broker;
    eboard::test::TempDir dir("eboard-hub-console");
    const auto password = (dir.path / "arbiter-password").string();
    std::ofstream(password) << "hall-arbiter\n";
    ::chmod(password.c_str(), 0600);
    const auto pairings = (dir.path / "pairings.csv").string();
    std::ofstream(pairings) << "round,board,source,white,black\n"
                            << "1,7,pi1/t1,Carlsen Magnus,Nepomniachtchi Ian\n"
                            << "1,8,pi1/t2,Molinari,Bordais\n";

    // The hub, its port from its first line.
    eboard::test::Process hub(std::string(EBOARD_BIN_DIR) + "/eboard-hub",
                              {"--mqtt", broker.url(), "--http", "127.0.0.1:0", "--state-dir", (dir.path / "hub").string(),
                               "--pairings", pairings, "--arbiter-password-file", password},
                              "", "/dev/stdout");
    int port = 0;
    while (port == 0) {
        auto l = hub.line(20000);
        REQUIRE(l);
        if (const auto at = l->find("listening on http://127.0.0.1:"); at != std::string::npos)
            port = std::stoi(l->substr(at + 30));
    }

    // eboardd on host pi1.
    drivers::emu::DgtEmulatorOptions eo;
    eo.clock.left_ms = eo.clock.right_ms = 10 * 60 * 1000;
    eo.battery_percent = 12; // a Bluetooth board nearly flat (dgt.md 4.1)
    drivers::emu::DgtEmulator board(eo);
    Config c;
    c.boards.push_back(BoardConfig{"dgt.bluetooth:" + board.pty_slave_path(), "t1", {}, {}, {}, {}, {}, {}, {}});
    c.boards.push_back(BoardConfig{"emu-dgt:" EBOARD_REPO_DATA "/games/molinari-bordais-1979.pgn", "t2", {}, {}, {}, {}, {}, {}, {}});
    c.speed = 100;
    c.state_dir = (dir.path / "state").string();
    c.socket = (dir.path / "s").string();
    c.white_side = WhiteSide::Left;
    c.hall.mqtt = broker.url();
    c.hall.host_name = "pi1";
    consoletest::RunningDaemon daemon(c, dir.path);
    Watch events(c.socket);

    eboard::test::Browser browser;
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
    browser.open(url);
    // The paired boards, in the pairings' order, with their names.
    browser.run_async(kWaitFor, {"[data-board='pi1/t1'] + [data-board='pi1/t2']"});
    CHECK(browser.run("return document.querySelector(\"[data-board='pi1/t1']\").innerText;").get<std::string>().find(
              "Carlsen Magnus – Nepomniachtchi Ian") != std::string::npos);
    CHECK(browser.run("return document.querySelector(\"[data-board='pi1/t2'] h3\").textContent;") == "Board 8");

    // t1's game starts; the hub's page has it.
    for (;;) {
        const json e = events.next();
        if (e["class"] == "GAME" && e["board"] == "t1") break;
    }
    browser.run_async(kWaitFor, {"[data-board='pi1/t1'][data-fen*='/']"}, 5000);
    // t1's battery came over the broker in its BOARD event: shown, marked low.
    consoletest::check_low_battery(browser, "pi1/t1", 12);

    // White moves e2-e5 (illegal) and presses the clock.
    board.move(Square::parse("e2"), Square::parse("e5"));
    board.press_lever(drivers::ClockSide::Left);
    const json alert = events.next_of("ALERT");
    const std::int64_t event_ms = consoletest::wall_ms();
    REQUIRE(alert["kind"] == "illegal_move");
    const auto shown_ms =
        browser.run_async(kWaitFor, {"[data-alert-kind='illegal_move'][data-board='pi1/t1']"}, 5000).get<std::int64_t>();
    const std::int64_t delay = std::max<std::int64_t>(0, shown_ms - event_ms);
    std::printf("hub console: ALERT event (eboardd) -> shown on the hub's page: %lld ms\n", static_cast<long long>(delay));
    CHECK(delay < 1000);

    // The arbiter logs in (a wrong password refused).
    consoletest::log_in(browser);

    // The penalty from the board's page goes to pi1 over the broker: Black's clock gets 2 more
    // minutes (Art. 7.5.5, 2023), and the host's reply comes back on the page.
    consoletest::apply_penalty(browser, board, "pi1/t1", 15000);
    // A second penalty: the host refuses it (no illegal move awaits a decision), with its code.
    browser.run("document.getElementById('action-reply').textContent = '';");
    browser.run("document.querySelector(\"[data-action='penalty-apply']\").click();");
    browser.run_async(kWaitFor, {"#action-reply:not(:empty)"}, 15000);
    CHECK(browser.run("return document.getElementById('action-reply').textContent;").get<std::string>().find(
              "(no_penalty)") != std::string::npos);
    browser.run("location.hash = '';");
    CHECK(browser.run("return document.querySelectorAll(\"[data-alert-kind][data-board='pi1/t1']\").length;") == 0);

    // Every board's data-fen is the position after its last move made, once t2's replay ended.
    while (events.results["t2"] == 0) (void)events.next();
    browser.open(url);
    for (const auto& [name, fen] : events.fen) {
        INFO(name);
        CHECK_NOTHROW(browser.run_async(kWaitFor, {"[data-board='pi1/" + name + "'][data-fen='" + fen + "']"}, 5000));
    }
    CHECK(events.fen.size() == 2);
    std::ofstream(EBOARD_BIN_DIR "/../tests/hub-console.png", std::ios::binary) << browser.screenshot_png();

    CHECK(daemon.stop() == 0);
    hub.signal(SIGTERM);
    CHECK(hub.wait_exit() == 0);
}
