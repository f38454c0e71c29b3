// The case split of winnability on a piece that cannot move (full mode only; after CHA's
// semi-static analysis, chasolver src/deduction/, reimplemented in our reachability terms).
//
// The shape it decides: a king shut in a corner behind its own pawns with its own rook and
// bishop (White Ka2, Ra1, Bb1, pawns b3 and c2 against Black's b4 and c3; or Kh1, Rg1, Bf1
// behind g2 against g3). None of the three can move while the other two stand, so the plain
// reachability analysis keeps them fixed until it finds that an enemy bishop may take the rook.
// From then on it treats the rook as a piece that may move as soon as the king may, and the
// king as one that may move as soon as the rook is gone, so the rook "walks" through a2, takes
// a pawn's capture square and the whole chain melts (no proof). In a real game the rook never
// moves: it stands on a1 until it is taken there, and only then may the king step to a1.
//
// The split, for a piece X (not a king, not a pawn) that has no move in the position (see
// below for one that has):
//   case 1, X is never captured: the analysis of rules/winnable_reach.cpp with X's square
//     barred to every enemy piece. This is sound only while X stands there, so the case
//     counts only if X is still a permanent piece at the fixpoint (it never moves, and by the
//     bar is never captured). By induction over the moves of any game in which X is never
//     captured, every piece stays in its case-1 region. The invariant only needs the moves
//     played so far, so it also holds in every position of a game before X is captured.
//   case 2, X is captured by some move: just before that move every piece is in its case-1
//     region; the move takes a piece of the other side from its region onto X's square (a
//     piece whose one-step spread of its region, by its kind of move, covers the square: a
//     slide's last step starts on a region square, as every square a slide crosses is one).
//     So right after it, X is off the board, the capturer is in its region plus X's square,
//     every other piece in its case-1 region, and those whose region is their own square
//     still stand there. The analysis run from these start regions (reach_regions() with a
//     ReachCase: the same induction, started from sets) covers every later position.
// Every game either never captures X or captures it once; if the mate test fails for the
// attacker in both cases, no game ever reaches a checkmate by the attacker.
// X may also be a piece of the other side (not the attacker's) that can move, if its every
// move checkmates the attacker (the frozen pieces below, checked on the case-1 fixpoint with
// X held still): in a game the attacker mates, the first move of X would come in a position
// of case 1 (X not yet moved nor captured) and end the game first, so X never moves before
// it is captured, if ever, and both cases hold as above. (A knight on g1 whose only move,
// Nh3, mates the king on f2, and which that king may take.)
//
// In the corner above, case 1 leaves the king on a2, a light square no dark piece of Black
// attacks; case 2 lets the king onto a1 and the bishop onto a2, but a mate on a1 then needs
// both a2 and b1 filled by White's own pieces, and only the one bishop can reach either
// square (the matching of mate_fits()). The case split is tried on a few such pieces.
//
// Forced first moves (a check that only a capture answers, as when a rook gives itself up on
// a6): the split is also tried after each legal move, a few plies deep, where the side to move
// has at most kForcedMoves legal moves; every game goes on with one of them, so the attacker
// cannot checkmate if it cannot after any of them (and none of them is a mate by it).
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

/// At most this many pieces are tried as X (each costs two runs of the analysis).
constexpr int kMaxCandidates = 4;
/// Forced moves: nodes with at most this many legal moves are expanded, this many plies deep.
constexpr std::size_t kForcedMoves = 2;
constexpr int kForcedPlies = 3;

constexpr std::size_t index_of(Color c) noexcept { return c == Color::White ? 0 : 1; }

/// The squares a piece of this kind and colour standing somewhere in `region` attacks with one
/// step (a slider's last step before the square it lands on).
Bitboard step_spread(PieceType t, Color c, Bitboard region) noexcept {
    switch (t) {
    case PieceType::Pawn: return pawn_attacks(c, region);
    case PieceType::Knight: return knight_spread(region);
    case PieceType::Bishop: return diagonal_spread(region);
    case PieceType::Rook: return orthogonal_spread(region);
    case PieceType::Queen: return diagonal_spread(region) | orthogonal_spread(region);
    default: return king_spread(region);
    }
}

