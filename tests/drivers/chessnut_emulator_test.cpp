// The Chessnut emulator on its own (every command of chessnut.md 3) and the real driver in a
// DeviceSession against it over the in-process ReportLoopback transport: start-up, every move
// of every game in data/games in both orientations (issue 4's done criterion), noise,
// LEDs and beep, unplug. The same driver over libusb under umockdev: tests/usb.
#include "base/placement.hpp"
#include "chessnut_harness.hpp"
#include "game_play.hpp"
#include "game_sweep.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::chessnut;
using namespace eboard::drivers::test;

namespace {

std::vector<std::uint8_t> v(std::span<const std::uint8_t> s) { return {s.begin(), s.end()}; }

/// Plays `g` on the emulator through the driver; every move must decode into the board the
/// emulator holds. Returns the number of moves played.
int play_game(const PgnGame& g, bool rotated, emu::ChessnutEmulatorOptions eo = ChessnutHarness::fast_emulator()) {
    const BoardReading start = game_boards(g).front();
    eo.position = start;
    eo.rotated = rotated;
    ChessnutOptions dopt = ChessnutHarness::fast_options();
    // Auto orientation needs most pieces on their own halves; a middle-game set-up is played
    // with the orientation configured, as a user would.
    if (!g.fen.empty() && !g.chess960) dopt.orientation = rotated ? Orientation::Rotated : Orientation::Normal;
    ChessnutHarness h(eo, dopt);
    REQUIRE(h.ready());
    CHECK(h.driver->rotated() == rotated);
    CHECK(h.all<BoardSnapshot>().back().board == start);
    return for_each_move(g, [&](const BoardReading& before, const BoardReading& after) {
        play_on_board(*h.emu, before, after);
        const bool same = h.pump_until([&] { return h.driver->board() == after; });
        CHECK(h.emu->position() == after);
        if (!same) CHECK(write_placement(h.driver->board()) == write_placement(after));
        REQUIRE(same);
    });
}

} // namespace

