// The helpmate search of winnability (after CHA's search, reimplemented): a depth-first search
// of the tree of legal moves in which both sides work towards the attacker's checkmate in a
// corner (see Targets). Moves that make progress cost no depth: the attacker's pawn pushes,
// captures, and king or knight moves towards the mating corner; the defender's king heading
// into the corner, its other pieces to the square beside it, and, when the attacker cannot
// mate without a piece of the defender to block a flight square, the defender's pawn moves and
// promotions to a minor piece. A move right after a progress move is free as well; the
// defender's captures cost three plies. At the depth limit only the attacker's checks are
// tried, for a mate in one. Options add progress: the levers (rules/winnable_levers.cpp) and
// the bishop guides (rules/winnable_bishops.cpp).
// Iterative deepening; a transposition table keyed by Position::key() prunes positions already
// searched in the same iteration with at least as much depth left.
//
// Soundness of Unwinnable: an iteration that never stopped at its depth or node limit has
// expanded every position it visited, except positions proven dead (no legal move, too little
// material, locked pawns, the reachability analysis) and positions it had already expanded.
// The visited positions are then closed under legal moves, none is a mate, so no mate is
// reachable.
#include <vector>

#include "rules/bitboard.hpp"
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

int default_corner(const Position& pos, Color attacker) noexcept {
    const Bitboard ab = pos.pieces(attacker, PieceType::Bishop);
    const Bitboard db = pos.pieces(~attacker, PieceType::Bishop);
    const bool dark = (ab & kDark) != 0 || (ab == 0 && (db & kLight) != 0);
    // The two corners of that colour, the one on the defender's first rank first.
    const int own = attacker == Color::White ? (dark ? 63 : 56) : (dark ? 0 : 7);
    const int far = dark ? 63 - own : (own == 56 ? 7 : 56);  // h8/a1, a8/h1
    const int king = pos.king_square(~attacker).index();
    const auto cost = [&](int corner) {
        const bool taken = (pos.pieces(attacker) & bit(corner)) != 0;
        return king_distance(king, corner) + (taken ? 8 : 0);
    };
    return cost(far) < cost(own) ? far : own;
}

namespace {

/// The squares both sides head for: the defender's king goes to a corner (default_corner():
/// of the colour of the attacker's bishops, the nearer of the two), its other pieces next to
/// it on that rank (g8 for h8); the attacker's king a knight's jump from the corner (g6), its knight three squares in on the
/// diagonal (e5). Tuned on the ground truth: about 5% more helpmates within 2,000 nodes than
/// with the attacker's king next to the corner, 4% more with the defender's bishops, rooks
/// and queens heading for g8 than with its knights only.
struct Targets {
    int defender_king = 63, defender_knight = 62, attacker_king = 46, attacker_knight = 36;
    int defender_block = 62;  ///< where the defender's other pieces go to box the king in
};

Targets make_targets(const Position& pos, Color attacker, int corner) {
    if (corner < 0) corner = default_corner(pos, attacker);
    const int cf = corner & 7, cr = corner >> 3;
    const int df = cf == 7 ? -1 : 1, dr = cr == 7 ? -1 : 1;
    Targets t;
    t.defender_king = corner;
    t.defender_knight = cr * 8 + cf + df;
    t.defender_block = t.defender_knight;
    t.attacker_king = (cr + 2 * dr) * 8 + cf + df;
    t.attacker_knight = (cr + 3 * dr) * 8 + cf + 3 * df;
    return t;
}

/// True if the attacker's material can only mate with a defender's piece boxing its own king
/// in, and the defender has no such piece but may get one by promoting: a lone knight against
/// no minor piece or rook, or bishops on one colour against no knight and no bishop of the
/// other colour. Then the defender's pawns should run (and not become a queen or rook).
bool needs_defender_promotion(const Position& pos, Color attacker) {
    const Bitboard mine = pos.pieces(attacker) & ~pos.pieces(attacker, PieceType::King);
    const Bitboard theirs = pos.pieces(~attacker);
    const Bitboard knights = pos.pieces(PieceType::Knight);
    const Bitboard bishops = pos.pieces(PieceType::Bishop);
    if (mine == 0) return false;
    if ((mine & (mine - 1)) == 0 && (mine & knights) &&
        (theirs & (knights | bishops | pos.pieces(PieceType::Rook))) == 0)
        return true;
    const Bitboard my_bishops = mine & bishops;
    if (mine != my_bishops) return false;
    const Bitboard colour = (my_bishops & kDark) ? kDark : kLight;
    return (bishops & ~colour) == 0 && (theirs & knights) == 0;
}

enum class Variation : std::uint8_t { Reward, Normal, Punish };

/// One transposition-table slot; valid only in the iteration `generation`.
struct Slot {
    std::uint64_t key = 0;
    std::uint32_t generation = 0;
    std::int32_t remaining = -1;
};

/// Per-thread table reused by every search (no allocation per call after the first). A search
/// uses only the first `span` slots, as many as its node budget can fill, so a small search
/// stays in the cache.
class Table {
  public:
    void next_generation(std::uint64_t budget) {
        span_ = kMinSpan;
        while (span_ < kMaxSpan && span_ < budget) span_ *= 2;
        if (slots_.size() < span_ + kWays) slots_.resize(span_ + kWays);
        if (++generation_ == 0) {  // wrapped: forget everything
            for (auto& s : slots_) s = Slot{};
            generation_ = 1;
        }
    }
    [[nodiscard]] bool searched(std::uint64_t key, int remaining) const {
        const std::size_t base = static_cast<std::size_t>(key) & (span_ - 1);
        for (std::size_t i = 0; i < kWays; ++i) {
            const Slot& s = slots_[base + i];
            if (s.generation == generation_ && s.key == key) return s.remaining >= remaining;
        }
        return false;
    }
    void store(std::uint64_t key, int remaining) {
        const std::size_t base = static_cast<std::size_t>(key) & (span_ - 1);
        std::size_t victim = base;
        for (std::size_t i = 0; i < kWays; ++i) {
            Slot& s = slots_[base + i];
            if (s.generation != generation_ || s.key == key) {
                victim = base + i;
                break;
            }
        }
        slots_[victim] = Slot{key, generation_, remaining};
    }

