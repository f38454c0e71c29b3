// Winnability: can a side still checkmate by ANY sequence of legal moves, the opponent helping
// (a "helpmate")? This is the question of the Laws behind Art. 5.2.2 (dead position: neither
// player can checkmate), 6.9 (flag fall: the opponent wins only if he can checkmate "by any
// possible series of legal moves"), 5.1.2 (2023: resignation) and 7.5.5 (second illegal move).
//
// The answer is three-valued. Unwinnable is only ever said when it is proven: a position in
// which `side` can checkmate is never called Unwinnable. When the budget of the chosen mode runs
// out before a proof either way, the answer is Undetermined.
//
// Methods (after Miguel Ambrona's CHA, "Chess Unwinnability Analyzer"; reimplemented here):
// - material: a lone king; K+N against a king with nothing but queens; bishops all on squares
//   of one colour with no knight and no pawn on the board;
// - a static analysis of locked pawn chains: when no pawn can ever move or be captured, each
//   piece is confined to a region, and a mate needs a check on the defending king's region with
//   every flight square attacked or filled by a defending piece of its own (one piece a square,
//   a matching) (rules/winnable_locked.cpp);
// - a reachability fixpoint (regions of all pieces and the pieces that never move), with the
//   same mate test, for structures that are not fully locked; in full mode also with a king
//   kept off the squares where its move would stalemate the other side, whose other pieces
//   cannot move (CHA's stalemate filter; rules/winnable_reach.cpp);
// - a helpmate search (iterative deepening; moves that head for a mating corner cost no depth;
//   a transposition table); a search that ends without hitting its limit has seen every
//   reachable position, which proves Unwinnable (rules/winnable_search.cpp);
// - a closure search: every reachable position once, depth first, when there are few of them
//   (rules/winnable_closure.cpp).
//
// Modes and limits (issue 25). Budgets count moves made and positions; a guard on the thread's
// CPU time (0.4 s a side) keeps any position under 1 s. docs/winnability.md has the figures
// and what eboard-winnable accepts (composed positions).
// - Quick (= Static): the mate or stalemate on the board, material (K+Q or K+R against a lone
//   king by a rule checked on every such position, docs/winnability.md), locked pawns, the
//   reachability analysis where a pair of pawns is rammed, and, where the side to move has at
//   most two legal moves (a forced line), a closure of 16 positions. No helpmate search:
//   about 1.4 µs a position, 0.12 ms at most; the initial position is "??".
// - Full: the above with the reachability analysis always and its full-mode narrowings (the
//   guards, the last-piece analysis, the case split on a piece that cannot move, the kings as
//   pairs: docs/winnability.md), then a helpmate search of 200,000 moves, a closure of 200,000
//   positions (400,000 where the attacker has only pawns and a king that cannot move), the
//   same search aimed at each other corner (18,000 moves in all: rules/winnable_corners.cpp),
//   a lever search of 20,000 moves (rules/winnable_levers.cpp), two bishop searches of
//   400,000 moves each (rules/winnable_bishops.cpp), and a helpmate search of 4,000,000 more
//   moves, pruned by the static analyses, from the depth the first one reached: at most about
//   0.4 s CPU a side where none concludes. It decides every side of
//   data/deadpos/chasolver_positions.txt.
// Positions that need more (long helpmates in composed positions with many free moves, tempo
// counts, pawn structures that open only after sacrifices) can stay '?' in both modes.

#pragma once

#include <string>
#include <string_view>

#include "base/expected.hpp"
#include "rules/position.hpp"

namespace eboard {

/// The answer of can_checkmate().
enum class Winnability : std::uint8_t {
    Winnable,      ///< a sequence of legal moves in which the side checkmates was found
    Unwinnable,    ///< proven: no sequence of legal moves lets the side checkmate
    Undetermined,  ///< neither proven within the mode's limit
};

/// How much work can_checkmate() may spend (see the top of this file).
enum class WinnableMode : std::uint8_t {
    Quick,  ///< static analyses and a walk of forced lines (about 1.4 µs, <= 0.12 ms)
    Full,   ///< + helpmate searches and a closure search (<= 0.4 s CPU a side, never 1 s)
    /// The same analyses as Quick (which since issue 25 runs no helpmate search either): the
    /// reconstruction's check after every move, which acts only on Unwinnable.
    Static,
};

/// Can `side` checkmate the opponent by some sequence of legal moves from `pos` (the opponent
/// cooperating)? A position in which `side` has already given checkmate counts as Winnable;
/// a stalemate or a mate of `side` as Unwinnable. The 50/75-move and repetition rules are not
/// considered (Art. 5.2.2 speaks of "any series of legal moves"). Never says Unwinnable for a
/// position in which `side` can checkmate.
[[nodiscard]] Winnability can_checkmate(const Position& pos, Color side,
                                        WinnableMode mode = WinnableMode::Quick);

/// can_checkmate() in full mode within `cpu_seconds` of the calling thread's CPU time (the
/// full mode's own guard, 0.4 s, at most; negative counts as 0): the same budgets, stopped
/// sooner. For a caller that must answer within a bound, e.g. eboardd's event loop
/// (docs/winnability.md, "The daemon"). Undetermined where the bound stops the searches.
[[nodiscard]] Winnability can_checkmate_within(const Position& pos, Color side, double cpu_seconds);

/// True only if `side` has too little material ever to checkmate, whatever else is on the
/// board: a lone king; king and one knight against a king with at most queens besides; kings
/// and bishops only, every bishop of both sides on squares of one colour, no knight and no
/// pawn on the board. The material part of Art. 6.9 / 5.2.2.
[[nodiscard]] bool insufficient_mating_material(const Position& pos, Color side);

/// Art. 5.2.2: a dead position, one in which neither player can checkmate by any series of
/// legal moves. True only when both sides are proven Unwinnable in `mode`; false when either
/// can win or the mode's limit leaves it undecided.
[[nodiscard]] bool is_dead_position(const Position& pos, WinnableMode mode = WinnableMode::Quick);

/// The label of eboard-winnable for one side: 'W' / 'B' (Winnable), '-' (Unwinnable), '?'.
[[nodiscard]] constexpr char winnability_letter(Winnability w, Color side) noexcept {
    switch (w) {
    case Winnability::Winnable: return side == Color::White ? 'W' : 'B';
    case Winnability::Unwinnable: return '-';
    case Winnability::Undetermined: break;
    }
    return '?';
}

/// The two-letter label of eboard-winnable (eboard-winnable(1)): White's letter then Black's, e.g.
/// "WB", "W-", "-B", "--" (a dead position, Art. 5.2.2), "?" where undecided.
[[nodiscard]] std::string winnability_label(const Position& pos,
                                            WinnableMode mode = WinnableMode::Quick);

/// One line of `eboard-winnable --batch` (eboard-winnable(1)): the label of the FEN, read with
/// FenMaterial::Composed so that composed positions with more than 8 pawns or more promoted
/// pieces than missing pawns are answered too (legal-looking, if unreachable: a dead position
/// is still a question about them); an Error naming what is wrong if the text is not a FEN
/// of a legal-looking position (no king, the side not to move in check, ...).
[[nodiscard]] Expected<std::string> winnability_label_of_fen(std::string_view fen, bool chess960,
                                                             WinnableMode mode);

} // namespace eboard
