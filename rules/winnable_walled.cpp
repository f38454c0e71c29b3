// The last-piece analysis of winnability (issue 25): the reachability fixpoint of
// rules/winnable_reach.cpp, narrowed for an attacker A that has nothing but its king and one
// queen or rook (no pawns), after the two filters of CHA's saturation (chasolver,
// src/deduction/saturation.rs: moves that mate the intended winner's steady king, and the
// loss of its last piece; reimplemented, argued below). It decides a lone queen against a
// king walled in by its own pieces while A's king is stuck among the defender's pieces: the
// wall could open only by a move that mates A's king, or by a capture after which the
// defender must take the queen.
//
// Relevant lines. A line of legal moves that ends in a mate of the defender D never
//   (1) passes through a position where A is checkmated (the game is over), and never
//   (2) lets D capture A's last piece: A then has a lone king and no pawn, and a lone king
//       never checkmates, whatever follows.
// So it suffices to over-approximate the positions of relevant lines. In particular D's pawns
// never capture (A's king cannot be taken; A has no other piece but the last one), and D's
// moves onto the last piece's square are dead ends.
//
// The fixpoint. Every piece has a region (the squares it may stand on; a pawn that may promote
// also a "wild" region for the piece it becomes) and P is the set of pieces that never move and
// are never captured. Start: every region its own square, every piece in P. Each round grows
// every region by the moves from each of its squares when only P pieces are sure to block
// (sliders see P pieces as blockers, nothing else), minus the moves filtered below; P keeps a
// piece only if its region is still its square and no enemy move may end on it. Regions only
// grow and P only shrinks; the loop ends after a round in which nothing changes, so at the end
// every region is closed under the unfiltered moves as the final state defines them.
//
// Invariant (by induction over any relevant line): every piece stands in its region, every P
// piece on its square. A move that is not filtered keeps it (closure). A filtered move
// provably ends relevance, given the invariant in the position before it:
//   - mate filter (a D move of a piece of type T from s to t, A's king in P on k): after the
//     move, with every square some other piece's region holds (and t) taken as occupied, A's
//     king is attacked for sure (by T from t, or by a P piece of D along a line of squares
//     no other region holds); each square next to k is attacked for sure by the mover or a P
//     piece of D (a piece does not guard its own square; the line may pass k, which the king
//     leaves); and with one sure checker, A's other piece can neither take it nor step
//     between it and k from any square of its region (lines through the vacated s counted
//     open). Two sure checkers leave only king moves. So A is checkmated: (1).
//   - forced loss (A's last piece, a queen or rook, from s to t): D's king is in P on kd, t
//     is next to kd and the piece on t attacks kd (it cannot be blocked); every other
//     square next to kd holds a P piece of D, so D's king can only take on t; and D can
//     take on t: its king if t is not next to any square of A's king region, or a P piece of
//     D attacking t for sure (a pawn takes too). D is not mated, and every legal reply takes
//     A's last piece: (2). (After that capture D's king is not in check: A has only a king.)
// Everything a filter reads only weakens as regions grow and P shrinks, so a round can only
// add squares. The mate test (mate_fits, rules/winnable_locked.cpp) on the final regions
// then proves that no relevant line, hence no line, ends in A's checkmate.
#include <array>

#include "rules/bitboard.hpp"
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

constexpr Bitboard kBackRanks = 0xFF000000000000FFULL;

struct Unit {
    int square = 0;
    Color color = Color::White;
    PieceType type = PieceType::None;
    Bitboard region = 0;
    Bitboard wild = 0;  ///< a pawn that may promote: where the promoted piece may stand
};

/// Squares attacked by a piece of type t and colour c on sq, the given squares blocking.
Bitboard attacks_of(PieceType t, Color c, int sq, Bitboard occupied) noexcept {
    return t == PieceType::Pawn ? pawn_attacks(c, bit(sq)) : piece_attacks(t, sq, occupied);
}

class LastPiece {
  public:
    LastPiece(const Position& pos, Color attacker) : attacker_(attacker) {
        for (Bitboard occ = pos.occupied(); occ && n_ < units_.size();) {
            const int sq = pop_lsb(occ);
            const Piece p = pos.piece_on(Square(sq));
            units_[n_++] = Unit{sq, color_of(p), type_of(p), bit(sq), 0};
        }
        permanent_ = pos.occupied();
    }