// The frozen pieces (a second rule, same file; after CHA's saturation, which does not let a piece
// check a king that never moves, chasolver src/deduction/saturation.rs, reimplemented with a proof
// of its own). A move that checkmates the attacker ends the game, so no game in which the
// attacker mates goes on after it. The shape it decides: the attacker's king shut in inside the
// other side's chain, every square around it held by its own pawns or guarded by the other
// side's pieces, some of which could move, but each such move would check the king with no
// reply: knights on b8 and d8 guarding c6 beside a king on c5 (each of their moves checks c5),
// pawns on c6 and e6 next to a king on d4 (c6-c5 and e6-e5 check), a knight on h2 whose moves
// Nf1 and Ng4 both check a king on e3 (and which a bishop may take). The plain analysis lets
// such a guard move, the king then takes a pawn, the chain opens, and nothing is proven; but
// the guard's first move is mate.
//
// The rule. Let F be a set of the other side's pieces (not its king), and run the analysis with
// the pieces of F never moving (reach_regions()'s `held`: their regions stay their squares; one
// the attacker's regions can reach is still taken as capturable and is not in P, the
// never-moving pieces). Suppose that for each piece Y of F, in every position the regions allow
// with Y on its square, every move of Y checkmates the attacker ("every move mates", below).
// Then if the mate test fails for the attacker on the fixpoint's regions, the attacker never
// mates. Proof, by induction over the moves of any game from the position: while no piece of F
// has moved, every piece stands in its region and every piece of P on its square (the induction
// of rules/winnable_reach.cpp, whose growth rules take the pieces of F as never moving, which
// holds until one of them moves, and as capturable where the attacker's regions reach them).
// The first move of a piece Y of F, if any, is made in such a position, so it checkmates the
// attacker and the game ends there: the attacker has not mated before it (a position of the
// regions, where no mate by the attacker fits) and cannot after it. So in a game the attacker
// mates, no piece of F ever moves, every position lies within the regions, and the mate test
// over-approximates those. (A piece of F that can be taken is CHA's case split: either it stands
// on its square, where it can only mate, or it is gone; the regions cover both.) The regions
// say nothing of the other side's own mates (they leave out its mating moves): only the
// attacker's mate test is read.
//
// "Every move of Y checkmates" is checked on the fixpoint, with the attacker's king a piece that
// never moves (on k: its region is {k}), `maybe` the squares any piece may stand on, and only
// what holds in every such position: for each square t Y could move to (a non-pawn's attacks
// with only the never-moving pieces in its way, less its own side's never-moving pieces; a
// pawn's single push unless a never-moving piece stands there, and its captures onto squares
// the attacker may stand on; a pawn on its first rank (a double push, which en passant could
// answer) or one that may promote is not handled):
//   - Y on t checks k along a line no piece may stand on (so nothing can block it either; a
//     knight's or pawn's check has no line), nor y and the squares next to it on its file
//     (once Y has left, a pawn of the attacker may push onto y or over it to block: the only
//     squares its moves gain by Y's leaving);
//   - no piece of the attacker other than its king may attack t (the one-step spread of its
//     region, as in the mate test: a slide onto t crosses region squares only), and if t is
//     next to k, t is attacked for good by the other side's never-moving pieces (the king
//     cannot take the checker);
//   - every other square next to k holds one of the attacker's never-moving pieces or is
//     attacked for good: by Y from t or by a never-moving piece of the other side other than
//     Y (they stand on their squares in every position of the regions, so still after Y's
//     move), along lines no piece but Y on t may stand on, with k taken as empty (the king does
//     not shield a square behind it on the line).
// Then after Y's move the king is in check, cannot step away, cannot take the checker, no other
// piece can take it or block it, and no en passant reply exists (Y made no double step): mate.
//
// F is found as a greatest fixpoint (freeze_unwinnable): start from the other side's pieces
// whose every move checks k on the board as it stands, run the analysis with them held, let go
// the ones whose moves are not all mates on that fixpoint, and run again until none is let go
// (each round lets go at least one, so it ends). The regions then belong to the final F, as the
// proof needs.

/// What the other side's never-moving pieces (less those on `skip`) attack in every position
/// in which no piece stands outside `maybe`.
Bitboard attacked_for_good(const Position& pos, Color side, Bitboard permanent, Bitboard skip,
                           Bitboard maybe) noexcept {
    Bitboard a = 0;
    for (Bitboard ps = permanent & pos.pieces(side) & ~skip; ps;) {
        const int s = pop_lsb(ps);
        const PieceType t = type_of(pos.piece_on(Square(s)));
        a |= t == PieceType::Pawn ? pawn_attacks(side, bit(s)) : piece_attacks(t, s, maybe);
    }
    return a;
}

