// A four-player round robin of three rounds, played on two boards, with a forfeit in round 3,
// for the TRF that eboard-hub serves and `eboardctl trf` prints: its pairings (the hub's CSV),
// the results of its games, and the check that the TRF's standings are the hand-computed ones,
// both through standings/ and as eboard-standings prints them.
//
//   round 1: board 1  Alpha - Delta   1-0        board 2  Bravo - Charlie  1/2-1/2
//   round 2: board 1  Delta - Charlie 0-1        board 2  Alpha - Bravo    1/2-1/2
//   round 3: board 1  Bravo - Delta   +- (forfeit, no game)  board 2  Charlie - Alpha 1/2-1/2
//
// Alpha, Bravo and Charlie have 2 points, Delta 0. Sonneborn-Berger (C.07 9.1; a forfeit is a
// regular game in a round robin, 15.2): Alpha 0 + 1 + 1 = 2, Bravo 1 + 1 + 0 = 2, Charlie
// 1 + 0 + 1 = 2, Delta 0. Games won over the board (WON, 7.2, forfeits never count): Alpha 1,
// Bravo 0, Charlie 1, Delta 0. Games played with Black (BPG, 7.3): Alpha 1 (round 3), Bravo 1
// (round 2), Charlie 2 (rounds 1, 2), Delta 1 (round 1; round 3 was not played). With
// SB,WON,BPG: Charlie, Alpha, Bravo, Delta. Starting numbers in order of first appearance:
// Alpha 1, Delta 2, Bravo 3, Charlie 4.
#pragma once

#include "../standings/support.hpp"
#include "shell.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace eboard::test::rr {

/// The pairings CSV with the games of board 1 on `board1` and of board 2 on `board2` (sources
/// `<host>/<board>`).
inline std::string pairings(const std::string& board1, const std::string& board2) {
    return "round,board,source,white,black,white_fide_id,black_fide_id,white_rating,black_rating,result\n"
           "1,1," + board1 + ",\"Alpha, Ann\",\"Delta, Dan\",1503014,,2100,1850,\n"
           "1,2," + board2 + ",\"Bravo, Bob\",\"Charlie, Cid\",,,1950,1900,\n"
           "2,1," + board1 + ",\"Delta, Dan\",\"Charlie, Cid\",,,,,\n"
           "2,2," + board2 + ",\"Alpha, Ann\",\"Bravo, Bob\",1503014,,,,\n"
           "3,1,,\"Bravo, Bob\",\"Delta, Dan\",,,,,+-\n"
           "3,2," + board2 + ",\"Charlie, Cid\",\"Alpha, Ann\",,1503014,,,\n";
}

/// A game to play: on board 1 or 2, in order, with its result.
struct Played {
    int board;
    std::string result;
};
/// The games in the order they are played: board 1's two, board 2's three.
inline const std::vector<Played> kGames{{1, "1-0"}, {2, "1/2-1/2"}, {1, "0-1"}, {2, "1/2-1/2"}, {2, "1/2-1/2"}};

/// The tie-breaks the check ranks by.
inline const char* const kTiebreaks = "SB,WON,BPG";

/// The hand-computed standings: {startno, name, points, SB, WON, BPG} in rank order.
struct Want {
    int startno;
    const char* name;
    double points, sb, won, bpg;
};
inline const std::vector<Want> kStandings{{4, "Charlie, Cid", 2, 2, 1, 2},
                                             {1, "Alpha, Ann", 2, 2, 1, 1},
                                             {3, "Bravo, Bob", 2, 2, 0, 1},
                                             {2, "Delta, Dan", 0, 0, 0, 1}};

/// `trf` (the text served or exported) ranks as kStandings says, read by standings/ and by the
/// eboard-standings binary (the file written to `path`).
inline void check_standings(const std::string& trf, const std::string& path) {
    INFO(trf);
    const auto s = standings_test::standings_of(trf, kTiebreaks);
    REQUIRE(s.rows.size() == kStandings.size());
    for (std::size_t i = 0; i < kStandings.size(); ++i) {
        const auto& row = s.rows[i];
        const auto& want = kStandings[i];
        CHECK(row.rank == static_cast<int>(i + 1));
        CHECK(row.startno == want.startno);
        CHECK(row.name == want.name);
        CHECK(row.points == want.points);
        REQUIRE(row.values.size() == 3);
        CHECK(row.values[0] == want.sb);
        CHECK(row.values[1] == want.won);
        CHECK(row.values[2] == want.bpg);
    }
    std::ofstream(path, std::ios::trunc) << trf;
    const ShellRun run = run_shell(std::string(EBOARD_BIN_DIR) + "/eboard-standings " + path + " --json --tiebreaks " +
                                   kTiebreaks + " 2>/dev/null");
    REQUIRE(run.status == 0);
    const auto j = nlohmann::json::parse(run.out);
    REQUIRE(j.size() == kStandings.size());
    for (std::size_t i = 0; i < kStandings.size(); ++i) {
        const auto& want = kStandings[i];
        CHECK(j[i]["rank"] == i + 1);
        CHECK(j[i]["startno"] == want.startno);
        CHECK(j[i]["name"] == want.name);
        CHECK(j[i]["points"] == want.points);
        CHECK(j[i]["tiebreaks"]["SB"] == want.sb);
        CHECK(j[i]["tiebreaks"]["WON"] == want.won);
        CHECK(j[i]["tiebreaks"]["BPG"] == want.bpg);
    }
    // The table eboard-standings prints is the one standings/ formats.
    const ShellRun table =
        run_shell(std::string(EBOARD_BIN_DIR) + "/eboard-standings " + path + " --tiebreaks " + kTiebreaks + " 2>/dev/null");
    REQUIRE(table.status == 0);
    const std::string mine = eboard::standings::format_table(s);
    CHECK(table.out.substr(0, table.out.find("\n#")) == mine.substr(0, mine.find("\n#")));
}

} // namespace eboard::test::rr
