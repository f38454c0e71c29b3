// C.07 tie-breaks on hand-computed tournaments: each unplayed-round rule of Art. 15 and 16
// (2024 and 2026 editions), the cut modifiers of Art. 14 with the Cut-1 exception of 16.5, the
// own-result tie-breaks of Art. 7, ARO (10.1), Koya (9.2), direct encounter (6), and shared
// ranks. The arithmetic of each expectation is in the comments.
#include "support.hpp"

using namespace standings_test;

namespace {

/// Swiss, 6 players, 3 rounds, every kind of unplayed round (C.07 16.2):
///   R1: 1-2 1-0, 3-4 +/- (forfeit), 5 pairing-allocated bye (U), 6 half-point bye (H)
///   R2: 1-3 =, 2-5 0-1, 6-4 1-0
///   R3: 5-1 0-1, 3-6 =, 2 half-point bye in the last round, 4 withdrawn (Z)
/// Scores: 1 2.5, 2 0.5, 3 2, 4 0, 5 2, 6 2.
/// Adjusted scores (16.3): 4's last-round Z is a requested bye followed by nothing (16.2.5),
/// evaluated as a draw: 0.5. 2's last-round H is a draw already: 0.5. 6's H is followed by
/// played rounds (16.2.3): kept. So 2.5, 0.5, 2, 0.5, 2, 2.
std::string unplayed_swiss(const std::string& start) {
    return "012 Every unplayed round\n042 " + start + "\n092 Swiss System\nXXR 3\n" +
           player(1, "One", 2000, {{2, 'w', '1'}, {3, 'w', '='}, {5, 'b', '1'}}) +
           player(2, "Two", 1900, {{1, 'b', '0'}, {5, 'w', '0'}, kHalfBye}) +
           player(3, "Three", 1800, {{4, 'w', '+'}, {1, 'b', '='}, {6, 'w', '='}}) +
           player(4, "Four", 1700, {{3, 'b', '-'}, {6, 'b', '0'}, kZeroBye}) +
           player(5, "Five", 1600, {kPab, {2, 'b', '1'}, {1, 'w', '0'}}) +
           player(6, "Six", 0, {kHalfBye, {4, 'w', '1'}, {3, 'b', '='}});
}

const std::string k2024 = "2025/06/01";
const std::string k2026 = "2026/06/01";

} // namespace

TEST_CASE("C.07 16.3 adjusted scores: a requested bye followed only by VURs counts as a draw") {
    const auto file = eboard::standings::read_trf(unplayed_swiss(k2024));
    REQUIRE(file);
    std::vector<std::string> notes;
    const auto t = eboard::standings::tournament_of(file.value(), notes);
    REQUIRE(t);
    const eboard::standings::TieBreakCalculator calc(t.value(), {});
    CHECK(calc.score(3) == 0.0);           // player 4: 0 + 0 + 0
    CHECK(calc.adjusted_score(3) == 0.5);  // his last-round Z (16.2.5) evaluated as a draw
    CHECK(calc.adjusted_score(5) == 2.0);  // player 6's H is followed by games (16.2.3): kept
    CHECK(calc.adjusted_score(1) == 0.5);  // player 2's last-round H: a draw anyway
}

TEST_CASE("C.07 8.1 and 16.4 (2024): Buchholz with a dummy of the player's own score") {
    const auto s = standings_of(unplayed_swiss(k2024), "BH");
    // 1: 0.5 + 2 + 2 = 4.5
    // 2: 2.5 + 2 + dummy 0.5 (own score) = 5
    // 3: forfeit win -> dummy 2 (own) + 2.5 + 2 = 6.5
    // 4: forfeit loss -> dummy 0 + 2 + Z -> dummy 0 = 2
    // 5: pairing-allocated bye -> dummy 2 + 0.5 + 2.5 = 5
    // 6: half-point bye -> dummy 2 + adjusted 0.5 (player 4) + 2 = 4.5
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "4.5"}, {2, "5"}, {3, "6.5"},
                                                     {4, "2"}, {5, "5"}, {6, "4.5"}});
}

