// The piece placement field of FEN (PGN standard 16.1.3.1; the first field of a FEN): the one
// reader and the one writer of it in eboardd. Ranks 8 down to 1, files a to h within a rank,
// '/' between ranks, the digits 1-8 for runs of empty squares, "PNBRQK" white and "pnbrqk"
// black pieces. eboardd's own extension: '?' is a square occupied by a piece the board cannot
// identify (occupancy-only boards; SquareReading::unknown()).
#pragma once

#include <string>
#include <string_view>

#include "base/expected.hpp"
#include "base/sensors.hpp"

namespace eboard {

/// Reads a placement field into squares a1=0 .. h8=63. The field ends at the first space, so a
/// whole FEN may be given (its other fields are not read). `unknown` allows '?'. Errors name
/// what is wrong ("rank 8 has 7 squares, not 8", "unexpected 'X' in the board", "7 ranks in the
/// board, not 8") and the 1-based column of the character at fault (0 when it is the field's
/// end).
[[nodiscard]] Expected<BoardReading> read_placement(std::string_view field, bool unknown = false);

/// Writes the placement field of `board`: empty runs as digits, '?' for unknown occupants.
[[nodiscard]] std::string write_placement(const BoardReading& board);

/// A character for an error message: 'X' quoted, or "byte 0x01" when it is not printable.
[[nodiscard]] std::string printable(char c);

} // namespace eboard
