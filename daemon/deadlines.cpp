#include "daemon/deadlines.hpp"

#include <chrono>

#include "drivers/core/session.hpp"

namespace eboard::daemon {

void Deadlines::Slot::unqueue() noexcept {
    if (!queued_) return;
    owner_.queue_.erase(pos_);
    queued_ = false;
}

void Deadlines::Slot::set(std::optional<std::int64_t> due_ms) {
    unqueue();
    if (!due_ms) return;
    pos_ = owner_.queue_.emplace(*due_ms, this);
    queued_ = true;
    owner_.arm();
}

std::optional<std::int64_t> Deadlines::Slot::due() const {
    if (!queued_) return std::nullopt;
    return pos_->first;
}

void Deadlines::arm() {
    if (queue_.empty()) return; // a timer left armed fires and finds nothing due
    const std::int64_t first = queue_.begin()->first;
    if (armed_for_ && *armed_for_ <= first) return;
    armed_for_ = first;
    // Steady ms back to the steady clock (drivers::steady_now_ms is its epoch count).
    timer_.expires_at(std::chrono::steady_clock::time_point(std::chrono::milliseconds(first)));
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec) return; // re-armed for an earlier time (or the loop stops)
        armed_for_.reset();
        fire();
    });
}

void Deadlines::fire() {
    const std::int64_t now = drivers::steady_now_ms();
    // One at a time: a handler may set its own slot again or remove another.
    while (!queue_.empty() && queue_.begin()->first <= now) {
        Slot* slot = queue_.begin()->second;
        queue_.erase(queue_.begin());
        slot->queued_ = false;
        slot->handler_(now);
    }
    arm();
}

} // namespace eboard::daemon
