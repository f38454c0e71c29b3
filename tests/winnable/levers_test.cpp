// The lever search of full mode (issue 25, rules/winnable_levers.cpp): helpmates that open a
// locked pawn by a sacrifice to a pawn (labels from data/deadpos/chasolver_positions.txt,
// CHA's ground truth).
#include <catch2/catch.hpp>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"
#include "composed_position.hpp"
#include "tests/support/sanitized.hpp"

using namespace eboard;

namespace {

using test::composed;

using winnable_detail::kLeverNodes;

struct Case {
    const char* fen;
    Color winner;
};

/// a1=0 .. h8=63 of a square's name.
int sq(const char* name) { return Square::parse(name).index(); }

} // namespace

TEST_CASE("5.2.2 full mode finds the helpmates that open a locked pawn by a sacrifice to a pawn") {
    // Full mode left these sides '?' before the lever search: ...Bc4-d3-e2-f3, gxf3 gxf3 and
    // the f-pawn queens (the first two); Rc5, bxc5 and the b-pawn queens (the third).
    for (const Case c : {Case{"k1b1b1b1/7b/8/BpBpBpBp/1PbP1PpP/6P1/6P1/K1B5 w - -", Color::Black},
                         Case{"k1b1b1b1/8/8/BpBpBpBp/1PbP1PpP/6P1/6P1/K1B5 w - -", Color::Black},
                         Case{"4k3/2p3p1/1pPp1pPp/pP1PpP1P/P3P2R/8/3K2BR/7R w - -",
                              Color::White}}) {
        INFO(c.fen);
        Position pos = composed(c.fen);
        // The same search without the levers, with as many moves: no mate.
        auto limits = winnable_detail::search_limits(kLeverNodes, true, winnable_detail::kNoDeadline);
        CHECK(winnable_detail::helpmate_search(pos, c.winner, limits) ==
              Winnability::Undetermined);
        // With them, a mate made on the board (the search returns Winnable only on a position
        // with the defender checkmated); the position is restored.
        limits.levers = true;
        CHECK(winnable_detail::helpmate_search(pos, c.winner, limits) == Winnability::Winnable);
        CHECK(pos.fen() == composed(c.fen).fen());
        // Full mode, within its CPU guard (the Release build's: under ASan the earlier searches
        // spend the guard).
        if (!test::kSanitized)
            CHECK(can_checkmate(pos, c.winner, WinnableMode::Full) == Winnability::Winnable);
    }
}

TEST_CASE("5.2.2 the lever search finds no mate where none is: the same chain without the rooks") {
    // The neighbour of the third position above with White's rooks gone is dead (ground
    // truth '--'): the levers only order the search, no mate appears.
    Position pos = composed("4k3/2p3p1/1pPp1pPp/pP1PpP1P/P3P3/8/3K2B1/8 w - -");
    auto limits = winnable_detail::search_limits(kLeverNodes, true, winnable_detail::kNoDeadline);
    limits.levers = true;
    for (const Color c : {Color::White, Color::Black})
        CHECK(winnable_detail::helpmate_search(pos, c, limits) != Winnability::Winnable);
    CHECK(can_checkmate(pos, Color::White, WinnableMode::Full) == Winnability::Unwinnable);
}

TEST_CASE("5.2.2 a lever is a sacrifice to a pawn that frees an attacker's pawn, nothing else") {
    // White attacks; its e5-pawn is blocked by e6, its g4-pawn attacks f5 and h5.
    const Position pos = composed("4k3/6p1/4p3/4P3/6P1/8/8/2N1K3 w - -");
    using winnable_detail::offers_lever;
    using winnable_detail::takes_lever;
    // d5 and f5: e6 (the blocker) can take there; f5: the g4-pawn could take back as well.
    CHECK(offers_lever(pos, Color::White, PieceType::Knight, sq("d5"), false));
    CHECK(offers_lever(pos, Color::White, PieceType::Knight, sq("f5"), false));
    // h6: g7 can take, but it blocks nothing and no white pawn attacks h6.
    CHECK_FALSE(offers_lever(pos, Color::White, PieceType::Knight, sq("h6"), false));
    // No pawn can take on c5; a capture, a pawn or the king is never an offer.
    CHECK_FALSE(offers_lever(pos, Color::White, PieceType::Knight, sq("c5"), false));
    CHECK_FALSE(offers_lever(pos, Color::White, PieceType::Knight, sq("d5"), true));
    CHECK_FALSE(offers_lever(pos, Color::White, PieceType::King, sq("d5"), false));
    // The defender's captures: e6 takes (it frees e5); g7xh6 frees nothing; e6xf5 and g7xf6
    // land where a white pawn takes back.
    CHECK(takes_lever(pos, Color::White, sq("e6"), sq("d5")));
    CHECK_FALSE(takes_lever(pos, Color::White, sq("g7"), sq("h6")));
    CHECK(takes_lever(pos, Color::White, sq("e6"), sq("f5")));
    CHECK(takes_lever(pos, Color::White, sq("g7"), sq("f6")));
}