TEST_CASE("chessnut emu 3: silent until realtime mode, then the position at once and on every change") {
    emu::ChessnutBoardEmu e;
    e.power_on(0);
    e.lift(Square::parse("e2"), 10);
    CHECK(e.take_output().empty());
    e.receive(realtime_mode, 20);
    auto out = e.take_output();
    REQUIRE(out.size() == 1);
    CHECK(out[0].size() == 64);  // padded to the HID report size
    CHECK(write_placement(decode_position(out[0], false).value()) == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR");
    e.place(Square::parse("e4"), Piece::WPawn, 30);
    e.place(Square::parse("e4"), Piece::WPawn, 40);  // nothing changed: no report
    CHECK(e.take_output().size() == 1);
    e.receive(upload_mode, 300);
    e.lift(Square::parse("e4"), 310);
    CHECK(e.take_output().empty());
    CHECK(e.mode() == emu::ChessnutMode::Upload);
}

TEST_CASE("chessnut emu 3: versions, battery, stored games, file download, LEDs, beep, spacing") {
    emu::ChessnutEmulatorOptions o;
    o.report_size = 0;
    o.battery = {64, true};
    o.stored_games = {BoardReading::start_position(), BoardReading{}};
    emu::ChessnutBoardEmu e(o);
    e.power_on(0);
    e.receive(mcu_version_request, 0);
    e.receive(ble_version_request, 200);
    e.receive(battery_request, 400);
    e.receive(game_count_request, 600);
    auto out = e.take_output();
    REQUIRE(out.size() == 4);
    CHECK(decode_version(out[0])->text == "CN_DVT9_210659");
    CHECK(decode_version(out[1])->text == "CNCA100_V201");
    CHECK(out[2] == std::vector<std::uint8_t>{0x2a, 0x02, 64, 1});
    CHECK(out[3] == std::vector<std::uint8_t>{0x32, 0x01, 2});
    e.receive(upload_mode, 800);
    e.receive(std::vector<std::uint8_t>{0x33, 0x01, 0x00}, 1000);
    e.receive(std::vector<std::uint8_t>{0x34, 0x01, 0x01}, 1200);
    out = e.take_output();
    REQUIRE(out.size() == 4);
    CHECK(out[0] == std::vector<std::uint8_t>{0x37, 0x01, 0xbe});
    CHECK(out[1] == v(encode_position(BoardReading::start_position(), false)));
    CHECK(out[3] == std::vector<std::uint8_t>{0x37, 0x01, 0xed});
    e.receive(std::vector<std::uint8_t>{0x39, 0x01, 0x00}, 1400);
    e.receive(game_count_request, 1600);
    CHECK(e.take_output().at(0) == std::vector<std::uint8_t>{0x32, 0x01, 0});
    // Output reports may come padded to the report size; LEDs and beeps are stored.
    auto leds = v(led_command(bb(Square::parse("c3")), false));
    leds.resize(64, 0);
    e.receive(leds, 1800);
    CHECK(e.leds() == bb(Square::parse("c3")));
    e.receive(beep_command(1000, 200), 1850);  // 50 ms after the last write: counted
    CHECK(e.beeps() == 1);
    CHECK(e.last_beep() == std::pair<int, int>{1000, 200});
    CHECK(e.spacing_violations() == 1);
    e.receive(std::vector<std::uint8_t>{0x77, 0x01, 0x00}, 3000);
    e.receive(std::vector<std::uint8_t>{0x0a, 0x08, 0x00}, 3200);
    CHECK(e.unknown_commands() == 2);
    CHECK(e.commands().size() == 13);
}

TEST_CASE("chessnut emu 6: unsolicited battery reports and repeated positions on a timer") {
    emu::ChessnutEmulatorOptions o;
    o.battery_report_ms = 1000;
    o.repeat_ms = 300;
    o.battery_bit7 = true;
    emu::ChessnutBoardEmu e(o);
    e.power_on(0);
    e.receive(realtime_mode, 0);
    for (TimeMs t = 0; t <= 2000; t += 50) e.tick(t);
    int positions = 0, batteries = 0;
    for (const auto& r : e.take_output()) {
        positions += r[0] == 0x01;
        batteries += r[0] == 0x2a;
        if (r[0] == 0x2a) CHECK(r[2] == 88);  // bit 7 clear: not charging
    }
    CHECK(positions == 1 + 6);
    CHECK(batteries == 2);
}

TEST_CASE("chessnut emu: start-up through the driver reaches realtime mode and reports the board") {
    emu::ChessnutEmulatorOptions eo = ChessnutHarness::fast_emulator();
    eo.position = read_placement("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R", true).value();
    ChessnutHarness h(eo);
    REQUIRE(h.ready());
    CHECK(h.emu->mode() == emu::ChessnutMode::Realtime);
    CHECK(h.all<BoardSnapshot>().front().board == eo.position);
    REQUIRE(h.pump_until([&] { return !h.all<BatteryInfo>().empty(); }));
    CHECK(h.all<BatteryInfo>().back().percent == 88);
    REQUIRE(h.pump_until([&] { return h.last<DeviceInfo>()->firmware.find("BLE") != std::string::npos; }));
    CHECK(h.last<DeviceInfo>()->firmware == "CN_DVT9_210659 BLE CNCA100_V201");
    CHECK(h.emu->commands().front() == v(realtime_mode));
    CHECK(h.emu->spacing_violations() == 0);
}

TEST_CASE("chessnut emu: every move of every game in data/games, both orientations") {
    // All games of every file (the lichess sample is 438 games) in both orientations, over the
    // in-process transport; tests/usb plays a subset through libusb under umockdev.
    const SweepCount swept = sweep_shared_games([](const PgnGame& g, bool rotated) {
        CHECK(play_game(g, rotated) == static_cast<int>(g.san.size()));
    });
    CHECK(swept.games == 475);
    WARN(swept.games << " games, " << swept.moves << " moves");
}

TEST_CASE("chessnut emu 10: invalid nibbles, garbled reports and repeats end in the right board") {
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1);
    emu::ChessnutEmulatorOptions eo = ChessnutHarness::fast_emulator();
    eo.invalid_probability = 0.1;
    eo.noise_probability = 0.1;
    eo.repeat_ms = 20;
    eo.battery_report_ms = 50;
    eo.seed = 42;
    CHECK(play_game(games.at(0), false, eo) == static_cast<int>(games[0].san.size()));
    CHECK(play_game(games.at(0), true, eo) == static_cast<int>(games[0].san.size()));
}

TEST_CASE("chessnut emu 5: LEDs and beep reach the board, mapped to the way it stands") {
    emu::ChessnutEmulatorOptions eo = ChessnutHarness::fast_emulator();
    eo.rotated = true;
    ChessnutHarness h(eo);
    REQUIRE(h.ready());
    REQUIRE(h.driver->rotated());
    const Bitboard lit = bb(Square::parse("e2")) | bb(Square::parse("e4"));
    h.driver->leds()->set_leds(lit);
    h.driver->beep(880, 100);
    REQUIRE(h.pump_until([&] { return h.emu->leds() == lit && h.emu->beeps() == 1; }));
    // On the wire the squares are the board's own: e2/e4 of the game are its d7/d5.
    bool found = false;
    for (const auto& c : h.emu->commands())
        found |= c == v(led_command(bb(Square::parse("d7")) | bb(Square::parse("d5")), false));
    CHECK(found);
    CHECK(h.emu->spacing_violations() == 0);
}

TEST_CASE("chessnut emu: an unplugged board is reported as a link down") {
    ChessnutHarness h;
    REQUIRE(h.ready());
    h.loopback->unplug();
    REQUIRE(h.pump_until([&] { return h.last<LinkStatus>() && !h.last<LinkStatus>()->connected; }));
    CHECK(h.last<LinkStatus>()->reason == "board unplugged");
    CHECK_FALSE(h.session->connected());
}
