// can_checkmate(): the material rules, the static analyses and the searches, in the order and
// with the budgets of the mode (see rules/winnable.hpp). The budgets are node and position
// counts, so an answer does not depend on the speed of the machine; a wall-clock limit per
// search only guards the 1 s bound should a node ever be far slower than measured.
#include "rules/winnable.hpp"

#include <algorithm>
#include <array>
#include <optional>

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

// Budgets, tuned on data/deadpos/chasolver_positions.txt against the targets of issue 25
// (bench/winnable.cpp): quick >= 700,000 positions/s per core; full: every position under 1 s.
/// Quick (and Static): a closure walk where the side to move has at most kForcedMoves legal
/// moves (a forced line: the king must take, a check has one answer), of kForcedPositions.
/// The legal moves are counted only in check or with at most kForcedBound pseudo-legal ones
/// (move_count_bound()), which keeps the count off most positions.
constexpr std::size_t kForcedMoves = 2;
constexpr int kForcedBound = 16;
constexpr std::size_t kForcedPositions = 16;
/// Full mode, in order: a helpmate search, a closure (kClosurePositions), the corner sweep
/// (kSweepNodes), the lever search (kLeverNodes), the bishop searches (kBishopNodes each; those
/// four in winnable_detail.hpp), a longer search pruned by the static analyses that goes on
/// from the depth the first one reached.
/// Measured at about 4 million moves a second, they take about 0.4 s CPU together where none
/// concludes (the guard).
constexpr std::uint64_t kFirstSearchNodes = 200'000;
constexpr std::uint64_t kSecondSearchNodes = 4'000'000;
/// Moves made per closure position at most (a position has about 20 on average).
constexpr std::uint64_t kClosureMovesPerPosition = 20;
/// CPU-time guard per side, over all its searches (reached by the second search where no
/// search concludes): two sides stay under the 1 s of issue 25. CPU time, not wall time, so
/// that the answers do not depend on the load of the machine.
constexpr double kGuardSeconds = 0.4;

/// Material a game can reach (FenMaterial::Reachable); only then is every MoveList safe.
bool reachable_material(const Position& pos) {
    for (Color c : {Color::White, Color::Black}) {
        const auto count = [&](PieceType t) { return popcount(pos.pieces(c, t)); };
        const auto extra = [&](PieceType t, int initial) { return std::max(0, count(t) - initial); };
        const int promoted = extra(PieceType::Queen, 1) + extra(PieceType::Rook, 2) +
                             extra(PieceType::Bishop, 2) + extra(PieceType::Knight, 2);
        if (count(PieceType::Pawn) + promoted > 8) return false;
    }
    return true;
}

/// King and queen, or king and rook, against a lone king and nothing else: the side with the
/// queen or rook can checkmate, unless the lone king is to move and can only take it (then
/// king against king). A rule, not a search: checked against the helpmate search on every such
/// position (docs/winnability.md). nullopt for any other material.
std::optional<Winnability> heavy_against_lone_king(const Position& pos, Color side) {
    const Bitboard heavy = pos.pieces(side, PieceType::Queen) | pos.pieces(side, PieceType::Rook);
    if (popcount(pos.occupied()) != 3 || popcount(heavy) != 1) return std::nullopt;
    if (pos.side_to_move() == side) return Winnability::Winnable;
    for (const Move m : pos.legal_moves())
        if ((Bitboard{1} << m.to().index()) != heavy) return Winnability::Winnable;
    return Winnability::Unwinnable;
}

