// Internals of rules/winnable.cpp shared by its parts (not a public API): small bitboard
// helpers, the locked-pawn analysis and the helpmate search. Squares a1=0 .. h8=63.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <ctime>
#include <limits>
#include <optional>
#include <cstdint>

#include "rules/bitboard.hpp"
#include "rules/position.hpp"
#include "rules/winnable.hpp"

namespace eboard::winnable_detail {

inline constexpr Bitboard kFileA = 0x0101010101010101ULL;
inline constexpr Bitboard kFileH = kFileA << 7;
/// Light squares (h1 light, Art. 2.1; a1 = bit 0 dark).
inline constexpr Bitboard kLight = 0x55AA55AA55AA55AAULL;
inline constexpr Bitboard kDark = ~kLight;

[[nodiscard]] constexpr Bitboard bit(int sq) noexcept { return Bitboard{1} << sq; }
/// Set squares (rules/bitboard.hpp: counted in registers).
using bitboards::popcount;
constexpr int pop_lsb(Bitboard& b) noexcept {
    const int s = std::countr_zero(b);
    b &= b - 1;
    return s;
}

/// All squares one king step from the set b.
[[nodiscard]] constexpr Bitboard king_spread(Bitboard b) noexcept {
    const Bitboard w = (b & ~kFileA) >> 1;
    const Bitboard e = (b & ~kFileH) << 1;
    const Bitboard row = b | w | e;
    return (w | e | (row << 8) | (row >> 8));
}
/// All squares one diagonal step from the set b.
[[nodiscard]] constexpr Bitboard diagonal_spread(Bitboard b) noexcept {
    const Bitboard w = (b & ~kFileA) >> 1;
    const Bitboard e = (b & ~kFileH) << 1;
    return ((w | e) << 8) | ((w | e) >> 8);
}
/// All squares one orthogonal step from the set b.
[[nodiscard]] constexpr Bitboard orthogonal_spread(Bitboard b) noexcept {
    return ((b & ~kFileA) >> 1) | ((b & ~kFileH) << 1) | (b << 8) | (b >> 8);
}
/// All squares one knight jump from the set b.
[[nodiscard]] constexpr Bitboard knight_spread(Bitboard b) noexcept {
    constexpr Bitboard notA = ~kFileA, notH = ~kFileH;
    constexpr Bitboard notAB = ~(kFileA | (kFileA << 1)), notGH = ~(kFileH | (kFileH >> 1));
    return ((b & notH) << 17) | ((b & notA) << 15) | ((b & notGH) << 10) | ((b & notAB) << 6) |
           ((b & notA) >> 17) | ((b & notH) >> 15) | ((b & notAB) >> 10) | ((b & notGH) >> 6);
}
/// Squares attacked by pawns of colour c standing on b.
[[nodiscard]] constexpr Bitboard pawn_attacks(Color c, Bitboard b) noexcept {
    return c == Color::White ? ((b & ~kFileA) << 7) | ((b & ~kFileH) << 9)
                             : ((b & ~kFileA) >> 9) | ((b & ~kFileH) >> 7);
}
/// Slider attacks from sq along the given directions (blockers included), by walking rays.
[[nodiscard]] Bitboard bishop_attacks(int sq, Bitboard occupied) noexcept;
[[nodiscard]] Bitboard rook_attacks(int sq, Bitboard occupied) noexcept;
/// Attacks of a non-pawn piece type from sq.
[[nodiscard]] Bitboard piece_attacks(PieceType t, int sq, Bitboard occupied) noexcept;

/// Chebyshev (king-step) distance.
[[nodiscard]] inline int king_distance(int a, int b) noexcept {
    const int df = (a & 7) - (b & 7), dr = (a >> 3) - (b >> 3);
    return std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr);
}
/// Knight-jump distance on an empty board (breadth-first table).
[[nodiscard]] int knight_distance(int a, int b) noexcept;
/// The row of the knight-distance table for square a: knight_distance(a, b) for every b.
[[nodiscard]] const std::array<std::uint8_t, 64>& knight_distances(int a) noexcept;

