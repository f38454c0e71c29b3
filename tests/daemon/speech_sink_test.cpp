// The daemon's speech sink on events (Appendix D): what the profile keeps from the players is
// not spoken ([05] B7/B8: in rapid and blitz the arbiter stays silent on a flag), the rest is.
#include "daemon/config.hpp"
#include "daemon/events.hpp"
#include "daemon/speech_sink.hpp"
#include "tests/speech/speech_support.hpp"
#include "tests/support/test_io.hpp"

#include <catch2/catch.hpp>

using namespace eboard;
using namespace eboard::daemon;
using namespace std::chrono_literals;

namespace {

/// What a sink on `rules` says for a GAME start, a move and a flag of White.
std::vector<std::string> said(const std::string& rules) {
    test::TempDir dir;
    auto c = parse_config_text("rules = " + rules + "\nspeech = wav:" + dir.path().string() +
                                   "\n[board.t]\nuri = dgt:/dev/x\n",
                               "t.conf");
    REQUIRE(c);
    auto sink = SpeechSink::open(*c, nullptr);
    REQUIRE(sink);
    for (
        const char* line :
        {R"({"class":"GAME","board":"t","game":"g1","event":"start","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})",
         R"({"class":"MOVE","board":"t","game":"g1","ply":1,"san":"Nf3","uci":"g1f3","fen":"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1","status":"made"})",
         R"({"class":"ALERT","board":"t","game":"g1","kind":"flag","article":"6.9","text":"White's flag fell: the game is lost"})",
         R"({"class":"ALERT","board":"t","game":"g1","kind":"draw_claimable","article":"9.3","text":"50 moves"})"}) {
        auto e = event_from_json(nlohmann::ordered_json::parse(line));
        REQUIRE(e);
        (*sink)->observe(*e);
    }
    (*sink)->queue()->flush();
    std::vector<std::string> out;
    for (const auto& f : test::wait_for_files(dir.path(), ".txt", 100, 0ms)) {
        std::string t = test::slurp(f);
        out.push_back(t.substr(t.find('\t') + 1, t.size() - t.find('\t') - 2));
    }
    return out;
}

} // namespace

TEST_CASE("6.9 a flag fall is spoken with whose flag, a 9.3 claim matter is not spoken") {
    CHECK(said("fide-2023") ==
          std::vector<std::string>{"Springer Felix drei", "Fallblättchen gefallen, Weiß"});
}

TEST_CASE("B7 (2005 rapid): the flag is not signalled to the players, so it is not spoken") {
    CHECK(said("fide-2005-rapid") == std::vector<std::string>{"Springer Felix drei"});
}