TEST_CASE("C.07 16.4.1 and 16.4.2 (2026): the dummy capped by the opponent's score or by draws") {
    const auto s = standings_of(unplayed_swiss(k2026), "BH, SB");
    // Caps: a forfeit at the scheduled opponent's adjusted score (16.4.1), any other unplayed
    // round at a draw's points times the rounds, 0.5 * 3 = 1.5 (16.4.2).
    // 3: forfeit win, dummy min(2, adjusted 0.5 of player 4) = 0.5 -> 0.5 + 2.5 + 2 = 5
    // 5: pairing-allocated bye, dummy min(2, 1.5) = 1.5 -> 1.5 + 0.5 + 2.5 = 4.5
    // 6: half-point bye, dummy min(2, 1.5) = 1.5 -> 1.5 + 0.5 + 2 = 4
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "4.5"}, {2, "5"}, {3, "5"},
                                                     {4, "2"}, {5, "4.5"}, {6, "4"}});
    // SB: 3: 0.5 * 1 + 2.5 * 0.5 + 2 * 0.5 = 2.75; 5: 1.5 * 1 + 0.5 * 1 + 0 = 2;
    // 6: 1.5 * 0.5 + 0.5 * 1 + 2 * 0.5 = 2.25
    CHECK(column(s, 1) == std::map<int, std::string>{{1, "3.5"}, {2, "0.25"}, {3, "2.75"},
                                                     {4, "0"}, {5, "2"}, {6, "2.25"}});
}

TEST_CASE("C.07 9.1 (2024): Sonneborn-Berger with unplayed rounds against the dummy") {
    const auto s = standings_of(unplayed_swiss(k2024), "SB");
    // 1: 0.5 * 1 + 2 * 0.5 + 2 * 1 = 3.5
    // 2: 0 + 0 + dummy 0.5 * 0.5 (a half-point bye is a draw) = 0.25
    // 3: dummy 2 * 1 (forfeit win) + 2.5 * 0.5 + 2 * 0.5 = 4.25
    // 5: dummy 2 * 1 (bye) + 0.5 * 1 + 0 = 2.5
    // 6: dummy 2 * 0.5 + 0.5 * 1 + 2 * 0.5 = 2.5
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "3.5"}, {2, "0.25"}, {3, "4.25"},
                                                     {4, "0"}, {5, "2.5"}, {6, "2.5"}});
}

TEST_CASE("C.07 14.1 and 16.5: Buchholz Cut-1 cuts a voluntary unplayed round first") {
    const auto s = standings_of(unplayed_swiss(k2024), "BH/C1");
    // 1: cut 0.5 -> 4; 2: the VUR (0.5) is also the least -> 4.5; 3: the forfeit win is no
    // VUR, cut the least 2 -> 4.5; 4: cut a VUR (0) -> 2; 5: cut 0.5 -> 4.5;
    // 6: the half-point bye (a VUR, 2) is cut although 0.5 is lower (16.5.1) -> 2.5
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "4"}, {2, "4.5"}, {3, "4.5"},
                                                     {4, "2"}, {5, "4.5"}, {6, "2.5"}});
}

