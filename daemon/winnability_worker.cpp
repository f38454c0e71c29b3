// The full winnability search off the event loop (daemon/winnability_worker.hpp).
#include "daemon/winnability_worker.hpp"

#include <boost/asio/post.hpp>

#include <utility>

namespace eboard::daemon {

WinnabilityWorker::~WinnabilityWorker() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void WinnabilityWorker::ask(Position pos, Color side, Answer answer) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(Question{std::move(pos), side, std::move(answer)});
        if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    }
    wake_.notify_one();
}

void WinnabilityWorker::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        Question q = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        const Winnability w = can_checkmate(q.pos, q.side, WinnableMode::Full);
        lock.lock();
        if (stop_) return;
        boost::asio::post(io_, [answer = std::move(q.answer), w] { answer(w); });
    }
}

} // namespace eboard::daemon
