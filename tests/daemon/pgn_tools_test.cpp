// docs/client-api.md "PGN files": the files eboardd writes must be readable by standard PGN tools
// (e.g. pgn-extract), also when a profile let an illegal move stand ([23] A.5.2). Debian's
// pgn-extract (scripts/deps) replays every game of the file move by move; it must match
// every record and report no move it cannot make.
#include <catch2/catch.hpp>

#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

#include <unistd.h>

#include <fstream>

#include "daemon/pgn_export.hpp"
#include "tests/daemon/stored_games.hpp"

using namespace eboard::daemon;
using eboard::MoveClock;
using eboard::test::Process;
using eboard::test::slurp;
using eboard::test::TempDir;

namespace {

std::string pgn_extract() {
    for (const char* p : {"/usr/games/pgn-extract", "/usr/bin/pgn-extract"})
        if (::access(p, X_OK) == 0) return p;
    return "";
}

// pgn-extract's report on `pgn` (-r: check every game, write none).
std::string pgn_extract_report(const TempDir& dir, const std::string& pgn) {
    const std::string tool = pgn_extract();
    if (tool.empty()) FAIL("pgn-extract is not installed (scripts/deps installs it)");
    const auto file = dir.path / "game.pgn";
    std::ofstream(file) << pgn;
    const auto report = dir.path / "report";
    Process p(tool, {"-r", file.string()}, "", report.string());
    while (p.line(10000)) {
    }
    CHECK(p.wait_exit() == 0);
    return slurp(report);
}

} // namespace

TEST_CASE("PGN: a game with [%clk] comments, a termination comment and a result reads in pgn-extract") {
    TempDir dir("eboardd-pgn-tools");
    StoredGame g;
    g.tags.white = "Deep Blue";
    g.tags.black = "Kasparov, Garry";
    g.tags.time_control = "40/7200:3600";
    g.result = "1-0";
    g.termination = "resignation";
    g.moves.push_back({1, "e4", "e2e4", "", true, MoveClock{7199000, 7200000}, {}, false});
    g.moves.push_back({2, "c6", "c7c6", "", true, MoveClock{7199000, 7190500}, {}, false});
    g.moves.push_back({3, "d4", "d2d4", "", true, MoveClock{7150000, 7190500}, {}, false});
    const std::string report = pgn_extract_report(dir, to_pgn(g));
    INFO(to_pgn(g) << "\n" << report);
    CHECK(report.find("1 game matched out of 1.") != std::string::npos);
    CHECK(report.find("Failed") == std::string::npos);
}

TEST_CASE("A.5.2 an illegal move that stood: the PGN reads in pgn-extract, two records, no failed move") {
    TempDir dir("eboardd-pgn-tools");
    // 1. e4 e5, then White's illegal Ke1-e3 stands, then Black replies ...Nc6 and White Kd3.
    const StoredGame g = test::illegal_move_stood_game();
    const std::string report = pgn_extract_report(dir, to_pgn(g));
    INFO(to_pgn(g) << "\n" << report);
    CHECK(report.find("2 games matched out of 2.") != std::string::npos);
    CHECK(report.find("Failed") == std::string::npos);
}
