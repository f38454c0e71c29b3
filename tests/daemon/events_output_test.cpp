// docs/client-api.md "Events" through the eboardd process: `--events PATH` writes every event
// as JSON lines to a file (appended, the VERSION object first on every run), and a board given
// by `--board URI` is named by that URI exactly as given. Processes are waited for by their
// output or their exit, never by sleeping.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include <set>
#include <sstream>

using namespace eboard;
using namespace eboard::test;

namespace {

std::vector<ojson> json_lines(const std::string& text) {
    std::vector<ojson> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        ojson j = ojson::parse(line, nullptr, false);
        CHECK(j.is_object()); // one object per line
        out.push_back(std::move(j));
    }
    return out;
}

} // namespace

TEST_CASE("events: --events FILE gets the VERSION line first and every event, appended run after run") {
    TempDir dir("eboardd-events-file");
    const std::string file = (dir.path / "events.jsonl").string();
    std::vector<std::size_t> runs; // where each run's lines begin
    for (int run = 0; run < 2; ++run) {
        runs.push_back(json_lines(slurp(file)).size());
        Process d(eboardd_bin(), {"--simulate", "--speed", "200", "--state-dir", (dir.path / "state").string(),
                                  "--events", file});
        while (d.line(30000)) { // the console's lines, until the game is over
        }
        REQUIRE(d.wait_exit() == 0);
    }
    const std::vector<ojson> all = json_lines(slurp(file));
    for (std::size_t r = 0; r < runs.size(); ++r) {
        INFO("run " << r);
        const std::size_t begin = runs[r];
        const std::size_t end = r + 1 < runs.size() ? runs[r + 1] : all.size();
        REQUIRE(end > begin);
        CHECK(all[begin]["class"] == "VERSION");
        CHECK(all[begin]["proto_major"] == 1);
        int completed = 0;
        bool result = false;
        for (std::size_t i = begin; i < end; ++i) {
            const ojson& e = all[i];
            if (i > begin) CHECK(e["class"] != "VERSION");
            if (e["class"] == "MOVE" && e["status"] == "completed") ++completed;
            result = result || e["class"] == "RESULT";
        }
        CHECK(completed == 37); // Deep Blue - Kasparov 1997, game 6
        CHECK(result);
    }
}

TEST_CASE("events: a board given by --board is named by its URI exactly as given") {
    TempDir dir("eboardd-board-uri");
    const std::string uri = "emu-dgt:" + std::string(EBOARD_REPO_DATA) + "/games/molinari-bordais-1979.pgn";
    ReadyDaemon eboardd(dir.path, {"--board", uri, "--white-side", "left", "--speed", "20", "--state-dir",
                                   (dir.path / "state").string(), "--events", "-"});
    EventLog log(eboardd.process);
    const ojson board = log.wait_for("BOARD", uri);
    REQUIRE_FALSE(board.is_null());
    CHECK(board["state"] == "connected");
    const ojson result = log.wait_for("RESULT", uri, {}, 60000);
    REQUIRE_FALSE(result.is_null());
    CHECK(result["termination"] == "checkmate");
    for (const auto& e : log.events())
        if (e["class"] != "VERSION") CHECK(e["board"] == uri);
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
}

TEST_CASE("eboardctl watch numbers moves as the PGN does (15. axb5, 8... Qe7), not by ply") {
    TempDir dir("eboardd-ctl-watch");
    const std::string socket = (dir.path / "s").string();
    ReadyDaemon eboardd(dir.path, {"--simulate", "--speed", "50", "--state-dir", (dir.path / "state").string(),
                                   "--socket", socket});
    Process watch(eboardctl_bin(), {"--socket", socket, "watch"});
    // Deep Blue - Kasparov 1997, game 6, as the PGN numbers its moves.
    std::set<std::string> expected;
    const GameRecord source = source_game("kasparov-deep-blue-1997.pgn", 5);
    for (std::size_t i = 0; i < source.moves.size(); ++i)
        expected.insert("  " + std::to_string(i / 2 + 1) + (i % 2 == 0 ? ". " : "... ") + source.moves[i].san +
                        " (completed)");
    const std::string last = "  " + std::to_string((source.moves.size() - 1) / 2 + 1) +
                             (source.moves.size() % 2 == 1 ? ". " : "... ") + source.moves.back().san + " (completed)";
    int white = 0;
    int black = 0;
    std::string last_seen;
    while (auto l = watch.line(30000)) { // until the game is over and the daemon goes (exit 3)
        if (l->find(" (completed)") == std::string::npos) continue;
        INFO(*l);
        last_seen = *l;
        bool known = false;
        for (const auto& e : expected) known = known || l->find(e) != std::string::npos;
        CHECK(known);
        (l->find("... ") != std::string::npos ? black : white) += 1;
    }
    CHECK(watch.wait_exit() == 3);
    CHECK(eboardd.process.wait_exit() == 0);
    CHECK(white > 0);
    CHECK(black > 0);
    // The last move reaches the watcher before the daemon closes its connection at exit.
    CHECK(last_seen.find(last) != std::string::npos);
}
