// eboard-hub's group commit (docs/hall.md, "Group commit"; the rules in hub/store.hpp): the MQTT
// messages are staged in the store's open batch as they arrive and committed together, so that
// one fsync carries many messages. A batch is committed
// - when its first message is `interval` old (checked as messages arrive and by the hub's loop
//   every `interval`, so an idle hall commits too),
// - when it holds `max_messages`,
// - at once when it holds a message that must be durable before its PUBACK
//   (HallStore::must_commit(): no outbox row, or a row that starts a host's mark).
// What a commit made durable is handed to `committed` afterwards, in the order it arrived: the
// hub then publishes the hosts' `received` marks, tells the console and queues the lichess push.
// Nothing of a batch leaves the hub before its commit.
//
// Thread-safe: take() runs on the MQTT client's thread, commit_due() on the hub's loop; one mutex
// orders them (and the `committed` calls).
#pragma once

#include "base/expected.hpp"
#include "hub/store.hpp"
#include "mqtt/client.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace eboard::hub {

/// When a batch is committed.
struct GroupCommitOptions {
    std::chrono::milliseconds interval{100}; ///< the oldest staged message waits at most this
    std::size_t max_messages = 1000;         ///< a batch this large is committed at once
};

/// Counters of the group commit since the start (the hub's /status.json).
struct GroupCommitStats {
    std::int64_t staged = 0;    ///< messages staged
    std::int64_t committed = 0; ///< messages committed
    std::int64_t commits = 0;   ///< batches committed
    std::size_t open = 0;       ///< messages staged, not yet committed
    double last_commit_ms = 0;  ///< how long the last COMMIT took (its fsync)
};

class GroupCommit {
  public:
    /// The messages a commit made durable and what each did, in their order.
    using Batch = std::vector<std::pair<mqtt::Message, Ingested>>;
    using Committed = std::function<void(const Batch&)>;

    GroupCommit(HallStore& store, GroupCommitOptions options, Committed committed)
        : store_(store), options_(options), committed_(std::move(committed)) {}

    /// Stages `m` received at `now_ms` and commits the batch when one of the rules above says so
    /// (before returning, that is before the PUBACK). The Error of a message the store does not
    /// take; an Error of the store's own (is_store_failure) when staging or the commit failed (nothing of the
    /// batch is committed: the hub must not acknowledge `m`).
    Expected<Ingested> take(const mqtt::Message& m, std::int64_t now_ms);
    /// Commits the open batch when its first message is `interval` old (the loop's timer);
    /// does nothing while take() runs (it commits a due batch itself). An Error when the commit
    /// failed.
    Expected<bool> commit_due();
    /// Commits the open batch, if any (at a clean stop).
    Expected<bool> commit();

    [[nodiscard]] GroupCommitStats stats() const;
    [[nodiscard]] const GroupCommitOptions& options() const { return options_; }

  private:
    Expected<bool> commit_locked();

    HallStore& store_;
    GroupCommitOptions options_;
    Committed committed_;
    mutable std::mutex mutex_;
    Batch batch_;
    std::optional<std::chrono::steady_clock::time_point> first_; // the batch's first message
    GroupCommitStats stats_;
};

} // namespace eboard::hub
