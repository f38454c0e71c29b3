// eboardd's part of the tournament hall (docs/hall.md; interfaces.md, "The tournament hall"):
// every recorded event goes to the hall's MQTT broker, through an outbox in the store.
//
// - In the transaction that records an event (Recorder::set_outbox), its messages go into the
//   store's outbox table: the event on `eboard/v1/<host>/<board>/<class>` and, when it changes
//   what the board shows, the board's retained `.../state` (hall_topics.hpp). So a completed
//   move is in the outbox exactly when it is durable in the store, never before.
// - The outbox is sent in order (seq) on the loop's thread, QoS 1, at most kWindow messages
//   unacknowledged at a time; each is removed when its PUBACK comes. Nothing waits for the
//   network: without a broker the outbox only grows (bounded by the disk), and the MQTT
//   client's own thread connects again with a back-off of 0.1 s ... 30 s (mqtt/client.hpp).
// - After every connection (a reconnect, or a restart of eboardd) the whole outbox is sent
//   again from its first message: a message sent but not acknowledged may reach a subscriber
//   twice (it de-duplicates by host, board, game, ply, status), none is lost.
// - End-to-end confirmation (--mqtt-confirm; docs/hall.md): each payload also names its row
//   (`"outbox"`, `"seq"`), a message stays in the outbox after its PUBACK until eboard-hub's
//   retained mark `eboard/v1/<host>/received` covers it, and after a reconnect what no
//   mark covers is sent again in order. A broker that crashes after its PUBACK and before it
//   saved the message therefore loses nothing. Without the option a PUBACK removes the row.
//   A first row sent and still not covered after 5 s (doubling up to 5 min) is sent again
//   with all that follows it, in order: a broker that lost the hub's subscription dropped it.
// - `eboard/v1/<host>/status` is `online` (retained) after every connection; the will sets it
//   `offline` when the connection is lost, and a clean exit (stop()) publishes `offline`.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "daemon/events.hpp"
#include "daemon/recorder.hpp"
#include "daemon/store.hpp"
#include "mqtt/client.hpp"

namespace eboard::daemon {

class HallPublisher {
  public:
    /// At most this many messages sent and not acknowledged at once.
    static constexpr std::size_t kWindow = 256;

    /// Publishes for `host` (the `--host-name`) with `options` (hall_client_options()).
    HallPublisher(boost::asio::io_context& io, Store& store, mqtt::ClientOptions options, std::string host);
    /// stop()s.
    ~HallPublisher();
    HallPublisher(const HallPublisher&) = delete;
    HallPublisher& operator=(const HallPublisher&) = delete;

    /// Writes the outbox with every event `recorder` records from now on, sends it after
    /// each commit, and starts the client (its thread connects).
    void start(Recorder& recorder);

    /// Keeps every message until the hub's `received` mark covers it (--mqtt-confirm); before
    /// start(). An error when the store cannot give its outbox id.
    [[nodiscard]] Expected<bool> confirm_end_to_end();

    /// A clean exit: `offline` on the status topic, DISCONNECT, the client's thread joined.
    /// What is not acknowledged stays in the outbox for the next start. Idempotent.
    void stop();

    /// The outbox messages of `event` (its JSON `line`), written in the open batch.
    [[nodiscard]] Expected<bool> write_outbox(Store& store, const Event& event, const std::string& line);

  private:
    /// What a board's retained state message says.
    struct BoardState {
        bool connected = true;
        std::string game;
        std::string fen;
        int ply = 0;
        std::optional<MoveClock> clock;
        std::string result;
        bool ended = false;
        std::optional<Battery> battery = std::nullopt; ///< the last BOARD event's
    };
    /// Updates the board's state from `event`; true when the state message changes.
    bool update_state(const Event& event);
    /// One outbox row; with confirm_ its payload names the row (with_outbox_seq()).
    [[nodiscard]] Expected<bool> add_row(Store& store, const std::string& topic, const std::string& payload, bool retain);
    [[nodiscard]] std::string state_payload(const std::string& board, const BoardState& state) const;
    /// Sends the outbox from the cursor, up to kWindow unacknowledged.
    void pump();
    void schedule_pump();
    /// Removes the acknowledged messages from the outbox.
    void remove_acked();
    void on_connected();
    void on_disconnected(const std::string& reason);
    void on_published(int mid);
    /// A message of a subscription (on the loop).
    void on_message(const mqtt::Message& message);
    /// A `received` mark: the rows it covers leave the outbox (once per loop turn).
    void on_received(const std::string& payload);
    void remove_confirmed();
    /// With confirm_: sends the outbox again from its first row when that row was sent and no
    /// mark has covered it for a while (a broker that lost the hub's subscription and so dropped
    /// it, a hub away): every 5 s, doubling up to 5 min while nothing moves.
    void arm_resend();

    boost::asio::io_context& io_;
    Store& store_;
    std::string host_;
    std::string url_; // redacted, for the log
    std::unique_ptr<mqtt::Client> client_;
    std::unordered_map<std::string, BoardState> boards_;
    bool connected_ = false;         // on the loop: a CONNACK came and no loss since
    bool ever_connected_ = false;
    bool failing_logged_ = false;    // a failed attempt was logged since the last connection
    std::int64_t cursor_ = 0;        // the last seq sent on this connection
    std::map<int, std::int64_t> in_flight_; // mid -> seq, sent on this connection
    std::vector<std::int64_t> acked_;        // seqs acknowledged, not yet removed
    bool pump_scheduled_ = false;
    bool remove_scheduled_ = false;
    bool stopped_ = false;
    bool confirm_ = false;      // --mqtt-confirm
    std::string outbox_id_;     // the store's, with confirm_
    std::int64_t confirmed_ = 0; // the highest mark received, not yet removed
    bool confirmed_scheduled_ = false;
    std::optional<boost::asio::steady_timer> resend_timer_;
    std::chrono::seconds resend_after_{5};
    std::int64_t stalled_first_ = 0; // the outbox's first row at the last check
    // Set false by the destructor: a callback posted to the loop finds the publisher gone.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace eboard::daemon