/// What the mate test of the static analyses (locked pawns, reachability) knows: over-
/// approximations of where the defending king may stand, which squares the attacker's pieces
/// (king excluded) may attack, where the attacking king may stand, and where each of the
/// defender's other pieces may stand.
struct MateRegions {
    Bitboard defender_king = 0;
    Bitboard attacks = 0;
    Bitboard attacker_king = 0;
    std::array<Bitboard, 16> blockers{};  ///< one region per defending piece, king excluded
    std::size_t blocker_count = 0;
    bool complete = true;  ///< false if the defender has more pieces than `blockers` holds
};

/// The mate test: false only if no checkmate fits the regions. A mate on a square m of the
/// defending king's region needs m attacked, and every flight square (a neighbour of m the
/// king may stand on) attacked by an attacking piece or by the attacking king standing on one
/// square of its region, the same for all flights, not next to m, or else occupied by a
/// defending piece; the flights left to the
/// defender need one distinct piece each (a matching of flights to pieces whose region holds
/// them). Sound because each piece stands on one square of its region.
[[nodiscard]] bool mate_fits(const MateRegions& r) noexcept;

/// The locked-pawn analysis: true only if, with every pawn rammed and no pawn ever able to
/// move or be captured, `attacker` provably can never checkmate. False means "no proof".
[[nodiscard]] bool locked_pawns_unwinnable(const Position& pos, Color attacker) noexcept;
/// Cheap precondition of locked_pawns_unwinnable (every pawn rammed, no castling, no e.p.).
[[nodiscard]] bool pawns_rammed(const Position& pos) noexcept;
/// The pawns that stand head-on against a pawn of the other side (each blocks the other).
/// The bishop guides take them as never moving (an estimate for move ordering only: such a
/// pawn may still take), the lever search as the pawns a sacrifice may free.
[[nodiscard]] inline Bitboard rammed_pawns(const Position& pos) noexcept {
    const Bitboard white = pos.pieces(Color::White, PieceType::Pawn);
    const Bitboard black = pos.pieces(Color::Black, PieceType::Pawn);
    return (white & (black >> 8)) | (black & (white << 8));
}

/// The reachability analysis (rules/winnable_reach.cpp): the over-approximated regions of all
/// pieces at their fixpoint, as the mate test of each side as the attacker needs them
/// (mate[0]: White attacks). False if the analysis cannot conclude for either side (castling
/// rights, an en passant square, a pawn that may promote, more than 32 pieces).
/// stalemate_filter: the king of that colour is not let onto squares where its move would
/// stalemate the other side (a sound narrowing, rules/winnable_reach.cpp; one king at most).
/// officer_guards: a king also keeps off squares that a knight, bishop, rook or queen that
/// never moves guards for good (full mode; quick mode leaves it out for speed).
/// held: pieces on these squares are taken never to move (their regions stay their squares);
/// sound only for a caller that proves that their first move ends the game
/// (rules/winnable_chain.cpp), and never together with a
/// stalemate filter. They may still be captured: permanent_out, if set, receives P at the
/// fixpoint, and a held piece missing from it was found capturable.
/// split: one case of a case split over the analysis (rules/winnable_chain.cpp): the games
/// from a set of positions rather than from pos itself. Pieces on `absent` are off the board;
/// a piece with a nonzero `start` region (indexed by its square in pos) may stand anywhere in
/// it when the case begins (a piece with none stands on its square); the pieces of colour c
/// (0 White) never stand on `barred[c]`. `regions` receives each piece's region at the
/// fixpoint (by its square in pos), `permanent` the squares of the pieces that never move.
struct ReachCase {
    Bitboard absent = 0;
    std::array<Bitboard, 2> barred{};
    std::array<Bitboard, 64> start{};
    std::array<Bitboard, 64> regions{};
    Bitboard permanent = 0;
};
[[nodiscard]] bool reach_regions(const Position& pos, std::array<MateRegions, 2>& mate,
                                 std::optional<Color> stalemate_filter = std::nullopt,
                                 bool officer_guards = true, Bitboard held = 0,
                                 Bitboard* permanent_out = nullptr,
                                 ReachCase* split = nullptr) noexcept;