/// What the answers of the two sides share, each computed once, when first needed: whether
/// the side to move has a legal move, whether it has at most kForcedMoves, and the regions of
/// the reachability analysis.
class SharedFacts {
  public:
    SharedFacts(const Position& pos, WinnableMode mode)
        : pos_(pos), officer_guards_(mode == WinnableMode::Full) {}
    bool has_legal_move() {
        if (!has_move_) has_move_ = pos_.has_legal_move();
        return *has_move_;
    }
    /// At most kForcedMoves legal moves (only a check or few pseudo-legal moves can say so).
    bool forced() {
        if (!forced_)
            forced_ = (pos_.in_check() ||
                       move_count_bound(pos_) <= kForcedBound) &&
                      pos_.legal_moves().size() <= kForcedMoves;
        return *forced_;
    }
    /// The regions of reach_regions(), or nullptr where that analysis cannot conclude.
    const std::array<MateRegions, 2>* regions() {
        if (!reach_done_) {
            reach_done_ = true;
            reach_ok_ = reach_regions(pos_, regions_, std::nullopt, officer_guards_);
        }
        return reach_ok_ ? &regions_ : nullptr;
    }

  private:
    const Position& pos_;
    bool officer_guards_;  ///< full mode: reach_regions() with its officer guards
    std::optional<bool> has_move_;
    std::optional<bool> forced_;
    bool reach_done_ = false;
    bool reach_ok_ = false;
    std::array<MateRegions, 2> regions_;
};

/// The static part of every mode: a mate or stalemate on the board, material, locked pawns,
/// the reachability analysis (in quick mode only where some pawns are rammed head-on: without
/// such a pair it concluded on none of the ground truth's positions).
Winnability decide_static(const Position& pos, Color side, WinnableMode mode, SharedFacts& facts) {
    // A mate on the board first: the bishop rule assumes no double check, which only a set-up
    // position can show.
    if (!facts.has_legal_move())
        return pos.in_check() && pos.side_to_move() != side ? Winnability::Winnable
                                                            : Winnability::Unwinnable;
    if (insufficient_mating_material(pos, side)) return Winnability::Unwinnable;
    if (const auto w = heavy_against_lone_king(pos, side)) return *w;
    if (locked_pawns_unwinnable(pos, side)) return Winnability::Unwinnable;
    const Bitboard pawns = pos.pieces(PieceType::Pawn);
    if (pawns == 0) return Winnability::Undetermined;  // the region proof needs fixed pawns
    if (mode != WinnableMode::Full && rammed_pawns(pos) == 0) return Winnability::Undetermined;
    const std::size_t as_attacker = side == Color::White ? 0 : 1;
    const auto* regions = facts.regions();
    if (regions != nullptr && !mate_fits((*regions)[as_attacker])) return Winnability::Unwinnable;
    if (mode != WinnableMode::Full) return Winnability::Undetermined;
    if (last_piece_unwinnable(pos, side)) return Winnability::Unwinnable;
    // Full mode: again with either king kept off the squares where its move stalemates the
    // other side (a king boxed in behind its pawns: rules/winnable_reach.cpp).
    for (const Color c : {Color::White, Color::Black}) {
        std::array<MateRegions, 2> filtered;
        if (reach_regions(pos, filtered, c) && !mate_fits(filtered[as_attacker]))
            return Winnability::Unwinnable;
    }
    // The other side's pieces whose every move mates are held still: a king inside the other
    // side's chain whose guards could move only by mating it (rules/winnable_chain.cpp).
    if (freeze_unwinnable(pos, side)) return Winnability::Unwinnable;
    // Full mode: the case split on a piece that cannot move (a corner king with its rook and
    // bishop behind a chain; rules/winnable_chain.cpp), also after forced first moves.
    Position work = pos.copy();
    if (chain_split_unwinnable(work, side)) return Winnability::Unwinnable;
    return Winnability::Undetermined;
}