  private:
    static constexpr std::size_t kWays = 4;
    static constexpr std::size_t kMinSpan = std::size_t{1} << 10;
    static constexpr std::size_t kMaxSpan = std::size_t{1} << 18;
    std::vector<Slot> slots_;
    std::size_t span_ = kMinSpan;
    std::uint32_t generation_ = 0;
};

class Helpmate {
  public:
    Helpmate(Position& pos, Color attacker, const SearchLimits& limits)
        : pos_(pos), attacker_(attacker), limits_(limits),
          dist_(make_distances(make_targets(pos, attacker, limits.corner))) {
        if (limits.bishops != BishopGuide::None) {
            const int corner = limits.corner < 0 ? default_corner(pos, attacker) : limits.corner;
            const Bitboard steady = rammed_pawns(pos);
            bishop_dist_ = bishop_distances(
                bishop_goal(pos, attacker, limits.bishops, corner, steady), steady);
        }
    }

    Winnability run() {
        if (insufficient_mating_material(pos_, attacker_)) return Winnability::Unwinnable;
        for (int depth = limits_.first_depth; depth <= limits_.last_depth; ++depth) {
            max_depth_ = depth;
            iteration_nodes_ = 0;
            interrupted_ = false;
            table().next_generation(limits_.total_nodes);
            if (search(0, 0, false)) return Winnability::Winnable;
            if (!interrupted_) return Winnability::Unwinnable;
            if (out_of_budget_) break;
        }
        return Winnability::Undetermined;
    }

    [[nodiscard]] SearchStats stats() const noexcept { return {total_nodes_, max_depth_}; }

  private:
    static constexpr int kPunishPlies = 3;

    static Table& table() {
        static thread_local Table t;
        return t;
    }

    /// Counts one node; false (and interrupted) once a limit is reached.
    bool spend_node() {
        ++iteration_nodes_;
        ++total_nodes_;
        if (total_nodes_ > limits_.total_nodes) out_of_budget_ = true;
        if (limits_.deadline != kNoDeadline && (total_nodes_ & 1023) == 0 &&
            thread_cpu_seconds() > limits_.deadline)
            out_of_budget_ = true;
        const bool depth_limit =
            limits_.nodes_per_depth != 0 &&
            iteration_nodes_ > limits_.nodes_per_depth * static_cast<std::uint64_t>(max_depth_);
        if (out_of_budget_ || depth_limit) {
            interrupted_ = true;
            return false;
        }
        return true;
    }

    /// False (and interrupted) if legal_moves() might not fit a MoveList (composed material).
    bool moves_fit() {
        if (!limits_.check_move_bound ||
            move_count_bound(pos_) <= static_cast<int>(MoveList::kCapacity))
            return true;
        interrupted_ = true;
        return false;
    }

    /// Distances of every square to the four targets, so classify() only looks up. Knight
    /// distances are symmetric: the rows of the precomputed table serve.
    struct Distances {
        std::array<std::uint8_t, 64> attacker_king{}, defender_king{}, defender_block{};
        const std::array<std::uint8_t, 64>* attacker_knight = nullptr;
        const std::array<std::uint8_t, 64>* defender_knight = nullptr;
    };
    static Distances make_distances(const Targets& t) {
        Distances d;
        for (int sq = 0; sq < 64; ++sq) {
            const auto i = static_cast<std::size_t>(sq);
            d.attacker_king[i] = static_cast<std::uint8_t>(king_distance(sq, t.attacker_king));
            d.defender_king[i] = static_cast<std::uint8_t>(king_distance(sq, t.defender_king));
            d.defender_block[i] = static_cast<std::uint8_t>(king_distance(sq, t.defender_block));
        }
        d.attacker_knight = &knight_distances(t.attacker_knight);
        d.defender_knight = &knight_distances(t.defender_knight);
        return d;
    }

