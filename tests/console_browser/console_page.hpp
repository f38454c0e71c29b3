// What the Chromium tests of the arbiters' console share (eboardd's and eboard-hub's): a
// watching client of eboardd's events with each board's last FEN, and the scripts that wait in
// the page (DOM observers, no polling) and log in.
#pragma once

#include <catch2/catch.hpp>

#include "daemon/daemon.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "tests/support/process.hpp"
#include "tests/support/webdriver.hpp"

#include <boost/asio/post.hpp>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace consoletest {

/// Milliseconds since the epoch (the page's Date.now()).
inline std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// The events of a watching client, with the FEN each board last showed (GAME start or MOVE).
struct Watch {
    eboard::test::LineSocket socket;
    std::map<std::string, std::string> fen;
    std::map<std::string, int> results;
    explicit Watch(const std::string& path) : socket(path) {
        (void)next();
        socket.send("{\"class\":\"WATCH\"}\n");
    }
    nlohmann::json next() {
        auto l = socket.line();
        REQUIRE(l.has_value()); // the daemon said nothing in time
        nlohmann::json j = nlohmann::json::parse(*l);
        const std::string cls = j.value("class", "");
        if (cls == "MOVE" || (cls == "GAME" && j.value("event", "") != "end")) fen[j["board"]] = j["fen"];
        if (cls == "RESULT") ++results[j["board"]];
        return j;
    }
    nlohmann::json next_of(const std::string& cls) {
        for (;;) {
            nlohmann::json j = next();
            if (j["class"] == cls) return j;
        }
    }
};

/// eboardd in this process on its own thread, ready (sd_notify READY=1 on a socket in `dir`)
/// when the constructor returns.
struct RunningDaemon {
    eboard::daemon::Daemon daemon;
    int status = -1;
    std::thread loop;
    RunningDaemon(const eboard::daemon::Config& config, const std::filesystem::path& dir) : daemon(config) {
        eboard::test::NotifySocket notify((dir / "notify").string());
        setenv("NOTIFY_SOCKET", notify.path().c_str(), 1);
        loop = std::thread([this] { status = daemon.run(); });
        REQUIRE(notify.wait_for("READY=1"));
        unsetenv("NOTIFY_SOCKET");
    }
    /// Stops it as SIGTERM does; its exit status.
    int stop() {
        boost::asio::post(daemon.io(), [this] { daemon.stop(); });
        loop.join();
        return status;
    }
    RunningDaemon(const RunningDaemon&) = delete;
    RunningDaemon& operator=(const RunningDaemon&) = delete;
    ~RunningDaemon() {
        if (loop.joinable()) (void)stop();
    }
};

/// Waits in the page until `selector` matches an element (a MutationObserver, no polling);
/// returns Date.now() at that moment. Throws after the script's timeout.
inline const char* const kWaitFor = R"(
const [selector, done] = arguments;
const seen = () => document.querySelector(selector);
if (seen()) return done(Date.now());
new MutationObserver((_, o) => { if (seen()) { o.disconnect(); done(Date.now()); } })
  .observe(document.documentElement, {childList: true, subtree: true, attributes: true, characterData: true});
)";

/// Logs in with the password given; returns what the page then says ("Logged in", "wrong password").
inline const char* const kLogin = R"(
const [password, done] = arguments;
document.getElementById('password').value = password;
document.getElementById('login').requestSubmit();
const state = document.getElementById('login-state');
new MutationObserver((_, o) => { if (state.textContent) { o.disconnect(); done(state.textContent); } })
  .observe(state, {childList: true, characterData: true, subtree: true});
)";

/// The board `id` shows its battery `percent` marked low: the card's data-battery and
/// data-battery-low, the red mark, and "low" in the text a screen reader reads. Boards without
/// a battery show none.
inline void check_low_battery(eboard::test::Browser& browser, const std::string& id, int percent) {
    const std::string card = "[data-board='" + id + "']";
    browser.run_async(kWaitFor, {card + "[data-battery='" + std::to_string(percent) +
                                 "'][data-battery-low='true'] .battery[data-low='true']"});
    CHECK(browser.run("return document.querySelector(arguments[0]).textContent;", {card + " .battery"})
              .get<std::string>()
              .find("battery low: " + std::to_string(percent) + "%") != std::string::npos);
    CHECK(browser.run("return document.querySelectorAll('[data-board]:not([data-battery]) .battery').length;") == 0);
}

/// A wrong password is refused; the right one ("hall-arbiter") opens the actions.
inline void log_in(eboard::test::Browser& browser) {
    CHECK(browser.run_async(kLogin, {"not-the-password"}).get<std::string>() == "wrong password");
    browser.run("document.getElementById('login-state').textContent = '';");
    CHECK(browser.run_async(kLogin, {"hall-arbiter"}).get<std::string>() == "Logged in");
}

/// The penalty applied from the page of board `id` (logged in): the page says it was done, and
/// Black's clock on `board` gets 2 more minutes (Art. 7.5.5, 2023) within 5 s. `reply_ms`: how
/// long the page may wait for the reply (the hub's goes over the broker to the host).
inline void apply_penalty(eboard::test::Browser& browser, eboard::drivers::emu::DgtEmulator& board,
                          const std::string& id, int reply_ms) {
    const auto before = board.clock().times;
    browser.run("location.hash = '#board=' + encodeURIComponent(arguments[0]);", {id});
    browser.run_async(kWaitFor, {"#actions:not([hidden]) [data-action='penalty-apply']"});
    browser.run("document.querySelector(\"[data-action='penalty-apply']\").click();");
    browser.run_async(kWaitFor, {"#action-reply:not(:empty)"}, reply_ms);
    CHECK(browser.run("return document.getElementById('action-reply').textContent;").get<std::string>() ==
          "PENALTY: done (+2min)");
    CHECK(board.wait_until([&](const eboard::drivers::emu::DgtBoardEmu& m) {
        return m.clock().state().times.right_ms >= before.right_ms + 110 * 1000;
    }, 5000));
}

} // namespace consoletest
