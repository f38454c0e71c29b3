// Irregularities committed on purpose by the simulated hands (rules/handling.hpp
// Irregularity): each one is what a player or a board does wrong in a way the reconstructor
// must alert exactly once (FIDE Laws 2023 Art. 4.1-4.5, 6.2, 7.1-7.5 and 9.2).
#include "rules/handling.hpp"

namespace eboard {
namespace {

/// A quiet piece move that can be taken back by the reverse move (the position's key, which
/// holds castling rights and en passant, is compared after the round trip).
bool shuffler(const Position& p, Move m) {
    return m.kind() == Move::Kind::Normal && p.piece_on(m.to()) == Piece::None &&
           type_of(p.moved_piece(m)) != PieceType::Pawn && !p.gives_check(m);
}

/// The legal move of p from `from` to `to`, or none.
Move find_legal(const Position& p, Square from, Square to) {
    for (Move x : p.legal_moves())
        if (x.from() == from && x.to() == to && x.kind() == Move::Kind::Normal) return x;
    return Move::none();
}

} // namespace

// Two rounds of a there-and-back by each side (a, b, a back, b back, twice): the position
// before them stands on the board a third time (Art. 9.2), and nothing else changes.
std::vector<Move> BoardHands::repetition_moves(const Position& p) const {
    Position w = p.copy();
    for (Move a : p.legal_moves()) {
        if (!shuffler(w, a)) continue;
        w.make_move(a);
        for (Move b : w.legal_moves()) {
            if (!shuffler(w, b)) continue;
            w.make_move(b);
            Move a_back = find_legal(w, a.to(), a.from());
            if (!a_back.is_none() && shuffler(w, a_back)) {
                w.make_move(a_back);
                Move b_back = find_legal(w, b.to(), b.from());
                bool ok = !b_back.is_none() && shuffler(w, b_back);
                if (ok) {
                    w.make_move(b_back);
                    ok = w.key() == p.key();
                    w.unmake_move();
                }
                w.unmake_move();
                if (ok) return {a, b, a_back, b_back, a, b, a_back, b_back};
            }
            w.unmake_move();
        }
        w.unmake_move();
    }
    return {};
}

void BoardHands::play_unpressed(const Position& p, Move m) {
    bool clock = o_.clock;
    o_.clock = false;
    play(p, m);
    o_.clock = clock;
}

std::vector<Move> BoardHands::play_with(const Position& p, Move m, Irregularity what) {
    Color us = p.side_to_move();
    MoveList legal = p.legal_moves();
    std::vector<Move> played;
    switch (what) {
    case Irregularity::TouchMove: {
        // An own piece other than the king (4.4) that can move, lifted and put back.
        for (Move x : legal) {
            Piece pc = p.piece_on(x.from());
            if (x.from() == m.from() || type_of(pc) == PieceType::King) continue;
            step(o_.think_min, o_.think_max);
            lift(x.from());
            step(200, 400);
            place(x.from(), pc);
            step(200, 400);
            break;
        }
        break;
    }
    case Irregularity::IllegalMove: {
        // An empty square the piece cannot reach, and which is no square of any legal move of
        // that piece (so the board never shows a legal move).
        Square bad = Square::none();
        for (int s = 0; s < 64 && !bad.valid(); ++s) {
            bool reach = false;
            for (Move x : legal) reach = reach || (x.from() == m.from() && x.to() == Square(s));
            if (on(Square(s)) == Piece::None && !reach) bad = Square(s);
        }
        if (!bad.valid()) break;
        step(o_.think_min, o_.think_max);
        shift(m.from(), bad, between(150, 300));
        step(100, 300);
        press(us);
        wait(o_.illegal_stands_ms);
        shift(bad, m.from(), between(150, 300));
        step(300, 500);
        break;
    }
    case Irregularity::PressWithoutMove:
        step(o_.think_min, o_.think_max);
        press(us);
        wait(1500);  // longer than the reconstructor's press grace
        break;
    case Irregularity::Displaced: {
        // A pawn knocked sideways (never a legal move of anyone, nor two moves) off the
        // squares of the move; put back before the press.
        play_unpressed(p, m);
        played.push_back(m);
        for (int s = 0; s < 64; ++s) {
            Square from(s);
            if (type_of(on(from)) != PieceType::Pawn || from == m.to()) continue;
            Square to = from.file() < 7 ? Square(s + 1) : Square(s - 1);
            if (on(to) != Piece::None || to == m.from()) continue;
            step(100, 300);
            shift(from, to, between(60, 150));
            wait(o_.displaced_ms);
            shift(to, from, between(100, 300));
            break;
        }
        if (o_.clock) {
            step(o_.press_min, o_.press_max);
            press(us);
        }
        return played;
    }
    case Irregularity::KnockedOver: {
        // Another own piece (not the king, off the move's squares) falls over as the hand
        // leaves: it lies there when the clock is pressed, and is set up again later.
        play_unpressed(p, m);
        played.push_back(m);
        Bitboard moved = Bitboard{1} << m.to().index();
        if (m.is_castling())
            moved |= (Bitboard{1} << m.king_to().index()) | (Bitboard{1} << m.rook_to().index());
        for (int s = 0; s < 64; ++s) {
            const Square sq(s);
            const Piece pc = on(sq);
            if (pc == Piece::None || color_of(pc) != us || type_of(pc) == PieceType::King ||
                (moved & (Bitboard{1} << s)))
                continue;
            step(60, 150);
            lift(sq);  // the piece on its side: no sensor sees it
            if (o_.clock) {
                step(o_.press_min, o_.press_max);
                press(us);
            }
            wait(o_.displaced_ms);
            place(sq, pc);
            step(100, 300);
            return played;
        }
        if (o_.clock) {
            step(o_.press_min, o_.press_max);
            press(us);
        }
        return played;
    }
    case Irregularity::FlagFall:
        step(o_.think_min, o_.think_max);
        flag(us);
        break;
    case Irregularity::Repetition: {
        Position w = p.copy();
        for (Move x : repetition_moves(p)) {
            play(w, x);
            w.make_move(x);
            played.push_back(x);
        }
        break;
    }
    }
    play(p, m);
    played.push_back(m);
    return played;
}

} // namespace eboard
