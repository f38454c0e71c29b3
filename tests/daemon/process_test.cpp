// The eboardd process end to end with `--simulate`: the embedded emulated DGT board replays a
// real game through the real driver, the reconstruction and the store; the recorded PGN must
// equal the source game. Processes are waited for by their output or their exit, never by
// sleeping. (Several boards, kill -9, unplug: multiboard_test, restart_test, reconnect_test.)
#include <catch2/catch.hpp>

#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "rules/notation.hpp"
#include "rules/pgn.hpp"

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using eboard::test::Process;
using eboard::test::slurp;
using eboard::test::TempDir;

namespace {

std::vector<std::string> sans(const eboard::GameRecord& g) {
    std::vector<std::string> out;
    for (const auto& m : g.moves) out.push_back(std::string(eboard::bare_san(m.san)));
    return out;
}

// Replays `source` (one game in a PGN file) and returns the recorded PGN text.
std::string replay(const fs::path& source, const TempDir& dir) {
    Process d(std::string(EBOARD_BIN_DIR) + "/eboardd",
              {"--simulate", source.string(), "--speed", "100", "--state-dir", (dir.path / "state").string(),
               "--pgn-dir", (dir.path / "pgn").string(), "--events", "-"});
    std::string game;
    while (auto l = d.line(60000)) {
        const ojson e = ojson::parse(*l);
        if (e["class"] == "GAME" && e["event"] == "start") game = e["game"];
        CHECK(e["class"] != "ALERT"); // a clean replay raises no arbiter matter
    }
    CHECK(d.wait_exit() == 0);
    REQUIRE_FALSE(game.empty());
    return slurp(dir.path / "pgn" / (game + ".pgn"));
}

} // namespace

TEST_CASE("eboardd --simulate: the recorded PGN equals the source game (Deep Blue - Kasparov 1997)") {
    TempDir dir("eboardd-proc");
    const fs::path source = fs::path(EBOARD_TEST_DATA).parent_path().parent_path().parent_path() /
                            "daemon" / "data" / "deep-blue-kasparov-1997-game6.pgn";
    const std::string pgn = replay(source, dir);
    auto recorded = eboard::read_pgn_game(pgn);
    REQUIRE(recorded.has_value());
    auto original = eboard::read_pgn_game(slurp(source));
    REQUIRE(original.has_value());
    CHECK(sans(*recorded) == sans(*original));
    CHECK(recorded->result == "1-0");
    CHECK(*recorded->tag("White") == "Deep Blue (Computer)");
    CHECK(*recorded->tag("TimeControl") == "40/7200:1200");
    for (const auto& m : recorded->moves) CHECK(m.clock_ms.has_value()); // [%clk] per completed move
}

TEST_CASE("eboardd --simulate: a game that ends in checkmate (Molinari - Bordais 1979)") {
    TempDir dir("eboardd-proc");
    const std::string all = slurp(fs::path(EBOARD_REPO_DATA) / "games" / "molinari-bordais-1979.pgn");
    eboard::PgnReader reader(all);
    auto first = reader.next();
    REQUIRE(first.has_value());
    REQUIRE(first->has_value());
    const fs::path source = dir.path / "source.pgn";
    {
        std::ofstream f(source);
        f << all.substr(0, all.find("\n\n[Event ")); // its first game
    }
    const std::string pgn = replay(source, dir);
    auto recorded = eboard::read_pgn_game(pgn);
    REQUIRE(recorded.has_value());
    CHECK(sans(*recorded) == sans(first->value()));
    CHECK(recorded->result == first->value().result);
}
