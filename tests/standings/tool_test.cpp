// eboard-standings as its manual page describes it: the table, --json, --tiebreaks, --profile,
// and errors (exit 2, the file's line and column). Runs the built binary.
#include "support.hpp"
#include "../support/shell.hpp"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

namespace {

eboard::test::ShellRun run(const std::string& args, bool with_stderr = false) {
    return eboard::test::run_shell(std::string(EBOARD_BIN_DIR) + "/eboard-standings " + args +
                                   (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

std::string data(const std::string& name) { return std::string(EBOARD_TEST_DATA) + "/" + name; }

} // namespace

TEST_CASE("eboard-standings prints the table: rank, starting number, name, points, tie-breaks") {
    const auto r = run(data("rr_withdrawal_after_round_1.trf") + " --tiebreaks BH,BH/C1");
    REQUIRE(r.status == 0);
    CHECK(r.out.rfind("Rank  SNo  Name           Pts    BH  BH/C1\n", 0) == 0);
    CHECK(r.out.find("   1    1  One, Player    4.5   9.5      7\n") != std::string::npos);
    CHECK(r.out.find("# profile fide, round robin, C.07 rules of 2026") != std::string::npos);
}

TEST_CASE("eboard-standings --json prints the contract's array") {
    const auto r = run(data("club_season_2014.trf") + " --profile club-2014 --json --tiebreaks SB-ADJ,KASHDAN,ARO");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.is_array());
    REQUIRE(j.size() == 5);
    CHECK(j[0]["rank"] == 1);
    CHECK(j[0]["startno"] == 1);
    CHECK(j[0]["name"] == "Aerts, Anna");
    CHECK(j[0]["points"] == 6.0);
    CHECK(j[0]["tiebreaks"]["SB-ADJ"] == 20.25);
    CHECK(j[0]["tiebreaks"]["KASHDAN"] == 24);
    CHECK(j[0]["tiebreaks"].contains("ARO"));
}

TEST_CASE("eboard-standings: the club profile ranks by Art. 13 by default") {
    const auto r = run(data("club_season_2014.trf") + " --profile club-2014 --lot-seed 7");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("SB-ADJ  DE  KASHDAN  RATING-LOW  BPG  BLACK-SCHEDULED  LOT") != std::string::npos);
    CHECK(r.out.find("# LOT drawn with seed 7") != std::string::npos);
    CHECK(r.out.find("fewer than half, counted as never entered") != std::string::npos);
}

TEST_CASE("eboard-standings: an unreadable file is one line with its line and column, exit 2") {
    const std::string bad = std::string(EBOARD_BIN_DIR) + "/../tests/standings_bad_" +
                            std::to_string(getpid()) + ".trf";
    {
        std::ofstream f(bad);
        f << "012 Bad\n001    1 m    A" << std::string(80, ' ') << "  2 w 1\n";
    }
    const auto r = run(bad, true);
    CHECK(r.status == 2);
    CHECK(r.out.find(bad + ":2:") != std::string::npos);
    std::remove(bad.c_str());
    CHECK(run("--tiebreaks NOPE " + data("club_season_2014.trf")).status == 2);
    CHECK(run("").status == 2);
    CHECK(run("--profile nosuch " + data("club_season_2014.trf")).status == 2);
    CHECK(run("/nonexistent.trf").status == 2);
    CHECK(run("--help").status == 0);
}
