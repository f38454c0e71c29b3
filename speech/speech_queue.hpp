// Speech output for eboardd: a queue in front of a synthesizer, so that the event loop never
// waits for speech. say() returns at once; a worker thread hands each utterance to the
// synthesizer in order. Backends (speechd.hpp, espeak.hpp) implement Synthesizer; open.hpp
// picks one from the configuration.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace eboard::speech {

/// One thing to say.
struct Utterance {
    std::string text;       ///< UTF-8
    std::string language;   ///< "de", "en", "nl", "af", "fr" (access::Words::language)
    bool important = false; ///< alerts: speech-dispatcher priority "important"
    /// When the event that caused it happened (steady clock); for the latency figures.
    std::chrono::steady_clock::time_point caused_at = std::chrono::steady_clock::now();
    /// Said from the clock's button menu (access/button_menu.hpp) of this board (its name;
    /// empty: not a menu utterance): a newer menu utterance of the same board drops this one
    /// while it still waits in the queue (a player stepping through ranks hears the rank he
    /// stopped at, not a backlog of stale scans); speech-dispatcher, which queues on its own,
    /// also cancels that menu's earlier speech (speechd.cpp). Another board's menu never drops
    /// it. Never set on moves, alerts or other answers: those are never dropped.
    std::string menu = {};
};

/// A speech synthesizer. Called from one worker thread only.
class Synthesizer {
  public:
    virtual ~Synthesizer() = default;
    /// "speech-dispatcher", "espeak-ng", "espeak-ng (wav)".
    [[nodiscard]] virtual std::string_view name() const = 0;
    /// Hands `u` to the synthesizer: true when it accepted it (speech may still be going on).
    /// On false, error() says why.
    virtual bool speak(const Utterance& u) = 0;
    /// Why the last speak() failed.
    [[nodiscard]] virtual std::string error() const = 0;
};

/// The queue and its worker thread. Not copyable; the destructor says what is queued, then
/// stops the worker.
class SpeechQueue {
  public:
    /// Called on the worker thread after each speak(): the utterance, whether it was accepted,
    /// when the request was issued to the synthesizer and when speak() returned.
    using Observer = std::function<void(const Utterance&, bool accepted,
                                        std::chrono::steady_clock::time_point issued,
                                        std::chrono::steady_clock::time_point returned)>;

    explicit SpeechQueue(std::unique_ptr<Synthesizer> synthesizer);
    ~SpeechQueue();
    SpeechQueue(const SpeechQueue&) = delete;
    SpeechQueue& operator=(const SpeechQueue&) = delete;

    /// Queues `u` and returns at once. A menu utterance first drops its board's menu
    /// utterances still queued (not yet handed to the synthesizer); the rest keep their order.
    void say(Utterance u);
    /// Blocks until every utterance queued so far was handed to the synthesizer.
    void flush();
    /// Sets the observer (before the first say()).
    void set_observer(Observer observer);
    /// The synthesizer's name (fixed when the queue was made).
    [[nodiscard]] std::string_view name() const { return name_; }
    /// The synthesizer (for figures such as espeak_last_first_audio(); read it after flush()).
    [[nodiscard]] const Synthesizer& synthesizer() const { return *synthesizer_; }
    /// Utterances the synthesizer refused so far.
    [[nodiscard]] std::uint64_t failures() const;

  private:
    void run();

    std::unique_ptr<Synthesizer> synthesizer_; ///< used and closed by the worker thread
    std::string name_;
    Observer observer_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<Utterance> queue_;
    bool busy_ = false;
    bool stopping_ = false;
    std::uint64_t failures_ = 0;
    std::thread worker_;
};

} // namespace eboard::speech
