// The closure search of winnability (CHA's "exhaustive" step): a depth-first walk over every
// position reachable by legal moves, each visited once (by Position::key()), up to a number of
// positions. Positions where the attacker has too little material or the reachability analysis
// proves no mate are not expanded. A mate of the defender found on the way is a helpmate
// (Winnable); a walk that ends before the limit has seen every reachable position without a
// mate (Unwinnable). Suits positions with few mobile pieces, whose reachable set is small even
// when the helpmate tree is deep (a king wandering behind a locked chain).
//
// The walk makes and unmakes moves on one Position (no copies); the moves still to try at each
// level live in one shared arena, and the visited keys in an open-addressing table stamped with
// a generation, so a call allocates nothing once the thread's first call has.
#include <vector>

#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

/// The positions already visited, by key; cleared in O(1) by bumping the generation.
class Visited {
  public:
    /// Prepares for up to `capacity` keys (the table is kept at most half full).
    void reset(std::size_t capacity) {
        std::size_t size = 1024;
        while (size < 2 * capacity) size *= 2;
        if (slots_.size() < size) {
            slots_.assign(size, Slot{});
            generation_ = 0;
        }
        mask_ = slots_.size() - 1;
        if (++generation_ == 0) {  // wrapped: forget everything
            for (auto& s : slots_) s = Slot{};
            generation_ = 1;
        }
    }
    /// True if `key` was not there yet (and is now).
    bool insert(std::uint64_t key) {
        for (std::size_t i = static_cast<std::size_t>(key) & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.generation != generation_) {
                s = Slot{key, generation_};
                return true;
            }
            if (s.key == key) return false;
        }
    }

  private:
    struct Slot {
        std::uint64_t key = 0;
        std::uint32_t generation = 0;
    };
    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    std::uint32_t generation_ = 0;
};

/// One level of the walk: moves [next, end) of the arena are still to be tried.
struct Frame {
    std::uint32_t next = 0;
    std::uint32_t end = 0;
};

} // namespace

Winnability closure_search(Position& pos, Color attacker, std::size_t max_positions,
                           std::uint64_t max_moves, bool check_move_bound, Deadline deadline) {
    static thread_local Visited visited;
    static thread_local std::vector<Move> arena;
    static thread_local std::vector<Frame> frames;
    visited.reset(max_positions);
    arena.clear();
    frames.clear();
    visited.insert(pos.key());
    std::size_t positions = 1;
    std::uint64_t nodes = 0;
    const std::size_t base_history = pos.history_size();
    Winnability result = Winnability::Unwinnable;

    // Expands the current position: false if it is a mate of the defender (or, with too many
    // moves for a MoveList, cannot be expanded: result says which).
    const auto enter = [&]() {
        if (check_move_bound && move_count_bound(pos) > static_cast<int>(MoveList::kCapacity)) {
            result = Winnability::Undetermined;
            return false;
        }
        const MoveList moves = pos.legal_moves();
        if (moves.empty()) return !(pos.in_check() && pos.side_to_move() != attacker);
        const bool root = frames.empty();
        if (insufficient_mating_material(pos, attacker)) return true;
        if (!root && pos.halfmove_clock() == 0 && reach_unwinnable(pos, attacker)) return true;
        Frame f;
        f.next = static_cast<std::uint32_t>(arena.size());
        arena.insert(arena.end(), moves.begin(), moves.end());
        f.end = static_cast<std::uint32_t>(arena.size());
        frames.push_back(f);
        return true;
    };

    if (!enter()) return result == Winnability::Undetermined ? result : Winnability::Winnable;
    while (!frames.empty()) {
        Frame& top = frames.back();
        if (top.next == top.end) {
            frames.pop_back();  // its moves sit at the end of the arena, after its parent's
            if (!frames.empty()) {
                arena.resize(frames.back().end);
                pos.unmake_move();
            }
            continue;
        }
        const Move m = arena[top.next++];
        if (++nodes > max_moves ||
            ((nodes & 1023) == 0 && deadline != kNoDeadline &&
             thread_cpu_seconds() > deadline)) {
            result = Winnability::Undetermined;
            break;
        }
        pos.make_move(m);
        if (!visited.insert(pos.key())) {
            pos.unmake_move();
            continue;
        }
        if (++positions > max_positions) {
            result = Winnability::Undetermined;
            pos.unmake_move();
            break;
        }
        const std::size_t depth_before = frames.size();
        if (!enter()) {  // a mate of the defender, or a position too big to expand
            if (result != Winnability::Undetermined) result = Winnability::Winnable;
            pos.unmake_move();
            break;
        }
        if (frames.size() == depth_before) pos.unmake_move();  // not expanded: back up at once
    }
    while (pos.history_size() > base_history) pos.unmake_move();
    return result;
}

} // namespace eboard::winnable_detail