    /// Runs the fixpoint; true if the mate test then fails for the attacker.
    bool unwinnable() {
        for (;;) {
            refresh();
            bool changed = false;
            for (std::size_t i = 0; i < n_; ++i) changed |= grow(i);
            Bitboard next = permanent_;
            for (std::size_t i = 0; i < n_; ++i) {
                const Unit& u = units_[i];
                const bool capturable = u.color != attacker_ && (a_captures_ & bit(u.square)) != 0;
                if (u.region != bit(u.square) || u.wild != 0 || capturable) next &= ~bit(u.square);
            }
            if (next != permanent_) {
                permanent_ = next;
                changed = true;
            }
            if (!changed) break;
        }
        refresh();
        MateRegions r;
        for (std::size_t i = 0; i < n_; ++i) {
            const Unit& u = units_[i];
            if (u.color == attacker_) {
                if (u.type == PieceType::King) r.attacker_king = u.region;
                else r.attacks |= cover(i, permanent_);
            } else if (u.type == PieceType::King) {
                r.defender_king = u.region;
            } else if (r.blocker_count < r.blockers.size()) {
                r.blockers[r.blocker_count++] = u.region | u.wild;
            } else {
                r.complete = false;
            }
        }
        return !mate_fits(r);
    }

  private:
    [[nodiscard]] bool permanent(const Unit& u) const { return (permanent_ & bit(u.square)) != 0; }

    /// What the rules of a round read, from the regions and P as they stand.
    void refresh() {
        all_ = 0;
        for (std::size_t i = 0; i < n_; ++i) all_ |= units_[i].region | units_[i].wild;
        own_fixed_ = {};
        sure_ = {};
        a_king_ = d_king_ = -1;
        for (std::size_t i = 0; i < n_; ++i) {
            const Unit& u = units_[i];
            const std::size_t ci = u.color == Color::White ? 0 : 1;
            if (u.type == PieceType::King) (u.color == attacker_ ? a_king_ : d_king_) = static_cast<int>(i);
            if (!permanent(u)) continue;
            own_fixed_[ci] |= bit(u.square);
            // A P piece attacks for good what it attacks with every square some piece may
            // stand on taken as occupied.
            sure_[ci] |= attacks_of(u.type, u.color, u.square, all_ & ~bit(u.square));
        }
        // Where A's pieces may end a move (its king's and its last piece's regions).
        a_captures_ = 0;
        last_ = -1;
        for (std::size_t i = 0; i < n_; ++i) {
            if (units_[i].color != attacker_) continue;
            a_captures_ |= units_[i].region;
            if (units_[i].type != PieceType::King) last_ = static_cast<int>(i);
        }
    }

    /// Squares the last piece (unit i) may attack from any square of its region, `blockers`
    /// being the only squares sure to block.
    [[nodiscard]] Bitboard cover(std::size_t i, Bitboard blockers) const {
        const Unit& u = units_[i];
        Bitboard c = 0;
        for (Bitboard r = u.region; r;) c |= piece_attacks(u.type, pop_lsb(r), blockers);
        return c;
    }