/// Whether every move of the frozen piece on y checkmates the attacker in every position the
/// fixpoint of `c` allows (see above).
bool every_move_mates(const Position& pos, const ReachCase& c, int y, Color attacker) noexcept {
    constexpr Bitboard kLastRanks = 0xFF000000000000FFULL;
    const Color side = ~attacker;
    const Piece piece = pos.piece_on(Square(y));
    const PieceType ty = type_of(piece);
    const int k = std::countr_zero(pos.pieces(attacker, PieceType::King));
    Bitboard maybe = 0, attacker_reach = 0, attacker_squares = 0;
    for (Bitboard occ = pos.occupied(); occ;) {
        const int s = pop_lsb(occ);
        const Bitboard r = c.regions[static_cast<std::size_t>(s)];
        maybe |= r;
        const Piece p = pos.piece_on(Square(s));
        if (color_of(p) != attacker) continue;
        attacker_squares |= r;
        if (type_of(p) != PieceType::King) attacker_reach |= step_spread(type_of(p), attacker, r);
    }
    Bitboard targets = 0;
    if (ty == PieceType::Pawn) {
        const int first_rank = side == Color::White ? 1 : 6;
        if ((y >> 3) == first_rank) return false;
        const Bitboard push = side == Color::White ? bit(y) << 8 : bit(y) >> 8;
        targets = (push & ~c.permanent) | (pawn_attacks(side, bit(y)) & attacker_squares);
        if (targets & kLastRanks) return false;
    } else {
        targets = piece_attacks(ty, y, c.permanent) & ~(c.permanent & pos.pieces(side));
    }
    targets &= ~bit(k);
    if (targets == 0) return true;  // it never moves at all
    if (c.regions[static_cast<std::size_t>(k)] != bit(k) || (c.permanent & bit(k)) == 0) return false;
    const Bitboard flights = king_spread(bit(k));
    const Bitboard own_fixed = c.permanent & pos.pieces(attacker);
    // Once Y has left y, a pawn of the attacker may push onto y or over it: no check counts
    // along a line through those squares (it could be blocked there).
    const Bitboard vacated = bit(y) | (bit(y) << 8) | (bit(y) >> 8);
    for (Bitboard ts = targets; ts;) {
        const int t = pop_lsb(ts);
        const Bitboard lines = ((maybe & ~bit(y)) | bit(t)) & ~bit(k);
        const Bitboard checks = ty == PieceType::Pawn
                                    ? pawn_attacks(side, bit(t))
                                    : piece_attacks(ty, t, lines | (vacated & ~bit(k)));
        if ((checks & bit(k)) == 0 || (attacker_reach & bit(t)) != 0) return false;
        const Bitboard from_t =
            ty == PieceType::Pawn ? pawn_attacks(side, bit(t)) : piece_attacks(ty, t, lines);
        const Bitboard others = attacked_for_good(pos, side, c.permanent, bit(y), lines);
        if ((flights & bit(t)) != 0 && (others & bit(t)) == 0) return false;
        if ((flights & ~bit(t) & ~own_fixed & ~(others | from_t)) != 0) return false;
    }
    return true;
}

/// The moves of the piece on y in pos (its pseudo-legal targets), and whether each of them
/// checks `king` (a cheap filter before the analysis: candidates for freezing).
struct MovesNow {
    Bitboard targets = 0;
    bool all_check = true;
};
MovesNow moves_now(const Position& pos, int y, Bitboard king) noexcept {
    const Piece p = pos.piece_on(Square(y));
    const Color side = color_of(p);
    const PieceType ty = type_of(p);
    const Bitboard occupied = pos.occupied();
    MovesNow m;
    if (ty == PieceType::Pawn) {
        const Bitboard push = side == Color::White ? bit(y) << 8 : bit(y) >> 8;
        m.targets = (push & ~occupied) | (pawn_attacks(side, bit(y)) & pos.pieces(~side));
    } else {
        m.targets = piece_attacks(ty, y, occupied) & ~pos.pieces(side);
    }
    for (Bitboard ts = m.targets; ts && m.all_check;) {
        const int t = pop_lsb(ts);
        const Bitboard from_t = ty == PieceType::Pawn
                                    ? pawn_attacks(side, bit(t))
                                    : piece_attacks(ty, t, (occupied & ~bit(y)) | bit(t));
        m.all_check = (from_t & king) != 0;
    }
    return m;
}

