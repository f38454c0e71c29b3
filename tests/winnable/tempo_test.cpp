// The tempo budget of full mode's closure walk (issue 25, rules/winnable_tempo.cpp): where the
// attacker has only pawns and a king that cannot move, the walk counts its pawn moves out
// (labels from data/deadpos/chasolver_positions.txt, CHA's ground truth).
#include <catch2/catch.hpp>

#include <array>
#include <initializer_list>
#include <optional>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"
#include "composed_position.hpp"
#include "tests/support/sanitized.hpp"

using namespace eboard;
using namespace eboard::winnable_detail;

namespace {

using test::composed;

/// The closure walk with the budget closure_budget() gives it, without a CPU deadline (so that
/// the answer is the same under the sanitizers).
Winnability tempo_closure(Position& pos, Color attacker) {
    const std::size_t n = closure_budget(pos, attacker, kClosurePositions);
    return closure_search(pos, attacker, n, n * 20, true);
}

} // namespace

TEST_CASE("5.2.2 full mode counts the tempi of pawns alone: Black's pawn moves run out before any can promote") {
    // Black's king is shut in for good; its pawns face White's on the same files ('W-').
    for (const char* fen : {"1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - -",
                            "6k1/p1p1p1P1/6PB/6P1/8/8/PKP1P3/8 w - -"}) {
        INFO(fen);
        Position pos = composed(fen);
        CHECK(closure_budget(pos, Color::Black, kClosurePositions) > kClosurePositions);
        // The old budget does not finish the walk; the new one does, without a mate.
        CHECK(closure_search(pos, Color::Black, kClosurePositions, kClosurePositions * 20, true) ==
              Winnability::Undetermined);
        CHECK(tempo_closure(pos, Color::Black) == Winnability::Unwinnable);
        if (test::kSanitized) continue;  // full mode's answers within its CPU guard
        CHECK(can_checkmate(pos, Color::Black, WinnableMode::Full) == Winnability::Unwinnable);
        CHECK(can_checkmate(pos, Color::White, WinnableMode::Full) == Winnability::Winnable);
    }
}

TEST_CASE("5.2.2 the tempo budget proves nothing where one of Black's files is free: its pawn promotes and mates") {
    // The positions above without White's d2 or h2 pawn, or without its a2 pawn: the same budget,
    // and the walk finds Black's mate.
    for (const char* fen : {"1k6/1P1p1p1p/BP6/1P6/8/8/5PKP/8 w - -",
                            "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PK1/8 w - -",
                            "6k1/p1p1p1P1/6PB/6P1/8/8/1KP1P3/8 w - -"}) {
        INFO(fen);
        Position pos = composed(fen);
        CHECK(closure_budget(pos, Color::Black, kClosurePositions) > kClosurePositions);
        CHECK(tempo_closure(pos, Color::Black) == Winnability::Winnable);
        if (!test::kSanitized)
            CHECK(can_checkmate(pos, Color::Black, WinnableMode::Full) == Winnability::Winnable);
    }
}

TEST_CASE("5.2.2 the tempo budget stays the closure's where the attacker has a piece or its king can move") {
    // A black knight; Black's king free to take b7 (the bishop gone); White's side (its king moves).
    CHECK(closure_budget(composed("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/7n w - -"), Color::Black,
                         kClosurePositions) == kClosurePositions);
    CHECK(closure_budget(composed("1k6/1P1p1p1p/1P6/1P6/8/8/3P1PKP/8 w - -"), Color::Black,
                         kClosurePositions) == kClosurePositions);
    CHECK(closure_budget(composed("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - -"), Color::White,
                         kClosurePositions) == kClosurePositions);
}

namespace {

/// Squares by name, for the regions below.
Bitboard squares(std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= bit((n[0] - 'a') + 8 * (n[1] - '1'));
    return b;
}

} // namespace

TEST_CASE("5.2.2 full mode grows the kings as pairs: White's king never passes Black's on d8 and e8") {
    // Bishops in and behind a locked chain ('W-'): Black's king stands on d8 or e8, both next
    // to d7 and d8, White's king's only way out of c8, b7, a6.
    const Position pos = composed("BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - -");
    std::array<MateRegions, 2> mate;
    // One region per king (quick mode's analysis): White's king crosses to f8, no proof.
    CHECK_FALSE((reach_regions(pos, mate, std::nullopt, false) && !mate_fits(mate[1])));
    CHECK(can_checkmate(pos, Color::Black, WinnableMode::Quick) == Winnability::Undetermined);
    // As pairs (full mode): White's king stays on light squares, which Black never checks.
    REQUIRE(reach_regions(pos, mate));
    // (a8 once White's bishop steps to b7; c8 for Black's king once White's has left it.)
    CHECK(mate[1].defender_king == squares({"a8", "c8", "b7", "a6"}));
    CHECK(mate[1].attacker_king == squares({"c8", "d8", "e8"}));
    CHECK_FALSE(mate_fits(mate[1]));
    CHECK(can_checkmate(pos, Color::Black, WinnableMode::Full) == Winnability::Unwinnable);
}

TEST_CASE("5.2.2 the kings as pairs: a king passes where the other one can step aside") {
    const Bitboard white_open = squares({"a6", "b7", "c8", "d7", "d8", "e8", "f8"});
    // Black's king on d8 or e8 only: White's king stays behind.
    const auto boxed = coupled_king_regions({squares({"c8"}), squares({"e8"})},
                                            {white_open, squares({"d8", "e8"})});
    CHECK(boxed[0] == squares({"a6", "b7", "c8"}));
    CHECK(boxed[1] == squares({"d8", "e8"}));
    // Black's king may also go to f8 and g8 (no bishop there): then White's king passes to
    // d7, d8 and e8 (with Black's on g8), not to f8 (next to g8, Black's king's only square then).
    const auto open = coupled_king_regions({squares({"c8"}), squares({"e8"})},
                                           {white_open, squares({"d8", "e8", "f8", "g8"})});
    CHECK(open[0] == (white_open & ~squares({"f8"})));
    CHECK(open[1] == squares({"d8", "e8", "f8", "g8"}));
}
