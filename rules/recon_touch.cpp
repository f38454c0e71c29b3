// Touch-move (Art. 4.3-4.5 of the 2023 Laws; 4.3/4.4 in 2001/2005): what the touched pieces
// oblige the player on move to do, compared with the move he made. A lift stands for a touch
// (Art. 4.3, 4.7 of the FIDE Laws 2023); touches without a lift, intent and a spoken
// "j'adoube" are invisible, so the result is an alert for the arbiter, never a ruling.
#include "rules/recon_impl.hpp"

namespace eboard {
namespace {

bool moves_piece(Move m, Square s) { return m.from() == s; }

bool captures_on(const Position& p, Move m, Square s) {
    if (m.is_castling()) return false;
    if (m.kind() == Move::Kind::EnPassant) return ep_victim(m) == s;
    return m.to() == s && p.piece_on(s) != Piece::None;
}

} // namespace

void Reconstructor::Impl::check_touch_move(const Position& p, Move m,
                                           const std::vector<Touch>& ts) {
    Color us = p.side_to_move();
    MoveList legal = p.legal_moves();
    auto can_move = [&](Square s) {
        for (Move x : legal)
            if (moves_piece(x, s)) return true;
        return false;
    };
    auto can_be_captured = [&](Square s) {
        for (Move x : legal)
            if (captures_on(p, x, s)) return true;
        return false;
    };
    const Touch* own = nullptr;
    const Touch* opp = nullptr;
    const Touch* king = nullptr;
    const Touch* rook_first = nullptr;  // a castling rook touched before the king
    const Touch* rook_after = nullptr;  // a castling rook touched after the king
    for (const Touch& t : ts) {
        if (t.piece == Piece::None) continue;
        if (color_of(t.piece) == us) {
            PieceType ty = type_of(t.piece);
            if (ty == PieceType::King && !king) king = &t;
            if (ty == PieceType::Rook &&
                (t.sq == p.castling_rook(us, true) || t.sq == p.castling_rook(us, false))) {
                if (!king && !rook_first) rook_first = &t;
                if (king && !rook_after && (!rook_first || rook_first->sq != t.sq))
                    rook_after = &t;
            }
            if (!own && can_move(t.sq)) own = &t;
        } else if (!opp && can_be_captured(t.sq)) {
            opp = &t;
        }
    }

    AlertEvent a;
    a.kind = AlertKind::TouchMove;
    a.player = us;
    a.ply = made_plies() + 1;
    a.article = "4.3";
    auto name = [](const Touch* t) {
        std::string n;
        n += piece_to_char(t->piece);
        n += t->sq.name();
        return n;
    };

    // Lifts with one time stamp came in one report of the board (reconstruction.cpp,
    // flush_deferred): their order is unknown, and an unknown order is never held against the
    // player. Of the own (opponent's) pieces touched first, the one the move moves (captures)
    // counts; a rook and king lifted together are neither "rook first" nor "king first".
    for (const Touch& t : ts) {
        if (t.piece == Piece::None) continue;
        if (own && t.t == own->t && color_of(t.piece) == us && moves_piece(m, t.sq)) own = &t;
        if (opp && t.t == opp->t && color_of(t.piece) != us && captures_on(p, m, t.sq)) opp = &t;
    }
    if (rook_first && king && rook_first->t == king->t) rook_first = nullptr;
    if (rook_after && king && rook_after->t == king->t) rook_after = nullptr;

    // 4.4.2 (2023; 4.4 b in 2001/2005): rook first, then king: no castling with that rook.
    if (rook_first && king && m.is_castling() && m.to() == rook_first->sq) {
        a.article = "4.4";
        a.text = "4.4.2: the rook " + name(rook_first) +
                 " was touched before the king; castling with it is not allowed this move";
        a.squares = bit_of(rook_first->sq) | bit_of(king->sq);
        alert(a);
        return;
    }
    // 4.4.1/4.4.3: king first, then a castling rook: castle with that rook if legal, else
    // another king move if there is one.
    if (king && rook_after && (!own || own == king)) {
        Move castle;
        for (Move x : legal)
            if (x.is_castling() && x.from() == king->sq && x.to() == rook_after->sq) castle = x;
        if (!castle.is_none()) {
            if (m != castle) {
                a.article = "4.4";
                a.text = "4.4.1: king " + name(king) + " and rook " + name(rook_after) +
                         " were touched: castling with that rook was required";
                a.squares = bit_of(king->sq) | bit_of(rook_after->sq);
                alert(a);
            }
            return;
        }
        if (can_move(king->sq) && !moves_piece(m, king->sq)) {
            a.article = "4.4";
            a.text = "4.4.3: king " + name(king) +
                     " touched to castle where castling is illegal: a king move was required";
            a.squares = bit_of(king->sq);
            alert(a);
        }
        return;
    }
    if (own && opp) {
        bool combined = false;
        for (Move x : legal)
            if (moves_piece(x, own->sq) && captures_on(p, x, opp->sq)) combined = true;
        if (combined) {
            if (!(moves_piece(m, own->sq) && captures_on(p, m, opp->sq))) {
                a.text = "4.3.3: " + name(own) + " and " + name(opp) +
                         " were touched: " + name(own) + " had to capture " + name(opp);
                a.squares = bit_of(own->sq) | bit_of(opp->sq);
                alert(a);
            }
            return;
        }
        // Otherwise the first touched piece that can be moved or captured; unordered lifts
        // (closer than simultaneous_ms) count the own piece first.
        if (opp->t + cfg.simultaneous_ms < own->t) own = nullptr;
        else opp = nullptr;
    }
    if (own) {
        if (!moves_piece(m, own->sq)) {
            a.text = "4.3.1: " + name(own) + " was touched first and can move; it had to be moved";
            a.squares = bit_of(own->sq);
            alert(a);
        }
        return;
    }
    if (opp) {
        if (!captures_on(p, m, opp->sq)) {
            a.text = "4.3.2: the opponent's " + name(opp) +
                     " was touched and can be captured; it had to be captured";
            a.squares = bit_of(opp->sq);
            alert(a);
        }
        return;
    }
    // 4.5: no touched piece can be moved or captured: any legal move.
}

} // namespace eboard
