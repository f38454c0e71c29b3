// One board as the daemon sees it: its configuration, whether it is connected, and its game
// (a GameTracker of the line, recorded through the Recorder) with the rules profile it is
// played under and its illegal moves so far. The device pipeline (daemon/board_link.hpp)
// feeds it moves; the arbiter's commands act on it. Runs on the event loop's thread.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/commands.hpp"
#include "daemon/config.hpp"
#include "daemon/game_tracker.hpp"
#include "daemon/recorder.hpp"
#include "base/sensors.hpp"
#include "rules/profile.hpp"

namespace eboard::daemon {

/// What a board shows now beside its game, for clients that follow it live (the LiveChess
/// eBoards API, livechess_api.hpp). The device link keeps it up to date.
struct BoardLive {
    std::optional<BoardReading> sensors; ///< every square as last read (driver's orientation)
    std::optional<ClockTimes> clock;     ///< the clock's last report by player; none without a clock
    std::int64_t clock_at_ms = 0;        ///< wall-clock time of that report (ms since the epoch)
    std::string serial;                  ///< the board's serial number as its driver read it; "" = none
    std::optional<Battery> battery;      ///< the board's battery as last reported; none = unknown (BOARD `battery`)
    bool flipped = false;                ///< the reconstruction turns the readings round (Reconstructor::rotated)
    bool driver_rotated = false;         ///< the driver turns its readings round (drivers::BoardOrientation)
    bool ever_connected = false;         ///< it was connected since eboardd started
};

/// An illegal move the arbiter has not decided on yet (PENALTY apply/decline).
struct PendingIllegal {
    Color player = Color::White;
    int count = 0;       ///< the player's completed illegal moves, this one included
    std::string penalty; ///< what the profile prescribes: "+2min", "loss", "draw", "win-claim"
};

class BoardSession {
  public:
    /// The board's rules profile must load (Daemon::open checks every board first).
    BoardSession(BoardConfig board, const Config& global, Recorder& recorder);

    [[nodiscard]] const std::string& name() const { return board_.name; }
    [[nodiscard]] const BoardConfig& board_config() const { return board_; }
    /// A clock button 0..4 pressed at `at_ms` (the driver's time, ms) that is not a promotion
    /// choice (the daemon's speech sink answers it, [23] D.2.10.4). Unset: ignored.
    std::function<void(int button, std::int64_t at_ms)> on_clock_button;
    /// New settings (SIGHUP): tags, rules and time control apply to the next game.
    void reconfigure(BoardConfig board, const Config& global);

    /// The driver name of the URI ("dgt" of "dgt:/dev/ttyACM0").
    [[nodiscard]] std::string driver() const;
    [[nodiscard]] bool connected() const { return connected_; }
    /// Records a BOARD event (and, on disconnect during a game, an ALERT board_disconnected).
    /// A connected board's BOARD carries its battery when known; a disconnected board's
    /// battery is unknown until it reports again.
    void set_connected(bool connected, std::int64_t now_ms);
    /// The battery the board reported (a driver's BatteryInfo): kept in live(), and a BOARD
    /// event with it when it differs from the last one in its whole percent or in charging
    /// (docs/client-api.md, BOARD `battery`); the same report again is no event.
    void set_battery(Battery battery, std::int64_t now_ms);

    /// The game in progress, if any.
    [[nodiscard]] const std::optional<GameTracker>& game() const { return game_; }
    [[nodiscard]] std::string game_id() const { return game_ ? game_->game() : std::string(); }
    /// The rules of the game in progress (else of the board's next game).
    [[nodiscard]] const Profile& profile() const { return *profile_; }
    /// The same, shared: a holder can tell when the rules changed (SIGHUP, a resumed game).
    [[nodiscard]] const std::shared_ptr<const Profile>& shared_profile() const { return profile_; }
    /// The time control of the game in progress (else of the next game); "" = unknown.
    [[nodiscard]] const std::string& time_control() const { return time_control_; }

    /// Takes up an unfinished game from the store (after a restart), with its rules, time
    /// control and illegal moves. What a daemon killed between the store's commit and the
    /// rest may have left undone is done again: the PGN is rewritten from the store, and the
    /// last completed MOVE is announced again.
    [[nodiscard]] Expected<bool> resume(const std::string& game_id);

    /// Starts a game from `fen` (empty: the standard position): a store row, GAME start. A
    /// game in progress ends first, unfinished ("*"). Returns the game id.
    [[nodiscard]] Expected<std::string> new_game(const std::string& fen, std::int64_t now_ms);

    /// A move made or completed at `ply` (see GameTracker::play); records and announces the
    /// MOVE.
    [[nodiscard]] Expected<bool> move(int ply, Move move, Completion how,
                                      std::optional<MoveClock> clock, std::int64_t now_ms);
    /// The made move at `ply` is completed.
    [[nodiscard]] Expected<bool> complete(int ply, Completion how, std::optional<MoveClock> clock,
                                          std::int64_t now_ms);
    /// An illegal move that stands ([23] A.5.2): recorded (never as a PGN move), the game
    /// continues from `fen`.
    [[nodiscard]] Expected<bool> illegal_stands(int ply, Square from, Square to, const std::string& fen,
                                                std::int64_t now_ms);

