// The hub's end-to-end confirmation to the hosts (docs/hall.md, "End-to-end confirmation"): after
// it has committed a host's messages, eboard-hub publishes the host's `received` mark (retained,
// QoS 1, on `eboard/v1/<host>/received`: the outbox row up to which it holds every row), and
// eboardd --mqtt-confirm keeps every row until a mark covers it.
//
// Marks are gathered as messages are committed (note(), on the MQTT client's thread) and sent by
// flush() ten times a second (the hub's loop), the latest mark of each host once: a busy host
// costs one mark per flush, not one per message. After each connection every stored mark is sent
// again (all()), since a broker that crashed may have lost the retained ones.
#pragma once

#include "daemon/hall_topics.hpp"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace eboard::hub {

class ReceivedMarks {
  public:
    /// Publishes one mark (retained, QoS 1); false when it could not be queued (no connection).
    using Publish = std::function<bool(const std::string& topic, const std::string& payload)>;

    explicit ReceivedMarks(Publish publish) : publish_(std::move(publish)) {}

    /// A mark moved (committed in the store). Thread-safe.
    void note(const daemon::ReceivedMark& mark);
    /// Marks to send again (every stored one, after a connection). Thread-safe.
    void all(const std::vector<daemon::ReceivedMark>& marks);
    /// Publishes the marks noted since the last flush; those that could not be queued wait for
    /// the next. Thread-safe.
    void flush();

  private:
    Publish publish_;
    std::mutex mutex_;
    std::map<std::string, daemon::ReceivedMark> waiting_; // host -> latest
};

} // namespace eboard::hub
