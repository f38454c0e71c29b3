// How a board stands, learnt from what it reads (base/sensors.hpp's BoardReading), for boards
// that cannot tell which side White sits at.
#pragma once

#include "base/sensors.hpp"

#include <optional>

namespace eboard::drivers {

/// Orientation from a start position, for boards that cannot tell how they stand: `b` as read
/// with the driver's current orientation. False when ranks 1-2 hold only white pieces and ranks
/// 7-8 only black ones (at least 8 each: any Chess960 start position, pieces still missing
/// allowed), true when it is the other way round (the board is turned), nullopt otherwise
/// (e.g. a middle game: keep the orientation you have).
[[nodiscard]] std::optional<bool> start_position_rotated(const BoardReading& b) noexcept;

} // namespace eboard::drivers
