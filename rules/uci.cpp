// Moves in UCI coordinate notation: "e2e4", "e7e8q"; castling as the king's two-square move
// in standard chess ("e1g1") and as king -> rook in Chess960 ("e1h1", UCI_Chess960).
#include "rules/position.hpp"

namespace eboard {

std::string to_uci(const Position& pos, Move m) {
    if (m.is_none()) return "0000";
    const Square to = m.is_castling() && !pos.chess960() ? m.king_to() : m.to();
    std::string out = m.from().name() + to.name();
    if (m.kind() == Move::Kind::Promotion)
        out += static_cast<char>(piece_to_char(make_piece(Color::Black, m.promotion_type())));
    return out;
}

Move move_from_uci(const Position& pos, std::string_view uci) {
    if (uci.size() != 4 && uci.size() != 5) return Move::none();
    const Square from = Square::parse(uci.substr(0, 2));
    const Square to = Square::parse(uci.substr(2, 2));
    if (!from.valid() || !to.valid()) return Move::none();
    const char promo = uci.size() == 5 ? uci[4] : '\0';
    for (const Move m : pos.legal_moves()) {
        if (m.from() != from) continue;
        if (m.is_castling()) {
            // Chess960 writes king -> rook; standard chess the king's move, and king -> rook
            // is accepted there too (some GUIs send it).
            if (promo == '\0' && (m.to() == to || (!pos.chess960() && m.king_to() == to)))
                return m;
            continue;
        }
        if (m.to() != to) continue;
        if (m.kind() == Move::Kind::Promotion) {
            if (promo != '\0' &&
                piece_from_char(promo) == make_piece(Color::Black, m.promotion_type()))
                return m;
        } else if (promo == '\0') {
            return m;
        }
    }
    return Move::none();
}

} // namespace eboard
