#include "drivers/core/board_state.hpp"

namespace eboard::drivers {

std::optional<bool> start_position_rotated(const BoardReading& b) noexcept {
    int near_white = 0, near_black = 0, far_white = 0, far_black = 0;
    for (int i = 0; i < 64; ++i) {
        const Square s(i);
        if (s.rank() >= 2 && s.rank() <= 5) continue;
        const SquareReading r = b.at(s);
        if (!r.known()) {
            if (r.occupied) return std::nullopt;  // an unknown occupant proves nothing
            continue;
        }
        const bool white = color_of(r.piece) == Color::White;
        (s.rank() < 2 ? (white ? near_white : near_black) : (white ? far_white : far_black))++;
    }
    if (near_white >= 8 && near_black == 0 && far_black >= 8 && far_white == 0) return false;
    if (near_black >= 8 && near_white == 0 && far_white >= 8 && far_black == 0) return true;
    return std::nullopt;
}

} // namespace eboard::drivers
