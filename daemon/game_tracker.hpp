// A board's game as the daemon records it: rows (SAN, UCI, completion; PGN 8.2.3) over the
// Laws' game line (rules/game.hpp `Game`, under the board's rules profile), so that each move
// the reconstruction reports gets its SAN, UCI and FEN, and a restarted daemon resumes the
// game from the store. The positions are the Game's: no other position history is kept. An
// illegal move that stood ([23] A.5.2) starts a new line from the position after it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/events.hpp"
#include "daemon/stored_game.hpp"
#include "base/expected.hpp"
#include "rules/game.hpp"
#include "rules/position.hpp"
#include "rules/result_check.hpp"

namespace eboard::daemon {

class GameTracker {
  public:
    /// A game from `fen` (validated; Chess960 castling read as X-FEN/Shredder-FEN) under
    /// `profile` (its "same position" of 9.2 for the repetitions a resumed reconstruction
    /// counts).
    [[nodiscard]] static Expected<GameTracker> start(const std::string& board, const std::string& game,
                                                     const std::string& fen,
                                                     const Profile& profile = Profile{});
    /// The game as the store has it: the start position plus every recorded move (made or
    /// completed, and illegal moves that stood). Errors name the first move that does not
    /// replay.
    [[nodiscard]] static Expected<GameTracker> resume(const StoredGame& record,
                                                      const Profile& profile = Profile{});

    /// The MOVE event for `move` at `ply`, made (`how` None) or completed (how, Art. 6.2.1),
    /// and the position follows it.
    /// If `ply` is not the next ply, the line is first taken back to ply-1 (a made move
    /// replaced before completion). Errors: illegal move, ply out of range.
    [[nodiscard]] Expected<MoveEvent> play(int ply, Move move, Completion how,
                                           std::optional<MoveClock> clock);

    /// The MOVE event marking the already made move at `ply` completed (`how`; None is taken
    /// as Recorded).
    [[nodiscard]] Expected<MoveEvent> complete(int ply, Completion how, std::optional<MoveClock> clock);

    /// An illegal move that stands at `ply` ([23] A.5.2): the game continues from `fen` (the
    /// position after it, as the reconstruction read it off the board). Returns the row the
    /// store keeps for it (san "e2-e5", uci "e2e5"). The line is first taken back to ply-1.
    [[nodiscard]] Expected<RecordedMove> illegal_stands(int ply, Square from, Square to,
                                                        const std::string& fen);

    /// Takes the line back to `ply` (0 = the start position).
    [[nodiscard]] Expected<bool> take_back(int ply);

    /// The current position: the line's, whose undo stack holds the moves since the game's
    /// start or since the last illegal move that stood (line_start()).
    [[nodiscard]] const Position& position() const { return line_.position(); }
    /// The ply the line starts after: 0, or the last illegal move that stood.
    [[nodiscard]] int line_start() const { return base_; }
    [[nodiscard]] int plies() const { return static_cast<int>(rows_.size()); }
    [[nodiscard]] const std::string& game() const { return game_; }
    [[nodiscard]] const std::string& board() const { return board_; }
    [[nodiscard]] const std::string& start_fen() const { return start_fen_; }
    /// Who moves first in this game: White, unless its start position (set by the arbiter)
    /// has Black to move.
    [[nodiscard]] Color first_to_move() const { return first_to_move_; }
    /// Who made ply `ply` (1 = the first move of the game). An illegal move that stood counts
    /// as its player's ply: the opponent moves next.
    [[nodiscard]] Color mover_of(int ply) const { return ply % 2 == 1 ? first_to_move_ : ~first_to_move_; }
    /// The moves `side` has made in this game so far.
    [[nodiscard]] int moves_by(Color side) const {
        const GameSoFar g = game_so_far(position(), plies(), first_to_move_);
        return side == Color::White ? g.white_moves : g.black_moves;
    }
    /// True when the last move made is completed (Art. 6.2.1), stood as an illegal move, or
    /// there is none; false while the player has not pressed the clock after it.
    [[nodiscard]] bool last_completed() const {
        return rows_.empty() || rows_.back().completed || !rows_.back().stood_fen.empty();
    }
    /// The FEN after `ply` (0 = the start position); "" when out of range.
    [[nodiscard]] std::string fen_after(int ply) const;
    /// The FEN after every ply: [0] the start position .. [plies()] the current one, from one
    /// walk back over a copy of the position (fen_after() for each would copy it each time).
    [[nodiscard]] std::vector<std::string> fens() const;
    /// The SAN of ply `ply` (1 = the first move) as MOVE gave it; "" when out of range.
    [[nodiscard]] std::string san(int ply) const {
        return ply >= 1 && ply <= plies() ? rows_[static_cast<std::size_t>(ply - 1)].san : std::string();
    }

  private:
    // One ply of the record: what the store keeps of it beside the line's move.
    struct Row {
        std::string san;
        std::string uci;
        std::string stood_fen;  ///< an illegal move that stood: the position after it; else ""
        bool completed = false; ///< Art. 6.2.1
    };
    GameTracker(Game line, std::string board, std::string game, std::string start_fen);
    // Plays the legal move m on the line (one the reconstruction saw: a line that ended by a
    // rule follows the board, as the reconstruction's does) and records its row.
    void push(Move m, bool completed);
    // Starts a new line from `after`, the position after an illegal move that stood.
    void push_stood(Position after, std::string san, std::string uci);
    // Replays the first `ply` rows from the start position (across illegal moves that stood,
    // which a line cannot take back).
    [[nodiscard]] Expected<bool> rebuild(int ply);

    Game line_;
    int base_ = 0;
    std::string board_;
    std::string game_;
    std::string start_fen_;
    Color first_to_move_ = Color::White;
    std::vector<Row> rows_;
};

} // namespace eboard::daemon
