// One clock command in flight (dgt.md section 11): the board's clock handles one command at a
// time and acknowledges it (in UPDATE / UPDATE_NICE mode) within 0.1-2 s. The queue sends the
// next command only when the previous one was acknowledged (an ACK whose ack1 echoes its id,
// or an error ACK), resends after `ack_timeout_ms` at most `max_retries` times, resends once
// on an error ACK, and coalesces display texts so only the newest is pending.
// Time is passed in, so tests run the 2 s timeouts on simulated time.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/events.hpp"
#include "drivers/dgt/protocol.hpp"

#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace eboard::drivers::dgt {

class ClockCommandQueue {
  public:
    struct Options {
        TimeMs ack_timeout_ms = 2000;  ///< section 11: the ACK normally comes within 1-2 s
        int max_retries = 3;           ///< resends after the first attempt
    };
    using Send = std::function<void(const std::vector<std::uint8_t>& frame)>;
    using Done = std::function<void(const ClockCommandDone&)>;

    ClockCommandQueue(Options options, Send send, Done done)
        : opt_(options), send_(std::move(send)), done_(std::move(done)) {}

    /// Queues a frame built by clock_frame(); `command` is its clock command id.
    void push(std::uint8_t command, std::vector<std::uint8_t> frame);
    /// An ACK with ack1 < 0x80 arrived. Returns true if it settled the command in flight.
    bool on_ack(const ClockAck& ack, TimeMs now);
    /// Sends the next command if none is in flight and `can_send`; handles timeouts.
    void tick(TimeMs now, bool can_send);
    /// When tick() has something to do next (ms): `now` when a command waits and can be sent,
    /// the ACK deadline of the command in flight, kNoTick when idle.
    [[nodiscard]] TimeMs next_due(TimeMs now, bool can_send) const;
    /// Fails everything (link lost); reports each as not ok with `why`.
    void fail_all(TimeMs now, const std::string& why);

    [[nodiscard]] bool busy() const noexcept { return in_flight_.has_value(); }
    [[nodiscard]] std::size_t pending() const noexcept { return queue_.size(); }

  private:
    struct Entry {
        std::uint8_t command = 0;
        std::vector<std::uint8_t> frame;
        int attempts = 0;
        int error_acks = 0;
        TimeMs sent_at = 0;
    };
    void transmit(Entry& e, TimeMs now);
    void finish(TimeMs now, bool ok, std::string error);

    Options opt_;
    Send send_;
    Done done_;
    std::deque<Entry> queue_;
    std::optional<Entry> in_flight_;
};

} // namespace eboard::drivers::dgt
