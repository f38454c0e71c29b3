// WinnabilityWorker: the full mode of can_checkmate() (rules/winnable.hpp, up to about 0.4 s
// CPU a side) on a thread of its own, so that the event loop never waits for it (issue 25;
// docs/architecture.md "Threads and timers"). The loop hands over a copy of the position and
// the side; the answer comes back on the loop's thread, posted like the PGN writer's and the
// speech's results. Questions are answered one at a time, in the order asked.
//
// Used where the Laws ask whether a side can still checkmate and the daemon has the time: a
// flag fall (Art. 6.9 [23], 6.10 [05]). The thread starts with the first question. Where the
// loop must answer at once (a request's reply) it runs the full mode within a bound instead
// (can_checkmate_on_loop() below).
//
// Threading: ask() and the destructor from the loop's thread. The destructor drops the
// questions not yet started and waits for the one being answered (its answer is not posted).
#pragma once

#include <boost/asio/io_context.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "rules/position.hpp"
#include "rules/winnable.hpp"

namespace eboard::daemon {

/// The CPU time the event loop may spend on one side's full-mode answer where it must answer
/// at once (a request's reply, the reconstruction's in-depth dead-position check): 50 ms.
inline constexpr double kLoopWinnabilitySeconds = 0.05;

/// can_checkmate() in full mode within kLoopWinnabilitySeconds (can_checkmate_within()): for
/// the loop's own answers, a resignation ([23] 5.1.2), an illegal-move win claim ([05] C3),
/// the reconstruction's suspected dead position (5.2.2).
[[nodiscard]] inline Winnability can_checkmate_on_loop(const Position& pos, Color side) {
    return can_checkmate_within(pos, side, kLoopWinnabilitySeconds);
}

class WinnabilityWorker {
  public:
    /// Called on the loop's thread with the full mode's answer.
    using Answer = std::function<void(Winnability)>;

    /// Answers are posted to `io` (which must outlive the worker).
    explicit WinnabilityWorker(boost::asio::io_context& io) : io_(io) {}
    ~WinnabilityWorker();
    WinnabilityWorker(const WinnabilityWorker&) = delete;
    WinnabilityWorker& operator=(const WinnabilityWorker&) = delete;

    /// Queues "can `side` checkmate in `pos`?" in full mode; `answer` runs on the loop.
    void ask(Position pos, Color side, Answer answer);

  private:
    struct Question {
        Position pos;
        Color side;
        Answer answer;
    };
    void run();

    boost::asio::io_context& io_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Question> queue_;
    bool stop_ = false;
    std::thread thread_;
};

} // namespace eboard::daemon