TEST_CASE("C.07 14.1-14.4: cut elements, the VUR exception compares contributions") {
    using eboard::standings::apply_cuts;
    using eboard::standings::CutElement;
    const std::vector<CutElement> e = {{0.5, 0.5, false}, {2.5, 1.25, true}, {2.5, 0.0, true},
                                       {1.5, 1.5, false}};
    const auto total = [](const std::vector<CutElement>& v) {
        double s = 0;
        for (const auto& x : v) s += x.contribution;
        return s;
    };
    // Without the exception: the lowest key (0.5) goes, then 1.5.
    CHECK(total(apply_cuts(e, 1, 0, false)) == 2.75);
    CHECK(total(apply_cuts(e, 2, 0, false)) == 1.25);
    // 16.5.1: the VUR with the lowest contribution (0) is lower than the least significant
    // value's (0.5), so the least significant value is cut, as without the exception.
    CHECK(total(apply_cuts(e, 1, 0, true)) == 2.75);
    // Median-1: the least (0.5), then the most significant (key 2.5, contribution 1.25).
    CHECK(total(apply_cuts(e, 1, 1, false)) == 1.5);
    // More cuts than elements leave nothing.
    CHECK(apply_cuts(e, 5, 0, false).empty());
}

TEST_CASE("C.07 7.1-7.5: WIN, WON, BPG, BWG and PS count byes and forfeits as the articles say") {
    const auto s = standings_of(unplayed_swiss(k2024), "WIN, WON, BPG, BWG, PS, PS/C1");
    // WIN counts wins with or without playing: 3's forfeit win, 5's pairing-allocated bye.
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "2"}, {2, "0"}, {3, "1"},
                                                     {4, "0"}, {5, "2"}, {6, "1"}});
    // WON: over the board only.
    CHECK(column(s, 1) == std::map<int, std::string>{{1, "2"}, {2, "0"}, {3, "0"},
                                                     {4, "0"}, {5, "1"}, {6, "1"}});
    // BPG: games played with Black; 4's forfeit with Black in round 1 is not one.
    CHECK(column(s, 2) == std::map<int, std::string>{{1, "1"}, {2, "1"}, {3, "1"},
                                                     {4, "1"}, {5, "1"}, {6, "1"}});
    CHECK(column(s, 3) == std::map<int, std::string>{{1, "1"}, {2, "0"}, {3, "0"},
                                                     {4, "0"}, {5, "1"}, {6, "0"}});
    // PS: 1: 1 + 1.5 + 2.5 = 5; 5: 1 + 2 + 2 = 5; 6: 0.5 + 1.5 + 2 = 4. Cut-1 drops round 1.
    CHECK(column(s, 4).at(1) == "5");
    CHECK(column(s, 4).at(6) == "4");
    CHECK(column(s, 5).at(1) == "4");
    CHECK(column(s, 5).at(6) == "3.5");
}

TEST_CASE("C.07 10.1: ARO over games played, rounded, unrated left out, absent without games") {
    const auto s = standings_of(unplayed_swiss(k2024), "ARO, ARO/C1");
    // 1: (1900 + 1800 + 1600) / 3 = 1766.67 -> 1767; 3: the forfeit is no game and 6 is
    // unrated -> 2000; 4: a forfeit and an unrated opponent -> no value.
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "1767"}, {2, "1800"}, {3, "2000"},
                                                     {4, "-"}, {5, "1950"}, {6, "1750"}});
    // Cut-1 drops the lowest rating: 1: (1900 + 1800) / 2 = 1850.
    CHECK(column(s, 1).at(1) == "1850");
}

TEST_CASE("C.07 4.2: rank by points, then each tie-break inside the group still tied") {
    const auto s = standings_of(unplayed_swiss(k2024), "BH/C1, BH");
    // 3, 5 and 6 have 2 points; BH/C1 4.5, 4.5, 2.5; BH separates 3 (6.5) from 5 (5).
    CHECK(order(s) == std::vector<int>{1, 3, 5, 6, 2, 4});
    CHECK(s.rows[1].rank == 2);
    CHECK(s.rows[2].rank == 3);
}

