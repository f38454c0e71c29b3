// The bishop guides of winnability (issue 25, full mode's bishop searches in rules/winnable.cpp;
// after CHA's guided search, chasolver src/search/heuristics.rs and utils.rs, reimplemented).
// The helpmate search (rules/winnable_search.cpp) rewards king and knight moves towards its
// targets, and a defender's bishop by king steps towards the square beside the corner. Where
// the mate needs bishops to make room or to come round by long routes, that is no guide:
//   k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w: Black's king walks to h8 along the top, its
//   bishops fill g8 and h7, and White's six bishops on the long diagonal leave it one by one
//   (Bg7-f8, Bh8-g7, Bg7-h6, Bf6-e7, ...) before one comes back to mate (23 plies);
//   BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b: the mate is on e8, where Black's king
//   stands: White's king steps aside, Ba8 walks b7-c8-d7-e8-f7-g8 and mates on f7 (22 plies).
// A bishop guide measures routes in bishop moves (bishop_distances(): across a board where only
// rammed pawns stand, so that a piece in the way does not count), to the corner and its two
// neighbours (Corner) or to the squares that check the defender's king where it stands
// (KingSquare), and makes the bishop moves that shorten (or, next to the corner, lengthen) a
// route cost no depth.
//
// Soundness: a guide only orders the moves and says which cost depth, as the targets and the
// levers do. Winnable still needs a mate reached on the board by legal moves, and Unwinnable
// still needs an iteration that expanded every position it reached: the argument at the top
// of rules/winnable_search.cpp holds unchanged, whatever the distances say (the rammed pawns
// are an estimate, never a proof).
#include "rules/bitboard.hpp"
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

BishopDistances bishop_distances(Bitboard goal, Bitboard steady) noexcept {
    BishopDistances d{};
    d.fill(kNoBishopRoute);
    Bitboard reached = 0;
    Bitboard front = goal & ~steady;
    for (std::uint8_t moves = 0; front != 0; ++moves) {
        for (Bitboard f = front; f;) d[static_cast<std::size_t>(pop_lsb(f))] = moves;
        reached |= front;
        Bitboard next = 0;
        for (Bitboard f = front; f;) next |= bishop_attacks(pop_lsb(f), steady);
        front = next & ~steady & ~reached;
    }
    return d;
}

Bitboard bishop_goal(const Position& pos, Color attacker, BishopGuide guide, int corner,
                     Bitboard steady) noexcept {
    switch (guide) {
    case BishopGuide::Corner: {
        const int file = corner & 7, rank = corner >> 3;
        const int beside_on_rank = rank * 8 + (file == 7 ? 6 : 1);
        const int beside_on_file = (rank == 7 ? 6 : 1) * 8 + file;
        return bit(corner) | bit(beside_on_rank) | bit(beside_on_file);
    }
    case BishopGuide::KingSquare:
        return diagonal_spread(bit(pos.king_square(~attacker).index())) & ~steady;
    case BishopGuide::None:
        break;
    }
    return 0;
}

bool bishop_progress(BishopGuide guide, const BishopDistances& d, bool attacker_moves, int from,
                     int to) noexcept {
    const int before = d[static_cast<std::size_t>(from)];
    const int after = d[static_cast<std::size_t>(to)];
    if (guide == BishopGuide::KingSquare) return attacker_moves && after < before;
    if (guide != BishopGuide::Corner) return false;
    if (!attacker_moves) return after < before;
    // The attacker's bishops next to the corner stand where the defender's king and its
    // blockers must go: leaving is progress; the far ones come nearer.
    return (before <= 1 && after > before) ||
           (before > 2 && before != kNoBishopRoute && after < before);
}

Winnability bishop_searches(Position& pos, Color attacker, std::uint64_t nodes,
                            bool check_move_bound, Deadline deadline) {
    const Bitboard bishops = pos.pieces(PieceType::Bishop);
    const bool attacker_bishops = (bishops & pos.pieces(attacker)) != 0;
    for (const BishopGuide guide : {BishopGuide::Corner, BishopGuide::KingSquare}) {
        if (guide == BishopGuide::Corner ? bishops == 0 : !attacker_bishops) continue;
        if (thread_cpu_seconds() > deadline) break;
        const Winnability w = helpmate_search(
            pos, attacker,
            bishop_search_limits(pos, attacker, guide, nodes, check_move_bound, deadline));
        if (w != Winnability::Undetermined) return w;
    }
    return Winnability::Undetermined;
}

SearchLimits bishop_search_limits(const Position& pos, Color attacker, BishopGuide guide,
                                  std::uint64_t nodes, bool check_move_bound, Deadline deadline) {
    SearchLimits limits = search_limits(nodes, check_move_bound, deadline);
    limits.first_depth = 2;
    limits.bishops = guide;
    if (guide == BishopGuide::KingSquare) limits.corner = pos.king_square(~attacker).index();
    return limits;
}

} // namespace eboard::winnable_detail
