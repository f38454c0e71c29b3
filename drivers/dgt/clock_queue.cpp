#include "drivers/dgt/clock_queue.hpp"

#include <algorithm>

namespace eboard::drivers::dgt {

namespace {
bool is_text(std::uint8_t command) { return command == clk::display || command == clk::ascii; }
} // namespace

void ClockCommandQueue::push(std::uint8_t command, std::vector<std::uint8_t> frame) {
    if (is_text(command)) {
        // Only the newest text matters: replace a queued (not yet sent) one.
        const auto it = std::find_if(queue_.begin(), queue_.end(),
                                     [](const Entry& e) { return is_text(e.command); });
        if (it != queue_.end()) {
            it->command = command;
            it->frame = std::move(frame);
            return;
        }
    }
    queue_.push_back(Entry{command, std::move(frame)});
}

void ClockCommandQueue::transmit(Entry& e, TimeMs now) {
    ++e.attempts;
    e.sent_at = now;
    send_(e.frame);
}

void ClockCommandQueue::finish(TimeMs now, bool ok, std::string error) {
    ClockCommandDone d{now, in_flight_->command, ok, in_flight_->attempts, std::move(error)};
    in_flight_.reset();
    done_(d);
}

bool ClockCommandQueue::on_ack(const ClockAck& ack, TimeMs now) {
    if (!in_flight_) return false;
    if (ack.ack0 == clk::ack_ok) {
        if (ack.ack1 != in_flight_->command) return false;  // a stale ACK of an older command
        finish(now, true, {});
        return true;
    }
    // Error ACK (ack0 20 or 40, section 10.2): resend once, then give up.
    if (++in_flight_->error_acks <= 1 && in_flight_->attempts <= opt_.max_retries) {
        transmit(*in_flight_, now);
        return true;
    }
    finish(now, false, "error ACK " + hex_bytes(std::array{ack.ack0, ack.ack1, ack.ack2, ack.ack3}));
    return true;
}

void ClockCommandQueue::tick(TimeMs now, bool can_send) {
    if (in_flight_ && now - in_flight_->sent_at >= opt_.ack_timeout_ms) {
        if (in_flight_->attempts <= opt_.max_retries && can_send)
            transmit(*in_flight_, now);
        else if (in_flight_->attempts > opt_.max_retries)
            finish(now, false, "no ACK after " + std::to_string(opt_.max_retries) + " retries");
    }
    if (!in_flight_ && can_send && !queue_.empty()) {
        in_flight_ = std::move(queue_.front());
        queue_.pop_front();
        transmit(*in_flight_, now);
    }
}

TimeMs ClockCommandQueue::next_due(TimeMs now, bool can_send) const {
    if (in_flight_) return in_flight_->sent_at + opt_.ack_timeout_ms;
    return can_send && !queue_.empty() ? now : kNoTick;
}

void ClockCommandQueue::fail_all(TimeMs now, const std::string& why) {
    if (in_flight_) finish(now, false, why);
    while (!queue_.empty()) {
        done_(ClockCommandDone{now, queue_.front().command, false, 0, why});
        queue_.pop_front();
    }
}

} // namespace eboard::drivers::dgt
