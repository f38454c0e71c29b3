// One board as the daemon sees it: its configuration, whether it is connected, and its game
// (a GameTracker of the line, recorded through the Recorder). The device pipeline
// (daemon/board_link.hpp) feeds it moves; the arbiter's commands act on it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "daemon/commands.hpp"
#include "daemon/config.hpp"
#include "daemon/game_tracker.hpp"
#include "daemon/recorder.hpp"

namespace eboard::daemon {

class BoardSession {
  public:
    BoardSession(BoardConfig board, const Config& global, Recorder& recorder);

    [[nodiscard]] const std::string& name() const { return board_.name; }
    [[nodiscard]] const BoardConfig& board_config() const { return board_; }
    /// A clock button 0..4 pressed that is not a promotion choice (the daemon's speech sink
    /// answers it, [23] D.2.10.4). Unset: ignored.
    std::function<void(int button)> on_clock_button;
    /// New settings (SIGHUP): tags and options apply to the next game.
    void reconfigure(BoardConfig board, const Config& global);

    /// The driver name of the URI ("dgt" of "dgt:/dev/ttyACM0").
    [[nodiscard]] std::string driver() const;
    [[nodiscard]] bool connected() const { return connected_; }
    /// Records a BOARD event (and, on disconnect, an ALERT board_disconnected).
    void set_connected(bool connected, std::int64_t now_ms);

    /// The game in progress, if any.
    [[nodiscard]] const std::optional<GameTracker>& game() const { return game_; }
    [[nodiscard]] std::string game_id() const { return game_ ? game_->game() : std::string(); }

    /// Takes up an unfinished game from the store (after a restart).
    [[nodiscard]] Expected<bool> resume(const std::string& game_id);

    /// Starts a game from `fen` (empty: the standard position): a store row, GAME start. A
    /// game in progress ends first, unfinished ("*"). Returns the game id.
    [[nodiscard]] Expected<std::string> new_game(const std::string& fen, std::int64_t now_ms);

    /// A move made or completed at `ply` (see GameTracker::play); records and announces the
    /// MOVE, then the RESULT and GAME end if the move ends the game by rule.
    [[nodiscard]] Expected<bool> move(int ply, Move move, bool completed,
                                      std::optional<MoveClock> clock, std::int64_t now_ms);
    /// The made move at `ply` is completed.
    [[nodiscard]] Expected<bool> complete(int ply, std::optional<MoveClock> clock, std::int64_t now_ms);

    /// The game's result (RESULT), and GAME end once it is confirmed.
    [[nodiscard]] Expected<bool> result(const std::string& result, const std::string& termination,
                                        bool confirmed, std::int64_t now_ms);

    /// Takes the game back to `ply` (0 = the start position); the PGN is rewritten.
    [[nodiscard]] Expected<bool> take_back(int ply, std::int64_t now_ms);

    /// Sets the position: back to that ply if the FEN is one of the game's positions
    /// (Art. 7.2/7.5 restorations), else the game continues from it as a new game record.
    [[nodiscard]] Expected<bool> set_position(const std::string& fen, std::int64_t now_ms);

    /// Records an alert tied to the game.
    void alert(AlertEvent alert, std::int64_t now_ms);

    /// {"board":..,"driver":..,"state":..,"game":..,"ply":..,"uri":..}
    [[nodiscard]] ojson status_json() const;

    [[nodiscard]] Recorder& recorder() { return recorder_; }

  private:
    [[nodiscard]] PgnTags tags() const;
    bool publish(const Event& e, std::int64_t now_ms) { return recorder_.publish(e, now_ms); }

    BoardConfig board_;
    const Config* global_;
    Recorder& recorder_;
    bool connected_ = false;
    std::optional<GameTracker> game_;
};

} // namespace eboard::daemon
