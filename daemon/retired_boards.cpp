#include "daemon/retired_boards.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <utility>

#include "daemon/board_attach.hpp"
#include "daemon/log.hpp"

namespace eboard::daemon {

RetiredBoards::RetiredBoards(boost::asio::io_context& io) : io_(io) {}

RetiredBoards::~RetiredBoards() {
    if (!state_->gone) abandon(0);
}

void RetiredBoards::retire(BoardRecord board) {
    auto r = std::make_unique<Retired>();
    r->board = std::move(board);
    std::promise<void> closed;
    r->closed = closed.get_future().share();
    r->joiner = std::thread([this, link = r->board.link.get(), entry = r.get(), state = state_,
                             closed = std::move(closed)]() mutable {
        link->join();
        closed.set_value();
        std::lock_guard lock(state->mutex);
        entry->done = true;
        state->ended.notify_all();
        if (!state->gone) boost::asio::post(io_, [this] { reap(); });
    });
    retired_.push_back(std::move(r));
}

std::optional<std::shared_future<void>> RetiredBoards::closed_of(const std::string& uri) const {
    // The last one retired: the device's latest holder.
    for (auto it = retired_.rbegin(); it != retired_.rend(); ++it)
        if (same_device((*it)->board.session->board_config().uri, uri)) return (*it)->closed;
    return std::nullopt;
}

void RetiredBoards::reap() {
    std::vector<std::unique_ptr<Retired>> ended;
    {
        std::lock_guard lock(state_->mutex);
        for (auto it = retired_.begin(); it != retired_.end();) {
            if ((*it)->done) {
                ended.push_back(std::move(*it));
                it = retired_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto& r : ended) r->joiner.join(); // it has posted this, or is about to return
    // `ended` goes here: the links and sessions are freed on the loop's thread.
}

void RetiredBoards::abandon(int wait_ms) {
    {
        std::unique_lock lock(state_->mutex);
        state_->ended.wait_for(lock, std::chrono::milliseconds(wait_ms), [this] {
            return std::all_of(retired_.begin(), retired_.end(), [](const auto& r) { return r->done; });
        });
        state_->gone = true;
    }
    for (auto& r : retired_) {
        if (r->done) {
            r->joiner.join();
            continue;
        }
        // Its device never returned: the thread keeps what it uses (the process is exiting).
        log_warning("board " + r->board.session->name() + ": its device did not close; left to the exit");
        r->joiner.detach();
        (void)r->board.link.release();
        (void)r->board.session.release();
        (void)r.release();
    }
    retired_.clear();
}

} // namespace eboard::daemon
