// The real Millennium driver against the wire-level emulator: every move of every game in
// data/games in both square orders (issue 4's done criterion) through the board
// model, a subset of them over a pty (termios transport, DeviceSession), real scan timing with
// noise and fragmentation, an eONE without parity bits, LEDs, and the emulator's own rules
// (reset, bad commands ignored, report modes).
#include "base/placement.hpp"
#include "harness.hpp"
#include "millennium_harness.hpp"
#include "pgn_moves.hpp"

#include <cstdlib>
#include <filesystem>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::millennium;

namespace {

/// The player's hands on the board model, at the link's simulated time.
struct Hands {
    emu::MillenniumBoardEmu& board;
    Loopback& link;
    void lift(Square s) { board.lift(s, link.now); }
    void place(Square s, Piece p) { board.place(s, p, link.now); }
};

/// Driver options for a game: auto orientation needs a (Chess960) start position; a game set
/// up from a middle-game FEN is played with the order configured, as a user would.
MillenniumOptions options_for(const PgnGame& g, SquareOrder order, MillenniumOptions o) {
    if (!g.fen.empty() && !g.chess960)
        o.orientation = order == SquareOrder::A8First ? Orientation::A8First : Orientation::H1First;
    return o;
}

/// The boards of `g` move by move; every move must parse.
std::vector<BoardReading> boards_of(const PgnGame& g) {
    std::vector<BoardReading> boards = game_boards(g);
    REQUIRE(boards.size() == g.san.size() + 1);
    return boards;
}

/// Plays `g` on the board model wired straight to the driver; after every move the driver's
/// board must be the emulator's and the rules core's. Returns the moves played.
int play_direct(const PgnGame& g, SquareOrder order) {
    const std::vector<BoardReading> boards = boards_of(g);
    emu::MillenniumEmulatorOptions eo;
    eo.position = boards.front();
    eo.order = order;
    eo.instant_scan = true;
    emu::MillenniumBoardEmu board(eo);
    MillenniumOptions o;
    o.startup_delay_ms = 0;
    MillenniumDriver driver(options_for(g, order, o));
    Loopback link(board, driver);
    REQUIRE(link.run_until([&] { return driver.ready(); }, 10000));
    REQUIRE(driver.board() == eo.position);
    CHECK(driver.order() == order);
    Hands hands{board, link};
    for (std::size_t i = 1; i < boards.size(); ++i) {
        play_on_board(hands, boards[i - 1], boards[i]);
        link.run(1);
        if (driver.board() == boards[i] && board.position() == boards[i]) continue;
        INFO("move " << i << " " << g.san[i - 1]);
        CHECK(write_placement(board.position()) == write_placement(boards[i]));
        REQUIRE(write_placement(driver.board()) == write_placement(boards[i]));
    }
    return static_cast<int>(boards.size()) - 1;
}

/// The same over a pty with the real session; ends with a status on request.
int play_pty(const PgnGame& g, emu::MillenniumEmulatorOptions eo) {
    const std::vector<BoardReading> boards = boards_of(g);
    eo.position = boards.front();
    MillenniumHarness h(eo, options_for(g, eo.order, MillenniumHarness::fast_options()));
    REQUIRE(h.ready());
    CHECK(h.driver->order() == eo.order);
    CHECK(h.all<BoardSnapshot>().front().board == eo.position);
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << g.san[i - 1]);
        play_on_board(*h.emu, boards[i - 1], boards[i]);
        const bool same = h.pump_until([&] { return h.driver->board() == boards[i]; });
        CHECK(write_placement(h.driver->board()) == write_placement(boards[i]));
        CHECK(write_placement(h.emu->position()) == write_placement(boards[i]));
        REQUIRE(same);
    }
    const std::size_t dumps = h.all<BoardSnapshot>().size();
    h.driver->request_board_dump();
    REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() > dumps; }));
    CHECK(h.all<BoardSnapshot>().back().board == boards.back());
    return static_cast<int>(boards.size()) - 1;
}

