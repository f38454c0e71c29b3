// The tempo budget of the closure search (issue 25): how many positions full mode's closure walk
// may visit, more where the attacker's moves are all irreversible pawn moves.
//
// Where the attacker has nothing but its king and pawns, and its king has no move, every move
// of the attacker is a pawn move, which cannot be taken back. The attacker can only checkmate
// with a piece it promotes, or with its pawns; a promotion past the defender's pawn on the same
// file needs a capture, that is a defender's piece stepping onto a square one of the attacker's
// pawns attacks, and the defender needs moves to bring one there (its king cannot be taken: it
// has to capture a pawn first and then promote one of its own). Meanwhile the attacker must
// move each turn: once its pawns are blocked it has no legal move, and the game ends in
// stalemate. So the games are short in the attacker's moves, and the positions between them are
// those of the defender's few mobile pieces: the reachable set is finite and small, and the
// closure walk, which visits every reachable position and finds every mate on the way, counts
// the tempi exactly (CHA decides the positions below the same way, by search).
//
// Examples (data/deadpos/chasolver_positions.txt, label 'W-'): 1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8
// w and 6k1/p1p1p1P1/6PB/6P1/8/8/PKP1P3/8 w. Black's king is shut in for good (its squares held
// by White's pawns, the pawn in front defended by a bishop that those pawns shut in); Black's
// three pawns face White's on the same files, not on neighbouring ones, so no pawn can take
// another. White's king can take a black pawn and promote the pawn behind it, and that piece
// can offer itself to a black pawn, but Black's pawn moves run out first: the walk ends after
// between 200,000 and 300,000 positions (about 0.15 s), without a mate.
//
// This only chooses a budget: the answer is the closure's, as sound as it is (a walk that ends
// before its limit has seen every reachable position). The precondition merely keeps the
// larger budget to the sides where the walk is likely to end; elsewhere it would only take
// time from the searches after it.
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

std::size_t closure_budget(const Position& pos, Color attacker, std::size_t positions) noexcept {
    // The closure's budget with the attacker's moves all irreversible (see above): measured
    // need 200,000 to 300,000 positions on the examples.
    constexpr std::size_t kTempoPositions = 400'000;
    const Bitboard mine = pos.pieces(attacker);
    const Bitboard king = pos.pieces(attacker, PieceType::King);
    if ((mine & ~king & ~pos.pieces(attacker, PieceType::Pawn)) != 0 || king == 0)
        return positions;
    // The king has no move now: each neighbouring square holds an own pawn or is attacked by the
    // defender (with the current occupancy; a slider's line through the king's square is
    // missed, which only widens the precondition, never the answer).
    Bitboard around = king_spread(king) & ~mine;
    while (around != 0) {
        const int s = pop_lsb(around);
        if (pos.attackers_to(Square(s), ~attacker) == 0) return positions;
    }
    return std::max(positions, kTempoPositions);
}

} // namespace eboard::winnable_detail
