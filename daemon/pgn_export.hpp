// PGN of a recorded game (docs/client-api.md "PGN files"): the daemon's StoredGame turned into the rules
// core's eboard::GameRecord and written by eboard::write_pgn (rules/pgn.hpp, PGN standard 1994
// section 8 export format, `[%clk]` of the PGN Specification Supplement). There is one PGN
// writer in eboardd; this file only decides what goes into the record.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/stored_game.hpp"
#include "rules/pgn.hpp"

namespace eboard::daemon {

/// The game as PGN records: one eboard::GameRecord per stretch of legal moves. Tags: the
/// Seven Tag Roster from `game.tags` ("?" when unknown), Board, TimeControl when known,
/// Termination (a PGN 9.8.1 value; the exact reason goes in a comment after the last move),
/// SetUp/FEN for a non-standard start, Variant Chess960 when the start position reads only as
/// Chess960. `[%clk h:mm:ss]` (whole seconds, rounded down) after each completed move with
/// clock times; irregularities as comments ('{' and '}' become '(' and ')'); Result "*" until
/// the result is known.
///
/// An illegal move that stood ([23] A.5.2) is never written as a move: the record ends before
/// it with a comment saying what happened and Result "*", and a continuation record (same
/// tags, SetUp/FEN of the position after it) carries the rest of the game. Standard PGN tools
/// read both records.
[[nodiscard]] std::vector<eboard::GameRecord> to_pgn_records(const StoredGame& game);

/// The PGN text of the game: to_pgn_records() written with eboard::write_pgn, records
/// separated by an empty line.
[[nodiscard]] std::string to_pgn(const StoredGame& game);

/// "h:mm:ss" of a clock reading, rounded down to the second (a negative one reads as 0).
[[nodiscard]] std::string clock_text(std::int64_t ms);

} // namespace eboard::daemon
