// Issue 25: a lone queen against a king walled in by its own pieces, White's king stuck in a
// corner among Black's pieces (data/deadpos/chasolver_positions.txt, CHA's ground truth: White
// cannot checkmate). The wall opens only by a move that checkmates White's king or by a
// capture after which Black must take the queen; the last-piece analysis
// (rules/winnable_walled.cpp) leaves those moves out. Near positions where the wall can open
// are won for White, and the analysis must not fire there.
#include <catch2/catch.hpp>

#include <array>
#include <optional>
#include <string>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"
#include "composed_position.hpp"

using namespace eboard;
using eboard::test::composed;

namespace {

/// What decided such positions before the last-piece analysis: the reachability analysis,
/// without and with either king's stalemate filter.
bool reach_proves(const Position& pos, Color attacker) {
    const std::size_t a = attacker == Color::White ? 0 : 1;
    for (const std::optional<Color> filter :
         {std::optional<Color>{}, std::optional<Color>{Color::White}, std::optional<Color>{Color::Black}}) {
        std::array<winnable_detail::MateRegions, 2> mate;
        if (winnable_detail::reach_regions(pos, mate, filter) && !winnable_detail::mate_fits(mate[a]))
            return true;
    }
    return false;
}

} // namespace

TEST_CASE("5.2.2 a lone queen against a king walled in by its own pieces: decided in full mode") {
    // The seven positions of the ground truth. The knight on b2 can move only to uncover the
    // queen's or bishop's line a3-c1, a mate of White; the queen on a2 (third position) only
    // to b1, a mate; the queen may take a pawn next to b3 only for Black to take it back.
    for (const char* fen : {"6Q1/8/4b3/8/ppp5/qkp3r1/rnp5/n1K5 b - -",
                            "6Q1/8/4n3/8/ppp5/qkp3b1/rnp5/n1K5 b - -",
                            "8/4b3/6r1/4q3/ppp5/bkp4Q/qnp5/n1K5 b - -",
                            "8/5ppp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - -",
                            "8/6pp/8/4q3/ppp5/bkp4Q/qnp2p2/n1K5 b - -",
                            "8/6pp/8/8/ppp5/bkp4Q/qnp2p2/n1K5 b - -",
                            "8/6pp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - -"}) {
        INFO(fen);
        const Position pos = composed(fen);
        CHECK_FALSE(reach_proves(pos, Color::White));
        CHECK(winnable_detail::last_piece_unwinnable(pos, Color::White));
        CHECK(winnability_label(pos, WinnableMode::Quick) == "??");  // quick mode runs no analysis of this kind
        CHECK(winnability_label(pos, WinnableMode::Full) == "-B");
    }
}

TEST_CASE("5.2.2 the last-piece analysis does not fire where the wall can open") {
    // A pawn on a3 instead of the queen: Nd3+ uncovers nothing, the queen takes on d3 and
    // mates on b2 after Black opens the wall. No knight on a1: the queen may take c2. A rook
    // instead of the queen, or the queen's king able to leave c1: won too. Each is a helpmate
    // the full mode finds, which a wrong proof would have turned into '-'.
    for (const char* fen : {"6Q1/8/4b3/8/ppp5/pkp3r1/rnp5/n1K5 b - -",
                            "6Q1/8/4b3/8/ppp5/qkp3r1/rnp5/2K5 b - -",
                            "6R1/8/4b3/8/ppp5/qkp3r1/rnp5/n1K5 b - -",
                            "8/6pp/8/8/ppp5/bkp4Q/qnp5/n3K3 b - -"}) {
        INFO(fen);
        const Position pos = composed(fen);
        CHECK_FALSE(winnable_detail::last_piece_unwinnable(pos, Color::White));
        CHECK(winnability_label(pos, WinnableMode::Full) == "WB");
    }
    // Other material: a second piece, or a pawn, is not the last piece.
    CHECK_FALSE(winnable_detail::last_piece_unwinnable(
        composed("8/6pp/8/8/ppp5/bkp4Q/qnp5/n1K2N2 b - -"), Color::White));
    CHECK_FALSE(winnable_detail::last_piece_unwinnable(
        composed("8/6pp/8/8/ppp5/bkp4Q/qnp4P/n1K5 b - -"), Color::White));
}

