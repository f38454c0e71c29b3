// Locked chains with bishops of both sides (issue 25, rules/winnable_chain.cpp): the case split
// on a piece that cannot move (a corner king with its rook and bishop behind the chain), the
// same after forced first moves, and the pieces whose every move checkmates the attacker.
// Labels from data/deadpos/chasolver_positions.txt (CHA's ground truth); each position was
// '?' in full mode before these rules (main at 3592429), and each rule has a near position
// where it must not fire.
#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"
#include "composed_position.hpp"

using namespace eboard;

namespace {

using test::composed;

std::string label(const std::string& fen, WinnableMode mode) {
    return winnability_label(composed(fen), mode);
}

/// What the analyses before these rules prove for `side`: neither the locked-pawn analysis
/// nor the reachability analysis (with the officer guards, and with either stalemate filter).
bool decided_without_split(const std::string& fen, Color side) {
    const Position pos = composed(fen);
    const std::size_t as_attacker = side == Color::White ? 0 : 1;
    if (winnable_detail::locked_pawns_unwinnable(pos, side)) return true;
    std::array<winnable_detail::MateRegions, 2> mate;
    if (winnable_detail::reach_regions(pos, mate) && !winnable_detail::mate_fits(mate[as_attacker]))
        return true;
    for (const Color c : {Color::White, Color::Black})
        if (winnable_detail::reach_regions(pos, mate, c) &&
            !winnable_detail::mate_fits(mate[as_attacker]))
            return true;
    return false;
}

/// A side the analyses before these rules leave open, quick mode too, and full mode decides
/// as the ground truth says (`truth`: the two letters).
void check_decided_by_split(const std::string& fen, Color side, const std::string& truth) {
    INFO(fen);
    const std::size_t i = side == Color::White ? 0 : 1;
    CHECK_FALSE(decided_without_split(fen, side));
    CHECK(label(fen, WinnableMode::Quick)[i] == '?');
    CHECK(label(fen, WinnableMode::Full) == truth);
}

} // namespace

TEST_CASE("5.2.2 a corner king with its rook and bishop behind the chain: the split on the rook decides it") {
    // White Ka2, Ra1, Bb1 (or Kh1, Rg1, Bf1) shut in behind their pawns; Black's dark
    // bishops may take the rook, after which a mate on a1 needs a2 and b1 both filled by
    // White, and only the one bishop reaches either. White's light bishops cannot mate a king
    // whose dark flights one dark bishop above the chain cannot all fill (CHA: "--").
    for (const char* fen : {"B2b4/8/8/4k2B/1p1p1p1p/1PpP1P1P/K1P5/RB4b1 b - -",
                            "B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 b - -",
                            "8/2b5/8/4k2B/1p1p4/1P1Pp1p1/4P1P1/2b2BRK b - -",
                            "8/7B/7b/8/3p1p1p/b1pP1PpP/B1PpBkP1/3K1BRB w - -"})
        check_decided_by_split(fen, Color::Black, "--");
    // Near: a black knight above the chain can reach c1 and mate the king on a2 (Nc1: a3 and
    // b2 are guarded by Black's pawns, a1 and b1 hold White's own pieces): never '-' for Black.
    const std::string knight = "B2b4/3n4/8/4k2B/1p1p1p1p/1PpP1P1P/K1P5/RB4b1 b - -";
    CHECK(label(knight, WinnableMode::Full)[1] != '-');
}

TEST_CASE("5.2.2 a rook given up with check: the split decides every forced answer") {
    // Black's rook on a6 checks the king on a2 and must be taken by a light bishop (and in the
    // first position Black's only answer to Ra6+ is Rxa6): after the capture, the corner case.
    CHECK_FALSE(decided_without_split("1bB5/k7/r7/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 w - -", Color::Black));
    CHECK(label("1bB5/k7/r7/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 w - -", WinnableMode::Full) == "--");
    CHECK(label("1bB5/k7/R5r1/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 b - -", WinnableMode::Full) == "--");
    // Near: with a second dark bishop above the chain (h8), Black's two bishops fill a7 and b8
    // and White mates on a8 (CHA: "W-"): White is not said unable, Black is.
    CHECK(label("1bB4b/k7/R5r1/8/1pBp1p1p/1PpP1P1P/K1P4b/RB6 b - -", WinnableMode::Full) == "W-");
}

TEST_CASE("5.2.2 a piece whose every move checkmates: it never moves in a game the other side mates") {
    // Black's knight on h1 can only go to f2, mating the king on d1 (c1 and e1 guarded by d2);
    // Black's rook on a2 only to a1, mating b1; Black's pawn c3 only to c2, mating b1. So in a
    // game White mates they never move, and White has too few blockers to mate with (CHA: "-B").
    for (const char* fen : {"8/2b4B/4k3/8/8/2p1p1p1/2PpP1P1/1B1K3n b - -",
                            "6B1/b7/2k5/p1p1p1pB/P1P1P1P1/pp6/rp6/1K2b3 b - -",
                            "8/B4b2/2k5/1p1p4/1P1Pp1pB/1pp1P1P1/1p6/bK3b2 b - -",
                            "8/B4b2/2k5/1p1p4/1P1Pp1pB/1pp1P1P1/1p6/bK3b2 w - -"})
        check_decided_by_split(fen, Color::White, "-B");
    // Near: without Black's pawn on d2 the knight's Nf2+ is a check but no mate (the king
    // steps to c1, d2 or e1): the knight may later block a7 beside a bishop on b8, and White
    // mates on a8; never '-' for White.
    CHECK(label("8/2b4B/4k3/8/8/2p1p1p1/2P1P1P1/1B1K3n b - -", WinnableMode::Full)[0] != '-');
    // Near: the knight on h3 has moves that do not check (g1, g5, f4): it is not frozen.
    CHECK(label("8/2b4B/4k3/8/8/2p1p1pn/2PpP1P1/1B1K4 b - -", WinnableMode::Full)[0] != '-');
}

TEST_CASE("5.2.2 a knight whose only move mates, or that the king takes: the split holds it still until taken") {
    // White's knight on g1 can only go to h3, mating Black's king on f2; Black's king may take
    // it on g1. Until then it never moves (in a game Black mates), after that White's king on
    // d1 (a light square) is out of reach of Black's dark pieces, and d2 never promotes
    // (CHA: "W-").
    check_decided_by_split("8/5BbB/7b/8/3p1p2/2pPpPp1/2PpBkP1/3K1BN1 w - -", Color::Black, "W-");
    // Near (the ground truth's neighbour, "WB"): without Black's pawn on e3 Black can mate;
    // never '-' for Black.
    CHECK(label("8/7B/7b/8/3p1p2/b1pP1Pp1/B1PpBkP1/3K1BN1 w - -", WinnableMode::Full)[1] != '-');
}
