// The bishop guides of full mode (issue 25, rules/winnable_bishops.cpp): helpmates in which
// bishops make room at the mating corner or come round by long routes (labels from
// data/deadpos/chasolver_positions.txt, CHA's ground truth). Squares a1=0 .. h8=63.
#include <catch2/catch.hpp>

#include "rules/bitboard.hpp"
#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"
#include "composed_position.hpp"
#include "tests/support/sanitized.hpp"

using namespace eboard;

namespace {

using test::composed;
using winnable_detail::BishopGuide;
using winnable_detail::kBishopNodes;
using winnable_detail::kNoBishopRoute;

/// a1=0 .. h8=63 of a square's name.
int sq(const char* name) { return Square::parse(name).index(); }
Bitboard bb(const char* name) { return Bitboard{1} << sq(name); }

struct Case {
    const char* fen;
    BishopGuide guide;
};

} // namespace

TEST_CASE("5.2.2 full mode finds the helpmates where bishops clear the corner or come round by long routes") {
    // Full mode left White's side of both '?' before the bishop searches (docs/winnability.md):
    // - Black's bishops fill g8 and h7, its king walks along the top to h8, and White's bishops
    //   leave the long diagonal one by one (Bg7-f8, Bh8-g7, Bg7-h6, ...) before one mates from
    //   c3 (23 plies): the corner guide;
    // - White's king steps aside, Ba8 walks b7-c8-d7-e8-f7-g8 and mates on f7, Black's king on
    //   e8 where it stands (22 plies): the guide aimed at the king's square.
    for (const Case c : {Case{"k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -", BishopGuide::Corner},
                         Case{"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - -",
                              BishopGuide::KingSquare}}) {
        INFO(c.fen);
        Position pos = composed(c.fen);
        // The limits of that bishop search (rules/winnable_bishops.cpp, bishop_searches).
        const auto guided = winnable_detail::bishop_search_limits(
            pos, Color::White, c.guide, kBishopNodes, true, winnable_detail::kNoDeadline);
        // The same search without the guide, with as many moves: no mate.
        auto plain = guided;
        plain.bishops = BishopGuide::None;
        CHECK(winnable_detail::helpmate_search(pos, Color::White, plain) ==
              Winnability::Undetermined);
        // With it, a mate made on the board (Winnable only on a position with the defender
        // checkmated); the position is restored.
        CHECK(winnable_detail::helpmate_search(pos, Color::White, guided) == Winnability::Winnable);
        CHECK(pos.fen() == composed(c.fen).fen());
        CHECK(winnable_detail::bishop_searches(pos, Color::White, kBishopNodes, true,
                                               winnable_detail::kNoDeadline) ==
              Winnability::Winnable);
        CHECK(pos.fen() == composed(c.fen).fen());
        // Full mode, within its CPU guard (the Release build's: under ASan the earlier searches
        // spend the guard).
        if (!test::kSanitized)
            CHECK(can_checkmate(pos, Color::White, WinnableMode::Full) == Winnability::Winnable);
    }
}

TEST_CASE("5.2.2 the bishop searches find no mate where none is: the corner position without Black's bishop on c6") {
    // The neighbours of the positions above that the ground truth says are dead ('--'): with
    // one black bishop fewer, nothing fills g8 and h7; Black's king inside the chain next to
    // the first. The guides only order the search, no mate appears.
    for (const char* fen : {"k6B/1b4B1/5B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -",
                            "Bb1k1b2/b1p1p1p1/KpP1P1P1/1P4P1/p7/P7/8/8 w - -"}) {
        INFO(fen);
        Position pos = composed(fen);
        for (const Color c : {Color::White, Color::Black}) {
            CHECK(winnable_detail::bishop_searches(pos, c, kBishopNodes, true,
                                                   winnable_detail::kNoDeadline) !=
                  Winnability::Winnable);
            CHECK(can_checkmate(pos, c, WinnableMode::Full) == Winnability::Unwinnable);
        }
        CHECK(pos.fen() == composed(fen).fen());
    }
}

