#include "base/events.hpp"

namespace eboard {

const char* to_string(AlertKind k) noexcept {
    switch (k) {
    case AlertKind::IllegalMove: return "illegal_move";
    case AlertKind::TouchMove: return "touch_move";
    case AlertKind::PositionMismatch: return "position_mismatch";
    case AlertKind::Flag: return "flag";
    case AlertKind::DrawClaimable: return "draw_claimable";
    case AlertKind::DeadPosition: return "dead_position";
    }
    return "?";
}

} // namespace eboard
