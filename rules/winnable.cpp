// can_checkmate(): the material rules, then the locked-pawn analysis and the helpmate search
// with the budget of the mode (see rules/winnable.hpp).
#include "rules/winnable.hpp"

#include "rules/winnable_detail.hpp"

namespace eboard {

using namespace winnable_detail;

bool insufficient_mating_material(const Position& pos, Color side) {
    const Bitboard mine = pos.pieces(side);
    const Bitboard theirs = pos.pieces(~side);
    const Bitboard pawns = pos.pieces(PieceType::Pawn);
    const Bitboard knights = pos.pieces(PieceType::Knight);
    const Bitboard bishops = pos.pieces(PieceType::Bishop);
    const Bitboard mine_but_king = mine & ~pos.pieces(side, PieceType::King);
    if (mine_but_king == 0) return true;  // a lone king never checkmates
    const bool one_piece = (mine_but_king & (mine_but_king - 1)) == 0;
    // King and knight: the knight checks from a knight's step; the two squares next to both
    // the mated king and the knight must be covered by the own king, which then leaves the
    // square beside the king on the knight's file or rank to a blocker; a queen there (or on a
    // square next to the knight) takes the knight. So queens alone cannot help.
    if (one_piece && (mine & knights) != 0 &&
        (theirs & (pawns | knights | bishops | pos.pieces(PieceType::Rook))) == 0)
        return true;
    // Only bishops, all of both sides on one colour, no knight and no pawn on the board: a
    // bishop check leaves the two flight squares beside the checking diagonal of the other
    // colour; only the own king could cover both, and it cannot stand next to both.
    const Bitboard my_bishops = mine & bishops;
    if (my_bishops != 0 && mine_but_king == my_bishops && knights == 0 &&
        pawns == 0 && ((bishops & kLight) == 0 || (bishops & kDark) == 0))
        return true;
    return false;
}

namespace {

/// Positions the closure search may visit in full mode (about 10 µs each).
constexpr std::size_t kClosurePositions = 20000;


/// Quick mode: no search (a helpmate search costs about a microsecond a node), only what can be
/// proven from the material and the pawn structure.
Winnability quick(const Position& pos, Color side) {
    if (locked_pawns_unwinnable(pos, side)) return Winnability::Unwinnable;
    // The reachability analysis costs some 10 µs; in quick mode only where it usually concludes:
    // no queen, rook or knight, and pawns fixed in place by pawns of the other side.
    const Bitboard qrn = pos.pieces(PieceType::Queen) | pos.pieces(PieceType::Rook) |
                         pos.pieces(PieceType::Knight);
    const Bitboard wp = pos.pieces(Color::White, PieceType::Pawn);
    const Bitboard bp = pos.pieces(Color::Black, PieceType::Pawn);
    const int rammed = popcount((wp << 8) & bp);
    if (qrn == 0 && rammed >= 2 && reach_unwinnable(pos, side)) return Winnability::Unwinnable;
    return Winnability::Undetermined;
}

Winnability full(Position& work, const Position& pos, Color side) {
    SearchLimits shallow;  // CHA's phase 2: trivial wins and trivially dead positions
    shallow.first_depth = 1;
    shallow.last_depth = 1;
    shallow.total_nodes = 1000;
    Winnability w = helpmate_search(work, side, shallow);
    if (w != Winnability::Undetermined) return w;
    if (locked_pawns_unwinnable(pos, side) || reach_unwinnable(pos, side))
        return Winnability::Unwinnable;
    w = closure_search(pos, side, kClosurePositions, 0.2);
    if (w != Winnability::Undetermined) return w;

    SearchLimits deep;
    deep.first_depth = 2;
    deep.last_depth = 128;
    deep.nodes_per_depth = 7000;
    deep.total_nodes = 300000;
    deep.locked_pawn_pruning = true;
    deep.reach_pruning = true;
    deep.max_seconds = 0.2;  // with the closure's 0.2 s: under 0.5 s per side
    w = helpmate_search(work, side, deep);
    return w;
}

} // namespace

Winnability can_checkmate(const Position& pos, Color side, WinnableMode mode) {
    // A mate on the board first: the bishop rule assumes no double check, which only a set-up
    // position can show.
    if (!pos.has_legal_move())
        return pos.in_check() && pos.side_to_move() != side ? Winnability::Winnable
                                                            : Winnability::Unwinnable;
    if (insufficient_mating_material(pos, side)) return Winnability::Unwinnable;
    if (mode == WinnableMode::Quick) return quick(pos, side);
    Position work = pos.copy();
    return full(work, pos, side);
}

bool is_dead_position(const Position& pos, WinnableMode mode) {
    return can_checkmate(pos, Color::White, mode) == Winnability::Unwinnable &&
           can_checkmate(pos, Color::Black, mode) == Winnability::Unwinnable;
}

std::string winnability_label(const Position& pos, WinnableMode mode) {
    std::string label(2, '?');
    label[0] = winnability_letter(can_checkmate(pos, Color::White, mode), Color::White);
    label[1] = winnability_letter(can_checkmate(pos, Color::Black, mode), Color::Black);
    return label;
}

} // namespace eboard
