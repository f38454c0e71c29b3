// Deadlines: one timer of the event loop for the reconstruction timers of every board
// (rules/reconstruction.hpp: the bounce filter, the settle time, the press grace, the
// position_mismatch grace). Each board holds a Slot and sets it to its Reconstructor's
// next_deadline() after each input; the slots sit in one ordered queue, and one asio timer
// waits for the earliest. A board whose reconstruction has no timer running costs nothing:
// no timer, no wake-up (before: a 50 ms tick per board for seconds after each input).
//
// Times are steady-clock milliseconds (drivers::steady_now_ms, the clock the drivers stamp
// their events with). Threading: the loop's thread only.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace eboard::daemon {

class Deadlines {
  public:
    /// Runs on the loop's thread with the steady time (ms) it runs at.
    using Handler = std::function<void(std::int64_t now_ms)>;

    explicit Deadlines(boost::asio::io_context& io) : timer_(io) {}
    Deadlines(const Deadlines&) = delete;
    Deadlines& operator=(const Deadlines&) = delete;

    /// One deadline (a board's): its handler runs once the time set is reached, once per set().
    class Slot {
      public:
        Slot(Deadlines& owner, Handler handler) : owner_(owner), handler_(std::move(handler)) {}
        ~Slot() { unqueue(); }
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        /// Due at `due_ms` (steady ms; a time already past runs at the next turn of the loop),
        /// replacing the time set before; nullopt: not due at all.
        void set(std::optional<std::int64_t> due_ms);
        [[nodiscard]] std::optional<std::int64_t> due() const;

      private:
        friend class Deadlines;
        /// Out of the queue, if in it (the timer stays armed: it fires and finds nothing due).
        void unqueue() noexcept;

        Deadlines& owner_;
        Handler handler_;
        std::multimap<std::int64_t, Slot*>::iterator pos_;
        bool queued_ = false;
    };

    /// Slots queued now (for tests).
    [[nodiscard]] std::size_t queued() const { return queue_.size(); }

  private:
    void arm();
    void fire();

    boost::asio::steady_timer timer_;
    std::multimap<std::int64_t, Slot*> queue_;
    std::optional<std::int64_t> armed_for_; ///< the timer waits for this time
};

} // namespace eboard::daemon
