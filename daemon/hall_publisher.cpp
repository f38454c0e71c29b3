#include "daemon/hall_publisher.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <string_view>
#include <type_traits>
#include <utility>

#include "daemon/hall_topics.hpp"
#include "daemon/log.hpp"

namespace eboard::daemon {

HallPublisher::HallPublisher(boost::asio::io_context& io, Store& store, mqtt::ClientOptions options,
                             std::string host)
    : io_(io), store_(store), host_(std::move(host)), url_(mqtt::redacted(options.url)) {
    // The client's callbacks run on its thread: each goes to the loop, in order.
    auto post = [this, alive = alive_](auto handler) {
        boost::asio::post(io_, [alive, handler = std::move(handler)] {
            if (*alive) handler();
        });
    };
    mqtt::Callbacks callbacks;
    callbacks.connected = [this, post](bool) { post([this] { on_connected(); }); };
    callbacks.disconnected = [this, post](const std::string& reason) {
        post([this, reason] { on_disconnected(reason); });
    };
    callbacks.published = [this, post](int mid) { post([this, mid] { on_published(mid); }); };
    callbacks.message = [this, post](const mqtt::Message& m) { post([this, m] { on_message(m); }); };
    client_ = std::make_unique<mqtt::Client>(std::move(options), std::move(callbacks));
}

HallPublisher::~HallPublisher() {
    stop();
    *alive_ = false;
}

void HallPublisher::start(Recorder& recorder) {
    recorder.set_outbox([this](Store& store, const Event& e, const std::string& line) {
        return write_outbox(store, e, line);
    });
    // After each commit that wrote to the outbox: send it (once per loop turn).
    recorder.add_sink([this](const Event&, const std::string&) { schedule_pump(); });
    const std::int64_t waiting = store_.outbox_size();
    log_info("mqtt: publishing as host " + host_ + " to " + url_ +
             (waiting > 0 ? "; " + std::to_string(waiting) + " messages wait in the outbox" : std::string()));
    client_->start();
    if (confirm_) arm_resend();
}

Expected<bool> HallPublisher::confirm_end_to_end() {
    auto id = store_.outbox_id();
    if (!id) return id.error();
    outbox_id_ = std::move(*id);
    confirm_ = true;
    client_->subscribe(received_topic(host_), 1);
    return true;
}

void HallPublisher::stop() {
    if (stopped_) return;
    stopped_ = true;
    // Queued before the DISCONNECT, which the client sends after it (the will is not sent
    // on a clean DISCONNECT).
    if (connected_) (void)client_->publish(status_topic(host_), "offline", 1, true);
    client_->stop();
    remove_acked(); // the resend timer's next tick sees stopped_
    if (const std::int64_t waiting = store_.outbox_size(); waiting > 0)
        log_info("mqtt: " + std::to_string(waiting) + " messages wait in the outbox for the next start (" +
                 std::to_string(in_flight_.size()) + " were sent and not acknowledged)");
}

Expected<bool> HallPublisher::write_outbox(Store& store, const Event& event, const std::string& line) {
    const std::string& board = event_board(event);
    if (board.empty() || std::holds_alternative<VersionEvent>(event)) return true;
    if (auto ok = add_row(store, event_topic(host_, board, event_class(event)), event_payload(line, host_), false); !ok)
        return ok;
    if (!update_state(event)) return true;
    return add_row(store, state_topic(host_, board), state_payload(board, boards_[board]), true);
}

Expected<bool> HallPublisher::add_row(Store& store, const std::string& topic, const std::string& payload, bool retain) {
    if (!confirm_) return store.add_outbox(topic, payload, retain);
    auto seq = store.add_outbox_numbered(
        topic, [&](std::int64_t s) { return with_outbox_seq(payload, outbox_id_, s); }, retain);
    if (!seq) return seq.error();
    return true;
}

bool HallPublisher::update_state(const Event& event) {
    BoardState& s = boards_[event_board(event)];
    return std::visit(
        [&s](const auto& e) -> bool {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, BoardEvent>) {
                s.connected = e.connected;
                s.battery = e.battery;
                return true;
            } else if constexpr (std::is_same_v<T, GameEvent>) {
                if (e.kind == GameEvent::Kind::Start) {
                    s = BoardState{s.connected, e.game, e.fen, 0, std::nullopt, "", false, s.battery};
                } else if (e.kind == GameEvent::Kind::End) {
                    s.game = e.game;
                    s.ended = true;
                } else {
                    s.game = e.game;
                    s.fen = e.fen;
                    s.ply = e.ply.value_or(0);
                }
                return true;
            } else if constexpr (std::is_same_v<T, MoveEvent>) {
                if (e.game != s.game) s = BoardState{s.connected, e.game, "", 0, std::nullopt, "", false, s.battery};
                s.fen = e.fen;
                s.ply = e.ply;
                if (e.clock) s.clock = e.clock;
                return true;
            } else if constexpr (std::is_same_v<T, ResultEvent>) {
                s.game = e.game;
                s.result = e.result;
                return true;
            } else {
                return false; // TOUCH, ALERT: what the board shows is the same
            }
        },
        event);
}

