// Tabutronic Sentio occupancy frames (certabo-sentio.md 2.2): 8 numbers, number k = rank
// 8 - k, bit 7 (MSB) = a-file .. bit 0 = h-file, set = occupied. The line framing, LED
// commands and square order are the family's (drivers/line/protocol.hpp). Pure.
#pragma once

#include "drivers/core/board_state.hpp"
#include "base/types.hpp"

#include <array>
#include <cstdint>
#include <span>

namespace eboard::drivers::sentio {

/// The occupied squares of a frame's 8 numbers (eboard squares; `rotated`: the board stands
/// turned round, so its rank 8 is the game's rank 1 and its a-file the game's h-file).
[[nodiscard]] Bitboard occupancy_of(std::span<const std::uint8_t, 8> numbers, bool rotated) noexcept;
/// The 8 numbers of a frame for `occupied` (for the emulator).
[[nodiscard]] std::array<std::uint8_t, 8> numbers_of(Bitboard occupied, bool rotated) noexcept;
/// The board an occupancy-only board sees: SquareReading::unknown() on `occupied`.
[[nodiscard]] BoardReading board_of(Bitboard occupied) noexcept;

} // namespace eboard::drivers::sentio
