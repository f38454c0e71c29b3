// What eboardd records of one game: its tags, start position and the moves as they were made
// and completed, with the clock times. The store (daemon/store.hpp) keeps it; the PGN export
// (daemon/pgn_export.hpp) turns it into the rules core's eboard::GameRecord and writes it with
// eboard::write_pgn (rules/pgn.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/events.hpp"

namespace eboard::daemon {

/// The standard start position (Art. 2.3).
inline constexpr const char* kStandardFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The PGN tags that come from configuration (docs/client-api.md "PGN files"); empty = unknown ("?").
struct PgnTags {
    std::string event;
    std::string site;
    std::string date;  ///< "YYYY.MM.DD", the day the game started
    std::string round;
    std::string white;
    std::string black;
    std::string board; ///< the board's name
    std::string time_control; ///< PGN TimeControl syntax
};

/// One move of the game as the reconstruction reported it.
struct RecordedMove {
    int ply = 0;
    std::string san; ///< SAN; for an illegal move that stands, its squares ("e2-e5")
    std::string uci; ///< UCI; for an illegal move that stands, its squares ("e2e5")
    std::string fen; ///< after the move
    bool completed = false;
    std::optional<MoveClock> clock; ///< what the clock showed when it was completed
    std::vector<std::string> comments; ///< irregularities after this move (never moves)
    /// An illegal move that stood because nobody claimed it before the opponent's next move
    /// ([23] A.5.2, [05] B6/C3, club Art. 6). It never appears as a move in the PGN: the game
    /// continues from `fen` in a continuation record (SetUp/FEN).
    bool illegal_stands = false;
};

/// A game: start position, tags, moves, result.
struct StoredGame {
    std::string id;
    std::string board;
    PgnTags tags;
    std::string start_fen = kStandardFen;
    std::string rules; ///< the rules profile the game is played under
    std::vector<RecordedMove> moves;
    std::vector<std::string> comments; ///< irregularities before the first move
    std::string result = "*"; ///< "1-0", "0-1", "1/2-1/2" or "*"
    std::string termination;  ///< e.g. "checkmate", "resignation"
    bool confirmed = false;   ///< Art. 8.7
    bool ended = false;       ///< a GAME end was recorded
    /// The clock side White plays on, "left" or "right", once known (`--white-side auto`:
    /// the first press); "" = not known (or configured, not stored).
    std::string white_side;
};

} // namespace eboard::daemon
