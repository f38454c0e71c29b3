#include "speech/speech_queue.hpp"

#include <algorithm>
#include <csignal>
#include <pthread.h>
#include <utility>

namespace eboard::speech {

SpeechQueue::SpeechQueue(std::unique_ptr<Synthesizer> synthesizer)
    : synthesizer_(std::move(synthesizer)), name_(synthesizer_->name()),
      worker_([this] { run(); }) {}

SpeechQueue::~SpeechQueue() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    worker_.join();
}

void SpeechQueue::say(Utterance u) {
    {
        std::lock_guard lock(mutex_);
        // A player stepping through the button menu wants the latest answer, not a backlog.
        if (!u.menu.empty())
            std::erase_if(queue_, [&u](const Utterance& q) { return q.menu == u.menu; });
        queue_.push_back(std::move(u));
    }
    wake_.notify_one();
}

void SpeechQueue::flush() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void SpeechQueue::set_observer(Observer observer) {
    std::lock_guard lock(mutex_);
    observer_ = std::move(observer);
}

std::uint64_t SpeechQueue::failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
}

void SpeechQueue::run() {
    // A synthesizer's server may go away (speech-dispatcher restarted): libspeechd then writes
    // to a closed socket, whose SIGPIPE would end the whole daemon. Blocked in this thread,
    // the write fails with EPIPE instead and the synthesizer reconnects.
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) {
            // Stopping, all said. Closed here too, where SIGPIPE is blocked.
            lock.unlock();
            synthesizer_.reset();
            return;
        }
        Utterance u = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
        Observer observer = observer_;
        lock.unlock();
        const auto issued = std::chrono::steady_clock::now();
        const bool ok = synthesizer_->speak(u);
        if (observer) observer(u, ok, issued, std::chrono::steady_clock::now());
        lock.lock();
        if (!ok) ++failures_;
        busy_ = false;
        if (queue_.empty()) idle_.notify_all();
    }
}

} // namespace eboard::speech
