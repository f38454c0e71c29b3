#include "hub/group_commit.hpp"

namespace eboard::hub {

Expected<Ingested> GroupCommit::take(const mqtt::Message& m, std::int64_t now_ms) {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    auto r = store_.stage(m.topic, m.payload, now_ms);
    if (!r && is_store_failure(r.error())) return r;
    ++stats_.staged;
    if (!first_) first_ = now;
    if (r) batch_.emplace_back(m, *r);
    if (store_.must_commit() || store_.staged() >= options_.max_messages || now - *first_ >= options_.interval)
        if (auto ok = commit_locked(); !ok) return ok.error();
    return r;
}

Expected<bool> GroupCommit::commit_due() {
    // Busy: the MQTT thread is staging or committing, and commits a due batch itself; the loop
    // (which serves HTTP too) does not wait for its fsync.
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    if (!first_ || std::chrono::steady_clock::now() - *first_ < options_.interval) return false;
    return commit_locked();
}

Expected<bool> GroupCommit::commit() {
    std::lock_guard lock(mutex_);
    return commit_locked();
}

GroupCommitStats GroupCommit::stats() const {
    std::lock_guard lock(mutex_);
    GroupCommitStats s = stats_;
    s.open = store_.staged();
    return s;
}

Expected<bool> GroupCommit::commit_locked() {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t n = store_.staged();
    auto ok = store_.commit();
    first_.reset();
    Batch done;
    done.swap(batch_);
    if (!ok) return ok.error();
    if (!*ok) return false;
    stats_.last_commit_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++stats_.commits;
    stats_.committed += static_cast<std::int64_t>(n);
    if (committed_ && !done.empty()) committed_(done);
    return true;
}

} // namespace eboard::hub