/// The frozen pieces (rules/winnable_chain.cpp, full mode): the other side's pieces whose every
/// move would checkmate `attacker` (a king shut in inside the other side's pawn chain by knights
/// or pawns that could move only by mating it) are held still, the greatest such set, and the
/// mate test read on that fixpoint: true only if `attacker` provably can never checkmate.
[[nodiscard]] bool freeze_unwinnable(const Position& pos, Color attacker) noexcept;
/// The case split on a piece that cannot move (rules/winnable_chain.cpp), over the forced
/// moves of the first few plies: true only if `attacker` provably can never checkmate.
/// Full mode only. pos is restored.
[[nodiscard]] bool chain_split_unwinnable(Position& pos, Color attacker);
/// True only if the regions of reach_regions() leave no square where `attacker` could mate.
[[nodiscard]] bool reach_unwinnable(const Position& pos, Color attacker) noexcept;

/// The last-piece analysis (rules/winnable_walled.cpp): true only if `attacker`, with its king
/// and one queen or rook and nothing else, provably never checkmates: the reachability
/// fixpoint without the defender's moves that would checkmate the attacker's king, which
/// never moves, and without the attacker's moves after which every legal reply takes its last
/// piece. False means "no proof" (other material, castling rights, an en passant square).
[[nodiscard]] bool last_piece_unwinnable(const Position& pos, Color attacker) noexcept;

/// One piece's colour, type and region, as the reachability analysis holds them.
struct PieceRegion {
    Color color = Color::White;
    PieceType type = PieceType::None;
    Bitboard region = 0;
};
/// The pocket guard (rules/winnable_walled.cpp): adds to fixed_attacks[c] the squares that
/// the never-captured bishops of colour c attack in every position, by counting them against
/// the squares of their regions (captures[c]: where c's pieces may end a move). Sound at the
/// reachability fixpoint, like the officer guards.
void add_pocket_guards(const std::array<PieceRegion, 32>& pieces, std::size_t n,
                       const std::array<Bitboard, 2>& captures,
                       std::array<Bitboard, 2>& fixed_attacks) noexcept;

/// The CPU time of the calling thread, in seconds (CLOCK_THREAD_CPUTIME_ID).
[[nodiscard]] inline double thread_cpu_seconds() noexcept {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}
/// A limit for the searches on the thread's CPU time (thread_cpu_seconds()), so that the
/// answers do not depend on the load of the machine; kNoDeadline for none.
using Deadline = double;
inline constexpr Deadline kNoDeadline = std::numeric_limits<double>::infinity();

/// The closure search (rules/winnable_closure.cpp): every reachable position once, depth
/// first, up to max_positions distinct positions and max_moves moves made. Winnable on a mate
/// found, Unwinnable when the walk ends first, else Undetermined. pos is restored.
/// check_move_bound: see SearchLimits; past `deadline` the walk stops (Undetermined).
[[nodiscard]] Winnability closure_search(Position& pos, Color attacker, std::size_t max_positions,
                                         std::uint64_t max_moves, bool check_move_bound = false,
                                         Deadline deadline = kNoDeadline);

/// The closure walk's budget in full mode (rules/winnable_tempo.cpp): `positions`, or more where
/// the attacker has only its king, which cannot move, and pawns, so that each of its moves is
/// irreversible and the reachable set small. Only a budget: the answer stays the closure's.
[[nodiscard]] std::size_t closure_budget(const Position& pos, Color attacker,
                                         std::size_t positions) noexcept;

/// The coupled kings (rules/winnable_kings.cpp): the regions (index 0 White) of the two kings
/// grown together as pairs of squares, from the start regions, each king stepping only into
/// open[its colour] and never onto or next to the other king. Used by reach_regions() in full
/// mode (with its officer guards) instead of one flood per king.
[[nodiscard]] std::array<Bitboard, 2> coupled_king_regions(const std::array<Bitboard, 2>& start,
                                                           const std::array<Bitboard, 2>& open) noexcept;

/// What one helpmate search spent (for the next search and for tuning).
struct SearchStats {
    std::uint64_t nodes = 0;  ///< moves made
    int last_depth = 0;       ///< the depth of the last iteration started
};

