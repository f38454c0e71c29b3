// Legal move generation (Art. 3; castling per Art. 3.8.2 and Guidelines II for Chess960), and
// the questions asked about single moves: is_legal, gives_check.
//
// Fully legal generation: pinned pieces move only along the pin line, in check only moves
// that capture or block the single checker (or king moves) are made, king destinations are
// tested with the king removed from the board, en passant by replaying the occupancy.
#include "rules/bitboard.hpp"
#include "rules/position.hpp"

namespace eboard {

using namespace bitboards;

Bitboard Position::pinned(Color c) const noexcept {
    const int k = king_square(c).index();
    const Color them = ~c;
    const Bitboard snipers =
        (rook_attacks(k, 0) & (pieces(them, PieceType::Rook) | pieces(them, PieceType::Queen))) |
        (bishop_attacks(k, 0) & (pieces(them, PieceType::Bishop) | pieces(them, PieceType::Queen)));
    const Bitboard occ = occupied();
    Bitboard result = 0;
    for (Bitboard s = snipers; s;) {
        const Bitboard b = between(k, pop_lsb(s)) & occ;
        if (b && !more_than_one(b)) result |= b & pieces(c);
    }
    return result;
}

// Returns true as soon as one move is found when AnyOnly (has_legal_move), else fills list.
template <bool AnyOnly>
bool Position::generate(MoveList& list) const {
    const Color us = stm_;
    const Color them = ~us;
    const int ksq = king_square(us).index();
    const Bitboard occ = occupied();
    const Bitboard ours = pieces(us);
    const Bitboard theirs = pieces(them);
    const Bitboard checkers = st().checkers;

#define EBOARD_ADD(move)                                                                       \
    do {                                                                                       \
        if constexpr (AnyOnly) return true;                                                    \
        list.push_back(move);                                                                  \
    } while (false)

    // King moves: the destination must not be attacked once the king has left its square.
    for (Bitboard t = king_attacks(ksq) & ~ours; t;) {
        const int to = pop_lsb(t);
        if (!(attackers_to(Square(to), occ ^ bit(ksq)) & theirs))
            EBOARD_ADD(Move::normal(Square(ksq), Square(to)));
    }
    if (more_than_one(checkers)) return !list.empty(); // double check: only the king moves

    const Bitboard pin = pinned(us);
    const Bitboard target =
        checkers ? between(ksq, lsb(checkers)) | checkers : ~ours;
    const auto pin_ok = [&](int from, int to) {
        return !(pin & bit(from)) || (line(ksq, from) & bit(to));
    };

    // Pawns: pushes, double pushes, captures, promotions, en passant.
    {
        const Bitboard pawns = pieces(us, PieceType::Pawn);
        const Bitboard rank7 = us == Color::White ? kRank7 : kRank2;
        const Bitboard rank3 = us == Color::White ? kRank3 : kRank6;
        const int up = us == Color::White ? 8 : -8;
        const Bitboard empty = ~occ;
        const Bitboard promo = pawns & rank7;
        const Bitboard rest = pawns & ~rank7;

        const Bitboard push1 = forward(us, rest) & empty;
        const Bitboard push2 = forward(us, push1 & rank3) & empty & target;
        for (Bitboard t = push1 & target; t;) {
            const int to = pop_lsb(t);
            if (pin_ok(to - up, to)) EBOARD_ADD(Move::normal(Square(to - up), Square(to)));
        }
        for (Bitboard t = push2; t;) {
            const int to = pop_lsb(t);
            if (pin_ok(to - 2 * up, to))
                EBOARD_ADD(Move::normal(Square(to - 2 * up), Square(to)));
        }
        for (Bitboard t = forward_west(us, rest) & theirs & target; t;) {
            const int to = pop_lsb(t);
            if (pin_ok(to - up + 1, to)) EBOARD_ADD(Move::normal(Square(to - up + 1), Square(to)));
        }
        for (Bitboard t = forward_east(us, rest) & theirs & target; t;) {
            const int to = pop_lsb(t);
            if (pin_ok(to - up - 1, to)) EBOARD_ADD(Move::normal(Square(to - up - 1), Square(to)));
        }
        if (promo) {
            const auto add_promotions = [&](Bitboard t, int delta) {
                for (; t;) {
                    const int to = pop_lsb(t);
                    const int from = to - delta;
                    if (!pin_ok(from, to)) continue;
                    for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                                         PieceType::Knight}) {
                        if constexpr (AnyOnly) return true;
                        list.push_back(Move::promotion(Square(from), Square(to), pt));
                    }
                }
                return false;
            };
            if (add_promotions(forward(us, promo) & empty & target, up)) return true;
            if (add_promotions(forward_west(us, promo) & theirs & target, up - 1)) return true;
            if (add_promotions(forward_east(us, promo) & theirs & target, up + 1)) return true;
        }
        const Square ep = st().ep;
        if (ep.valid()) {
            for (Bitboard f = pawn_attacks(them, ep.index()) & rest; f;) {
                const int from = pop_lsb(f);
                if (ep_capture_legal(Square(from))) EBOARD_ADD(Move::en_passant(Square(from), ep));
            }
        }
    }

    for (Bitboard b = pieces(us, PieceType::Knight) & ~pin; b;) {
        const int from = pop_lsb(b);
        for (Bitboard t = knight_attacks(from) & target; t;)
            EBOARD_ADD(Move::normal(Square(from), Square(pop_lsb(t))));
    }
    const Bitboard queens = pieces(us, PieceType::Queen);
    for (Bitboard b = pieces(us, PieceType::Bishop) | queens; b;) {
        const int from = pop_lsb(b);
        Bitboard t = bishop_attacks(from, occ) & target;
        if (pin & bit(from)) t &= line(ksq, from);
        while (t) EBOARD_ADD(Move::normal(Square(from), Square(pop_lsb(t))));
    }
    for (Bitboard b = pieces(us, PieceType::Rook) | queens; b;) {
        const int from = pop_lsb(b);
        Bitboard t = rook_attacks(from, occ) & target;
        if (pin & bit(from)) t &= line(ksq, from);
        while (t) EBOARD_ADD(Move::normal(Square(from), Square(pop_lsb(t))));
    }

    // Castling (Art. 3.8.2; Guidelines II for Chess960). The attack test runs with king and
    // rook lifted off the board: in Chess960 the castling rook may be what shields the king's
    // final square along the first rank.
    if (!checkers) {
        for (bool king_side : {true, false}) {
            const std::size_t i = right_index(us, king_side);
            if (!(st().castling & (1u << i)) || (castling_empty_[i] & occ)) continue;
            const Square rook = castling_rooks_[i];
            const Bitboard lifted = occ ^ bit(ksq) ^ bb(rook);
            bool safe = true;
            for (Bitboard s = castling_safe_[i]; s && safe;)
                safe = !(attackers_to(Square(pop_lsb(s)), lifted) & theirs);
            if (safe) EBOARD_ADD(Move::castling(Square(ksq), rook));
        }
    }
