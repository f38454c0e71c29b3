// A king shut in inside the other side's pawn chain (full mode; after CHA's saturation, which
// does not let a piece check a king that never moves, chasolver src/deduction/saturation.rs;
// reimplemented with a proof of its own).
//
// The positions: White's king stands inside Black's chain, every square around it held by its
// own pawns or guarded by Black's pawns and by black knights or pawns that could move, and any
// move of such a guard would itself check the king: a knight on b8 or d8 next to a king on c5
// (each of its moves checks c5), pawns on c6 and e6 next to a king on d4 (c6-c5 and e6-e5
// check). The reachability analysis lets such a guard move, the king then takes a pawn, the
// chain opens, and nothing is proven. But the guard's first move is checkmate: the king cannot
// leave its square (the other guards still stand), and nothing can take or block the checker.
// After that move the game is over, so the guard never moves in any game that goes on.
//
// The rule. Let M be the side that could mate with such moves, A the other (the attacker whose
// mate we ask about), k A's king square, and S a set of M's knights and pawns (pawns off their
// second and seventh ranks: no double step, no promotion). Run the reachability fixpoint with
// the pieces of S held on their squares (reach_regions' `held`: their regions stay their
// squares; one that A's regions can reach is still taken as capturable and is not in P). At
// the fixpoint, with P its permanent pieces, require:
//   (a) A's king region is {k};
//   (b) every move of a piece of S from its square s, to a square t of its destinations
//       (knight: its jumps except onto M's pieces of P; pawn: its step unless a piece of P
//       stands there, its captures onto squares some piece of A may stand on), checkmates:
//       - the piece on t attacks k (a knight or pawn check: no piece can be put between);
//       - no piece of A other than the king attacks t from its region (none can take it);
//       - every square x next to k is a square of A's pieces of P (x != t), or is attacked after
//         the move by M's pieces of P other than the mover (pawns, knights, kings, and sliders
//         along lines where no region square and not t lies between), or by the mover from t.
//         This covers the king taking the checker (x = t) and every flight. No en passant reply
//         exists (the checker made no double step).
// Then A can never checkmate if the mate test fails on the fixpoint's regions (A attacking).
//
// Proof, by induction over any sequence of legal moves from the position. Invariant I(p): every
// piece on the board stands in its region (so a piece of S stands on its square or has been
// captured) and every piece of P on its own square. The position satisfies I. Let p satisfy I
// and a move be made. If it is a move of a piece of S, it is one of the destinations above (the
// pieces of P stand where they stand in p), and by (a) and (b) A's king on k is in check in the
// position after it with no legal reply: the king's every neighbour is its own piece that never
// moves or a square attacked (the guards of P other than the mover are on their squares in p,
// so still after the move; lines that no region square crosses are empty in p), the checker
// cannot be taken by the king (t is guarded) nor by another piece (no region attacks t), nor
// blocked. The game is over, won by M: A did not mate. Otherwise the move is one the growth
// rules of reach_regions cover (they take the pieces of S as never moving, which holds until
// the game ends, and as capturable where A's regions reach them), so the next position
// satisfies I (the argument of rules/winnable_reach.cpp). So every position of the game
// satisfies I until it ends, and a mate by A would be a position that satisfies I: the mate
// test over-approximates those. (A piece of S that can be taken is CHA's case split: either it
// stands on its square, where it can only mate, or it is gone; the regions cover both.)
//
// S is found as a greatest fixpoint: start from the candidates whose moves all check k on the
// board as it stands, drop the ones failing (b), and run again until none fails. The regions
// then belong to the final S, as the proof needs. The regions say nothing of M's own mates
// (they leave out the mating moves): only A's mate test is read.
#include <array>
#include <optional>

#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

constexpr Bitboard kRank2 = 0xFF00ULL, kRank7 = kRank2 << 40;

/// Where the knight or pawn of colour c on s may move: jumps except onto own_fixed; a pawn's
/// step unless a piece of all_fixed stands there, and its captures onto enemy_maybe.
Bitboard destinations(PieceType t, Color c, int s, Bitboard own_fixed, Bitboard all_fixed,
                      Bitboard enemy_maybe) noexcept {
    if (t == PieceType::Knight) return knight_spread(bit(s)) & ~own_fixed;
    const Bitboard step = c == Color::White ? bit(s) << 8 : bit(s) >> 8;
    return (step & ~all_fixed) | (pawn_attacks(c, bit(s)) & enemy_maybe);
}

