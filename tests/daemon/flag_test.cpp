// A flag fall read from the clock (Art. 6.1, 6.9): the eboardd process with three emulated
// boards, each with the same position set by the arbiter (NEW_GAME with a FEN) and Black's
// clock at 2 seconds. White moves and presses; Black's flag falls on every clock. The ALERT
// flag carries the ruling of each board's rules profile: FIDE 2005 6.10 says White wins
// (K+N can mate K+P), the club's Art. 3 says a draw (K+N cannot win on time), and 2005 rapid
// (B7) says the flag counts only on White's claim.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"


using namespace eboard;
using namespace eboard::test;

namespace {

// White: K e1, N b1; Black: K e8, P e7. White to move.
constexpr const char* kFen = "4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 60";


} // namespace

TEST_CASE("6.9 flag fall read from the clock: ALERT flag with the ruling of each board's rules") {
    TempDir dir("eboardd-flag");
    auto start = Position::from_fen(kFen);
    REQUIRE(start.has_value());
    GameRecord game;
    game.start_fen = kFen;
    const std::vector<std::pair<std::string, std::string>> boards{
        {"fide", "fide-2005"}, {"club", "club-2014"}, {"rapid", "fide-2005-rapid"}};
    std::vector<std::unique_ptr<EmulatedBoard>> emu;
    for (std::size_t i = 0; i < boards.size(); ++i) {
        emu.push_back(std::make_unique<EmulatedBoard>(boards[i].first, dir.path / boards[i].first, game, i, 100));
        emu.back()->plug(*start, 60000, 2000); // White left, 1 min; Black right, 2 s
    }
    const std::string socket = (dir.path / "s").string();
    std::string conf = "white-side = left\n";
    for (std::size_t i = 0; i < boards.size(); ++i)
        conf += "[board." + boards[i].first + "]\nuri = " + emu[i]->uri() + "\nrules = " + boards[i].second + "\n";
    const auto args = config_args(dir.path, conf, {"--socket", socket});
    ReadyDaemon eboardd(dir.path, args);
    Process& d = eboardd.process;
    EventLog log(d);
    for (auto& b : emu) {
        REQUIRE(b->wait_driver_ready());
        const ojson ok = request(socket, {{"class", "NEW_GAME"}, {"board", b->name()}, {"fen", kFen}});
        REQUIRE(ok["class"] == "OK");
        const ojson start_event = log.wait_for("GAME", b->name());
        CHECK(start_event["fen"] == kFen);
    }
    // White plays Nc3 and presses: Black's two seconds run out.
    for (auto& b : emu) {
        b->emulator().move(Square::parse("b1"), Square::parse("c3"));
        b->emulator().press_lever(drivers::ClockSide::Left);
    }
    std::map<std::string, ojson> flag;
    for (auto& b : emu) {
        flag[b->name()] = log.wait_for("ALERT", b->name(), [](const ojson& e) { return e["kind"] == "flag"; });
        REQUIRE_FALSE(flag[b->name()].is_null());
        CHECK(flag[b->name()]["player"] == "black");
        CHECK(flag[b->name()]["ply"] == 1);
        CHECK(flag[b->name()]["text"].get<std::string>().find("Black's flag fell after 0 completed moves") == 0);
    }
    CHECK(flag["fide"]["article"] == "6.10");
    CHECK(flag["fide"]["result"] == "1-0");
    CHECK(flag["club"]["article"] == "6.10, club 3");
    CHECK(flag["club"]["result"] == "1/2-1/2");
    CHECK(flag["club"]["text"].get<std::string>().find("White has only KN") != std::string::npos);
    CHECK(flag["rapid"]["result"] == "1-0");
    CHECK(flag["rapid"]["text"].get<std::string>().find("counts only on White's claim") != std::string::npos);
    // The clock shows its own flag; eboardd writes no text over the times (6.10.1 evidence).
    for (auto& b : emu) CHECK(b->emulator().clock().text.empty());
    // The arbiter decides: the ruling is not a RESULT by itself.
    CHECK(log.of("RESULT", "fide").empty());
    CHECK(request(socket, {{"class", "RESULT"}, {"board", "fide"}, {"result", "1-0"}, {"termination", "time_forfeit"}})[
              "class"] == "OK");
    CHECK_FALSE(log.wait_for("GAME", "fide", [](const ojson& e) { return e["event"] == "end"; }).is_null());
    d.signal(SIGINT);
    CHECK(d.wait_exit() == 0);
    log.stop();
}
