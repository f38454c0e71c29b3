// An MQTT client over libmosquitto (MQTT 3.1.1) with its own network thread, for the tournament
// hall (docs/hall.md): eboardd publishes its events through one, eboard-hub subscribes with one.
//
// Contract:
// - start() returns at once; the thread connects, and after a lost connection or a failed
//   attempt connects again after a back-off that doubles from `reconnect_min` to
//   `reconnect_max` (0.1 s … 30 s by default) and starts again from `reconnect_min` after a
//   CONNACK. Nothing the caller does blocks on the network: publish() only queues.
// - Every connection is a fresh libmosquitto handle: nothing the library queued on a lost
//   connection is sent again by it. What must survive a lost connection is the caller's to keep
//   and publish again from `connected` (eboardd: the outbox in its store).
// - The callbacks run on the client's thread, one at a time; they may call publish(). `message`
//   is called before the QoS 1 PUBACK is sent (libmosquitto's order), so a subscriber that
//   commits the message in the callback acknowledges only what it has committed.
// - Subscriptions given to subscribe() are made again on every connection.
#pragma once

#include "mqtt/url.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

struct mosquitto;
struct mosquitto_message;

namespace eboard::mqtt {

/// The last-will message the broker publishes when the connection is lost without a DISCONNECT
/// (the hall's `eboard/v1/<host>/status` = offline).
struct Will {
    std::string topic;
    std::string payload;
    int qos = 1;
    bool retain = true;
};

/// How to connect. `password`, when not empty, replaces the URL's (read from
/// `mqtt-password-file`); `ca_file` is the CA bundle for mqtts:// (empty: the system's,
/// /etc/ssl/certs). `client_id` empty lets the broker choose one (only with `clean_session`);
/// a persistent session (`clean_session` false) needs a fixed id.
struct ClientOptions {
    Url url;
    std::string client_id;
    bool clean_session = true;
    std::string password;
    std::string ca_file;
    std::optional<Will> will;
    int keepalive_s = 30;
    std::chrono::milliseconds reconnect_min{100};
    std::chrono::milliseconds reconnect_max{30000};
};

/// A message received on a subscription.
struct Message {
    std::string topic;
    std::string payload;
    int qos = 0;
    bool retain = false;
};

/// What the client tells its owner, on the client's thread. Each may be empty.
struct Callbacks {
    /// A CONNACK accepted the connection; `session_present` as the broker says (a persistent
    /// session it kept). Publish what is still unacknowledged from here.
    std::function<void(bool session_present)> connected;
    /// The connection is gone or an attempt failed; `reason` for the log.
    std::function<void(const std::string& reason)> disconnected;
    /// The broker acknowledged (PUBACK) the QoS 1 message publish() returned `mid` for, on the
    /// current connection.
    std::function<void(int mid)> published;
    /// A message of a subscription; the PUBACK follows when this returns.
    std::function<void(const Message&)> message;
};

/// The client; see the header comment. Not copyable; the destructor stops the thread.
class Client {
  public:
    Client(ClientOptions options, Callbacks callbacks);
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    /// Starts the network thread (once).
    void start();
    /// Disconnects cleanly (no will), stops and joins the thread. Idempotent.
    void stop();
    /// Queues a message on the current connection: its message id (for `published`), or
    /// nullopt when there is no connection or libmosquitto refused it (the caller keeps it and
    /// publishes it again from `connected`).
    std::optional<int> publish(const std::string& topic, std::string_view payload, int qos, bool retain);
    /// Subscribes to `pattern` (MQTT wildcards) at `qos` now if connected and on every later
    /// connection.
    void subscribe(const std::string& pattern, int qos);
    /// Whether a CONNACK has been received on the current connection.
    [[nodiscard]] bool connected() const;

  private:
    void run();
    bool connect_once(); // one connection: false when stopping
    static void on_connect(mosquitto* m, void* self, int rc, int flags);
    static void on_disconnect(mosquitto* m, void* self, int rc);
    static void on_publish(mosquitto* m, void* self, int mid);
    static void on_message(mosquitto* m, void* self, const mosquitto_message* msg);

    ClientOptions options_;
    Callbacks callbacks_;
    mutable std::mutex mutex_; // guards mosq_, connected_, subscriptions_, stopping_
    std::condition_variable wake_;
    mosquitto* mosq_ = nullptr;
    bool connected_ = false;
    bool stopping_ = false;
    bool connack_seen_ = false; // on the thread only: a CONNACK on this connection
    std::string last_error_;    // on the thread only
    std::vector<std::pair<std::string, int>> subscriptions_;
    std::thread thread_;
};

} // namespace eboard::mqtt
