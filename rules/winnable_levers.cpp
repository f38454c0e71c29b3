// The levers of winnability (issue 25, full mode's lever search in rules/winnable.cpp): a
// helpmate search (rules/winnable_search.cpp) in which opening a locked pawn is progress. Where the attacker's
// pawns are blocked by the defender's, a helpmate often starts with a sacrifice to a pawn: the
// attacker puts a piece where a defender's pawn can take it, the pawn takes, and the
// attacker's pawn is free, either to take the taker (k1b1b1b1/7b/8/BpBpBpBp/1PbP1PpP/6P1/6P1/
// K1B5 w: ...Bc4-d3-e2-f3, gxf3 gxf3, and the f-pawn queens) or to advance on the file the
// taker left (4k3/2p3p1/1pPp1pPp/pP1PpP1P/P3P2R/8/3K2BR/7R w: Rc5, bxc5, b6-b7-b8=Q). The
// plain search counts the sacrifice as an ordinary move and punishes the defender's capture
// (three plies), so that the line costs more depth than the search reaches within the guard.
//
// Soundness: the levers only order the moves and say which cost depth, as the targets do.
// Winnable still needs a mate reached on the board by legal moves, and Unwinnable still needs
// an iteration that expanded every position it reached (every legal move is made in one of
// the passes): the argument at the top of rules/winnable_search.cpp holds unchanged. Moves
// that cost no depth could repeat (a piece offered on two squares in turn), but a repeated
// position is cut by the transposition table and every line by max_ply.
#include "rules/bitboard.hpp"
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

/// The defender's pawns that stand right in front of an attacker's pawn (blocking it).
Bitboard blocking_pawns(const Position& pos, Color attacker) {
    return rammed_pawns(pos) & pos.pieces(~attacker, PieceType::Pawn);
}

/// An attacker's pawn attacks `sq` (it can take what stands there).
bool attacker_pawn_attacks(const Position& pos, Color attacker, int sq) {
    return (pawn_attacks(~attacker, bit(sq)) & pos.pieces(attacker, PieceType::Pawn)) != 0;
}

} // namespace

bool offers_lever(const Position& pos, Color attacker, PieceType moved, int to, bool capture) {
    if (capture || moved == PieceType::Pawn || moved == PieceType::King) return false;
    const Bitboard takers = pawn_attacks(attacker, bit(to)) & pos.pieces(~attacker, PieceType::Pawn);
    return takers != 0 &&
           (attacker_pawn_attacks(pos, attacker, to) || (takers & blocking_pawns(pos, attacker)) != 0);
}

bool takes_lever(const Position& pos, Color attacker, int from, int to) {
    return attacker_pawn_attacks(pos, attacker, to) ||
           (blocking_pawns(pos, attacker) & bit(from)) != 0;
}

} // namespace eboard::winnable_detail