namespace {

/// Round robin, 4 players: 1 beats 2 and 4 and loses to 3; 2 beats 3 and 4; 4 beats 3 by
/// forfeit. Scores 1: 2, 2: 2, 3: 1, 4: 1.
std::string rr_with_forfeit(const std::string& start) {
    return "012 Round robin with a forfeit\n042 " + start + "\n092 Round Robin\nXXR 3\n" +
           player(1, "One", 2000, {{2, 'w', '1'}, {3, 'b', '0'}, {4, 'w', '1'}}) +
           player(2, "Two", 1900, {{1, 'b', '0'}, {4, 'w', '1'}, {3, 'w', '1'}}) +
           player(3, "Three", 1800, {{4, 'b', '-'}, {1, 'w', '1'}, {2, 'b', '0'}}) +
           player(4, "Four", 1700, {{3, 'w', '+'}, {2, 'b', '0'}, {1, 'b', '0'}});
}

} // namespace

TEST_CASE("C.07 15.2: with pre-determined pairings a forfeit is a regular game") {
    const auto s = standings_of(rr_with_forfeit(k2024), "BH, SB, WIN, WON, KS");
    // BH 4: 1 (2) + 2 (2) + 3 (1): the forfeit counts its scheduled opponent = 5.
    CHECK(column(s, 0).at(4) == "5");
    CHECK(column(s, 1).at(4) == "1");  // SB 4: the forfeit win over 3 (score 1)
    CHECK(column(s, 2).at(4) == "1");  // WIN counts the forfeit win
    CHECK(column(s, 3).at(4) == "0");  // WON: "over the board"
    // KS: half of the maximum, 3 games, is 1.5: only 1 and 2 (2 points each) count.
    CHECK(column(s, 4) == std::map<int, std::string>{{1, "1"}, {2, "0"}, {3, "1"}, {4, "0"}});
}

TEST_CASE("C.07 15.2 (2026): forfeits stay unplayed for ARO") {
    // 2024: every game, forfeits included: 4: (1800 + 1900 + 2000) / 3 = 1900.
    CHECK(column(standings_of(rr_with_forfeit(k2024), "ARO"), 0).at(4) == "1900");
    // 2026: the forfeit is not a game for rating tie-breaks: (1900 + 2000) / 2 = 1950.
    CHECK(column(standings_of(rr_with_forfeit(k2026), "ARO"), 0).at(4) == "1950");
}

TEST_CASE("C.07 6: direct encounter is the place inside the group tied before it") {
    const auto s = standings_of(rr_with_forfeit(k2024), "DE");
    // 1 and 2 tied on 2: 1 beat 2. 3 and 4 tied on 1: 4 won by forfeit, a game in a round
    // robin (15.2).
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "1"}, {2, "2"}, {3, "2"}, {4, "1"}});
    CHECK(order(s) == std::vector<int>{1, 2, 4, 3});
    CHECK(s.rows[3].rank == 4);
}

TEST_CASE("C.07 6: direct encounter is 0 where the tied players did not all meet") {
    // In the Swiss, 3, 5 and 6 are tied on 2 points; 5 never met 3 or 6.
    const auto s = standings_of(unplayed_swiss(k2024), "DE");
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "0"}, {2, "0"}, {3, "0"},
                                                     {4, "0"}, {5, "0"}, {6, "0"}});
}

TEST_CASE("Ties the tie-breaks do not separate share the rank and are said so") {
    // A cycle: 1 beats 2, 2 beats 3, 3 beats 1, everybody draws with 4. All on 1.5 points,
    // DE 0 (all equal among them), SB 2.25 each.
    const std::string trf = std::string("042 2025/01/01\n092 Round Robin\n") +
                            player(1, "One", 0, {{2, 'w', '1'}, {3, 'b', '0'}, {4, 'w', '='}}) +
                            player(2, "Two", 0, {{1, 'b', '0'}, {4, 'b', '='}, {3, 'w', '1'}}) +
                            player(3, "Three", 0, {{4, 'w', '='}, {1, 'w', '1'}, {2, 'b', '0'}}) +
                            player(4, "Four", 0, {{3, 'b', '='}, {2, 'w', '='}, {1, 'b', '='}});
    const auto s = standings_of(trf, "DE, SB");
    for (const auto& r : s.rows) {
        CHECK(r.rank == 1);
        CHECK(r.shared_with == 4);
    }
    CHECK(column(s, 1).at(1) == "2.25");
    const std::string table = eboard::standings::format_table(s);
    CHECK(table.find("# rank 1 shared by 4 players (1, 2, 3, 4)") != std::string::npos);
}

