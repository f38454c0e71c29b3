// What eboardd records of one game: its tags, start position and the moves as they were made
// and completed, with the clock times. The store (daemon/store.hpp) keeps it; the PGN export
// (daemon/pgn_export.hpp) renders it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/events.hpp"

namespace eboard::daemon {

/// The standard start position (Art. 2.3).
inline constexpr const char* kStandardFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The PGN tags that come from configuration (interfaces.md "PGN"); empty = unknown ("?").
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
    std::string san;
    std::string uci;
    std::string fen; ///< after the move
    bool completed = false;
    std::optional<MoveClock> clock; ///< what the clock showed when it was completed
    std::vector<std::string> comments; ///< irregularities after this move (never moves)
};

/// A game: start position, tags, moves, result.
struct GameRecord {
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
};

} // namespace eboard::daemon