    /// Grows unit i by the unfiltered moves from each square of its region; true if it grew.
    bool grow(std::size_t i) {
        Unit& u = units_[i];
        const std::size_t ci = u.color == Color::White ? 0 : 1;
        const bool a_side = u.color == attacker_;
        // Never onto an own P piece, nor onto the other side's P king.
        Bitboard allowed = ~own_fixed_[ci];
        const int other_king = a_side ? d_king_ : a_king_;
        if (other_king >= 0 && permanent(units_[static_cast<std::size_t>(other_king)]))
            allowed &= ~bit(units_[static_cast<std::size_t>(other_king)].square);
        const Bitboard before_region = u.region, before_wild = u.wild;
        Bitboard added = 0;
        for (Bitboard r = u.region; r;) {
            const int s = pop_lsb(r);
            Bitboard targets = 0;
            switch (u.type) {
            case PieceType::King: targets = king_spread(bit(s)) & ~sure_[1 - ci]; break;
            case PieceType::Pawn: {
                const int up = u.color == Color::White ? 8 : -8;
                const int start_rank = u.color == Color::White ? 1 : 6;
                if ((permanent_ & bit(s + up)) == 0) {
                    targets = bit(s + up);
                    if ((s >> 3) == start_rank && (permanent_ & bit(s + 2 * up)) == 0)
                        targets |= bit(s + 2 * up);
                }
                break;
            }
            default: targets = piece_attacks(u.type, s, permanent_); break;
            }
            targets &= allowed & ~u.region & ~added;
            for (Bitboard t = targets; t;) {
                const int to = pop_lsb(t);
                if (u.type == PieceType::Pawn && (bit(to) & kBackRanks)) {
                    u.wild |= bit(to);  // a promotion: never filtered
                    continue;
                }
                if (u.type != PieceType::King &&
                    (a_side ? forces_loss(i, to) : mates_attacker(i, s, to)))
                    continue;
                added |= bit(to);
            }
        }
        u.region |= added;
        if (a_side && u.type != PieceType::King) a_captures_ |= added;
        // The promoted piece: any of knight, bishop, rook, queen, unfiltered.
        for (;;) {
            Bitboard grown = u.wild;
            for (Bitboard w = u.wild; w;) {
                const int s = pop_lsb(w);
                grown |= (piece_attacks(PieceType::Queen, s, permanent_) | knight_spread(bit(s))) & allowed;
            }
            if (grown == u.wild) break;
            u.wild = grown;
        }
        return u.region != before_region || u.wild != before_wild;
    }

    /// Every square some piece other than unit i may stand on.
    [[nodiscard]] Bitboard others(std::size_t i) const {
        Bitboard b = 0;
        for (std::size_t j = 0; j < n_; ++j)
            if (j != i) b |= units_[j].region | units_[j].wild;
        return b;
    }

    /// The mate filter: D's unit i moving from s to t surely checkmates A (see the top).
    [[nodiscard]] bool mates_attacker(std::size_t i, int s, int t) const {
        if (a_king_ < 0 || last_ < 0) return false;
        const Unit& king = units_[static_cast<std::size_t>(a_king_)];
        if (!permanent(king)) return false;
        const int k = king.square;
        const Unit& mover = units_[i];
        const Bitboard occupied = others(i) | bit(t);
        // Sure checkers: the mover from t, and P pieces of D along lines no other region crosses.
        Bitboard checkers = 0;
        if (attacks_of(mover.type, mover.color, t, occupied) & bit(k)) checkers |= bit(t);
        const Bitboard without_king = occupied & ~bit(k);
        Bitboard guarded = attacks_of(mover.type, mover.color, t, without_king);
        for (std::size_t j = 0; j < n_; ++j) {
            const Unit& v = units_[j];
            if (j == i || v.color == attacker_ || !permanent(v) || v.square == t) continue;
            if (attacks_of(v.type, v.color, v.square, occupied) & bit(k)) checkers |= bit(v.square);
            guarded |= attacks_of(v.type, v.color, v.square, without_king);
        }
        if (checkers == 0) return false;
        // Every flight of A's king attacked for sure (the mover does not guard t itself).
        Bitboard flights = king_spread(bit(k));
        if (flights & bit(t)) {
            Bitboard t_guarded = 0;
            for (std::size_t j = 0; j < n_; ++j) {
                const Unit& v = units_[j];
                if (j != i && v.color != attacker_ && permanent(v) && v.square != t)
                    t_guarded |= attacks_of(v.type, v.color, v.square, without_king);
            }
            if ((t_guarded & bit(t)) == 0) return false;
            flights &= ~bit(t);
        }
        if (flights & ~guarded) return false;
        if ((checkers & (checkers - 1)) != 0) return true;  // a double check: king moves only
        // One checker: A's last piece may neither take it nor step between.
        const int c = std::countr_zero(checkers);
        const Bitboard open = permanent(mover) ? permanent_ & ~bit(s) : permanent_;
        return (cover(static_cast<std::size_t>(last_), open) & (bit(c) | bitboards::between(c, k))) == 0;
    }