/// What the knight or pawn of colour c standing on t attacks.
Bitboard attacks_from(PieceType t, Color c, int sq) noexcept {
    return t == PieceType::Knight ? knight_spread(bit(sq)) : pawn_attacks(c, bit(sq));
}

/// The squares the pieces on `pieces` attack, each on its square, with every square of
/// maybe_occupied taken to be occupied (so the squares between are always empty).
Bitboard guards_of(const Position& pos, Bitboard pieces, Bitboard maybe_occupied) noexcept {
    Bitboard g = 0;
    for (Bitboard b = pieces; b;) {
        const int sq = pop_lsb(b);
        const Piece p = pos.piece_on(Square(sq));
        g |= type_of(p) == PieceType::Pawn ? pawn_attacks(color_of(p), bit(sq))
                                           : piece_attacks(type_of(p), sq, maybe_occupied & ~bit(sq));
    }
    return g;
}

/// The candidates: M's knights and pawns (off their second and seventh ranks) with at least
/// one move on the board as it stands, each of which checks k.
Bitboard candidates(const Position& pos, Color mater, int k) noexcept {
    Bitboard held = 0;
    const Bitboard pieces = pos.pieces(mater, PieceType::Knight) |
                            (pos.pieces(mater, PieceType::Pawn) & ~(kRank2 | kRank7));
    for (Bitboard b = pieces; b;) {
        const int s = pop_lsb(b);
        const PieceType t = type_of(pos.piece_on(Square(s)));
        Bitboard dests = destinations(t, mater, s, pos.pieces(mater), pos.occupied(),
                                      pos.pieces(~mater));
        bool all_check = dests != 0;
        while (dests && all_check) all_check = (attacks_from(t, mater, pop_lsb(dests)) & bit(k)) != 0;
        if (all_check) held |= bit(s);
    }
    return held;
}

} // namespace

bool mating_guards_unwinnable(const Position& pos, Color attacker) noexcept {
    const Color mater = ~attacker;
    const std::size_t ai = attacker == Color::White ? 0 : 1;
    const int k = pos.king_square(attacker).index();
    const Bitboard king = bit(k);
    Bitboard held = candidates(pos, mater, k);
    while (held != 0) {
        std::array<MateRegions, 2> mate;
        Bitboard permanent = 0;
        if (!reach_regions(pos, mate, std::nullopt, true, held, &permanent)) return false;
        const MateRegions& as_attacker = mate[ai];
        const MateRegions& as_mater = mate[1 - ai];
        // (a); and every piece of A counted (composed material may exceed the blockers kept).
        if (as_attacker.attacker_king != king || !as_mater.complete || !as_attacker.complete)
            return false;
        Bitboard attacker_pieces = 0, maybe_occupied = as_attacker.attacker_king | as_attacker.defender_king;
        for (std::size_t i = 0; i < as_mater.blocker_count; ++i) attacker_pieces |= as_mater.blockers[i];
        maybe_occupied |= attacker_pieces;
        for (std::size_t i = 0; i < as_attacker.blocker_count; ++i)
            maybe_occupied |= as_attacker.blockers[i];
        const Bitboard mater_fixed = permanent & pos.pieces(mater);
        const Bitboard attacker_fixed = permanent & pos.pieces(attacker);
        Bitboard failing = 0;
        for (Bitboard b = held; b;) {
            const int s = pop_lsb(b);
            const PieceType type = type_of(pos.piece_on(Square(s)));
            bool mates = true;
            for (Bitboard d = destinations(type, mater, s, mater_fixed, permanent, attacker_pieces);
                 d && mates;) {
                const int t = pop_lsb(d);  // (c)
                const Bitboard guarded = guards_of(pos, mater_fixed & ~bit(s), maybe_occupied | bit(t)) |
                                         attacks_from(type, mater, t);
                const Bitboard flights = king_spread(king) & ~(attacker_fixed & ~bit(t));
                mates = (attacks_from(type, mater, t) & king) != 0 &&
                        (as_attacker.attacks & bit(t)) == 0 && (flights & ~guarded) == 0;
            }
            if (!mates) failing |= bit(s);
        }
        if (failing == 0) return !mate_fits(as_attacker);
        held &= ~failing;
    }
    return false;
}

} // namespace eboard::winnable_detail
