// The helpmate search of winnability (after CHA's search, reimplemented): a depth-first search
// of the tree of legal moves in which both sides work towards the attacker's checkmate.
// Moves that make progress cost no depth (attacker: pawn moves, captures, king or knight
// approaching the mating corner; defender: king or knight heading into that corner), captures by
// the defender cost four plies, and the move after a progress move is free as well. Iterative
// deepening; a transposition table keyed by Position::key() prunes positions already searched
// in the same iteration with at least as much depth left.
//
// Soundness of Unwinnable: an iteration that never stopped at its depth or node limit has
// expanded every position it visited, except positions proven dead (no legal move, too little
// material, locked pawns) and positions it had already expanded. The visited positions are then
// closed under legal moves, none is a mate, so no mate is reachable.
#include <chrono>
#include <vector>

#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

/// The squares both sides head for: the defender's king goes to a corner of its own first
/// rank of the colour of the attacker's bishops (a dark corner without any), its knight next
/// to the corner, the attacker's king one step diagonally in from it, its knight three steps in.
struct Targets {
    int defender_king = 63, defender_knight = 62, attacker_king = 54, attacker_knight = 36;
};

Targets make_targets(const Position& pos, Color attacker) {
    const Bitboard ab = pos.pieces(attacker, PieceType::Bishop);
    const Bitboard db = pos.pieces(~attacker, PieceType::Bishop);
    const bool dark = (ab & kDark) != 0 || (ab == 0 && (db & kLight) != 0);
    int corner = 0;
    if (attacker == Color::White) corner = dark ? 63 : 56;  // h8 dark, a8 light
    else corner = dark ? 0 : 7;                               // a1 dark, h1 light
    const int cf = corner & 7, cr = corner >> 3;
    const int df = cf == 7 ? -1 : 1, dr = cr == 7 ? -1 : 1;
    Targets t;
    t.defender_king = corner;
    t.defender_knight = cr * 8 + cf + df;
    t.attacker_king = (cr + dr) * 8 + cf + df;
    t.attacker_knight = (cr + 3 * dr) * 8 + cf + 3 * df;
    return t;
}

enum class Variation { Normal, Reward, Punish };

/// One transposition-table slot; valid only in the iteration `generation`.
struct Slot {
    std::uint64_t key = 0;
    std::uint32_t generation = 0;
    std::int32_t remaining = -1;
};

/// Per-thread table reused by every search (no allocation per call after the first).
struct Table {
    static constexpr std::size_t kSize = std::size_t{1} << 16;
    static constexpr std::size_t kWays = 4;
    std::vector<Slot> slots = std::vector<Slot>(kSize + kWays);
    std::uint32_t generation = 0;

    void next_generation() {
        if (++generation == 0) {  // wrapped: forget everything
            for (auto& s : slots) s = Slot{};
            generation = 1;
        }
    }
    [[nodiscard]] bool searched(std::uint64_t key, int remaining) const {
        const std::size_t base = static_cast<std::size_t>(key) & (kSize - 1);
        for (std::size_t i = 0; i < kWays; ++i) {
            const Slot& s = slots[base + i];
            if (s.generation == generation && s.key == key) return s.remaining >= remaining;
        }
        return false;
    }
    void store(std::uint64_t key, int remaining) {
        const std::size_t base = static_cast<std::size_t>(key) & (kSize - 1);
        std::size_t victim = base;
        for (std::size_t i = 0; i < kWays; ++i) {
            Slot& s = slots[base + i];
            if (s.generation != generation || s.key == key) {
                victim = base + i;
                break;
            }
        }
        slots[victim] = Slot{key, generation, remaining};
    }
};

class Helpmate {
  public:
    Helpmate(Position& pos, Color attacker, const SearchLimits& limits)
        : pos_(pos), attacker_(attacker), limits_(limits), targets_(make_targets(pos, attacker)),
          start_(std::chrono::steady_clock::now()) {}

    Winnability run() {
        for (int depth = limits_.first_depth; depth <= limits_.last_depth; ++depth) {
            max_depth_ = depth;
            iteration_nodes_ = 0;
            interrupted_ = false;
            past_progress_ = false;
            table_.next_generation();
            if (search(0, 0)) return Winnability::Winnable;
            if (!interrupted_) return Winnability::Unwinnable;
            if (out_of_budget_) break;
        }
        return Winnability::Undetermined;
    }

  private:
    static constexpr int kMaxPly = 128;

    /// Counts one node; false (and interrupted) once a limit is reached.
    bool spend_node() {
        ++iteration_nodes_;
        ++total_nodes_;
        if (total_nodes_ > limits_.total_nodes) out_of_budget_ = true;
        if (limits_.max_seconds > 0 && (total_nodes_ & 1023) == 0) {
            const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
            if (spent.count() > limits_.max_seconds) out_of_budget_ = true;
        }
        const bool depth_limit =
            limits_.nodes_per_depth != 0 &&
            iteration_nodes_ > limits_.nodes_per_depth * static_cast<std::uint64_t>(max_depth_);
        if (out_of_budget_ || depth_limit) {
            interrupted_ = true;
            return false;
        }
        return true;
    }

