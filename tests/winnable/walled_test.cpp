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
#include <utility>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"

using namespace eboard;

namespace {

Position composed(const std::string& text) {
    auto p = Position::from_fen(text, false, FenMaterial::Composed);
    INFO(text);
    REQUIRE(p.has_value());
    return std::move(p).value();
}

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