std::string HallPublisher::state_payload(const std::string& board, const BoardState& s) const {
    nlohmann::ordered_json j{{"host", host_}, {"board", board}};
    j["state"] = !s.connected ? "disconnected" : s.game.empty() ? "idle" : s.ended || !s.result.empty() ? "ended" : "playing";
    if (!s.game.empty()) {
        j["game"] = s.game;
        if (!s.fen.empty()) j["fen"] = s.fen;
        j["ply"] = s.ply;
        if (s.clock) j["clock"] = nlohmann::ordered_json{{"white_ms", s.clock->white_ms}, {"black_ms", s.clock->black_ms}};
        if (!s.result.empty()) j["result"] = s.result;
    }
    if (s.battery) j["battery"] = battery_json(*s.battery);
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void HallPublisher::schedule_pump() {
    if (pump_scheduled_ || !connected_) return;
    pump_scheduled_ = true;
    boost::asio::post(io_, [this, alive = alive_] {
        if (!*alive) return;
        pump_scheduled_ = false;
        pump();
    });
}

void HallPublisher::pump() {
    while (connected_ && !stopped_ && in_flight_.size() < kWindow) {
        const auto rows = store_.outbox_after(cursor_, static_cast<int>(kWindow - in_flight_.size()));
        if (rows.empty()) return;
        for (const auto& row : rows) {
            const auto mid = client_->publish(row.topic, row.payload, 1, row.retain);
            // The connection is gone: on_connected() sends again from the first message.
            if (!mid) {
                log_info("mqtt: a message was not sent (no connection); it is sent again on the next one");
                return;
            }
            in_flight_[*mid] = row.seq;
            cursor_ = row.seq;
        }
    }
}

void HallPublisher::remove_acked() {
    remove_scheduled_ = false;
    if (acked_.empty()) return;
    // A removal the store refuses (a full disk) only sends those messages again later.
    if (auto ok = store_.remove_outbox(acked_); !ok) log_warning("mqtt: outbox: " + ok.error().message);
    acked_.clear();
}

void HallPublisher::on_connected() {
    if (stopped_) return;
    connected_ = true;
    failing_logged_ = false;
    remove_acked();
    in_flight_.clear();
    cursor_ = 0;
    log_notice(std::string("mqtt: ") + (ever_connected_ ? "connected again to " : "connected to ") + url_ + "; " +
               std::to_string(store_.outbox_size()) + " messages in the outbox");
    ever_connected_ = true;
    (void)client_->publish(status_topic(host_), "online", 1, true);
    pump();
}

void HallPublisher::on_disconnected(const std::string& reason) {
    if (connected_) {
        log_warning("mqtt: lost the connection to " + url_ + " (" + reason +
                    "); the outbox keeps what is not acknowledged, connecting again");
    } else if (!failing_logged_) {
        log_warning("mqtt: cannot connect to " + url_ + " (" + reason + "); trying again with a back-off up to 30 s");
        failing_logged_ = true;
    }
    connected_ = false;
    in_flight_.clear();
}

void HallPublisher::on_published(int mid) {
    const auto it = in_flight_.find(mid);
    if (it == in_flight_.end()) return; // the status message, or one of a connection gone
    if (!confirm_) acked_.push_back(it->second); // with confirm_, the hub's mark removes it
    in_flight_.erase(it);
    if (!remove_scheduled_) {
        remove_scheduled_ = true;
        boost::asio::post(io_, [this, alive = alive_] {
            if (!*alive) return;
            remove_acked();
            pump();
        });
    }
}

void HallPublisher::on_message(const mqtt::Message& message) {
    constexpr std::string_view kReceived = "/received";
    if (message.topic.size() > kReceived.size() &&
        message.topic.compare(message.topic.size() - kReceived.size(), kReceived.size(), kReceived) == 0)
        on_received(message.payload);
}

void HallPublisher::on_received(const std::string& payload) {
    const auto mark = read_outbox_seq(payload);
    // A mark of another store under this host name (a store made anew) covers none of ours.
    if (!confirm_ || !mark || mark->outbox != outbox_id_ || mark->host != host_) return;
    resend_after_ = std::chrono::seconds(5);
    confirmed_ = std::max(confirmed_, mark->seq);
    if (confirmed_scheduled_) return;
    confirmed_scheduled_ = true;
    boost::asio::post(io_, [this, alive = alive_] {
        if (*alive) remove_confirmed();
    });
}

void HallPublisher::remove_confirmed() {
    confirmed_scheduled_ = false;
    // A removal the store refuses only sends those messages again later.
    if (auto ok = store_.remove_outbox_through(confirmed_); !ok) log_warning("mqtt: outbox: " + ok.error().message);
}

void HallPublisher::arm_resend() {
    if (!resend_timer_) resend_timer_.emplace(io_);
    resend_timer_->expires_after(resend_after_);
    resend_timer_->async_wait([this, alive = alive_](const boost::system::error_code& ec) {
        if (ec || !*alive || stopped_) return;
        const auto first = store_.outbox_after(0, 1);
        const std::int64_t seq = first.empty() ? 0 : first.front().seq;
        if (connected_ && seq != 0 && seq == stalled_first_ && seq <= cursor_) {
            log_info("mqtt: no received mark for " + std::to_string(store_.outbox_size()) +
                     " messages sent; sending them again in order");
            cursor_ = 0;
            pump();
            resend_after_ = std::min(resend_after_ * 2, std::chrono::seconds(300));
        } else if (seq != stalled_first_) {
            resend_after_ = std::chrono::seconds(5);
        }
        stalled_first_ = seq;
        arm_resend();
    });
}

} // namespace eboard::daemon
