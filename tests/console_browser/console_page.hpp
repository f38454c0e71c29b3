// What the Chromium tests of the arbiters' console share (eboardd's and eboard-hub's): a
// watching client of eboardd's events with each board's last FEN, and the scripts that wait in
// the page (DOM observers, no polling) and log in.
#pragma once

#include <catch2/catch.hpp>

#include "tests/support/process.hpp"

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
