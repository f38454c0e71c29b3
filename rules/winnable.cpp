// can_checkmate(): the material rules, the static analyses and the searches, in the order and
// with the budgets of the mode (see rules/winnable.hpp). The budgets are node and position
// counts, so an answer does not depend on the speed of the machine; a wall-clock limit per
// search only guards the 1 s bound should a node ever be far slower than measured.
#include "rules/winnable.hpp"

#include <algorithm>
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

// Budgets, tuned on data/deadpos/chasolver_positions.txt against the targets of
// issue 8 (bench/winnable.cpp): quick >= 200,000 positions/s, full >= 3,000 positions/s.
/// Quick mode's helpmate search, on positions that look like a game (see game_like()).
constexpr std::uint64_t kQuickNodes = 160;
constexpr int kGameLikePieces = 10;
constexpr int kGameLikePawns = 10;
/// Full mode, in order: a helpmate search, a closure, a longer search pruned by the static
/// analyses that goes on from the depth the first one reached.
constexpr std::uint64_t kFirstSearchNodes = 500;
constexpr std::size_t kClosurePositions = 500;
constexpr std::uint64_t kSecondSearchNodes = 3000;
/// Moves made per closure position at most (a position has about 20 on average).
constexpr std::uint64_t kClosureMovesPerPosition = 20;
/// Wall-clock guard per search (never reached at the measured node speed).
constexpr double kGuardSeconds = 0.2;

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

/// Where a short helpmate is the rule and the quick search pays: middlegame material (at least
/// kGameLikePieces pieces besides kings and pawns and kGameLikePawns pawns, reachable), at most
/// one pair of pawns rammed head-on. Endgames and composed positions (locked chains, few
/// pieces) have long helpmates or none: the search of full mode is for them.
bool game_like(const Position& pos) {
    const Bitboard pieces = pos.occupied() & ~pos.pieces(PieceType::Pawn) &
                            ~pos.pieces(PieceType::King);
    if (popcount(pieces) < kGameLikePieces || popcount(pos.pieces(PieceType::Pawn)) < kGameLikePawns)
        return false;
    const Bitboard rammed = (pos.pieces(Color::White, PieceType::Pawn) << 8) &
                            pos.pieces(Color::Black, PieceType::Pawn);
    return (rammed & (rammed - 1)) == 0 && reachable_material(pos);
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

/// The static part of both modes: a mate or stalemate on the board, material, locked pawns,
/// the reachability analysis (in quick mode only where it usually concludes).
Winnability decide_static(const Position& pos, Color side, WinnableMode mode) {
    // A mate on the board first: the bishop rule assumes no double check, which only a set-up
    // position can show.
    if (!pos.has_legal_move())
        return pos.in_check() && pos.side_to_move() != side ? Winnability::Winnable
                                                            : Winnability::Unwinnable;
    if (insufficient_mating_material(pos, side)) return Winnability::Unwinnable;
    if (const auto w = heavy_against_lone_king(pos, side)) return *w;
    if (locked_pawns_unwinnable(pos, side)) return Winnability::Unwinnable;
    const Bitboard pawns = pos.pieces(PieceType::Pawn);
    if (pawns == 0) return Winnability::Undetermined;  // the region proof needs fixed pawns
    bool reach = mode == WinnableMode::Full;
    if (!reach) {
        // About 2 µs; in quick mode only without queens, rooks and knights, with pawns fixed in
        // place by pawns of the other side.
        const Bitboard qrn = pos.pieces(PieceType::Queen) | pos.pieces(PieceType::Rook) |
                             pos.pieces(PieceType::Knight);
        const Bitboard rammed = (pos.pieces(Color::White, PieceType::Pawn) << 8) &
                                pos.pieces(Color::Black, PieceType::Pawn);
        reach = qrn == 0 && (rammed & (rammed - 1)) != 0;
    }
    if (reach && reach_unwinnable(pos, side)) return Winnability::Unwinnable;
    return Winnability::Undetermined;
}

SearchLimits search_limits(std::uint64_t nodes, bool composed) {
    SearchLimits l;
    l.first_depth = 1;
    l.last_depth = 128;
    l.total_nodes = nodes;
    l.max_seconds = kGuardSeconds;
    l.check_move_bound = composed;
    return l;
}

/// The searches of the mode, after decide_static() left the question open, on a position
/// they may change (every search restores it).
Winnability decide_by_search(Position& pos, Color side, WinnableMode mode) {
    Winnability w = Winnability::Undetermined;
    const bool composed = !reachable_material(pos);
    if (mode == WinnableMode::Static) return Winnability::Undetermined;
    if (mode == WinnableMode::Quick) {
        if (!game_like(pos)) return Winnability::Undetermined;
        return helpmate_search(pos, side, search_limits(kQuickNodes, composed));
    }
    SearchStats first;
    SearchLimits limits = search_limits(kFirstSearchNodes, composed);
    limits.stats = &first;
    w = helpmate_search(pos, side, limits);
    if (w != Winnability::Undetermined) return w;
    w = closure_search(pos, side, kClosurePositions, kClosurePositions * kClosureMovesPerPosition,
                       composed);
    if (w != Winnability::Undetermined) return w;
    limits = search_limits(kSecondSearchNodes, composed);
    limits.first_depth = std::max(2, first.last_depth);
    limits.locked_pawn_pruning = true;
    limits.reach_pruning = true;
    return helpmate_search(pos, side, limits);
}

Winnability decide(Position& pos, Color side, WinnableMode mode) {
    const Winnability w = decide_static(pos, side, mode);
    return w != Winnability::Undetermined ? w : decide_by_search(pos, side, mode);
}

std::string label_of(Position& pos, WinnableMode mode) {
    std::string label(2, '?');
    label[0] = winnability_letter(decide(pos, Color::White, mode), Color::White);
    label[1] = winnability_letter(decide(pos, Color::Black, mode), Color::Black);
    return label;
}

} // namespace

Winnability can_checkmate(const Position& pos, Color side, WinnableMode mode) {
    const Winnability w = decide_static(pos, side, mode);
    if (w != Winnability::Undetermined) return w;
    Position work = pos.copy();
    return decide_by_search(work, side, mode);
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

} // namespace eboard