std::vector<std::string> all_game_files() {
    std::vector<std::string> out;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(EBOARD_REPO_DATA) + "/games"))
        if (e.path().extension() == ".pgn") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

const char* kPtyGames[] = {"molinari-bordais-1979.pgn", "anastasian-lewis.pgn",
                           "kasparov-deep-blue-1997.pgn", "carlsen-grischuk-linares.pgn"};

} // namespace

TEST_CASE("millennium emu: every move of every game in data/games, both square orders") {
    std::size_t games = 0, moves = 0;
    for (const auto& path : all_game_files()) {
        const auto list = read_all_games(path);
        INFO(path);
        REQUIRE_FALSE(list.empty());
        for (const auto order : {SquareOrder::H1First, SquareOrder::A8First}) {
            INFO(path << (order == SquareOrder::A8First ? " a8 first" : " h1 first"));
            for (const auto& g : list) {
                const int n = play_direct(g, order);
                REQUIRE(n == static_cast<int>(g.san.size()));
                ++games;
                moves += static_cast<std::size_t>(n);
            }
        }
    }
    CHECK(games == 2 * 475);
    WARN(games << " games, " << moves << " moves decoded into the emulator's boards");
}

TEST_CASE("millennium emu: games over a pty (termios 7O1 line, real session), both orders") {
    // The full set over the pty: EBOARD_FULL_SWEEP=1 (the board-model sweep above covers every
    // game on every ctest run).
    const bool full = std::getenv("EBOARD_FULL_SWEEP") != nullptr;
    std::vector<std::string> files;
    if (full)
        files = all_game_files();
    else
        for (const char* n : kPtyGames)
            files.push_back(std::string(EBOARD_REPO_DATA) + "/games/" + n);
    for (const auto order : {SquareOrder::H1First, SquareOrder::A8First}) {
        for (const auto& path : files) {
            INFO(path << (order == SquareOrder::A8First ? " a8 first" : " h1 first"));
            auto games = read_all_games(path);
            if (!full && games.size() > 3) games.resize(3);
            for (const auto& g : games) {
                emu::MillenniumEmulatorOptions eo;
                eo.order = order;
                eo.instant_scan = true;
                CHECK(play_pty(g, eo) == static_cast<int>(g.san.size()));
            }
        }
    }
}

TEST_CASE("millennium emu: real 40.96 ms scans, noise, fragments, no parity bit: right board") {
    const auto games =
        read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1);
    emu::MillenniumEmulatorOptions eo;
    eo.order = SquareOrder::A8First;
    eo.noise_probability = 0.15;
    eo.fragment_max = 9;
    eo.seed = 7;
    eo.e2rom[e2rom::scan_time] = 15; // the shortest scan, 30.7 ms
    CHECK(play_pty(games.at(0), eo) == static_cast<int>(games[0].san.size()));
    const auto short_game =
        read_all_games(std::string(EBOARD_REPO_DATA) + "/games/molinari-bordais-1979.pgn");
    eo.parity_bit = false; // eONE firmware that never sets bit 7
    eo.noise_probability = 0;
    CHECK(play_pty(short_game.at(0), eo) == static_cast<int>(short_game[0].san.size()));
}

TEST_CASE("millennium emu: lifts and places arrive as square changes over a pty") {
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    MillenniumHarness h(eo);
    REQUIRE(h.ready());
    h.events.clear();
    h.emu->lift(Square::parse("e2"));
    REQUIRE(h.pump_until([&] { return h.all<SquareChange>().size() == 1; }));
    h.emu->place(Square::parse("e4"), Piece::WPawn);
    REQUIRE(h.pump_until([&] { return h.all<SquareChange>().size() == 2; }));
    const auto ch = h.all<SquareChange>();
    CHECK(ch[0].square == Square::parse("e2"));
    CHECK_FALSE(ch[0].reading.occupied);
    CHECK(ch[1].square == Square::parse("e4"));
    CHECK(ch[1].reading.piece == Piece::WPawn);
    // Everything the driver wrote had correct odd parity and block checks.
    const auto model = h.emu->snapshot();
    CHECK(model.commands_ignored() == 0);
    for (const std::uint8_t b : model.received()) CHECK(parity_ok(b));
}