/// The searches of the mode, after decide_static() left the question open, on a position
/// they may change (every search restores it).
Winnability decide_by_search(Position& pos, Color side, WinnableMode mode, SharedFacts& facts,
                              double guard_seconds) {
    const bool composed = !reachable_material(pos);
    if (mode != WinnableMode::Full) {
        // A forced line (at most kForcedMoves answers): walk it out, a few positions deep.
        if (!facts.forced()) return Winnability::Undetermined;
        return closure_search(pos, side, kForcedPositions, kForcedPositions * 4, composed);
    }
    const Deadline deadline = thread_cpu_seconds() + guard_seconds;
    Winnability w = Winnability::Undetermined;
    SearchStats first;
    SearchLimits limits = search_limits(kFirstSearchNodes, composed, deadline);
    limits.stats = &first;
    w = helpmate_search(pos, side, limits);
    if (w != Winnability::Undetermined) return w;
    const std::size_t closure_positions = closure_budget(pos, side, kClosurePositions);
    w = closure_search(pos, side, closure_positions, closure_positions * kClosureMovesPerPosition,
                       composed, deadline);
    if (w != Winnability::Undetermined) return w;
    w = corner_sweep(pos, side, kSweepNodes, composed, deadline);
    if (w != Winnability::Undetermined) return w;
    limits = search_limits(kLeverNodes, composed, deadline);
    limits.levers = true;
    w = helpmate_search(pos, side, limits);
    if (w != Winnability::Undetermined) return w;
    w = bishop_searches(pos, side, kBishopNodes, composed, deadline);
    if (w != Winnability::Undetermined) return w;
    limits = search_limits(kSecondSearchNodes, composed, deadline);
    limits.first_depth = std::max(2, first.last_depth);
    limits.locked_pawn_pruning = true;
    limits.reach_pruning = true;
    return helpmate_search(pos, side, limits);
}

Winnability decide(Position& pos, Color side, WinnableMode mode, SharedFacts& facts) {
    const Winnability w = decide_static(pos, side, mode, facts);
    return w != Winnability::Undetermined ? w : decide_by_search(pos, side, mode, facts, kGuardSeconds);
}

std::string label_of(Position& pos, WinnableMode mode) {
    std::string label(2, '?');
    SharedFacts facts(pos, mode);  // the searches restore pos before the other side's answer
    label[0] = winnability_letter(decide(pos, Color::White, mode, facts), Color::White);
    label[1] = winnability_letter(decide(pos, Color::Black, mode, facts), Color::Black);
    return label;
}

/// One side's answer: the static analyses, then the searches within `guard_seconds` of CPU.
Winnability answer(const Position& pos, Color side, WinnableMode mode, double guard_seconds) {
    SharedFacts facts(pos, mode);
    const Winnability w = decide_static(pos, side, mode, facts);
    if (w != Winnability::Undetermined) return w;
    Position work = pos.copy();
    return decide_by_search(work, side, mode, facts, guard_seconds);
}

} // namespace

Winnability can_checkmate(const Position& pos, Color side, WinnableMode mode) {
    return answer(pos, side, mode, kGuardSeconds);
}

Winnability can_checkmate_within(const Position& pos, Color side, double cpu_seconds) {
    return answer(pos, side, WinnableMode::Full, std::clamp(cpu_seconds, 0.0, kGuardSeconds));
}

bool is_dead_position(const Position& pos, WinnableMode mode) {
    return can_checkmate(pos, Color::White, mode) == Winnability::Unwinnable &&
           can_checkmate(pos, Color::Black, mode) == Winnability::Unwinnable;
}

std::string winnability_label(const Position& pos, WinnableMode mode) {
    Position work = pos.copy();
    return label_of(work, mode);
}

Expected<std::string> winnability_label_of_fen(std::string_view fen, bool chess960,
                                               WinnableMode mode) {
    auto parsed = Position::from_fen(fen, chess960, FenMaterial::Composed);
    if (!parsed) return parsed.error();
    return label_of(parsed.value(), mode);
}

namespace winnable_detail {

SearchLimits search_limits(std::uint64_t nodes, bool composed, Deadline deadline) {
    SearchLimits l;
    l.first_depth = 1;
    l.last_depth = 128;
    l.total_nodes = nodes;
    l.deadline = deadline;
    l.check_move_bound = composed;
    return l;
}

} // namespace winnable_detail

} // namespace eboard
