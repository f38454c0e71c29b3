// A king inside the other side's pawn chain, shut in by guards that could move but whose every
// move would checkmate it (the frozen pieces, freeze_unwinnable in rules/winnable_chain.cpp):
// the positions of issue 25 that the full mode left '?' (labels from
// data/deadpos/chasolver_positions.txt, CHA's ground truth), each shown undecided by the
// reachability analysis without the rule, and positions next to them where the rule must not
// fire.
#include <catch2/catch.hpp>

#include <array>
#include <optional>

#include "composed_position.hpp"
#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"

using namespace eboard;
using test::composed;
using winnable_detail::MateRegions;

namespace {

/// True if the reachability analysis without the rule (officer guards, and either king's
/// stalemate filter) proves that White cannot mate.
bool reach_proves_white_cannot_mate(const Position& pos) {
    for (const std::optional<Color> filter :
         {std::optional<Color>{}, std::optional<Color>{Color::White}, std::optional<Color>{Color::Black}}) {
        std::array<MateRegions, 2> mate;
        if (winnable_detail::reach_regions(pos, mate, filter) && !winnable_detail::mate_fits(mate[0]))
            return true;
    }
    return false;
}

} // namespace

TEST_CASE("5.2.2 a king shut in by guards whose every move mates it: decided in full mode without search") {
    // Ground truth "-B" for each. White's king stands inside Black's chain with no move; what
    // guards it (knights b8 and d8 guarding c6 around a king on c5; pawns c6 and e6, or b6 and
    // d6, guarding the squares of a king on d4 or c4) could move, but every such move checks
    // the king and is mate. So they never move in a game that goes on, the king never leaves,
    // and White's bishops are shut in behind the chain. In the last position the knight on h2
    // can be taken by White's bishop, but while it stands there it can only mate.
    const std::array<const char*, 8> dead = {
        "bn1n2k1/2p2p1b/2p2Pp1/1pKp1pP1/1P1P1P2/8/5B2/2B3B1 b - -",
        "bn1n2k1/2p2p1b/2p2Pp1/1pKp1pP1/1P1P1P2/8/5B2/2B1B1B1 b - -",
        "bn1n2k1/2p2p2/2p2Pp1/1pKp1pP1/1P1P1P2/8/8/B1B1B1B1 b - -",
        "3b4/6k1/1ppp4/2b3p1/1pKp1pP1/1P1P1P2/8/1BbB1B1B b - -",
        "3b4/6k1/1ppp4/2b3p1/1pKp1pP1/1P1P1P2/8/1BbB1B2 b - -",
        "1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1B2 b - -",
        "3b1b2/3k4/2ppp3/3p4/1p1K1p1p/bP1P1P1P/8/1B3B2 w - -",
        "6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P1n/B7 w - -",
    };
    for (const char* fen : dead) {
        INFO(fen);
        const Position pos = composed(fen);
        // Without the rule: the guards move in the regions, and nothing is proven.
        CHECK_FALSE(reach_proves_white_cannot_mate(pos));
        CHECK(winnability_label(pos, WinnableMode::Quick)[0] == '?');
        // With it: proven for White. Never for Black, whose guards' moves are its mates.
        CHECK(winnable_detail::freeze_unwinnable(pos, Color::White));
        CHECK_FALSE(winnable_detail::freeze_unwinnable(pos, Color::Black));
        CHECK(winnability_label(pos, WinnableMode::Full) == "-B");
    }
}

TEST_CASE("5.2.2 a king shut in by guards whose every move mates it: no proof where a move does not mate") {
    // Positions next to the ones above where White can mate (a helpmate is found: "WB"), so
    // the rule must not fire. Knight d8 gone: the king takes c6 once b8 moves, so Nb8's moves
    // are checks but not mate (the rule fires here if it skips the flight squares). No pawn on
    // b4: the king walks out by c3 and White's b-pawn runs. A light bishop on h3 (it can take a
    // knight checking from g4 or f1, and the chain's pawns). A light bishop on f1. No pawn on
    // d6: c5 is not guarded for good and the bishop there can move.
    for (const char* fen : {"bn4k1/2p2p1b/2p2Pp1/1pKp1pP1/1P1P1P2/8/5B2/2B3B1 b - -",
                            "1b2kb2/8/2ppp3/3p2p1/3K1pP1/1P1P1P2/8/1B1B1B2 b - -",
                            "6b1/8/1k6/3p1p2/3PpP1B/3pKp1B/3P1P1n/B7 w - -",
                            "bn1n2k1/2p2p1b/2p2Pp1/1pKp1pP1/1P1P1P2/8/5B2/2B2BB1 b - -",
                            "3b4/6k1/1pp5/2b3p1/1pKp1pP1/1P1P1P2/8/1BbB1B2 b - -"}) {
        INFO(fen);
        CHECK_FALSE(winnable_detail::freeze_unwinnable(composed(fen), Color::White));
        CHECK(winnability_label(composed(fen), WinnableMode::Full) == "WB");
    }
}
