// The reconstruction's game line is the rules Game under the board's profile (issue 18, section
// 1): through the eboardd process, per edition, the profile keys that only the Game read before
// now decide what eboardd says. draw.automatic.mate-prevails: a checkmate on the 75th move by
// each side is a win where mate prevails ([23] 9.6.2 last sentence), a draw by 9.6.2 where a
// profile says it does not, and a win under the 2005 Laws, which have no 9.6. repetition.castling:
// the 9.2 "same position" of each edition (2001/2005 "temporarily or permanently", 2023
// 9.2.2.2): a position with the same squares but castling lost for good is another position in
// every edition, and the third occurrence is claimable at the same ply in each.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

/// eboardd on one emulated board playing `pgn` under `rules` (a built-in name or a profile
/// file); the game starts from `fen` by NEW_GAME when given. Returns the RESULT and ALERT events
/// once `plies` moves were completed (and, with `result`, the RESULT came).
std::vector<ojson> play_under(const std::string& tag, const std::string& rules, const std::string& pgn,
                              int plies, const std::string& fen = "", bool result = false) {
    TempDir dir(("eboardd-editions-" + tag).c_str());
    auto source = read_pgn_game(pgn);
    REQUIRE(source.has_value());
    EmulatedBoard t1("t1", dir.path / "t1", std::move(*source), 23, 200);
    std::string rules_value = rules;
    if (rules.find('\n') != std::string::npos) {  // a profile's text: written to a file
        const fs::path file = dir.path / "club.profile";
        std::ofstream(file) << rules;
        rules_value = file.string();
    }
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(dir.path,
                                  "white-side = left\nrules = " + rules_value + "\n[board.t1]\nuri = " + t1.uri() + "\n",
                                  {"--socket", socket});
    ReadyDaemon eboardd(dir.path, args);
    EventLog log(eboardd.process);
    REQUIRE(t1.wait_driver_ready());
    if (!fen.empty())
        REQUIRE(request(socket, {{"class", "NEW_GAME"}, {"board", "t1"}, {"fen", fen}})["class"] == "OK");
    REQUIRE_FALSE(log.wait_for("GAME", "t1").is_null());
    REQUIRE(t1.play(log, plies));
    if (result) (void)log.wait_for("RESULT", "t1");
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    log.stop();
    std::vector<ojson> out;
    for (const char* cls : {"RESULT", "ALERT"})
        for (const ojson& e : log.of(cls, "t1")) out.push_back(e);
    return out;
}

} // namespace

TEST_CASE("9.6.2 eboardd per edition: a checkmate on the 75th move wins where mate prevails, draws where the profile says not") {
    // 75 moves by each side without a capture or pawn move are complete with White's Ra8#.
    const std::string fen = "7k/8/6K1/8/8/8/8/R7 w - - 149 120";
    const std::string pgn = "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n120. Ra8# *\n";
    struct Case {
        const char* tag;
        std::string rules;
        const char* result;
        const char* termination;
    };
    const Case cases[] = {
        {"2023", "fide-2023", "1-0", "checkmate"},
        {"2005", "fide-2005", "1-0", "checkmate"},
        {"no-prevail", "inherit = fide-2023\ntitle = mate does not prevail\ndraw.automatic.mate-prevails = no\n",
         "1/2-1/2", "seventy_five_moves"},
    };
    for (const Case& c : cases) {
        INFO(c.tag);
        const std::vector<ojson> events = play_under(c.tag, c.rules, pgn, 1, fen, true);
        std::vector<ojson> results;
        for (const ojson& e : events)
            if (e["class"] == "RESULT") results.push_back(e);
        REQUIRE(results.size() == 1);
        CHECK(results[0]["result"] == c.result);
        CHECK(results[0]["termination"] == c.termination);
    }
}

TEST_CASE("9.2 eboardd per edition: castling lost for good makes another position, the third occurrence is claimable") {
    // 2.Rg1 and 3.Rh1 cost White castling on the king's side: after 4...Ng8 the squares are those
    // of the start, but not its position (else it would stand a third time at ply 12), and 5.Nf3
    // is not 1.Nf3 (else a third time at ply 9). Each position of the shuffle after 3.Rh1 stands
    // a third time four plies later: at plies 13 (3.Rh1), 14 (3...Nf6), 15 (4.Ng1), 16 (4...Ng8).
    const std::string pgn =
        "[Event \"?\"]\n\n1. Nf3 Nf6 2. Rg1 Ng8 3. Rh1 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 *\n";
    for (const char* rules : {"fide-2001", "fide-2005", "fide-2023", "club-2014"}) {
        INFO(rules);
        const std::vector<ojson> events = play_under(rules, rules, pgn, 16);
        std::vector<int> claimable;
        for (const ojson& e : events)
            if (e["class"] == "ALERT" && e["kind"] == "draw_claimable" && e["article"] == "9.2")
                claimable.push_back(e["ply"].get<int>());
        CHECK(claimable == std::vector<int>{13, 14, 15, 16});
        for (const ojson& e : events) CHECK(e["class"] != "RESULT");
    }
}

TEST_CASE("9.2 eboardd restarted in mid-game: the third occurrence counts the positions before the restart") {
    // The start position stands after plies 0 and 4; eboardd is stopped after ply 7 and started
    // again on the same store; 4...Ng8 (ply 8) makes the third occurrence, claimable under 9.2
    // only if the resumed game remembers the moves made before the restart.
    TempDir dir("eboardd-editions-restart");
    auto source = read_pgn_game("[Event \"?\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 *\n");
    REQUIRE(source.has_value());
    EmulatedBoard t1("t1", dir.path / "t1", std::move(*source), 23, 200);
    const std::string socket = (dir.path / "s").string();
    const auto args = config_args(dir.path, "white-side = left\n[board.t1]\nuri = " + t1.uri() + "\n",
                                  {"--socket", socket});
    {
        ReadyDaemon eboardd(dir.path, args);
        EventLog log(eboardd.process);
        REQUIRE(t1.wait_driver_ready());
        REQUIRE_FALSE(log.wait_for("GAME", "t1").is_null());
        REQUIRE(t1.play(log, 7));
        eboardd.process.signal(SIGTERM);
        CHECK(eboardd.process.wait_exit() == 0);
        log.stop();
        for (const ojson& e : log.of("ALERT", "t1")) CHECK(e["kind"] != "draw_claimable");
    }
    NotifySocket notify((dir.path / "notify2").string());
    Process d(eboardd_bin(), args, notify.path(), (dir.path / "stderr2").string());
    REQUIRE(notify.receive().has_value());
    EventLog log(d);
    REQUIRE(t1.wait_driver_ready(2));
    REQUIRE(t1.play(log, 8));
    const ojson claim = log.wait_for("ALERT", "t1", [](const ojson& e) { return e["kind"] == "draw_claimable"; });
    REQUIRE_FALSE(claim.is_null());
    CHECK(claim["article"] == "9.2");
    CHECK(claim["ply"] == 8);
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    log.stop();
}
