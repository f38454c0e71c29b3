#include "speech/speech_queue.hpp"

#include <utility>

namespace eboard::speech {

SpeechQueue::SpeechQueue(std::unique_ptr<Synthesizer> synthesizer)
    : synthesizer_(std::move(synthesizer)), worker_([this] { run(); }) {}

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
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return; // stopping, all said
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