/// The corner the helpmate search sends the defender's king to by default: of the colour of
/// the attacker's bishops (dark without any, unless only the defender has bishops, all light),
/// of the two the one nearer the defender's king (in king steps, 8 more for a corner an
/// attacker's piece stands on; on a tie the one on the defender's first rank). Issue 25: a
/// king boxed in near the far corner is mated there (K+P v K+2R+N+6P), a corner the
/// attacker's own bishop holds is the wrong one (8 bishops v 2): two more sides found over
/// the ground truth, none lost. Squares a1=0, h1=7, a8=56, h8=63.
[[nodiscard]] int default_corner(const Position& pos, Color attacker) noexcept;

/// How a helpmate search rewards bishop moves (rules/winnable_bishops.cpp); after CHA's
/// guided search (chasolver, src/search/heuristics.rs), reimplemented.
enum class BishopGuide : std::uint8_t {
    None,        ///< bishops move by the targets' rules only
    Corner,      ///< the attacker's bishops clear the mating corner and come in from afar,
                 ///< the defender's fill the squares beside it
    KingSquare,  ///< the attacker's bishops head for the squares that check the defender's king
                 ///< where it stands (the search aimed at that square)
};

/// Limits of one helpmate search.
struct SearchLimits {
    int first_depth = 1;
    int last_depth = 3;
    std::uint64_t nodes_per_depth = 0;  ///< per iteration, times the depth; 0 = unlimited
    std::uint64_t total_nodes = 1000;   ///< over all iterations
    int max_ply = 128;                  ///< no line longer than this many plies
    bool locked_pawn_pruning = false;   ///< run locked_pawns_unwinnable at interior nodes
    bool reach_pruning = false;         ///< run reach_unwinnable after captures and pawn moves
    Deadline deadline = kNoDeadline;    ///< checked every 1,024 nodes
    /// For FenMaterial::Composed positions: a position whose move_count_bound() exceeds a
    /// MoveList is not expanded (the search is then incomplete, never wrong).
    bool check_move_bound = false;
    SearchStats* stats = nullptr;       ///< if set, receives what the search spent
    /// The corner the defender's king heads for (a1=0, h1=7, a8=56, h8=63; the other targets
    /// follow from it); -1: chosen by the material (rules/winnable_search.cpp, Targets).
    int corner = -1;
    /// Opening locked pawns is progress (rules/winnable_levers.cpp): offers_lever() moves of
    /// the attacker and takes_lever() captures of the defender's pawns cost no depth.
    bool levers = false;
    /// Bishop moves that shorten a bishop route of bishop_distances() are progress (see
    /// BishopGuide); the goal squares follow from `corner` (Corner) or from the defender's king
    /// (KingSquare, which also aims the targets at the king's square).
    BishopGuide bishops = BishopGuide::None;
};

/// The limits of full mode's helpmate searches (rules/winnable.cpp): iterative deepening from
/// depth 1 to 128, at most `nodes` moves made in all, stopped at `deadline`; `composed`
/// (FenMaterial::Composed material) turns on check_move_bound.
[[nodiscard]] SearchLimits search_limits(std::uint64_t nodes, bool composed, Deadline deadline);

/// Full mode's budgets that the tests name as well (rules/winnable.cpp, decide_by_search):
/// - the closure walk's positions, before closure_budget() (rules/winnable_tempo.cpp) raises
///   it for a lone king that cannot move and its pawns;
inline constexpr std::size_t kClosurePositions = 200'000;
/// - the corner sweep's moves made (rules/winnable_corners.cpp), over the searches aimed at
///   the other three corners (one round of 6,000 each, about 5 ms). It finds the knight's
///   helpmates of issue 25 (K+N v K+P, K+N v K+B+B, ...) in at most 4,600 moves; more would
///   take the time the second search needs where it decides (the latest of those ends at
///   about 0.39 s of the 0.4 s guard);
inline constexpr std::uint64_t kSweepNodes = 18'000;
/// - the lever search's moves made (rules/winnable_levers.cpp): a sacrifice to a pawn that
///   frees a locked pawn is progress. The three sides of issue 25 it decides take at most
///   2,900 moves (about 4 ms).
inline constexpr std::uint64_t kLeverNodes = 20'000;
/// - the moves made by each of the bishop searches (rules/winnable_bishops.cpp): the two
///   helpmates of issue 25 they find take about 60,000 and 75,000; with a bishop more on the
///   board that never needs to move, up to 320,000 (about 30 ms).
inline constexpr std::uint64_t kBishopNodes = 400'000;