TEST_CASE("5.2.2 the mate test: the attacking king stands on one square for all flights") {
    using winnable_detail::bit;
    constexpr int h8 = 63, g8 = 62, h7 = 55, g7 = 54, f7 = 53, g6 = 46, h6 = 47;
    // A dark bishop checks h8 on the long diagonal and covers g7; g8 and h7 stay open. The
    // attacking king on f7 covers g8, on g6 covers h7, on no square both (h6 and g7 are next
    // to h8): no mate on h8 without a defending piece on one of them.
    winnable_detail::MateRegions r;
    r.defender_king = bit(h8) | bit(g8) | bit(h7) | bit(g7);
    r.attacks = bit(h8) | bit(g7);
    r.attacker_king = bit(f7) | bit(g6) | bit(h6);
    CHECK_FALSE(winnable_detail::mate_fits(r));
    // A defending piece that can stand on g8 leaves h7 to the king on g6: a mate fits.
    r.blockers[0] = bit(g8);
    r.blocker_count = 1;
    CHECK(winnable_detail::mate_fits(r));
    // No square for the attacking king away from h8 and g7 at all: no mate there either.
    r.attacker_king = bit(g7);
    CHECK_FALSE(winnable_detail::mate_fits(r));
}

TEST_CASE("5.2.2 two dark bishops against a king whose pieces are shut in the chain: decided in full mode") {
    // White's knight and Black's knight are shut in by the chain; Black's king can walk the
    // board, but a mate by two dark bishops needs a light flight filled, and no black piece
    // can move. The mate test before issue 25 let White's king cover g8 from f7 and h7 from
    // g6 at once.
    const std::string dead = "k7/1p6/1Pp5/n1P5/N1p5/1pP1B3/1P1B4/K7 w - -";
    CHECK(winnability_label(composed(dead), WinnableMode::Full) == "--");
    // A light bishop for White, or a black knight that can fill a light flight: won.
    CHECK(winnability_label(composed("k7/1p6/1Pp5/n1P5/N1p5/1pP1B3/1P1B4/K6B w - -"), WinnableMode::Full) == "WB");
    CHECK(winnability_label(composed("k7/1p6/1Pp5/n1P5/N1p5/1pP1B3/1P1B4/K4n2 w - -"), WinnableMode::Full) == "WB");
}

TEST_CASE("5.2.2 seven bishops on the eight light squares behind a locked chain guard their pawns for good") {
    // One hole walks along a8-b7-c8-d7-e8-f7-g8-h7; each white pawn is guarded from two
    // squares of that path (a6 from b7, or from c8 through an empty b7), so Black's king never
    // takes one and no pawn ever moves. Quick mode (no officer or pocket guards) leaves it open.
    for (const char* fen : {"B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -",
                            "B1B1B1B1/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w - -"}) {
        INFO(fen);
        CHECK(winnability_label(composed(fen), WinnableMode::Quick) == "??");
        CHECK(winnability_label(composed(fen), WinnableMode::Full) == "--");
    }
    // Six bishops leave two holes: b7 and c8 empty at once, Black's king takes a6 and the
    // a-pawn promotes (a helpmate the search finds); one bishop fewer in front of g6 too.
    CHECK(winnability_label(composed("2B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - -"), WinnableMode::Full) == "WB");
    CHECK(winnability_label(composed("B1B1B1B1/pBpBp1p1/P1P1P1P1/8/8/8/8/k1K5 w - -"), WinnableMode::Full) == "WB");
}