TEST_CASE("5.2.2 bishop distances: bishop moves to the goal, only rammed pawns in the way") {
    bitboards::init_bitboards();  // no Position made yet when this test runs alone
    // From h8 on an empty board: the long diagonal in one move, f8 in two, light squares never.
    auto d = winnable_detail::bishop_distances(bb("h8"), 0);
    CHECK(d[static_cast<std::size_t>(sq("h8"))] == 0);
    CHECK(d[static_cast<std::size_t>(sq("a1"))] == 1);
    CHECK(d[static_cast<std::size_t>(sq("f8"))] == 2);
    CHECK(d[static_cast<std::size_t>(sq("g8"))] == kNoBishopRoute);
    // A steady square on g7 shuts h8's only diagonal: nothing reaches it.
    d = winnable_detail::bishop_distances(bb("h8"), bb("g7"));
    CHECK(d[static_cast<std::size_t>(sq("h8"))] == 0);
    CHECK(d[static_cast<std::size_t>(sq("a1"))] == kNoBishopRoute);
    CHECK(d[static_cast<std::size_t>(sq("g7"))] == kNoBishopRoute);
    // Rammed pawns are the steady squares: b2/b3 head-on, a2 blocked by a king is not.
    const Position pos = composed("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -");
    CHECK(winnable_detail::rammed_pawns(pos) == (bb("b2") | bb("b3")));
}

TEST_CASE("5.2.2 bishop guides: which bishop moves are progress") {
    const Position pos = composed("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -");
    const Bitboard steady = winnable_detail::rammed_pawns(pos);
    // The corner guide for White's dark bishops aims at h8 and its neighbours g8 and h7.
    const Bitboard goal =
        winnable_detail::bishop_goal(pos, Color::White, BishopGuide::Corner, sq("h8"), steady);
    CHECK(goal == (bb("h8") | bb("g8") | bb("h7")));
    const auto d = winnable_detail::bishop_distances(goal, steady);
    const auto progress = [&](BishopGuide g, bool attacker, const char* from, const char* to) {
        return winnable_detail::bishop_progress(g, d, attacker, sq(from), sq(to));
    };
    // The attacker's bishops next to the corner leave it (g7-f8, h8-g7); coming back is not
    // progress, nor is a move between two squares one move from the corner (e5-d6 is 1 to 2:
    // leaving; e5-f6 stays at 1).
    CHECK(progress(BishopGuide::Corner, true, "g7", "f8"));
    CHECK(progress(BishopGuide::Corner, true, "h8", "g7"));
    CHECK_FALSE(progress(BishopGuide::Corner, true, "f8", "g7"));
    CHECK_FALSE(progress(BishopGuide::Corner, true, "e5", "f6"));
    // The defender's light bishops come nearer to g8 and h7 (c6-e4 reaches h7 next move).
    CHECK(progress(BishopGuide::Corner, false, "c6", "e4"));
    CHECK_FALSE(progress(BishopGuide::Corner, false, "e4", "c6"));
    // Aimed at the king's square: the attacker's bishops head for the squares next to it on
    // the diagonals; the defender's bishop moves are never progress there.
    const Position king = composed("BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - -");
    const Bitboard ks = winnable_detail::rammed_pawns(king);
    const Bitboard checks = winnable_detail::bishop_goal(king, Color::White, BishopGuide::KingSquare,
                                                         -1, ks);
    CHECK(checks == (bb("d7") | bb("f7")));
    const auto dk = winnable_detail::bishop_distances(checks, ks);
    CHECK(dk[static_cast<std::size_t>(sq("a8"))] == 3);  // a8-b7-c8-d7
    CHECK(winnable_detail::bishop_progress(BishopGuide::KingSquare, dk, true, sq("b7"), sq("c8")));
    CHECK_FALSE(winnable_detail::bishop_progress(BishopGuide::KingSquare, dk, false, sq("b7"), sq("c8")));
    CHECK(winnable_detail::bishop_goal(pos, Color::White, BishopGuide::None, sq("h8"), steady) == 0);
}
