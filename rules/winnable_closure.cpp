// The closure search of winnability (CHA's "exhaustive" step): a breadth-first walk over every
// position reachable by legal moves, each visited once (by Position::key()), up to a number of
// positions. Positions where the attacker has too little material or the reachability analysis
// proves no mate are not expanded. A mate of the defender found on the way is a helpmate
// (Winnable); a walk that ends before the limit has seen every reachable position without a
// mate (Unwinnable). Suits positions with few mobile pieces, whose reachable set is small even
// when the helpmate tree is deep (a king wandering behind a locked chain).
#include <chrono>
#include <string>
#include <unordered_set>
#include <vector>

#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

Winnability closure_search(const Position& root, Color attacker, std::size_t max_positions,
                           double max_seconds) {
    const auto start = std::chrono::steady_clock::now();
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(max_positions * 2);
    std::vector<std::string> queue;
    queue.push_back(root.fen());
    seen.insert(root.key());
    const bool chess960 = root.chess960();
    for (std::size_t next = 0; next < queue.size(); ++next) {
        if ((next & 255) == 255) {
            const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
            if (spent.count() > max_seconds) return Winnability::Undetermined;
        }
        auto parsed = Position::from_fen(queue[next], chess960);
        if (!parsed) return Winnability::Undetermined;  // cannot happen for reached positions
        Position& pos = parsed.value();
        const MoveList moves = pos.legal_moves();
        if (moves.empty()) {
            if (pos.in_check() && pos.side_to_move() != attacker) return Winnability::Winnable;
            continue;
        }
        if (insufficient_mating_material(pos, attacker)) continue;
        if (next != 0 && pos.halfmove_clock() == 0 && reach_unwinnable(pos, attacker)) continue;
        for (Move m : moves) {
            pos.make_move(m);
            if (seen.insert(pos.key()).second) {
                if (seen.size() > max_positions) return Winnability::Undetermined;
                queue.push_back(pos.fen());
            }
            pos.unmake_move();
        }
        queue[next].clear();
        queue[next].shrink_to_fit();
    }
    return Winnability::Unwinnable;
}

} // namespace eboard::winnable_detail
