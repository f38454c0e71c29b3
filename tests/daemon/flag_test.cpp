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

namespace {

// One board under fide-2023 with `fen` set by the arbiter, White (left) at 1 minute and Black
// (right) at 2 seconds; White moves `from`-`to` and presses, and Black's flag falls.
struct OneFlagBoard {
    TempDir dir{"eboardd-flag-full"};
    GameRecord game;
    std::unique_ptr<EmulatedBoard> board;
    std::string socket = (dir.path / "s").string();
    std::unique_ptr<ReadyDaemon> eboardd;
    std::unique_ptr<EventLog> log;

    explicit OneFlagBoard(const char* fen) {
        auto start = Position::from_fen(fen);
        REQUIRE(start.has_value());
        game.start_fen = fen;
        board = std::make_unique<EmulatedBoard>("t1", dir.path / "t1", game, 0, 100);
        board->plug(*start, 60000, 2000);
        const std::string conf = "white-side = left\n[board.t1]\nuri = " + board->uri() + "\nrules = fide-2023\n";
        eboardd = std::make_unique<ReadyDaemon>(dir.path, config_args(dir.path, conf, {"--socket", socket}));
        log = std::make_unique<EventLog>(eboardd->process);
        REQUIRE(board->wait_driver_ready());
        REQUIRE(request(socket, {{"class", "NEW_GAME"}, {"board", "t1"}, {"fen", fen}})["class"] == "OK");
        REQUIRE_FALSE(log->wait_for("GAME", "t1").is_null());
    }
    void move_and_press(const char* from, const char* to) {
        board->emulator().move(Square::parse(from), Square::parse(to));
        board->emulator().press_lever(drivers::ClockSide::Left);
    }
    /// The ALERT flag of t1 (the test fails without one).
    ojson flag_alert() {
        ojson flag = log->wait_for("ALERT", "t1", [](const ojson& e) { return e["kind"] == "flag"; });
        REQUIRE_FALSE(flag.is_null());
        return flag;
    }
    void stop() {
        eboardd->process.signal(SIGINT);
        CHECK(eboardd->process.wait_exit() == 0);
        log->stop();
    }
};

} // namespace

TEST_CASE("6.9 flag fall where only the full mode proves that the opponent cannot checkmate: ALERT flag a draw") {
    // After Kh4-h5 White (K h5, R h3, pawns g3 g4 g5 g6 h2) has boxed his own rook and king in
    // behind the g-pawns; the quick mode leaves White open, the full mode (on the worker)
    // proves it (data/deadpos/chasolver_positions.txt: '--').
    OneFlagBoard rig("2k5/6p1/6P1/6P1/6PK/6PR/7P/8 w - - 0 60");
    rig.move_and_press("h4", "h5");
    const ojson flag = rig.flag_alert();
    CHECK(flag["player"] == "black");
    CHECK(flag["result"] == "1/2-1/2");
    CHECK(flag["text"].get<std::string>().find("White cannot checkmate by any series of legal moves") !=
          std::string::npos);
    CHECK_FALSE(flag.contains("winnability"));
    rig.stop();
}

TEST_CASE("6.9 flag fall the full mode cannot decide: ALERT flag says undecided, the loop serves requests meanwhile") {
    // After Bh1-g2, kings in and behind a locked chain with nine bishops: next to
    // data/deadpos/chasolver_positions.txt's 'W-' with the bishop on h1, and two more white
    // bishops on a4 and c4 that never need to move. White can checkmate by that position's
    // helpmate (Ba8 walks to g8 while White's king steps aside and back, Bg8-f7#; the bishop
    // search aimed at Black's king finds it after about 9 million moves made, 0.5 s), but not
    // within the full mode's CPU guard (0.4 s), spent on the worker; neither mode decides.
    OneFlagBoard rig("BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/B1B5/8/8/1B2b2B w - - 0 60");
    LineSocket client(rig.socket);
    REQUIRE(client.line().has_value()); // VERSION
    using Clock = std::chrono::steady_clock;
    const auto pressed = Clock::now();
    rig.move_and_press("h1", "g2");
    // A request every 5 ms (the ALERT awaited in between) until the ALERT is out; a loop that
    // ran the search itself would leave a gap between two replies as long as the search.
    auto last = Clock::now();
    Clock::duration longest{};
    int replies = 0;
    const auto alert_out = [](const std::vector<ojson>& events) {
        return std::any_of(events.begin(), events.end(), [](const ojson& e) { return e["class"] == "ALERT"; });
    };
    while (!rig.log->wait(alert_out, 5)) {
        REQUIRE(client.send(R"({"class":"BOARDS"})" "\n"));
        auto reply = client.line();
        REQUIRE(reply.has_value());
        REQUIRE(ojson::parse(*reply)["class"] == "BOARDS");
        const auto now = Clock::now();
        longest = std::max(longest, now - last);
        last = now;
        ++replies;
        REQUIRE(replies < 10000);
    }
    const auto ms = [](Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
    // The flag falls 2 s after the press; the ALERT comes after it, once the worker is done.
    CHECK(ms(Clock::now() - pressed) >= 2000);
    // On the loop, the search would leave a gap as long as itself (874 ms seen under load, about
    // 270 ms on a quiet machine); load stretches the gaps of a free loop too, hence the margin:
    // this catches a loop blocked for longer, not a short stall.
    CHECK(ms(longest) < 400);
    const ojson flag = rig.flag_alert();
    CHECK(flag["result"] == "1-0");
    CHECK(flag["winnability"] == "undecided");
    CHECK(flag["text"].get<std::string>().find("whether White can still checkmate was not decided") !=
          std::string::npos);
    rig.stop();
}
