// The board against the game: does the board show this position, a legal move of it, or a
// move still in progress? Occupancy decides; identity, where the board knows it, must agree.
#include "rules/recon_impl.hpp"

namespace eboard {
namespace {

/// The piece on `s` after the legal move m of p (s in changed_squares(m)).
Piece piece_after(const Position& p, Move m, Square s) {
    Color us = p.side_to_move();
    if (m.is_castling()) {
        if (s == m.king_to()) return make_piece(us, PieceType::King);
        if (s == m.rook_to()) return make_piece(us, PieceType::Rook);
        return Piece::None;
    }
    if (s == m.to()) {
        return m.kind() == Move::Kind::Promotion ? make_piece(us, m.promotion_type())
                                                 : p.piece_on(m.from());
    }
    if (s == m.from()) return Piece::None;
    if (m.kind() == Move::Kind::EnPassant && s == ep_victim(m)) return Piece::None;
    return p.piece_on(s);
}

Bitboard occupancy_after(const Position& p, Move m) {
    Bitboard o = p.occupied();
    switch (m.kind()) {
    case Move::Kind::Castling:
        return (o & ~bit_of(m.from()) & ~bit_of(m.to())) | bit_of(m.king_to()) |
               bit_of(m.rook_to());
    case Move::Kind::EnPassant:
        return (o & ~bit_of(m.from()) & ~bit_of(ep_victim(m))) | bit_of(m.to());
    default: return (o & ~bit_of(m.from())) | bit_of(m.to());
    }
}

} // namespace

void Reconstructor::Impl::successors(const Position& p, std::vector<Successor>& list) {
    list.clear();
    for (Move m : p.legal_moves()) list.push_back({m, occupancy_after(p, m)});
}

Bitboard Reconstructor::Impl::diff_squares(const Position& p) const {
    Bitboard d = occ ^ p.occupied();
    for (Bitboard k = known & occ & p.occupied(); k; k &= k - 1) {
        Square s = first_square(k);
        if (ident[static_cast<std::size_t>(s.index())] != p.piece_on(s)) d |= bit_of(s);
    }
    return d;
}

bool Reconstructor::Impl::board_is(const Position& p) const {
    return occ == p.occupied() && diff_squares(p) == 0;
}

// A move in progress: only pieces of the position are missing (at most two: the mover and a
// captured piece, or king and rook), and the pieces still there are the right ones.
bool Reconstructor::Impl::in_progress(const Position& p) const {
    if ((occ & ~p.occupied()) != 0) return false;
    if (count(p.occupied() & ~occ & ~knocked) > 2) return false;
    return (diff_squares(p) & occ) == 0;
}

std::optional<Move> Reconstructor::Impl::find_move(const Position& p,
                                                   const std::vector<Successor>& list,
                                                   bool* assumed) const {
    // Pieces alerted as knocked over count as standing on their squares for a move that does
    // not touch them: the game goes on while they lie (position_mismatch stays raised).
    const Bitboard away = knocked & p.occupied() & ~occ;
    Bitboard diff = ~Bitboard{0};
    Move best;
    int best_rank = -1;
    int ties = 0;
    bool best_assumed = false;
    for (const Successor& s : list) {
        Move m = s.m;
        Bitboard ch = changed_squares(m);
        if (s.occ != (occ | (away & ~ch))) continue;
        if (diff == ~Bitboard{0}) diff = diff_squares(p);
        if (diff & ~ch & ~away) continue;
        bool ok = true;
        bool promo_seen = false;
        for (Bitboard k = ch & known & occ; k && ok; k &= k - 1) {
            Square sq = first_square(k);
            Piece want = piece_after(p, m, sq);
            if (ident[static_cast<std::size_t>(sq.index())] != want) ok = false;
            if (sq == m.to() && m.kind() == Move::Kind::Promotion) promo_seen = true;
        }
        if (!ok) continue;
        bool is_assumed = false;
        if (m.kind() == Move::Kind::Promotion && !promo_seen) {
            // Occupancy only: the choice (clock button / command), else a queen (assumed).
            PieceType want = promotion_wanted();
            if (m.promotion_type() != want) continue;
            is_assumed = promo_choice == PieceType::None;
        }
        // Evidence: a capture needs its captured piece seen leaving (lifted, or replaced in
        // one scan on an identity board); otherwise a piece held in the hand looks the same.
        int rank = 1;
        Bitboard evidence = vacated | retyped;
        if (m.is_castling()) {
            bool swap = (bit_of(m.king_to()) | bit_of(m.rook_to())) ==
                        (bit_of(m.from()) | bit_of(m.to()));
            bool king_stays = m.king_to() == m.from();
            bool rook_stays = m.rook_to() == m.to();
            if (swap) {
                Bitboard both = bit_of(m.from()) | bit_of(m.to());
                if ((co_lifted & both) != both && (retyped & both) != both) continue;
            } else if (king_stays) {
                // Rook-only castling looks like a rook move: the king must have been lifted
                // (the recommended king-off-the-board order) or castling announced.
                rank = (vacated & bit_of(m.from())) || castling_declared ? 3 : 0;
            } else if (rook_stays) {
                rank = castling_declared || (vacated & bit_of(m.to())) ? 3 : 0;
            } else {
                rank = 2;
            }
        } else if (p.piece_on(m.to()) != Piece::None) {
            if (!(evidence & bit_of(m.to()))) continue;
            rank = 2;
        }
        rank = rank * 65536 + place_seq[static_cast<std::size_t>(m.to().index())];
        if (rank > best_rank) {
            best_rank = rank;
            best = m;
            best_assumed = is_assumed;
            ties = 1;
        } else if (rank == best_rank) {
            ++ties;
        }
    }
    if (best_rank < 0 || ties > 1) return std::nullopt;
    if (assumed) *assumed = best_assumed;
    return best;
}

// A move that may still grow into another: a sliding piece that can go on along its line, a
// pawn's single step when its double step is legal, a king or rook move that is part of a legal
// castling, a promotion whose piece the board cannot see (the pawn may be standing there first,
// Art. 4.7.3).
bool Reconstructor::Impl::may_grow(const Position& p, Move m) const {
    if (cfg.tactile) return false;
    if (m.is_castling()) return false;
    PieceType t = type_of(p.moved_piece(m));
    if (m.kind() == Move::Kind::Promotion) return !(known & bit_of(m.to()));
    int df = m.to().file() - m.from().file();
    int dr = m.to().rank() - m.from().rank();
    bool capture = p.piece_on(m.to()) != Piece::None;  // a capture ends the slide
    // Occupancy only: the captured piece put back while the capturer is still in the hand
    // looks exactly like the capture; wait until the hand has left.
    if (capture && !(known & bit_of(m.to()))) return true;
    if (!capture && (t == PieceType::Bishop || t == PieceType::Rook || t == PieceType::Queen)) {
        int sf = (df > 0) - (df < 0);
        int sr = (dr > 0) - (dr < 0);
        int f = m.to().file() + sf;
        int r = m.to().rank() + sr;
        if (f >= 0 && f < 8 && r >= 0 && r < 8) {
            Piece beyond = p.piece_on(Square::at(f, r));
            if (beyond == Piece::None || color_of(beyond) != p.side_to_move()) return true;
        }
    }
    if (t == PieceType::Pawn && df == 0 && !capture) {
        // A single step whose double step is legal: the pawn may be sliding over this square
        // (a streaming board catches it there; the move is made when the hand releases the
        // piece, Art. 4.7).
        const int r2 = m.from().rank() + 2 * dr;
        if (dr * dr == 1 && r2 >= 0 && r2 < 8 &&
            p.is_legal(Move::normal(m.from(), Square::at(m.from().file(), r2))))
            return true;
    }
    if (t == PieceType::King || t == PieceType::Rook) {
        for (const Successor& s : succ) {
            Move c = s.m;
            if (!c.is_castling()) continue;
            Square from = t == PieceType::King ? c.from() : c.to();
            Square dest = t == PieceType::King ? c.king_to() : c.rook_to();
            if (from != m.from() || from.rank() != m.to().rank()) continue;
            int lo = std::min(from.file(), dest.file());
            int hi = std::max(from.file(), dest.file());
            if (m.to().file() >= lo && m.to().file() <= hi) return true;
        }
    }
    return false;
}

// Identity board: the board shows a promotion except that the pawn still stands on the last
// rank (Art. 7.5.2 when the clock is pressed on it).
bool Reconstructor::Impl::unpromoted_pawn(const Position& p) const {
    for (const Successor& s : succ) {
        if (s.m.kind() != Move::Kind::Promotion || s.occ != occ) continue;
        auto to = static_cast<std::size_t>(s.m.to().index());
        if ((known & bit_of(s.m.to())) && ident[to] == p.piece_on(s.m.from()) &&
            (diff_squares(p) & ~(bit_of(s.m.from()) | bit_of(s.m.to()))) == 0)
            return true;
    }
    return false;
}

} // namespace eboard
