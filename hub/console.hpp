// The arbiters' console on eboard-hub (docs/console.md; interfaces.md, "The arbiters' console"):
// the same page and code as eboardd's (console/server.hpp) on the hub's HTTP server, for every
// board of the hall. The console's model takes the events the hub ingests from the broker (each
// once: resends are left out), the boards' numbers, labels and players come from the pairings of
// the current round (Hall::round), and an arbiter's request goes to the host that owns the board
// over the broker (docs/hall.md, "Arbiter requests"): published on
// `eboard/v1/<host>/<board>/request` with an `id`, answered on `.../reply`; no reply within the
// timeout is an ERROR with code `no_reply`.
//
// Threads: take() and ingested() are called on the MQTT client's thread and only post to the
// loop; everything else runs on the loop's thread.
#pragma once

#include "console/server.hpp"
#include "hub/hall.hpp"
#include "hub/store.hpp"
#include "mqtt/client.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace eboard::hub {

class HubConsole {
  public:
    /// How long the hub waits for a host's reply to an arbiter's request.
    static constexpr std::chrono::milliseconds kReplyTimeout{10000};

    /// The console on `web` (before the loop runs), with the arbiter `password` (nullopt: every
    /// login refused, the page read-only).
    HubConsole(boost::asio::io_context& io, web::Server& web, std::optional<std::string> password, const Hall& hall,
               const HallStore& store, std::chrono::milliseconds reply_timeout = kReplyTimeout);
    HubConsole(const HubConsole&) = delete;
    HubConsole& operator=(const HubConsole&) = delete;
    HubConsole(HubConsole&&) = delete;
    HubConsole& operator=(HubConsole&&) = delete;

    /// The client that carries the requests to the hosts (its publish() is thread-safe).
    void attach(mqtt::Client& client) { client_ = &client; }

    /// The pairings of the current round and the stored games of its boards (at start, after
    /// the pairings are loaded).
    void seed();
    /// The boards' pairings again (the pairings were reloaded, or a game started: the current
    /// round may have changed).
    void refresh_pairings();

    /// A message of the request and reply topics (client thread): a reply is matched to its
    /// request; true when `m` is one of them (it is not for the store).
    bool take(const mqtt::Message& m);
    /// A message the store took (client thread): the console's model takes its event unless
    /// it was a resend.
    void ingested(const mqtt::Message& m, const Ingested& what);

    [[nodiscard]] const console::Server& server() const { return *console_; }

  private:
    /// Publishes an arbiter's request to the board's host; `done` gets the reply, or an ERROR.
    void execute(const nlohmann::json& request, std::function<void(nlohmann::json)> done);
    void on_reply(const std::string& payload);
    void on_event(const nlohmann::json& event);

    struct Pending {
        std::function<void(nlohmann::json)> done;
        std::unique_ptr<boost::asio::steady_timer> timer;
    };

    boost::asio::io_context& io_;
    const Hall& hall_;
    const HallStore& store_;
    std::chrono::milliseconds reply_timeout_;
    mqtt::Client* client_ = nullptr;
    std::unique_ptr<console::Server> console_;
    std::map<std::int64_t, Pending> pending_; // by the request's id
    std::int64_t next_id_ = 1;
    bool refresh_posted_ = false; // a refresh_pairings() is queued on the loop
};

} // namespace eboard::hub
