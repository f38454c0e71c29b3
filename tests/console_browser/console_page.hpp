// What the Chromium tests of the arbiters' console share (eboardd's and eboard-hub's): a
// watching client of eboardd's events with each board's last FEN, and the scripts that wait in
// the page (DOM observers, no polling) and log in.
#pragma once

#include <catch2/catch.hpp>

#include "daemon/daemon.hpp"
#include "tests/support/process.hpp"

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

} // namespace consoletest
