// The corner sweep of full mode (issue 25, rules/winnable_corners.cpp): helpmates that need the
// defender's king in a corner other than the one the helpmate search aims at by default
// (labels from data/deadpos/chasolver_positions.txt, CHA's ground truth).
#include <catch2/catch.hpp>

#include <string>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"
#include "composed_position.hpp"
#include "tests/support/sanitized.hpp"

using namespace eboard;

namespace {

using test::composed;

using winnable_detail::kSweepNodes;

struct Case {
    const char* fen;
    Color winner;
    int old_corner;  ///< the corner the search aimed at before issue 25 (the defender's rank)
};

} // namespace

TEST_CASE("5.2.2 full mode finds the knight's helpmates in another corner, which the old corner misses") {
    // Each side can checkmate (ground truth) only with the defending king boxed in by its own
    // pawn or pieces; full mode left all of them '?' before the sweep.
    for (const Case c : {Case{"7N/8/8/8/8/8/7p/5K1k w - -", Color::White, 56},        // K+N v K+P
                         Case{"2k1n3/8/2P5/2K5/8/8/8/8 w - -", Color::Black, 7},       // K+N v K+P
                         Case{"4n3/4k3/8/8/2BK1B2/8/8/8 w - -", Color::Black, 0},      // K+N v K+B+B
                         Case{"8/8/8/3nk3/8/8/8/K1B2B2 w - -", Color::Black, 0},       // K+N v K+B+B
                         Case{"8/1nK1N2p/8/8/8/8/5k2/8 b - -", Color::White, 56},      // K+N v K+N+P
                         Case{"7k/7p/8/8/8/8/5q2/4qqNK b - -", Color::White, 56},      // three queens
                         Case{"8/1nq5/bppp4/1p1k1K1N/1rrp3b/2pp2p1/8/n7 w - -", Color::White, 63}}) {
        INFO(c.fen);
        Position pos = composed(c.fen);
        // The helpmate search aimed at the corner it took before issue 25, with as many moves
        // as the sweep has: no mate (the guidance, not the budget, falls short).
        auto limits = winnable_detail::search_limits(kSweepNodes, true, winnable_detail::kNoDeadline);
        limits.corner = c.old_corner;
        CHECK(winnable_detail::helpmate_search(pos, c.winner, limits) ==
              Winnability::Undetermined);
        // The sweep over the other three corners finds a mate (one made on the board: the
        // search returns Winnable only on a position with the defender checkmated), and
        // restores the position.
        CHECK(winnable_detail::corner_sweep(pos, c.winner, kSweepNodes, true,
                                            winnable_detail::kNoDeadline) == Winnability::Winnable);
        CHECK(pos.fen() == composed(c.fen).fen());
        // Full mode, within its CPU guard (the Release build's: under ASan the first search
        // and the closure alone spend the guard).
        if (!test::kSanitized) CHECK(can_checkmate(pos, c.winner, WinnableMode::Full) == Winnability::Winnable);
    }
}

TEST_CASE("5.2.2 the helpmate search aims at the nearer corner of its colour, one no piece of the attacker holds") {
    // Ground truth: White can checkmate. The search aimed at a8, its corner before issue 25
    // (the defender's first rank, light: no bishops, or all White's bishops light), does not
    // find the mate in 600,000 moves; aimed by default_corner() at h1 it does.
    for (const char* fen : {"8/5p2/8/6P1/6pp/6pk/p5pr/rn4K1 b - -",  // Black's king boxed in on h3
                            "Bk6/2b4B/3b2B1/5B2/4B3/p1pB1B2/PpP1B3/1K6 w - -"}) {  // a8 held
        INFO(fen);
        Position pos = composed(fen);
        CHECK(winnable_detail::default_corner(pos, Color::White) == 7);
        auto limits = winnable_detail::search_limits(600'000, true, winnable_detail::kNoDeadline);
        limits.corner = 56;
        CHECK(winnable_detail::helpmate_search(pos, Color::White, limits) ==
              Winnability::Undetermined);
        limits.corner = -1;
        CHECK(winnable_detail::helpmate_search(pos, Color::White, limits) == Winnability::Winnable);
        if (!test::kSanitized) CHECK(can_checkmate(pos, Color::White, WinnableMode::Full) == Winnability::Winnable);
    }
    // Near positions where the corner stays the one on the defender's first rank: Black's
    // king nearer a8, and a tie (d4: four steps from a8 and from h1).
    CHECK(winnable_detail::default_corner(composed("1k6/8/8/8/8/8/8/1K4N1 w - -"), Color::White) ==
          56);
    CHECK(winnable_detail::default_corner(composed("8/8/8/8/3k4/8/8/1K4N1 w - -"), Color::White) ==
          56);
    // Dark bishops: h8 on Black's rank, a1 when Black's king stands nearer to it.
    CHECK(winnable_detail::default_corner(composed("8/8/8/8/8/1k6/8/1KB5 w - -"), Color::White) ==
          0);
    CHECK(winnable_detail::default_corner(composed("8/8/8/5k2/8/8/8/1KB5 w - -"), Color::White) ==
          63);
}

TEST_CASE("5.2.2 the corner sweep finds no mate where there is none") {
    // Rooks and bishops behind locked chains: White cannot checkmate (ground truth '--'); the
    // sweep spends its budget and stays undecided, never Winnable.
    Position locked = composed("1bB5/k7/r7/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 w - -");
    CHECK(winnable_detail::corner_sweep(locked, Color::White, kSweepNodes, true,
                                        winnable_detail::kNoDeadline) == Winnability::Undetermined);
    // The K+N v K+P ending above without the pawn: nothing can box the king in, and the
    // searches say so from the material.
    Position bare = composed("7N/8/8/8/8/8/8/5K1k w - -");
    CHECK(winnable_detail::corner_sweep(bare, Color::White, kSweepNodes, false,
                                        winnable_detail::kNoDeadline) == Winnability::Unwinnable);
    // With a queen instead of the pawn: a knight never mates a king with only queens beside.
    Position queen = composed("7N/8/8/8/8/8/q7/5K1k w - -");
    CHECK(can_checkmate(queen, Color::White, WinnableMode::Full) == Winnability::Unwinnable);
}
