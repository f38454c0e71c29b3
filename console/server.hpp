// The arbiters' console served over HTTP (docs/console.md, "The HTTP API"): the routes of the
// page and its API on a web::Server, the console's Model fed with the events, the arbiter's
// sessions, and the live feed (/api/live) to every open page. eboardd (--http) and eboard-hub
// each make one; what differs is where the events come from (on_event) and how an arbiter's
// request is carried out (Hooks::execute).
// Single-threaded: every call on the server's io_context thread.
#pragma once

#include "console/auth.hpp"
#include "console/model.hpp"
#include "web/server.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace eboard::console {

/// What the owning server does for the console.
struct Hooks {
    /// Carries out a client API request (an object with `class` RESULT, PENALTY, CLOCK,
    /// TAKEBACK or SET_POSITION; docs/client-api.md) and returns its reply (OK …, or ERROR with
    /// `code`). Called only for an arbiter's session.
    std::function<nlohmann::json(const nlohmann::json& request)> execute;
    /// The same, answered later (eboard-hub: a round trip to the host over MQTT): calls `done`
    /// once, on the server's thread, with the reply. Used instead of `execute` when set.
    std::function<void(const nlohmann::json& request, std::function<void(nlohmann::json reply)> done)> execute_async;
};

/// The console on `web` (routes registered at construction, before web.listen()).
class Server {
  public:
    /// `server_name`: "eboardd" or "eboard-hub"; `password`: the arbiter password (nullopt:
    /// none configured, every login refused).
    Server(web::Server& web, std::string server_name, std::optional<std::string> password, Hooks hooks);
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    /// An event as on `--events` (with `host` on the hub): the model takes it and every open
    /// page gets the board it changed.
    void on_event(const nlohmann::json& event);
    /// The pairings' view of a board (eboard-hub), sent to the open pages.
    void set_pairing(const std::string& id, std::string label, std::optional<int> number, std::optional<int> round,
                     std::string white, std::string black);
    /// A live clock reading of board `id`, sent to the open pages.
    void set_clock(const std::string& id, Clock clock);
    [[nodiscard]] const Model& model() const { return model_; }

  private:
    web::Response login(const web::Request& r);
    web::Response logout(const web::Request& r);
    void request(const web::Request& r, const std::function<void(web::Response)>& respond);
    /// The answer to an arbiter's `request` whose reply is `reply`: an accepted action settles
    /// the board's open alerts.
    web::Response replied(const nlohmann::json& request, const nlohmann::json& reply);
    web::Response acknowledge(const web::Request& r);
    /// The refusal of a POST that may be cross-site or lacks a session (`need_session`), or
    /// nullopt when it may go on.
    std::optional<web::Response> refusal(const web::Request& r, bool need_session) const;
    [[nodiscard]] bool logged_in(const web::Request& r) const;
    void broadcast(const std::string& id);

    std::string name_;
    Hooks hooks_;
    Model model_;
    Sessions sessions_;
    std::set<std::shared_ptr<web::WebSocket>> pages_;
};

/// Milliseconds of the monotonic clock (the model's `mono_ms`).
std::int64_t mono_now_ms();
/// Milliseconds since the epoch (the alerts' times).
std::int64_t wall_now_ms();

} // namespace eboard::console