    /// Nearer to the target square by the table of distances to it.
    static bool closer(const std::array<std::uint8_t, 64>& to_target, int from, int to) {
        return to_target[static_cast<std::size_t>(to)] < to_target[static_cast<std::size_t>(from)];
    }

    Variation classify(Move m, bool attacker_moves, bool defender_promotes) const {
        const PieceType t = type_of(pos_.moved_piece(m));
        const int from = m.from().index();
        const int to = m.king_to().index();
        const bool capture = m.kind() == Move::Kind::EnPassant ||
                             (!m.is_castling() && pos_.piece_on(m.to()) != Piece::None);
        if (t == PieceType::Bishop && limits_.bishops != BishopGuide::None &&
            bishop_progress(limits_.bishops, bishop_dist_, attacker_moves, from, to))
            return Variation::Reward;
        if (attacker_moves) {
            if (t == PieceType::Pawn || capture) return Variation::Reward;
            if (t == PieceType::King)
                return closer(dist_.attacker_king, from, to) ? Variation::Reward : Variation::Normal;
            if (t == PieceType::Knight && closer(*dist_.attacker_knight, from, to))
                return Variation::Reward;
            if (limits_.levers && offers_lever(pos_, attacker_, t, to, capture))
                return Variation::Reward;
            return Variation::Normal;
        }
        if (t == PieceType::King && closer(dist_.defender_king, from, to)) return Variation::Reward;
        if (t == PieceType::Knight && closer(*dist_.defender_knight, from, to))
            return Variation::Reward;
        if ((t == PieceType::Bishop || t == PieceType::Rook || t == PieceType::Queen) &&
            closer(dist_.defender_block, from, to))
            return Variation::Reward;
        if (defender_promotes) {
            const bool heavy = m.kind() == Move::Kind::Promotion &&
                               (m.promotion_type() == PieceType::Queen ||
                                m.promotion_type() == PieceType::Rook);
            return t == PieceType::Pawn && !heavy ? Variation::Reward : Variation::Punish;
        }
        if (capture && t == PieceType::Pawn && limits_.levers &&
            takes_lever(pos_, attacker_, from, to))
            return Variation::Reward;
        return capture ? Variation::Punish : Variation::Normal;
    }

    /// The attacker to move at the depth limit: does some check mate at once? The position is
    /// not expanded further (the iteration is interrupted). Only moves that can check are
    /// made: a piece to a square from which it attacks the king, a piece that uncovers an
    /// attacker's line to the king; each is made and kept only if it is legal (the own king not
    /// attacked) and checks. Promotions, castling and en passant go through the full
    /// generator instead (rare at a leaf).
    bool mate_in_one() {
        interrupted_ = true;
        const Color a = attacker_;
        const Bitboard pawns = pos_.pieces(a, PieceType::Pawn);
        const Bitboard seventh = a == Color::White ? Bitboard{0xFF} << 48 : Bitboard{0xFF} << 8;
        if ((pawns & seventh) || pos_.ep_square().valid() || pos_.has_castling_right(a, true) ||
            pos_.has_castling_right(a, false))
            return mate_in_one_by_generator();
        const int king = pos_.king_square(~a).index();
        const Bitboard own = pos_.pieces(a);
        const Bitboard occ = pos_.occupied();
        const Bitboard diagonal = bishop_attacks(king, occ);
        const Bitboard straight = rook_attacks(king, occ);
        const Bitboard queens = pos_.pieces(a, PieceType::Queen);
        const Bitboard snipers =
            (bishop_attacks(king, 0) & (pos_.pieces(a, PieceType::Bishop) | queens)) |
            (rook_attacks(king, 0) & (pos_.pieces(a, PieceType::Rook) | queens));
        Bitboard uncovering = 0;
        for (Bitboard b = snipers; b;) {
            const Bitboard blockers = bitboards::between(king, pop_lsb(b)) & occ;
            if ((blockers & (blockers - 1)) == 0) uncovering |= blockers & own;
        }
        const auto try_moves = [&](int from, Bitboard targets) {
            while (targets) {
                const Move m = Move::normal(Square(from), Square(pop_lsb(targets)));
                if (!spend_node()) return false;
                pos_.make_move(m);
                const bool mate = pos_.attackers_to(pos_.king_square(a), ~a) == 0 &&
                                  pos_.in_check() && !pos_.has_legal_move();
                pos_.unmake_move();
                if (mate) return true;
            }
            return false;
        };
        const int up = a == Color::White ? 8 : -8;
        for (Bitboard b = pawns; b;) {
            const int from = pop_lsb(b);
            const Bitboard ahead = bit(from + up) & ~occ;
            const Bitboard start = a == Color::White ? Bitboard{0xFF} << 8 : Bitboard{0xFF} << 48;
            const Bitboard push2 = (ahead && (bit(from) & start)) ? bit(from + 2 * up) & ~occ : 0;
            Bitboard targets = ahead | push2 | (pawn_attacks(a, bit(from)) & pos_.pieces(~a));
            if ((uncovering & bit(from)) == 0) targets &= pawn_attacks(~a, bit(king));
            if (try_moves(from, targets)) return true;
        }
        for (const PieceType t : {PieceType::Knight, PieceType::Bishop, PieceType::Rook,
                                  PieceType::Queen, PieceType::King}) {
            const Bitboard checks_from = t == PieceType::Knight ? knight_spread(bit(king))
                                         : t == PieceType::Bishop ? diagonal
                                         : t == PieceType::Rook   ? straight
                                         : t == PieceType::Queen  ? diagonal | straight
                                                                  : Bitboard{0};
            for (Bitboard b = pos_.pieces(a, t); b;) {
                const int from = pop_lsb(b);
                Bitboard targets = piece_attacks(t, from, occ) & ~own;
                if ((uncovering & bit(from)) == 0) targets &= checks_from;
                if (try_moves(from, targets)) return true;
            }
        }
        return false;
    }