    /// The forced-loss filter: A's last piece (unit i) moving to t must be taken (see the top).
    [[nodiscard]] bool forces_loss(std::size_t i, int t) const {
        if (d_king_ < 0 || a_king_ < 0) return false;
        const Unit& king = units_[static_cast<std::size_t>(d_king_)];
        if (!permanent(king)) return false;
        const int kd = king.square;
        const Unit& piece = units_[i];
        if ((king_spread(bit(kd)) & bit(t)) == 0 || (piece_attacks(piece.type, t, 0) & bit(kd)) == 0)
            return false;
        const std::size_t di = attacker_ == Color::White ? 1 : 0;
        if (king_spread(bit(kd)) & ~bit(t) & ~own_fixed_[di]) return false;
        if ((king_spread(units_[static_cast<std::size_t>(a_king_)].region) & bit(t)) == 0) return true;
        const Bitboard occupied = others(i);
        for (std::size_t j = 0; j < n_; ++j) {
            const Unit& v = units_[j];
            if (v.color == attacker_ || v.type == PieceType::King || !permanent(v) || v.square == t)
                continue;
            if (attacks_of(v.type, v.color, v.square, occupied) & bit(t)) return true;
        }
        return false;
    }

    Color attacker_;
    std::array<Unit, 32> units_{};
    std::size_t n_ = 0;
    Bitboard permanent_ = 0;
    Bitboard all_ = 0;                    ///< every region and wild region
    std::array<Bitboard, 2> own_fixed_{};  ///< squares of P pieces, per colour
    std::array<Bitboard, 2> sure_{};       ///< attacked for good by P pieces, per colour
    Bitboard a_captures_ = 0;              ///< squares where A's pieces may end a move
    int a_king_ = -1, d_king_ = -1, last_ = -1;
};

} // namespace

void add_pocket_guards(const std::array<PieceRegion, 32>& pieces, std::size_t n,
                       const std::array<Bitboard, 2>& captures,
                       std::array<Bitboard, 2>& fixed_attacks) noexcept {
    // The pocket guard (issue 25: seven light bishops on the eight light squares of the back
    // two ranks, behind a locked chain). Let G be the bishops of one colour that are never
    // captured (no enemy move may end on a square of their regions), k of them, and S the
    // union of their regions: in every position k bishops stand on k distinct squares of S.
    // For a square x, walk each diagonal from x through squares of S that no other piece's
    // region holds; T is the squares walked. A bishop of G on T attacks x: the squares between
    // it and x are on T, where only bishops of G stand, so the nearest one on that diagonal
    // attacks x. If S has fewer than k squares outside T, some bishop of G is always on T
    // (pigeonhole), so x is attacked for good and a king of the other colour never steps
    // there. Everything read here only weakens as regions grow, like the officer guards.
    for (const Color c : {Color::White, Color::Black}) {
        const std::size_t ci = c == Color::White ? 0 : 1;
        Bitboard pocket = 0, others = 0;
        int k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const PieceRegion& p = pieces[i];
            if (p.color == c && p.type == PieceType::Bishop && (p.region & captures[1 - ci]) == 0) {
                pocket |= p.region;
                ++k;
            } else {
                others |= p.region;
            }
        }
        // Only a pocket nearly full of bishops can guard anything (k >= 2, few holes).
        if (k < 2 || popcount(pocket) > k + 4) continue;
        const Bitboard walkable = pocket & ~others;
        for (Bitboard xs = diagonal_spread(walkable) & ~fixed_attacks[ci]; xs;) {
            const int x = pop_lsb(xs);
            // Squares of `walkable` on x's diagonals up to the first square outside it.
            const Bitboard t = bishop_attacks(x, ~walkable) & walkable;
            if (popcount(pocket & ~t) < k) fixed_attacks[ci] |= bit(x);
        }
    }
}

bool last_piece_unwinnable(const Position& pos, Color attacker) noexcept {
    if (pos.ep_square().valid() || popcount(pos.occupied()) > 32) return false;
    for (Color c : {Color::White, Color::Black})
        if (pos.has_castling_right(c, true) || pos.has_castling_right(c, false)) return false;
    const Bitboard mine = pos.pieces(attacker) & ~pos.pieces(attacker, PieceType::King);
    const Bitboard heavy = pos.pieces(attacker, PieceType::Queen) | pos.pieces(attacker, PieceType::Rook);
    if (popcount(mine) != 1 || (mine & heavy) == 0) return false;
    LastPiece analysis(pos, attacker);
    return analysis.unwinnable();
}

} // namespace eboard::winnable_detail