#undef EBOARD_ADD
    return !list.empty();
}

MoveList Position::legal_moves() const {
    MoveList list;
    generate<false>(list);
    return list;
}

bool Position::has_legal_move() const {
    MoveList unused;
    return generate<true>(unused);
}

bool Position::is_legal(Move m) const {
    if (!m.from().valid() || piece_on(m.from()) == Piece::None ||
        color_of(piece_on(m.from())) != stm_)
        return false;
    return legal_moves().contains(m);
}

// Art. 3.9: the king is in check if attacked by the opponent's pieces. The test replays the
// occupancy after the move, which covers direct, discovered, en passant, promotion and
// castling checks alike.
bool Position::gives_check(Move m) const {
    const Color us = stm_;
    const int eking = king_square(~us).index();
    const Square from = m.from();
    const Square to = m.to();
    std::array<Bitboard, 7> mine{};
    for (std::size_t t = 1; t < 7; ++t) mine[t] = by_type_[t] & pieces(us);
    Bitboard occ = occupied();
    const auto type_index = [](PieceType t) { return static_cast<std::size_t>(t); };
    if (m.is_castling()) {
        const Square kto = m.king_to();
        const Square rto = m.rook_to();
        occ = (occ ^ bb(from) ^ bb(to)) | bb(kto) | bb(rto);
        mine[type_index(PieceType::Rook)] = (mine[type_index(PieceType::Rook)] ^ bb(to)) | bb(rto);
    } else {
        const PieceType moved = type_of(piece_on(from));
        const PieceType lands =
            m.kind() == Move::Kind::Promotion ? m.promotion_type() : moved;
        occ = (occ ^ bb(from)) | bb(to);
        if (m.kind() == Move::Kind::EnPassant)
            occ ^= bb(Square(to.index() + (us == Color::White ? -8 : 8)));
        mine[type_index(moved)] ^= bb(from);
        mine[type_index(lands)] |= bb(to);
    }
    const Bitboard q = mine[type_index(PieceType::Queen)];
    return (pawn_attacks(~us, eking) & mine[type_index(PieceType::Pawn)]) ||
           (knight_attacks(eking) & mine[type_index(PieceType::Knight)]) ||
           (bishop_attacks(eking, occ) & (mine[type_index(PieceType::Bishop)] | q)) ||
           (rook_attacks(eking, occ) & (mine[type_index(PieceType::Rook)] | q));
}

template bool Position::generate<true>(MoveList&) const;
template bool Position::generate<false>(MoveList&) const;

} // namespace eboard
