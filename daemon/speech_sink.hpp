// Speech for visually impaired players ([23] Appendix D, [05] Appendix F) as one more sink of
// the daemon's events: every move made announced (D.2.1, as configured per board), the alerts
// the player must hear, answers to requests (D.2.10.4: clock buttons and the client API's INFO
// request, never unasked), and the two boards of a two-board game compared (D.2.9: ALERT
// both_boards_differ). The words come from access/, the voice from speech/.
//
// It reads the events as their JSON objects (as docs/client-api.md documents them), not the structs, so
// that it keeps working while the daemon's internals change.
#pragma once

#include "access/announcer.hpp"
#include "access/button_menu.hpp"
#include "access/two_boards.hpp"
#include "daemon/config.hpp"
#include "daemon/events.hpp"
#include "base/expected.hpp"
#include "speech/speech_queue.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace eboard::daemon {

class SpeechSink {
  public:
    /// How the sink raises an ALERT of its own (both_boards_differ): the daemon publishes it
    /// after the event being handled (never from inside the sink call).
    using Publish = std::function<void(AlertEvent)>;
    /// What the clock at a board (name or URI) shows now: its latest report, ms; nullopt
    /// without a clock report (Art. 6.10.1: the clock is authoritative).
    using ClockNow = std::function<std::optional<MoveClock>(const std::string& board)>;

    /// Opens the speech output of `config.speech` (none: texts only, for INFO replies).
    /// Errors: a bad `pair` (unknown board, a board paired twice) and the output's own
    /// ("speech-dispatcher: ..." with --speech speechd).
    [[nodiscard]] static Expected<std::unique_ptr<SpeechSink>> open(const Config& config,
                                                                    Publish publish);

    /// Every event in the order published. The daemon passes them as they are published,
    /// before the store (Recorder::Delivery::OnPublish): a move made is said at once (D.2.3).
    void observe(const Event& event);

    /// Where the clock request reads the live times (the daemon: BoardSession::clock_times()).
    /// Without it, or without a report, the times of the last completed move are said.
    void set_clock_now(ClockNow clock_now) { clock_now_ = std::move(clock_now); }

    /// D.2.10.4: the answer to `request` ("clocks", "moves", "last 3", "position", "square e4",
    /// "rank 4", "file e") at `board` (name or URI), spoken too when speech is on. Errors:
    /// "no board 'x'", and parse_info_request's.
    [[nodiscard]] Expected<access::Spoken> info(const std::string& board,
                                                const std::string& request);

    /// A DGT3000 button 0..4 pressed at `board` at `at_ms` (the driver's time of the press;
    /// not while the buttons choose a promotion piece): the button menu (access/button_menu.hpp)
    /// of the board it serves (the tactile board for the one clock of a two-board game, see
    /// answering_board) decides what is said - an answer, or a menu prompt; what is said from
    /// within the menu is marked with that board so that its newer menu utterance drops it
    /// while it still waits in the speech queue.
    void clock_button(const std::string& board, int button, std::int64_t at_ms);

    /// The speech output (nullptr with --speech none), for benchmarks and tests.
    [[nodiscard]] speech::SpeechQueue* queue() { return queue_.get(); }

    /// One line for the log: which output speaks, or why none.
    [[nodiscard]] const std::string& note() const { return note_; }

  private:
    struct Board {
        std::string uri;
        access::Announcer announcer;
        std::string game;           ///< the game in progress ("" = none)
        bool illegal_spoken = true; ///< profile `illegal.visible-to-players`
        bool flag_spoken = true;    ///< profile `flag.visible-to-players`
        access::ButtonMenu menu;    ///< the clock's buttons (closed at a game start)
    };
    /// A two-board game (D.2.9): `tactile` has `pair = sighted` in its section.
    struct Pair {
        std::string tactile, sighted;
        access::TwoBoards state;
    };

    SpeechSink(const Config& config, Publish publish);
    Board* find(const std::string& name);
    /// Queues `s`; `menu_of` names the board whose button menu said it (speech::Utterance::menu).
    void say(const access::Spoken& s, const std::string& menu_of = {});
    /// The board whose player a clock button at `board` (name or URI) serves: in a two-board
    /// game (D.2.9) whose tactile board has no clock report of its own, the one clock is the
    /// visually impaired player's (D.2.6), so its buttons answer at the tactile board (its menu,
    /// its language); otherwise `board` itself. By name; "" when unknown.
    std::string answering_board(const std::string& board);
    void pair_moved(const std::string& board, int ply, const std::string& fen);
    /// Gives `b` (asked for as `asked`) what the clock shows now: its own clock's latest
    /// report, else, in a two-board game, the other board's (one clock serves both boards).
    void read_clock(const std::string& asked, Board& b);

    Publish publish_;
    ClockNow clock_now_;
    std::map<std::string, Board> boards_; ///< by name
    std::vector<Pair> pairs_;
    std::unique_ptr<speech::SpeechQueue> queue_;
    std::string note_;
};

} // namespace eboard::daemon
