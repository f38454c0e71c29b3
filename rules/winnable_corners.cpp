// The corner sweep of winnability (issue 25): the helpmate search (rules/winnable_search.cpp)
// sends the defender's king to one corner, chosen by the colour of the bishops. Many helpmates
// need another one: a knight mates a king that its own pawn or piece boxes in, in whichever
// corner both can reach first (K+N v K+P, K+N v K+B+B); a locked chain or a crowd of pieces
// leaves the king only some corners. The sweep runs the same search aimed at each of the
// other three corners, in rounds whose budget per corner grows fourfold, so that a cheap mate
// in any corner is found at the price of a few small searches.
//
// Soundness: the corner only orders the moves and says which cost depth. Winnable still needs
// a mate reached on the board by legal moves (the search returns it only then), and
// Unwinnable still needs an iteration that expanded every reachable position: both hold
// whatever the corner (rules/winnable_search.cpp, the argument at its top).
#include <array>

#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

/// Budget per corner of the first round; each round has four times the one before.
constexpr std::uint64_t kFirstRoundNodes = 6'000;
constexpr std::uint64_t kRoundGrowth = 4;

} // namespace

Winnability corner_sweep(Position& pos, Color attacker, std::uint64_t budget,
                         bool check_move_bound, Deadline deadline) {
    const int aimed = default_corner(pos, attacker);
    std::array<int, 3> corners{};
    std::size_t n = 0;
    for (const int c : {0, 7, 56, 63})
        if (c != aimed) corners[n++] = c;
    std::uint64_t spent = 0;
    for (std::uint64_t round = kFirstRoundNodes; spent < budget; round *= kRoundGrowth) {
        for (const int corner : corners) {
            if (spent >= budget || thread_cpu_seconds() > deadline)
                return Winnability::Undetermined;
            SearchStats stats;
            SearchLimits limits;
            limits.first_depth = 1;
            limits.last_depth = 128;
            limits.total_nodes = std::min(round, budget - spent);
            limits.locked_pawn_pruning = true;
            limits.reach_pruning = true;
            limits.deadline = deadline;
            limits.check_move_bound = check_move_bound;
            limits.stats = &stats;
            limits.corner = corner;
            const Winnability w = helpmate_search(pos, attacker, limits);
            if (w != Winnability::Undetermined) return w;
            spent += stats.nodes;
        }
    }
    return Winnability::Undetermined;
}

} // namespace eboard::winnable_detail