TEST_CASE("Cross-check: the Sonneborn-Berger cut cases of FIDE's TieBreakServer tests") {
    // The same tournaments as TieBreakServer's cut-modifier tests (see data/README.md);
    // player 2 has a half-point bye and a forfeit loss. 2024: both dummies at his own 2.5;
    // 2026: the bye capped at 0.5 * 4 = 2.
    const auto before = standings_of(read_data("swiss_two_absences_2024.trf"), "SB, SB/C1, SB/C2");
    CHECK(column(before, 0).at(2) == "3.25");
    CHECK(column(before, 1).at(2) == "2.75");
    CHECK(column(before, 2).at(2) == "1.25");
    const auto after = standings_of(read_data("swiss_two_absences_2026.trf"), "SB, SB/C1, SB/C2");
    CHECK(column(after, 0).at(2) == "3");
    CHECK(column(after, 1).at(2) == "2.5");
    CHECK(column(after, 2).at(2) == "1");
    const auto one = standings_of(read_data("swiss_one_absence_2026.trf"), "SB, SB/C1, SB/C2");
    CHECK(column(one, 0).at(2) == "3");
    CHECK(column(one, 1).at(2) == "2");   // 16.5.1: the bye (1.00) is cut before round 1 (0.50)
    CHECK(column(one, 2).at(2) == "1.5");
}

TEST_CASE("Cross-check: cuts larger than a withdrawn player's games in a round robin") {
    const auto s = standings_of(read_data("rr_withdrawal_after_round_1.trf"),
                                "BH, BH/C1, BH/C2, BH/M1, SB/C2, SB/M1");
    CHECK(column(s, 0) == std::map<int, std::string>{{1, "9.5"}, {2, "11"}, {3, "11.5"}, {4, "10"}, {5, "3"}});
    CHECK(column(s, 1) == std::map<int, std::string>{{1, "7"}, {2, "11"}, {3, "8.5"}, {4, "7.5"}, {5, "0"}});
    CHECK(column(s, 2) == std::map<int, std::string>{{1, "4"}, {2, "8.5"}, {3, "4.5"}, {4, "4.5"}, {5, "0"}});
    CHECK(column(s, 3) == std::map<int, std::string>{{1, "3"}, {2, "6.5"}, {3, "4"}, {4, "3"}, {5, "0"}});
    CHECK(column(s, 4) == std::map<int, std::string>{{1, "2"}, {2, "0"}, {3, "0"}, {4, "2.25"}, {5, "0"}});
    CHECK(column(s, 5) == std::map<int, std::string>{{1, "3"}, {2, "2.5"}, {3, "2"}, {4, "3"}, {5, "0"}});
}

TEST_CASE("Tie-break names: C.07's acronyms, modifiers, and errors") {
    using eboard::standings::parse_tiebreak_list;
    const auto l = parse_tiebreak_list("BH/C1, bh-m1 ,SB-ADJ,KASHDAN");
    REQUIRE(l);
    CHECK(l->at(0).name == "BH/C1");
    CHECK(l->at(0).low_cut == 1);
    CHECK(l->at(1).name == "BH/M1");
    CHECK(l->at(1).high_cut == 1);
    CHECK(l->at(2).method == eboard::standings::Method::SB_ADJ);
    const auto bad = parse_tiebreak_list("BH, XYZ");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().column == 5);
    CHECK_FALSE(parse_tiebreak_list("WIN/C1"));
    CHECK_FALSE(parse_tiebreak_list("BH,,SB"));
}