    /// Checks a result the arbiter or the players give by command against the profile: an
    /// agreement needs `game.agreement-min-moves` moves by each player ([23] 5.2.3), and a
    /// resignation is a draw when the winner cannot checkmate by any series of legal moves
    /// ([23] 5.1.2). The error says why and what to send instead; "arbiter" always
    /// passes (the arbiter prevails, 8.7). The value: the RESULT's `winnability`, "undecided"
    /// where a resignation passes only because the full winnability mode (within
    /// kLoopWinnabilitySeconds) decided nothing, else empty.
    [[nodiscard]] Expected<std::string> check_result_command(const std::string& result,
                                                             const std::string& termination) const;

    /// The game's result (RESULT), and GAME end once it is confirmed. `winnability`: the
    /// RESULT's field of that name ("undecided" or empty, docs/client-api.md).
    [[nodiscard]] Expected<bool> result(const std::string& result, const std::string& termination,
                                        bool confirmed, std::int64_t now_ms,
                                        const std::string& winnability = {});

    /// Takes the game back to `ply` (0 = the start position): the store and the PGN drop the
    /// later moves, and a GAME `takeback` event tells the clients.
    [[nodiscard]] Expected<bool> take_back(int ply, std::int64_t now_ms);

    /// Sets the position: back to that ply if the FEN is one of the game's positions
    /// (Art. 7.2/7.5 restorations), else the game continues from it as a new game record.
    [[nodiscard]] Expected<bool> set_position(const std::string& fen, std::int64_t now_ms);

    /// Records an alert tied to the game (board and game filled in). An illegal_move alert
    /// with a `player` counts for that player and awaits the arbiter's decision.
    void alert(AlertEvent alert, std::int64_t now_ms);

    /// The player's completed illegal moves in this game.
    [[nodiscard]] int illegal_count(Color c) const { return illegal_counts_[c == Color::White ? 0 : 1]; }
    /// The ply of the player's last illegal move in this game (the ply he was to make when it
    /// was alerted, Art. 7.5.1), 0 if none.
    [[nodiscard]] int last_illegal_ply(Color c) const { return illegal_plies_[c == Color::White ? 0 : 1]; }
    /// The last illegal move, until the arbiter decides on it.
    [[nodiscard]] const std::optional<PendingIllegal>& pending_illegal() const { return pending_; }
    /// The arbiter decided (PENALTY): recorded in the store's events table as a note.
    void penalty_decided(const std::string& decision, std::int64_t now_ms);

    /// `color`'s clock readings after each of his completed moves in this game (for the
    /// quota check at a flag fall, Art. 6.4).
    [[nodiscard]] std::vector<std::int64_t> clock_readings(Color color) const;

    /// The clock side White plays on in the game in progress, "left" or "right"; "" = not
    /// known (a new game, or one whose first press has not come; `--white-side auto`).
    [[nodiscard]] const std::string& white_side() const { return white_side_; }
    /// The device link found it (the first press, eboardd(8) `--white-side auto`): kept
    /// with the game in the store, in order with its events, for a restarted daemon.
    void set_white_side(const std::string& side);

    /// The last clock times the board reported (for BOARDS), in ms; set by the device link.
    void set_clock_times(std::optional<MoveClock> times) { clock_ = times; }
    /// What the clock showed at its latest report (ms); nullopt without a connected clock.
    [[nodiscard]] const std::optional<MoveClock>& clock_times() const { return clock_; }

    /// What the board shows now (BoardLive).
    [[nodiscard]] const BoardLive& live() const { return live_; }
    /// Changes what the board shows; on_live_change hears of it.
    template <typename F>
    void update_live(F&& change) {
        std::forward<F>(change)(live_);
        if (on_live_change) on_live_change(*this);
    }
    /// Called after update_live() (on the loop's thread). Unset: nobody listens.
    std::function<void(const BoardSession&)> on_live_change;

    /// {"board","uri","driver","state","game","ply","fen","clock","battery"} (game fields while a
    /// game is in progress, clock and battery when known).
    [[nodiscard]] ojson status_json() const;

    [[nodiscard]] Recorder& recorder() { return recorder_; }

  private:
    [[nodiscard]] PgnTags tags() const;
    void publish(const Event& e, std::int64_t now_ms) { recorder_.publish(e, now_ms); }
    // The profile and time control of the board's next game, from the configuration.
    void load_configured_rules();
    // Starts the game record after `id` was created.
    void adopt_game(GameTracker tracker);

    BoardConfig board_;
    const Config* global_;
    Recorder& recorder_;
    bool connected_ = false;
    std::optional<GameTracker> game_;
    std::shared_ptr<const Profile> profile_;
    std::string rules_name_;
    std::string time_control_;
    std::array<int, 2> illegal_counts_{};
    std::array<int, 2> illegal_plies_{};
    std::optional<PendingIllegal> pending_;
    std::optional<MoveClock> clock_;
    std::string white_side_;
    BoardLive live_;
};

} // namespace eboard::daemon
