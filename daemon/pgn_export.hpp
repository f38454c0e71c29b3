// PGN export of a recorded game (PGN standard 1994, section 8 "export format"; the
// `[%clk]` command of the PGN Specification Supplement; interfaces.md "PGN").
#pragma once

#include <cstdint>
#include <string>

#include "daemon/game_record.hpp"

namespace eboard::daemon {

/// The game in PGN export format: the Seven Tag Roster, Board, TimeControl when known,
/// SetUp/FEN for a non-standard start, then the movetext with `{[%clk h:mm:ss]}` after each
/// completed move that has clock times, wrapped at 79 columns, ending with the result
/// (`*` while the game is in progress). Comments are sanitised (no braces).
[[nodiscard]] std::string to_pgn(const GameRecord& game);

/// "h:mm:ss" of a clock reading, rounded down to the second (negative reads as 0).
[[nodiscard]] std::string clock_text(std::int64_t ms);

} // namespace eboard::daemon