TEST_CASE("millennium emu: LEDs over a pty, and the `L` acknowledged") {
    MillenniumHarness h;
    REQUIRE(h.ready());
    h.driver->show_squares(bb(Square::parse("h1")), 0xc4, 0x7a);
    REQUIRE(h.pump_until([&] { return h.emu->snapshot().led_slot_time() == 0x7a; }));
    const auto leds = h.emu->snapshot().leds();
    for (const int k : {0, 1, 9, 10})
        CHECK(leds[static_cast<std::size_t>(k)] == 0xc4); // LED 1 at h1
    CHECK(std::count(leds.begin(), leds.end(), 0) == led_count - 4);
}

TEST_CASE("millennium emu 4: `T` silences the board for 3 s, then reports restart with LEDs off") {
    emu::MillenniumEmulatorOptions eo;
    eo.reset_ms = 3000;
    emu::MillenniumBoardEmu b(eo);
    b.receive(encode("L20" + std::string(162, 'F')), 0);
    (void)b.take_output();
    CHECK(b.leds()[40] == 0xff);
    b.receive(encode("T"), 10);
    CHECK(b.leds()[40] == 0);
    b.tick(100);
    (void)b.take_output();
    b.receive(encode("V"), 500);
    b.tick(2999);
    CHECK(b.take_output().empty()); // deaf and silent
    b.tick(3100);
    const auto out = b.take_output();
    REQUIRE(out.size() == 1); // a report (every scan, the default)
    CHECK(decode(out[0])->text[0] == 's');
}

TEST_CASE("millennium emu 2: commands with a bad parity bit or block check get no reply") {
    emu::MillenniumBoardEmu b{};
    auto v = encode("V");
    v[0] ^= 0x80;
    b.receive(v, 0);
    auto r = encode("R02");
    r[4] = with_parity('1');
    b.receive(r, 1);
    b.receive(std::vector<std::uint8_t>{0x00, 0x13}, 2); // not commands at all: skipped
    (void)b.take_output();
    b.tick(3);
    CHECK(b.commands_ignored() >= 2);
    CHECK(b.commands().empty());
    b.receive(encode("V"), 4); // resync: the next good command is answered
    b.tick(5);
    bool version = false;
    for (const auto& c : b.take_output()) version = version || decode(c)->text == "v0103";
    CHECK(version);
}

TEST_CASE("millennium emu 7: report modes: every scan, on change, debounced, timed") {
    const auto reports_in = [](std::uint8_t mode, std::uint8_t interval, bool move) {
        emu::MillenniumEmulatorOptions eo;
        eo.e2rom[e2rom::auto_report] = mode;
        eo.e2rom[e2rom::report_interval] = interval;
        emu::MillenniumBoardEmu b(eo);
        int n = 0;
        for (TimeMs t = 0; t <= 1000; ++t) {
            if (move && t == 500) b.lift(Square::parse("e2"), t);
            b.tick(t);
            n += static_cast<int>(b.take_output().size());
        }
        return n;
    };
    CHECK(reports_in(e2rom::report_every_scan, 0, false) == 25); // 1 s / 40.96 ms
    CHECK(reports_in(e2rom::report_off, 0, true) == 0);
    CHECK(reports_in(e2rom::report_on_change, 0, false) == 1); // the first scan only
    CHECK(reports_in(e2rom::report_on_change, 0, true) == 2);
    CHECK(reports_in(7, 0, true) == 2);                     // 5 stable scans, then once
    CHECK(reports_in(e2rom::report_timed, 61, false) == 3); // >= 249.9 ms apart, at a scan
}
