// A subscriber of the hall for the tests (tests/hall_publish): an MQTT client on the test broker
// that keeps every message it receives, with waits that have deadlines, and the de-duplication
// the contract asks of a subscriber (interfaces.md, "The tournament hall": by host, board, game,
// ply, status).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/hall_topics.hpp"
#include "mqtt/client.hpp"
#include "tests/support/mosquitto.hpp"

namespace eboard::test {

/// Subscribes to `eboard/v1/#` at QoS 1; `id` not empty: a persistent session with that
/// client id (the broker keeps what comes while it is away, as eboard-hub's does). `confirm`:
/// confirms as eboard-hub does (docs/hall.md, "End-to-end confirmation"): once a message that
/// names its outbox row is kept here, the host's `received` mark (retained) covers it.
class HallSubscriber {
  public:
    explicit HallSubscriber(const MosquittoBroker& broker, const std::string& id = "", bool confirm = false) {
        mqtt::ClientOptions o;
        o.url = *mqtt::parse_url(broker.url());
        o.client_id = id;
        o.clean_session = id.empty();
        o.reconnect_max = std::chrono::milliseconds(500);
        mqtt::Callbacks c;
        c.connected = [this](bool) { note([this] { ++connects_; }); };
        c.message = [this, confirm](const mqtt::Message& m) {
            note([this, &m] { messages_.push_back(m); });
            if (confirm) this->confirm(m);
        };
        client_ = std::make_unique<mqtt::Client>(std::move(o), std::move(c));
        client_->subscribe("eboard/v1/#", 1);
        client_->start();
        REQUIRE(wait([this] { return connects_ > 0; }));
    }
    ~HallSubscriber() { client_->stop(); }
    HallSubscriber(const HallSubscriber&) = delete;
    HallSubscriber& operator=(const HallSubscriber&) = delete;

    /// Waits until `pred(messages so far)` holds.
    bool wait_messages(const std::function<bool(const std::vector<mqtt::Message>&)>& pred, int ms = 30000) {
        return wait([&] { return pred(messages_); }, ms);
    }
    /// Every message so far.
    std::vector<mqtt::Message> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }
    /// The last payload on `topic`, "" if none came.
    std::string last(const std::string& topic) {
        std::lock_guard lock(mutex_);
        return last_payload(messages_, topic);
    }
    /// The last payload on `topic` among `messages` ("" if none): for wait_messages()'s
    /// predicates, which run under the lock.
    static std::string last_payload(const std::vector<mqtt::Message>& messages, const std::string& topic) {
        for (auto it = messages.rbegin(); it != messages.rend(); ++it)
            if (it->topic == topic) return it->payload;
        return "";
    }

  private:
    // Publishes the host's mark after `m` (kept above), as eboard-hub does: moved only to the
    // row right after it (daemon::next_mark()); a row at or below it sends it again.
    void confirm(const mqtt::Message& m) {
        if (m.topic.size() >= 9 && m.topic.compare(m.topic.size() - 9, 9, "/received") == 0) return;
        const auto row = daemon::read_outbox_seq(m.payload);
        if (!row) return;
        auto& mark = marks_[row->host];
        if (auto next = daemon::next_mark(mark, *row)) mark = next;
        else if (mark->outbox != row->outbox || row->seq > mark->seq) return; // after a gap: not covered
        (void)client_->publish(daemon::received_topic(mark->host), daemon::received_payload(*mark), 1, true);
    }
    template <typename F>
    void note(F f) {
        {
            std::lock_guard lock(mutex_);
            f();
        }
        changed_.notify_all();
    }
    template <typename P>
    bool wait(P pred, int ms = 30000) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::milliseconds(ms), pred);
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    int connects_ = 0;
    std::vector<mqtt::Message> messages_;
    std::unique_ptr<mqtt::Client> client_;
    std::map<std::string, std::optional<daemon::ReceivedMark>> marks_; // host -> mark, on the client's thread
};

/// The MOVE messages de-duplicated by (host, board, game, ply, status), as a subscriber keeps
/// them: for each board, ply -> SAN of the completed moves; `doubled` counts keys that came
/// with two different completed moves (two moves at one ply), `repeats` the copies
/// of the same message (sent again after a reconnect or a restart: allowed).
struct DedupedMoves {
    std::map<std::string, std::map<int, std::string>> completed; // board -> ply -> san
    std::map<std::string, std::string> games;                    // board -> game (the last seen)
    int doubled = 0;
    int repeats = 0;
    int games_per_board_max = 0;
};

inline DedupedMoves dedup_moves(const std::vector<mqtt::Message>& messages) {
    DedupedMoves out;
    using Key = std::tuple<std::string, std::string, std::string, int, std::string>;
    std::map<Key, std::string> seen;
    std::map<std::string, std::set<std::string>> games;
    for (const auto& m : messages) {
        if (m.topic.size() < 5 || m.topic.compare(m.topic.size() - 5, 5, "/move") != 0) continue;
        const auto j = nlohmann::json::parse(m.payload, nullptr, false);
        if (!j.is_object()) continue;
        const Key key{j.value("host", ""), j.value("board", ""), j.value("game", ""), j.value("ply", 0),
                      j.value("status", "")};
        const std::string san = j.value("san", "");
        auto [it, fresh] = seen.try_emplace(key, san);
        if (!fresh) {
            if (it->second == san) ++out.repeats;
            else if (std::get<4>(key) == "completed") ++out.doubled;
            continue;
        }
        games[std::get<1>(key)].insert(std::get<2>(key));
        if (std::get<4>(key) == "completed") out.completed[std::get<1>(key)][std::get<3>(key)] = san;
        out.games[std::get<1>(key)] = std::get<2>(key);
    }
    for (const auto& [board, ids] : games) out.games_per_board_max = std::max(out.games_per_board_max, static_cast<int>(ids.size()));
    return out;
}

} // namespace eboard::test