    Variation classify(Move m) const {
        const PieceType t = type_of(pos_.moved_piece(m));
        const int from = m.from().index();
        const int to = m.king_to().index();
        const bool capture = pos_.is_capture(m);
        if (pos_.side_to_move() == attacker_) {
            if (t == PieceType::Pawn || capture) return Variation::Reward;
            if (t == PieceType::King &&
                king_distance(to, targets_.attacker_king) < king_distance(from, targets_.attacker_king))
                return Variation::Reward;
            if (t == PieceType::Knight && knight_distance(to, targets_.attacker_knight) <
                                              knight_distance(from, targets_.attacker_knight))
                return Variation::Reward;
            return Variation::Normal;
        }
        if (t == PieceType::King &&
            king_distance(to, targets_.defender_king) < king_distance(from, targets_.defender_king))
            return Variation::Reward;
        if (t == PieceType::Knight && knight_distance(to, targets_.defender_knight) <
                                          knight_distance(from, targets_.defender_knight))
            return Variation::Reward;
        if (capture) return Variation::Punish;
        return Variation::Normal;
    }

    /// At the depth limit with the attacker to move: is there a mate in one?
    bool mate_in_one(const MoveList& moves) {
        for (Move m : moves) {
            if (!pos_.gives_check(m)) continue;
            if (!spend_node()) return false;
            pos_.make_move(m);
            const bool mate = !pos_.has_legal_move();
            pos_.unmake_move();
            if (mate) return true;
        }
        return false;
    }

    bool search(int depth, int ply) {
        const int remaining = max_depth_ - depth;
        const std::uint64_t key = pos_.key();
        if (table_.searched(key, remaining)) return false;

        const MoveList moves = pos_.legal_moves();
        if (moves.empty()) return pos_.side_to_move() != attacker_ && pos_.in_check();
        if (insufficient_mating_material(pos_, attacker_)) return false;
        if (limits_.locked_pawn_pruning && ply > 0 && pawns_rammed(pos_) &&
            locked_pawns_unwinnable(pos_, attacker_))
            return false;
        if (limits_.reach_pruning && ply > 0 && pos_.halfmove_clock() == 0 &&
            reach_unwinnable(pos_, attacker_))
            return false;
        if (depth >= max_depth_ || ply >= kMaxPly) {
            if (pos_.side_to_move() == attacker_ && mate_in_one(moves)) return true;
            interrupted_ = true;
            return false;
        }
        table_.store(key, remaining);

        // Progress moves first, then the others, punished moves last (indices into moves).
        std::array<std::uint8_t, MoveList::kCapacity> order;  // NOLINT: filled below
        std::array<Variation, MoveList::kCapacity> kinds;      // NOLINT: filled below
        std::size_t n_reward = 0, n_normal = 0, n_punish = 0;
        std::array<std::uint8_t, MoveList::kCapacity> normal, punish;  // NOLINT
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const auto idx = static_cast<std::uint8_t>(i);
            switch (classify(moves[i])) {
            case Variation::Reward: order[n_reward++] = idx; break;
            case Variation::Normal: normal[n_normal++] = idx; break;
            case Variation::Punish: punish[n_punish++] = idx; break;
            }
        }
        std::size_t n = n_reward;
        for (std::size_t i = 0; i < n; ++i) kinds[i] = Variation::Reward;
        for (std::size_t i = 0; i < n_normal; ++i, ++n) {
            order[n] = normal[i];
            kinds[n] = Variation::Normal;
        }
        for (std::size_t i = 0; i < n_punish; ++i, ++n) {
            order[n] = punish[i];
            kinds[n] = Variation::Punish;
        }

        for (std::size_t i = 0; i < n; ++i) {
            if (!spend_node()) return false;
            const Variation v = kinds[i];
            const int next_depth = v == Variation::Reward   ? depth
                                   : v == Variation::Punish ? depth + 4
                                                            : depth + (past_progress_ ? 0 : 1);
            const bool saved_progress = past_progress_;
            past_progress_ = v == Variation::Reward;
            pos_.make_move(moves[order[i]]);
            const bool found = search(next_depth, ply + 1);
            pos_.unmake_move();
            past_progress_ = saved_progress;
            if (found) return true;
        }
        return false;
    }

    Position& pos_;
    Color attacker_;
    SearchLimits limits_;
    Targets targets_;
    std::chrono::steady_clock::time_point start_;
    int max_depth_ = 0;
    std::uint64_t iteration_nodes_ = 0;
    std::uint64_t total_nodes_ = 0;
    bool interrupted_ = false;
    bool out_of_budget_ = false;
    bool past_progress_ = false;
    static thread_local Table table_;
};

thread_local Table Helpmate::table_;

} // namespace

Winnability helpmate_search(Position& pos, Color attacker, const SearchLimits& limits) {
    Helpmate search(pos, attacker, limits);
    return search.run();
}

} // namespace eboard::winnable_detail