/// Helpmate search for `attacker` from pos (modified during the search, restored after).
/// Winnable: a mate found; Unwinnable: an iteration finished without hitting a limit (every
/// reachable position seen); else Undetermined.
[[nodiscard]] Winnability helpmate_search(Position& pos, Color attacker,
                                          const SearchLimits& limits);

/// The corner sweep (rules/winnable_corners.cpp): helpmate searches of `attacker` that send
/// the defender's king to each of the three corners the first searches did not aim at, in
/// rounds of growing budgets, until a mate is found, one search proves Unwinnable, or the
/// budget or `deadline` ends (Undetermined). pos is restored.
[[nodiscard]] Winnability corner_sweep(Position& pos, Color attacker, std::uint64_t budget,
                                       bool check_move_bound, Deadline deadline);

/// Bishop distances (rules/winnable_bishops.cpp): for every square, how many bishop moves a
/// bishop on it needs to reach a square of `goal`, on a board where only the `steady` squares
/// block (and cannot be entered); 255 where no route exists. Squares a1=0 .. h8=63. Uses the
/// attack tables: after init_bitboards() (rules/bitboard.hpp; any Position made calls it).
using BishopDistances = std::array<std::uint8_t, 64>;
inline constexpr std::uint8_t kNoBishopRoute = 255;
[[nodiscard]] BishopDistances bishop_distances(Bitboard goal, Bitboard steady) noexcept;
/// The goal squares of a guide (rules/winnable_bishops.cpp): Corner: `corner` and its two
/// neighbours on the edges; KingSquare: the squares diagonally next to the defender's king
/// that are not steady. Empty for BishopGuide::None.
[[nodiscard]] Bitboard bishop_goal(const Position& pos, Color attacker, BishopGuide guide,
                                   int corner, Bitboard steady) noexcept;
/// Whether a bishop's move from `from` to `to` is progress under `guide` with the distances
/// `d` of its goal: Corner: an attacker's bishop within one move of the goal that moves farther
/// (it clears the corner), or one more than two moves away that comes nearer; a defender's
/// bishop that comes nearer. KingSquare: an attacker's bishop that comes nearer.
[[nodiscard]] bool bishop_progress(BishopGuide guide, const BishopDistances& d,
                                   bool attacker_moves, int from, int to) noexcept;
/// The bishop searches of full mode (rules/winnable_bishops.cpp): a helpmate search guided by
/// BishopGuide::Corner aimed at the default corner, then one guided by KingSquare, each of at
/// most `nodes` moves made, from depth 2, stopped at `deadline`. Where no side has a bishop
/// (Corner) or the attacker has none (KingSquare) that search is not run. pos is restored.
[[nodiscard]] Winnability bishop_searches(Position& pos, Color attacker, std::uint64_t nodes,
                                          bool check_move_bound, Deadline deadline);
/// The limits of one of bishop_searches(): search_limits() from depth 2 with `guide`, aimed at
/// the defender's king's square for KingSquare (at the default corner otherwise).
[[nodiscard]] SearchLimits bishop_search_limits(const Position& pos, Color attacker,
                                                BishopGuide guide, std::uint64_t nodes,
                                                bool check_move_bound, Deadline deadline);

/// The attacker's piece (not a pawn or king) goes, without taking, to `to` where a defender's
/// pawn can take it, and that capture would give an attacker's pawn something to take (it
/// attacks `to`) or free it (the taker stands right in front of it). Before the move.
[[nodiscard]] bool offers_lever(const Position& pos, Color attacker, PieceType moved, int to,
                                bool capture);
/// The defender's pawn capture from `from` to `to` opens a lever: an attacker's pawn attacks
/// `to`, or the pawn stood right in front of an attacker's pawn. Before the move.
[[nodiscard]] bool takes_lever(const Position& pos, Color attacker, int from, int to);

} // namespace eboard::winnable_detail
