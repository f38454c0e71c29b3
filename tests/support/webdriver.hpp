// A real headless Chromium for the tests of the web pages (the arbiters' console): Debian's
// chromium and chromium-driver, driven over the W3C WebDriver protocol (JSON over HTTP, Boost.Beast
// as the client). ChromeDriver is ready when it prints that it started; every call has a deadline
// (ChromeDriver's own, and a socket timeout here). Header-only.
#pragma once

#include "mosquitto.hpp" // free_loopback_port
#include "process.hpp"
#include "ws_client.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace eboard::test {

/// The chromedriver binary, or "" when chromium-driver is not installed (scripts/deps installs it).
inline std::string chromedriver_binary() {
    for (const char* p : {"/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"})
        if (::access(p, X_OK) == 0) return p;
    return "";
}

/// A headless Chromium session through a ChromeDriver of its own. Throws std::runtime_error
/// with WebDriver's message when a command fails.
class Browser {
  public:
    Browser() : dir_("eboard-chromium"), port_(free_loopback_port()) {
        if (chromedriver_binary().empty()) throw std::runtime_error("chromium-driver is not installed (scripts/deps)");
        driver_ = std::make_unique<Process>(chromedriver_binary(),
                                            std::vector<std::string>{"--port=" + std::to_string(port_)}, "",
                                            (dir_.path / "chromedriver.log").string());
        for (;;) {
            auto l = driver_->line(20000);
            if (!l) throw std::runtime_error("chromedriver did not start");
            if (l->find("started successfully") != std::string::npos) break;
        }
        const nlohmann::json caps = {
            {"capabilities",
             {{"alwaysMatch",
               {{"browserName", "chrome"},
                {"goog:chromeOptions",
                 {{"args",
                   {"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1280,900", "--user-data-dir=" + (dir_.path / "profile").string()}}}}}}}}};
        const auto r = command(boost::beast::http::verb::post, "/session", caps, false);
        session_ = r["value"]["sessionId"].get<std::string>();
    }
    ~Browser() {
        try {
            if (!session_.empty()) command(boost::beast::http::verb::delete_, "", nullptr);
        } catch (...) { // NOLINT(bugprone-empty-catch): the driver is killed below anyway
        }
    }
    Browser(const Browser&) = delete;
    Browser& operator=(const Browser&) = delete;

    /// Loads `url` and waits for the page's load event.
    void open(const std::string& url) { command(boost::beast::http::verb::post, "/url", {{"url", url}}); }
    /// Runs `script` (a function body; `arguments` are `args`) in the page; its return value.
    nlohmann::json run(const std::string& script, nlohmann::json args = nlohmann::json::array()) {
        return command(boost::beast::http::verb::post, "/execute/sync", {{"script", script}, {"args", std::move(args)}})["value"];
    }
    /// Runs `script` asynchronously: it calls `arguments[arguments.length - 1](value)` when done
    /// (e.g. from a MutationObserver); waits at most `timeout_ms`. Its value.
    nlohmann::json run_async(const std::string& script, nlohmann::json args = nlohmann::json::array(),
                             int timeout_ms = 20000) {
        command(boost::beast::http::verb::post, "/timeouts", {{"script", timeout_ms}});
        return command(boost::beast::http::verb::post, "/execute/async", {{"script", script}, {"args", std::move(args)}})["value"];
    }
    /// The page as a PNG image (its bytes).
    std::string screenshot_png() {
        return base64_decode(command(boost::beast::http::verb::get, "/screenshot", nullptr)["value"].get<std::string>());
    }

    /// The bytes of base64 text (RFC 4648; what is not of its alphabet is skipped).
    static std::string base64_decode(const std::string& text) {
        std::string out;
        unsigned bits = 0;
        int count = 0;
        for (const char ch : text) {
            int v = -1;
            if (ch >= 'A' && ch <= 'Z') v = ch - 'A';
            else if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 26;
            else if (ch >= '0' && ch <= '9') v = ch - '0' + 52;
            else if (ch == '+') v = 62;
            else if (ch == '/') v = 63;
            if (v < 0) continue;
            bits = (bits << 6) | static_cast<unsigned>(v);
            count += 6;
            if (count >= 8) {
                count -= 8;
                out += static_cast<char>((bits >> count) & 0xFF);
            }
        }
        return out;
    }

  private:
    nlohmann::json command(boost::beast::http::verb verb, const std::string& path, const nlohmann::json& body,
                           bool in_session = true) {
        const std::string target = in_session ? "/session/" + session_ + path : path;
        const auto reply = http_request("127.0.0.1", static_cast<std::uint16_t>(port_), verb, target,
                                        body.is_null() ? "" : body.dump(), {{"Content-Type", "application/json"}},
                                        std::chrono::seconds(60));
        auto r = reply.body.empty() ? nlohmann::json() : nlohmann::json::parse(reply.body);
        if (r.contains("value") && r["value"].is_object() && r["value"].contains("error"))
            throw std::runtime_error("webdriver: " + r["value"]["error"].get<std::string>() + ": " +
                                     r["value"].value("message", std::string()));
        return r;
    }

    TempDir dir_;
    int port_;
    std::unique_ptr<Process> driver_;
    std::string session_;
};

} // namespace eboard::test
