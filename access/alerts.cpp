#include "access/alerts.hpp"

namespace eboard::access {

namespace {

/// The words of `kind`, "" when it is not spoken.
std::string_view kind_words(std::string_view kind, const Words& w) noexcept {
    if (kind == "illegal_move") return w.illegal_move;
    if (kind == "position_mismatch") return w.piece_displaced;
    if (kind == "both_boards_differ") return w.boards_differ;
    if (kind == "boards_agree") return w.boards_agree;
    if (kind == "flag") return w.flag_fall;
    return {};
}

} // namespace

bool alert_is_spoken(std::string_view kind) noexcept {
    return !kind_words(kind, words(Vocabulary::English)).empty();
}

std::string alert_text(std::string_view kind, std::span<const Square> squares,
                       std::optional<Color> side, Vocabulary v) {
    const Words& w = words(v);
    std::string out(kind_words(kind, w));
    if (out.empty()) return out;
    if (!squares.empty()) out += ": " + squares_words(squares, v);
    if (side && kind == "flag") {
        out += ", ";
        out += *side == Color::White ? w.white : w.black;
    }
    return out;
}

} // namespace eboard::access
