// The daemon's own copy of a board's game line: the start position and the moves made, so
// that each move reported by the reconstruction gets its SAN, UCI and FEN (PGN 8.2.3), and a
// restarted daemon can resume the game from the store.
#pragma once

#include <optional>
#include <string>

#include "daemon/events.hpp"
#include "daemon/game_record.hpp"
#include "rules/expected.hpp"
#include "rules/position.hpp"

namespace eboard::daemon {

class GameTracker {
  public:
    /// A game from `fen` (validated; Chess960 castling read as X-FEN/Shredder-FEN).
    [[nodiscard]] static Expected<GameTracker> start(const std::string& board, const std::string& game,
                                                     const std::string& fen);
    /// The game as the store has it: the start position plus every recorded move (made or
    /// completed). Errors name the first move that does not replay.
    [[nodiscard]] static Expected<GameTracker> resume(const GameRecord& record);

    /// The MOVE event for `move` at `ply` (made or completed), and the position follows it.
    /// If `ply` is not the next ply, the line is first taken back to ply-1 (a made move
    /// replaced before completion). Errors: illegal move, ply out of range.
    [[nodiscard]] Expected<MoveEvent> play(int ply, Move move, bool completed,
                                           std::optional<MoveClock> clock);

    /// The MOVE event marking the already made move at `ply` completed.
    [[nodiscard]] Expected<MoveEvent> complete(int ply, std::optional<MoveClock> clock);

    /// Takes the line back to `ply` (0 = the start position).
    [[nodiscard]] Expected<bool> take_back(int ply);

    [[nodiscard]] const Position& position() const { return pos_; }
    [[nodiscard]] int plies() const { return plies_; }
    [[nodiscard]] const std::string& game() const { return game_; }
    [[nodiscard]] const std::string& board() const { return board_; }
    [[nodiscard]] const std::string& start_fen() const { return start_fen_; }

    /// "1-0"/"0-1"/"1/2-1/2" and the termination when the position ends the game by rule
    /// (checkmate 5.1.1, stalemate 5.2.1), else nullopt.
    [[nodiscard]] std::optional<ResultEvent> result_by_rule() const;

  private:
    GameTracker(Position pos, std::string board, std::string game, std::string start_fen);
    Position pos_;
    std::string board_;
    std::string game_;
    std::string start_fen_;
    int plies_ = 0;
    std::string last_san_;
    std::string last_uci_;
};

} // namespace eboard::daemon
