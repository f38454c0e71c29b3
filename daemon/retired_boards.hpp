// The boards closed by DETACH whose device thread may still run: each one's thread is joined
// on a thread of its own (a device stuck in a USB transfer or a tty close must not stall the
// loop, every other board and every client), then the board is freed on the loop's thread.
//
// Contract: retire(), reap() and closed_of() run on the loop's thread; the joiner threads post
// reap() to the loop when they end, never after abandon(). abandon() at exit waits a bounded
// time and leaves a board whose device never returned to the exiting process (logged), so
// that eboardd's exit is bounded too.
#pragma once

#include <boost/asio/io_context.hpp>

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "daemon/board_registry.hpp"

namespace eboard::daemon {

class RetiredBoards {
  public:
    explicit RetiredBoards(boost::asio::io_context& io);
    /// abandon(0) if the daemon did not call it.
    ~RetiredBoards();
    RetiredBoards(const RetiredBoards&) = delete;
    RetiredBoards& operator=(const RetiredBoards&) = delete;

    /// Takes a board whose link was told to stop (BoardLink::request_stop): its device thread
    /// is joined off the loop, then it is freed on the loop.
    void retire(BoardRecord board);
    /// Ready once the device thread of the board last retired that uses the same device as
    /// `uri` ended (BoardLink::open_after), if one is still retired.
    [[nodiscard]] std::optional<std::shared_future<void>> closed_of(const std::string& uri) const;
    /// At exit: waits up to `wait_ms` for the retired boards' threads; one still stuck is left
    /// to the exiting process (logged). Nothing is posted to the loop afterwards.
    void abandon(int wait_ms);

  private:
    struct Retired {
        BoardRecord board;
        std::thread joiner;
        bool done = false;                ///< under State::mutex
        std::shared_future<void> closed;  ///< ready once the device thread ended
    };
    /// Shared with the joiner threads, which may outlive this (a device that never returns).
    struct State {
        std::mutex mutex;
        std::condition_variable ended;
        bool gone = false; ///< abandon() ran: a joiner posts nothing to the loop
    };

    /// Frees the retired boards whose device thread has ended (on the loop).
    void reap();

    boost::asio::io_context& io_;
    std::vector<std::unique_ptr<Retired>> retired_;
    std::shared_ptr<State> state_ = std::make_shared<State>();
};

} // namespace eboard::daemon
