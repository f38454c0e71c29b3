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
    case AlertKind::BothBoardsDiffer: return "both_boards_differ";
    case AlertKind::BoardDisconnected: return "board_disconnected";
    case AlertKind::StoreFailed: return "store_failed";
    }
    return "?";
}

std::optional<AlertKind> alert_kind_from_string(std::string_view s) noexcept {
    constexpr AlertKind all[] = {AlertKind::IllegalMove,      AlertKind::TouchMove,
                                 AlertKind::PositionMismatch, AlertKind::Flag,
                                 AlertKind::DrawClaimable,    AlertKind::DeadPosition,
                                 AlertKind::BothBoardsDiffer, AlertKind::BoardDisconnected,
                                 AlertKind::StoreFailed};
    for (AlertKind k : all)
        if (s == to_string(k)) return k;
    return std::nullopt;
}

} // namespace eboard