/// The two cases of the split on the piece on `x` (see above): true if the attacker's mate
/// test fails in both.
bool split_on(const Position& pos, int x, Color attacker) noexcept {
    const Color xc = color_of(pos.piece_on(Square(x)));
    const std::size_t ai = index_of(attacker);
    std::array<MateRegions, 2> mate;
    ReachCase never;
    never.barred[1 - index_of(xc)] = bit(x);
    // A piece of the other side is held still in case 1 if its every move mates the attacker
    // (the frozen pieces below: its first move, if any, would end the game first).
    const Bitboard held = xc != attacker ? bit(x) : 0;
    if (!reach_regions(pos, mate, std::nullopt, true, held, nullptr, &never)) return false;
    if ((never.permanent & bit(x)) == 0 || mate_fits(mate[ai])) return false;
    if (xc != attacker && !every_move_mates(pos, never, x, attacker)) return false;

    ReachCase taken;
    taken.absent = bit(x);
    for (Bitboard occ = pos.occupied() & ~bit(x); occ;) {
        const int s = pop_lsb(occ);
        const auto si = static_cast<std::size_t>(s);
        const Piece p = pos.piece_on(Square(s));
        taken.start[si] = never.regions[si];
        if (color_of(p) != xc && (step_spread(type_of(p), color_of(p), never.regions[si]) & bit(x)))
            taken.start[si] |= bit(x);
    }
    return reach_regions(pos, mate, std::nullopt, true, 0, nullptr, &taken) &&
           !mate_fits(mate[ai]);
}

/// The split on each piece (not a king or pawn) with no move in pos, or of the other side
/// with only moves that check the attacker now, a few at most.
bool split_unwinnable(const Position& pos, Color attacker) noexcept {
    const Bitboard candidates =
        pos.occupied() & ~pos.pieces(PieceType::Pawn) & ~pos.pieces(PieceType::King);
    const Bitboard king = pos.pieces(attacker, PieceType::King);
    int tried = 0;
    for (Bitboard c = candidates; c && tried < kMaxCandidates;) {
        const int x = pop_lsb(c);
        const MovesNow m = moves_now(pos, x, king);
        if (m.targets != 0 && (color_of(pos.piece_on(Square(x))) == attacker || !m.all_check))
            continue;
        ++tried;
        if (split_on(pos, x, attacker)) return true;
    }
    return false;
}

} // namespace

bool freeze_unwinnable(const Position& pos, Color attacker) noexcept {
    const Color side = ~attacker;
    const Bitboard king = pos.pieces(attacker, PieceType::King);
    Bitboard frozen = 0;
    for (Bitboard ys = pos.pieces(side) & ~pos.pieces(side, PieceType::King); ys;) {
        const int y = pop_lsb(ys);
        const MovesNow m = moves_now(pos, y, king);
        if (m.targets != 0 && m.all_check) frozen |= bit(y);
    }
    while (frozen != 0) {
        ReachCase c;
        std::array<MateRegions, 2> mate;
        if (!reach_regions(pos, mate, std::nullopt, true, frozen, nullptr, &c)) return false;
        Bitboard keep = 0;
        for (Bitboard ys = frozen; ys;) {
            const int y = pop_lsb(ys);
            if (every_move_mates(pos, c, y, attacker)) keep |= bit(y);
        }
        if (keep == frozen) return !mate_fits(mate[index_of(attacker)]);
        frozen = keep;
    }
    return false;
}

namespace {

/// The split at pos, and after each forced move (see above), `plies` deep.
bool forced_split(Position& pos, Color attacker, int plies, bool root) {
    if (move_count_bound(pos) > static_cast<int>(MoveList::kCapacity)) return false;
    const MoveList moves = pos.legal_moves();
    if (moves.empty()) return !(pos.in_check() && pos.side_to_move() != attacker);
    if (!root && (insufficient_mating_material(pos, attacker) ||
                  locked_pawns_unwinnable(pos, attacker) || reach_unwinnable(pos, attacker)))
        return true;
    // At the root, decide_static() has tried the frozen pieces already.
    if (split_unwinnable(pos, attacker) || (!root && freeze_unwinnable(pos, attacker))) return true;
    if (plies == 0 || moves.size() > kForcedMoves) return false;
    for (const Move m : moves) {
        pos.make_move(m);
        const bool proved = forced_split(pos, attacker, plies - 1, false);
        pos.unmake_move();
        if (!proved) return false;
    }
    return true;
}

} // namespace

bool chain_split_unwinnable(Position& pos, Color attacker) {
    return forced_split(pos, attacker, kForcedPlies, true);
}

} // namespace eboard::winnable_detail