    /// mate_in_one() with every legal move from the generator, each tested with gives_check.
    bool mate_in_one_by_generator() {
        if (!moves_fit()) return false;
        const MoveList moves = pos_.legal_moves();
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

    bool search(int depth, int ply, bool past_progress) {
        const bool attacker_moves = pos_.side_to_move() == attacker_;
        if (depth >= max_depth_ || ply >= limits_.max_ply) {
            if (!attacker_moves) {
                if (!pos_.has_legal_move()) return pos_.in_check();
                interrupted_ = true;
                return false;
            }
            if (insufficient_mating_material(pos_, attacker_)) return false;
            return mate_in_one();
        }
        const int remaining = max_depth_ - depth;
        const std::uint64_t key = pos_.key();
        if (table().searched(key, remaining)) return false;

        if (!moves_fit()) return false;
        const MoveList moves = pos_.legal_moves();
        if (moves.empty()) return !attacker_moves && pos_.in_check();
        if (insufficient_mating_material(pos_, attacker_)) return false;
        if (ply > 0) {
            if (limits_.locked_pawn_pruning && pawns_rammed(pos_) &&
                locked_pawns_unwinnable(pos_, attacker_))
                return false;
            if (limits_.reach_pruning && pos_.halfmove_clock() == 0 &&
                reach_unwinnable(pos_, attacker_))
                return false;
        }
        table().store(key, remaining);

        const bool defender_promotes = !attacker_moves && needs_defender_promotion(pos_, attacker_);
        // Progress moves first, then the others, punished moves last. The moves are classified
        // while the first pass walks them: a search that ends early (a mate, the budget) has
        // not paid for the rest.
        std::array<Variation, MoveList::kCapacity> kinds;  // NOLINT: filled by the first pass
        for (const Variation pass : {Variation::Reward, Variation::Normal, Variation::Punish}) {
            const int next_depth = pass == Variation::Reward   ? depth
                                   : pass == Variation::Punish ? depth + kPunishPlies
                                                               : depth + (past_progress ? 0 : 1);
            for (std::size_t i = 0; i < moves.size(); ++i) {
                if (pass == Variation::Reward)
                    kinds[i] = classify(moves[i], attacker_moves, defender_promotes);
                if (kinds[i] != pass) continue;
                if (!spend_node()) return false;
                pos_.make_move(moves[i]);
                const bool found = search(next_depth, ply + 1, pass == Variation::Reward);
                pos_.unmake_move();
                if (found) return true;
            }
        }
        return false;
    }

    Position& pos_;
    Color attacker_;
    SearchLimits limits_;
    Distances dist_;
    BishopDistances bishop_dist_{};  ///< of limits_.bishops' goal (rules/winnable_bishops.cpp)
    int max_depth_ = 0;
    std::uint64_t iteration_nodes_ = 0;
    std::uint64_t total_nodes_ = 0;
    bool interrupted_ = false;
    bool out_of_budget_ = false;
};

} // namespace

Winnability helpmate_search(Position& pos, Color attacker, const SearchLimits& limits) {
    Helpmate search(pos, attacker, limits);
    const Winnability w = search.run();
    if (limits.stats != nullptr) *limits.stats = search.stats();
    return w;
}

} // namespace eboard::winnable_detail
