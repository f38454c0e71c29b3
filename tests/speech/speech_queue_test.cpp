// The speech queue's backlog rule for the clock's button menu (D.2.10.4): a new menu utterance
// drops the menu utterances still waiting in the queue, so that a player stepping quickly
// through ranks hears the one he stopped at; moves made, alerts and other answers are never
// dropped. The synthesizer here holds its first utterance until the test lets it go, so that
// the queue fills behind it deterministically (no sleeps).
#include "speech/speech_queue.hpp"

#include <catch2/catch.hpp>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace eboard;

namespace {

/// What the held synthesizer and the test share.
struct Hold {
    std::mutex mutex;
    std::condition_variable changed;
    bool released = false;
    std::vector<std::string> said; ///< texts handed to speak(), in order
};

/// Records every text; speak() waits until the test releases the hold.
class HeldSynthesizer final : public speech::Synthesizer {
  public:
    explicit HeldSynthesizer(std::shared_ptr<Hold> hold) : hold_(std::move(hold)) {}
    [[nodiscard]] std::string_view name() const override { return "held"; }
    bool speak(const speech::Utterance& u) override {
        std::unique_lock lock(hold_->mutex);
        hold_->said.push_back(u.text);
        hold_->changed.notify_all();
        hold_->changed.wait(lock, [this] { return hold_->released; });
        return true;
    }
    [[nodiscard]] std::string error() const override { return {}; }

  private:
    std::shared_ptr<Hold> hold_;
};

struct HeldQueue {
    std::shared_ptr<Hold> hold = std::make_shared<Hold>();
    speech::SpeechQueue queue{std::make_unique<HeldSynthesizer>(hold)};

    HeldQueue() = default;
    HeldQueue(const HeldQueue&) = delete;
    HeldQueue& operator=(const HeldQueue&) = delete;
    /// Lets a held synthesizer go, so that the queue's worker can stop after a failed check.
    ~HeldQueue() {
        {
            std::lock_guard lock(hold->mutex);
            hold->released = true;
        }
        hold->changed.notify_all();
    }

    /// Queues `text`: a menu utterance of board t, or not one.
    void say(const std::string& text, bool menu, bool important = false) {
        say_from(text, menu ? "t" : "", important);
    }
    /// Queues `text` as said by board `menu_of`'s button menu ("" = not a menu utterance).
    void say_from(const std::string& text, const std::string& menu_of, bool important = false) {
        speech::Utterance u{text, "de", important};
        u.menu = menu_of;
        queue.say(std::move(u));
    }
    /// Waits until the synthesizer holds the first utterance.
    void wait_held() {
        std::unique_lock lock(hold->mutex);
        hold->changed.wait(lock, [this] { return !hold->said.empty(); });
    }
    /// Lets the synthesizer go, waits until everything queued was handed to it; what it got.
    std::vector<std::string> release() {
        {
            std::lock_guard lock(hold->mutex);
            hold->released = true;
        }
        hold->changed.notify_all();
        queue.flush();
        std::lock_guard lock(hold->mutex);
        return hold->said;
    }
};

} // namespace

TEST_CASE("D.2.10.4 a new menu utterance drops the queued menu utterances, never a move or alert") {
    HeldQueue q;
    SECTION("a move being said, the menu stepped through behind it") {
        q.say("Bauer Eva vier", false); // a move made, in the synthesizer
        q.wait_held();
        q.say("Menü, Stellung", true);
        q.say("Feld", true);
        q.say("Regelwidriger Zug", false, true); // an alert: kept, in its place
        q.say("Reihe", true);
        q.say("Reihe vier: Eva vier, weißer Bauer", true); // the rank the player stopped at
        q.say("Springer Felix drei", false);               // the next move made
        CHECK(q.release() == std::vector<std::string>{"Bauer Eva vier", "Regelwidriger Zug",
                                                      "Reihe vier: Eva vier, weißer Bauer",
                                                      "Springer Felix drei"});
        CHECK(q.queue.failures() == 0);
    }
    SECTION("a menu utterance already handed to the synthesizer is not taken back") {
        q.say("Menü, Stellung", true);
        q.wait_held();
        q.say("Feld", true);
        q.say("Reihe", true);
        CHECK(q.release() == std::vector<std::string>{"Menü, Stellung", "Reihe"});
    }
    SECTION("one board's menu never drops another board's") {
        q.say("Bauer Eva vier", false);
        q.wait_held();
        q.say_from("Reihe drei: leer", "t");
        q.say_from("Linie Anna: Anna eins, weißer Turm", "u");
        q.say_from("Reihe vier: Eva vier, weißer Bauer", "t");
        CHECK(q.release() == std::vector<std::string>{"Bauer Eva vier",
                                                      "Linie Anna: Anna eins, weißer Turm",
                                                      "Reihe vier: Eva vier, weißer Bauer"});
    }
    SECTION("ordinary utterances queue behind each other, none dropped") {
        q.say("Bauer Eva vier", false);
        q.wait_held();
        q.say("Bauer Eva fünf", false);
        q.say("Zug 2, Weiß am Zug", false); // an answer from a plain button press
        q.say("Fallblättchen gefallen", false, true);
        q.say("Springer Felix drei", false);
        CHECK(q.release() ==
              std::vector<std::string>{"Bauer Eva vier", "Bauer Eva fünf", "Zug 2, Weiß am Zug",
                                       "Fallblättchen gefallen", "Springer Felix drei"});
    }
}
