// The arbiters' requests that come from eboard-hub's console to this host over the hall's broker
// (docs/hall.md, "Arbiter requests"; docs/console.md):
//   eboard/v1/<host>/<board>/request   the hub publishes a client API request (QoS 1), with `id`
//   eboard/v1/<host>/<board>/reply     eboardd publishes the reply (QoS 1), the same `id`
// eboardd (with --mqtt) subscribes to its own host's requests on a connection of its own (a
// clean session: a request made while eboardd was away is never carried out late; the hub has
// given up on it), runs each through the client API's dispatcher (the same rules and error
// codes as the Unix socket and the console) and publishes the reply. The names in the topics
// are topic levels (hall_topics.hpp); the request's `board` is the board's name.
#pragma once

#include <boost/asio/io_context.hpp>

#include <memory>
#include <string>
#include <string_view>

#include "daemon/commands.hpp"
#include "mqtt/client.hpp"

namespace eboard::daemon {

/// `eboard/v1/<host>/<board>/request`.
[[nodiscard]] std::string request_topic(std::string_view host, std::string_view board);
/// `eboard/v1/<host>/<board>/reply`.
[[nodiscard]] std::string reply_topic(std::string_view host, std::string_view board);

class HallRequests {
  public:
    /// Takes the requests for `host` (the --host-name) on a connection with `options`
    /// (hall_client_options(); its will is dropped: this connection says nothing of the host's
    /// status) and carries them out through `handler` on `io`'s thread.
    HallRequests(boost::asio::io_context& io, mqtt::ClientOptions options, std::string host, CommandHandler& handler);
    ~HallRequests();
    HallRequests(const HallRequests&) = delete;
    HallRequests& operator=(const HallRequests&) = delete;
    HallRequests(HallRequests&&) = delete;
    HallRequests& operator=(HallRequests&&) = delete;

    /// Subscribes and starts the client's thread.
    void start();
    /// Disconnects and joins the thread. Idempotent.
    void stop();

  private:
    /// One request message (on the loop's thread): carried out, its reply published.
    void carry_out(const std::string& topic, const std::string& payload);

    boost::asio::io_context& io_;
    std::string host_;
    CommandHandler& handler_;
    std::unique_ptr<mqtt::Client> client_;
    // Set false by the destructor: a message posted to the loop finds this gone.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace eboard::daemon
