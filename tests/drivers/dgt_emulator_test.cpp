// The real DGT driver (DeviceSession, termios transport) against the wire-level emulator on
// a pty: dumps, field updates, whole games in both orientations, the clock round trip, the
// ACK/retry rules with lost ACKs, noise and a disconnect.
#include "base/placement.hpp"
#include "game_sweep.hpp"
#include "harness.hpp"
#include "pgn_moves.hpp"

#include "rules/notation.hpp"
#include "rules/position.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::dgt;

namespace {

/// Plays a whole game on the emulator; after every move the driver's board must equal both
/// the emulator's and the rules core's position. Returns the number of moves played.
int play_game(const PgnGame& g, emu::DgtEmulatorOptions eo) {
    auto start = g.fen.empty() ? Expected<Position>(Position::startpos()) : Position::from_fen(g.fen, g.chess960);
    REQUIRE(start.has_value());
    Position pos = std::move(start.value());
    eo.position = board_of(pos);
    // Auto orientation needs a (Chess960) start position; a game set up from a middle-game
    // FEN is played with the orientation configured, as a user would.
    DgtOptions dopt = PtyHarness::fast_options();
    if (!g.fen.empty() && !g.chess960) dopt.orientation = eo.rotated ? Orientation::Rotated : Orientation::Normal;
    PtyHarness h(eo, dopt);
    REQUIRE(h.ready());
    CHECK(h.driver->rotated() == eo.rotated);
    CHECK(h.all<BoardSnapshot>().front().board == board_of(pos));
    int played = 0;
    for (const std::string& san : g.san) {
        INFO("move " << played + 1 << " " << san);
        if (san == "Z0" || san == "--") {  // a null move (anastasian-lewis.pgn): nothing moves
            pos.make_null_move();
            ++played;
            continue;
        }
        const auto m = parse_move(pos, san);
        REQUIRE(m.has_value());
        const BoardReading before = board_of(pos);
        pos.make_move(m.value());
        const BoardReading after = board_of(pos);
        play_on_board(*h.emu, before, after);
        const bool same = h.pump_until([&] { return h.driver->board() == after; });
        CHECK(write_placement(h.driver->board()) == write_placement(after));
        CHECK(write_placement(h.emu->position()) == write_placement(after));
        REQUIRE(same);
        ++played;
    }
    // A fresh dump agrees with the shadow board kept from field updates.
    const std::size_t dumps = h.all<BoardSnapshot>().size();
    h.driver->request_board_dump();
    REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() > dumps; }));
    CHECK(h.all<BoardSnapshot>().back().board == board_of(pos));
    return played;
}

const char* kGames[] = {"molinari-bordais-1979.pgn", "anastasian-lewis.pgn",
                        "nepomniachtchi-liren-game1.pgn", "kasparov-deep-blue-1997.pgn",
                        "carlsen-grischuk-linares.pgn", "ushenina-girya-2013.pgn"};

} // namespace

TEST_CASE("dgt emu: start-up over a pty leaves bus mode, ends in UPDATE_NICE, dump = position") {
    emu::DgtEmulatorOptions eo;
    eo.position = read_placement("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R", true).value();
    PtyHarness h(eo);
    REQUIRE(h.ready());
    CHECK(h.all<BoardSnapshot>().front().board == eo.position);
    REQUIRE(h.pump_until([&] { return h.emu->mode() == emu::BoardMode::UpdateNice; }));
    REQUIRE(h.pump_until([&] { return h.driver->clock_model() == ClockModel::Dgt3000; }));
    const auto info = h.all<DeviceInfo>();
    REQUIRE_FALSE(info.empty());
    REQUIRE(h.pump_until([&] { return !h.all<DeviceInfo>().back().serial.empty(); }));
    CHECK(h.all<DeviceInfo>().back().serial == "25805");
    CHECK(h.all<DeviceInfo>().back().version_major == 3);
    const auto rx = h.emu->received();
    REQUIRE(rx.size() >= 2);
    CHECK(rx[0] == 0x40);
    CHECK(rx[1] == 0x4d);
}

TEST_CASE("dgt emu: lifts and places arrive as field updates") {
    PtyHarness h;
    REQUIRE(h.ready());
    h.events.clear();
    h.emu->lift(Square::parse("e2"));
    h.emu->place(Square::parse("e4"), Piece::WPawn);
    REQUIRE(h.pump_until([&] { return h.all<SquareChange>().size() >= 2; }));
    const auto ch = h.all<SquareChange>();
    CHECK(ch[0].square == Square::parse("e2"));
    CHECK_FALSE(ch[0].reading.occupied);
    CHECK(ch[1].square == Square::parse("e4"));
    CHECK(ch[1].reading.piece == Piece::WPawn);
}

TEST_CASE("dgt emu: every move of the games in data/games, both orientations") {
    // Over the pty (real session, termios): the six small files here; EBOARD_FULL_SWEEP=1
    // plays all 475 games of every file, both orientations (minutes; dgt_all_games_test.cpp
    // plays them all on every ctest run through the byte-for-byte loopback).
    if (std::getenv("EBOARD_FULL_SWEEP")) {
        const SweepCount swept = sweep_shared_games([](const PgnGame& g, bool rotated) {
            emu::DgtEmulatorOptions eo;
            eo.rotated = rotated;
            REQUIRE(play_game(g, eo) == static_cast<int>(g.san.size()));
        });
        CHECK(swept.games == 475);
        WARN("over the pty: " << swept.games << " games, " << swept.moves << " moves, both orientations");
        return;
    }
    for (const bool rotated : {false, true}) {
        for (const char* name : kGames) {
            INFO(name << (rotated ? " rotated (white on the connector's right)" : " normal"));
            const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/" + name);
            REQUIRE_FALSE(games.empty());
            for (const auto& g : games) {
                emu::DgtEmulatorOptions eo;
                eo.rotated = rotated;
                CHECK(play_game(g, eo) == static_cast<int>(g.san.size()));
            }
        }
    }
}

TEST_CASE("dgt emu: the first games of the lichess sample") {
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/lichess-db-sample.pgn", 5);
    REQUIRE(games.size() == 5);
    for (const auto& g : games) CHECK(play_game(g, {}) == static_cast<int>(g.san.size()));
}

TEST_CASE("dgt emu: Chess960 games from a FEN, both orientations") {
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/cutechess-fischerrandom.pgn", 2);
    REQUIRE_FALSE(games.empty());
    for (const auto& g : games) {
        REQUIRE_FALSE(g.fen.empty());
        for (const bool rotated : {false, true}) {
            emu::DgtEmulatorOptions eo;
            eo.rotated = rotated;
            CHECK(play_game(g, eo) == static_cast<int>(g.san.size()));
        }
    }
}

TEST_CASE("dgt 8 emu: scan dynamics, bounce, noise and fragmentation end in the right board") {
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1);
    emu::DgtEmulatorOptions eo;
    eo.scan_period_ms = 15;
    eo.bounce_probability = 0.2;
    eo.noise_probability = 0.1;
    eo.fragment_max = 7;
    eo.seed = 42;
    CHECK(play_game(games.at(0), eo) == static_cast<int>(games[0].san.size()));
}

TEST_CASE("dgt 8 scan order: a2-a3 reported destination first, a capture without the empty square") {
    emu::DgtEmulatorOptions eo;
    eo.scan_period_ms = 100;
    eo.start_in_bus_mode = false;
    emu::DgtBoardEmu b(eo);
    b.receive(std::vector<std::uint8_t>{0x44}, 0);  // UPDATE_BOARD
    b.tick(0);
    (void)b.take_output();
    b.lift(Square::parse("a2"), 10);
    b.place(Square::parse("a3"), Piece::WPawn, 20);
    b.tick(100);
    auto out = b.take_output();
    REQUIRE(out.size() == 2);
    CHECK(out[0] == std::vector<std::uint8_t>{0x8e, 0x00, 0x05, 0x28, 0x01});  // (a) of section 8
    CHECK(out[1] == std::vector<std::uint8_t>{0x8e, 0x00, 0x05, 0x30, 0x00});
    // (b): the knight on b8 is taken by hand and the bishop put there within one scan.
    b.lift(Square::parse("b8"), 110);
    b.place(Square::parse("b8"), Piece::WBishop, 120);
    b.lift(Square::parse("f1"), 130);
    b.tick(200);
    out = b.take_output();
    REQUIRE(out.size() == 2);
    CHECK(out[0] == std::vector<std::uint8_t>{0x8e, 0x00, 0x05, 0x01, 0x04});
    CHECK(out[1] == std::vector<std::uint8_t>{0x8e, 0x00, 0x05, 0x3d, 0x00});
}

TEST_CASE("dgt emu clock round trip: set, run, read back, lever, text, beep, buttons, end") {
    PtyHarness h;
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.driver->clock_model() == ClockModel::Dgt3000; }));
    const auto done_ok = [&](std::uint8_t cmd) {
        for (const auto& d : h.all<ClockCommandDone>())
            if (d.command == cmd && d.ok) return true;
        return false;
    };
    h.driver->set_and_run(5 * 60000, 3 * 60000, ClockRun::Left);
    REQUIRE(h.pump_until([&] { return done_ok(clk::setnrun); }));
    CHECK(h.emu->clock().run == ClockRun::Left);
    h.events.clear();
    h.driver->request_times();
    REQUIRE(h.pump_until([&] { return !h.all<ClockReport>().empty(); }));
    ClockReport t = h.all<ClockReport>().back();
    CHECK(t.running);
    CHECK(t.turn == ClockSide::Left);
    CHECK(t.right_ms == 180000);
    CHECK(t.left_ms <= 300000);
    CHECK(t.left_ms >= 298000);
    // UPDATE_NICE: a report when the shown seconds change.
    REQUIRE(h.pump_until([&] { const auto l = h.last<ClockReport>(); return l && l->left_ms <= 299000; }));
    h.emu->press_lever(ClockSide::Left);  // left player completes his move: right runs
    REQUIRE(h.pump_until([&] { return !h.all<ClockLever>().empty(); }));
    CHECK(h.all<ClockLever>().back().high == ClockSide::Right);
    REQUIRE(h.pump_until([&] { const auto l = h.last<ClockReport>(); return l && l->turn == ClockSide::Right; }));
    h.driver->show_text("hello", true);
    h.driver->beep(256);
    REQUIRE(h.pump_until([&] { return done_ok(clk::ascii) && done_ok(clk::beep); }));
    CHECK(h.emu->clock().text == "hello   ");
    CHECK(h.emu->clock().beeps == 2);
    h.emu->press_button(2);
    h.emu->press_button(4);
    REQUIRE(h.pump_until([&] { return h.all<ClockButton>().size() >= 2; }));
    CHECK(h.all<ClockButton>()[0].button == 2);
    CHECK(h.all<ClockButton>()[1].button == 4);
    h.driver->end_display();
    REQUIRE(h.pump_until([&] { return done_ok(clk::end); }));
    CHECK(h.emu->clock().text.empty());
    CHECK(h.emu->error_acks_sent() == 0);
}

TEST_CASE("dgt emu: UPDATE_NICE reports every lever press, two between ticks too") {
    // dgt.md 3: BWTIME on every change of the clock. The blitz player answers at once: both
    // presses come before the emulator's next tick and must still be two reports, or the
    // lever would be back where it was and the driver would see no press at all (10.1).
    emu::DgtBoardEmu m;
    const std::uint8_t nice[] = {cmd::send_update_nice};
    m.receive(nice, 0);
    m.tick(0);
    (void)m.take_output();
    m.press_lever(ClockSide::Left, 10);   // left completes his move: the right side goes up
    m.press_lever(ClockSide::Right, 20);  // right completes his at once: the left goes up
    m.tick(20);
    std::vector<ClockSide> high;
    for (const auto& o : m.take_output()) {
        if (o.size() != 10 || o[0] != msg::bwtime) continue;
        const auto t = decode_time_report(std::span<const std::uint8_t, 7>(o.data() + 3, 7));
        REQUIRE(t.has_value());
        high.push_back(t->lever_high);
    }
    CHECK(high == std::vector<ClockSide>{ClockSide::Right, ClockSide::Left});
}

TEST_CASE("dgt emu clock: status bits as real clocks set them, the increment in the press's report") {
    // Issue 23, from real recordings: 0x08 while the LEFT clock runs, 0x10 while the RIGHT
    // runs; the report that shows a press shows the presser's time with the increment added.
    emu::DgtEmulatorOptions o;
    o.clock.left_ms = o.clock.right_ms = 180000;
    o.clock.increment_ms = 2000;
    emu::DgtBoardEmu m(o);
    const std::uint8_t nice[] = {cmd::send_update_nice};
    m.receive(nice, 0);
    const auto run = setnrun_frame(180000, 180000, ClockRun::Left);
    m.receive(run, 0);
    m.tick(0);
    m.tick(1000);
    (void)m.take_output();
    m.tick(1200);
    m.press_lever(ClockSide::Left, 1500);  // 2:58.5 left, then + 2 s
    std::vector<std::vector<std::uint8_t>> reports;
    for (auto& out : m.take_output())
        if (out.size() == 10 && out[0] == msg::bwtime && !is_clock_ack(std::span<const std::uint8_t, 7>(out.data() + 3, 7)))
            reports.push_back(out);
    REQUIRE_FALSE(reports.empty());
    const auto& pressed = reports.back();
    CHECK(pressed[9] == 0x13);  // running, right side high, 0x10: the right clock runs
    const auto t = decode_time_report(std::span<const std::uint8_t, 7>(pressed.data() + 3, 7));
    REQUIRE(t.has_value());
    CHECK(t->left_ms == 180000);  // 2:58.5 + 2 s, shown in whole seconds
    m.tick(1600);
    (void)m.take_output();
    m.press_lever(ClockSide::Right, 1700);
    const auto back = m.take_output();
    REQUIRE_FALSE(back.empty());
    CHECK(back.back()[9] == 0x09);  // the right player pressed: running, left side high, 0x08
}

TEST_CASE("dgt emu: DGT XL gets segment text") {
    emu::DgtEmulatorOptions eo;
    eo.clock.model = ClockModel::DgtXl;
    PtyHarness h(eo);
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.driver->clock_model() == ClockModel::DgtXl; }));
    h.driver->show_text("123456", false);
    REQUIRE(h.pump_until([&] { const auto l = h.last<ClockCommandDone>(); return l && l->command == clk::display; }));
    CHECK(h.all<ClockCommandDone>().back().ok);
    CHECK(h.emu->clock().text == "123456");
}

TEST_CASE("dgt 11 emu: lost ACKs are retried, one command in flight, slow ACKs never collide") {
    emu::DgtEmulatorOptions eo;
    eo.ack_latency_ms = 40;
    // An ACK timeout 25 times the ACK latency: on a loaded machine (CI, 2 cores) a 40 ms ACK
    // can arrive after 100 ms, which a 100 ms timeout took for a lost ACK (4 attempts, not 3).
    dgt::DgtOptions dopt = PtyHarness::fast_options();
    dopt.clock.ack_timeout_ms = 1000;
    PtyHarness h(eo, dopt);
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.driver->clock_model() == ClockModel::Dgt3000; }));
    h.emu->set_drop_acks(2);
    h.driver->set_and_run(60000, 60000, ClockRun::None);
    h.driver->show_text("one", false);
    h.driver->beep(64);
    REQUIRE(h.pump_until([&] { return h.all<ClockCommandDone>().size() >= 4; }));
    const auto done = h.all<ClockCommandDone>();
    CHECK(done[1].command == clk::setnrun);
    CHECK(done[1].ok);
    CHECK(done[1].attempts == 3);  // two ACKs lost, the third send acknowledged
    CHECK(done[2].ok);
    CHECK(done[3].ok);
    CHECK(h.emu->acks_dropped() == 2);
    CHECK(h.emu->error_acks_sent() == 0);  // never a second command before the ACK
}

TEST_CASE("dgt 11 emu: no ACK at all: 3 retries then failure") {
    PtyHarness h;
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.driver->clock_model() == ClockModel::Dgt3000; }));
    h.emu->set_drop_acks(100);
    h.events.clear();
    h.driver->beep(64);
    REQUIRE(h.pump_until([&] { return !h.all<ClockCommandDone>().empty(); }));
    const auto d = h.all<ClockCommandDone>().back();
    CHECK_FALSE(d.ok);
    CHECK(d.attempts == 4);
    CHECK(h.emu->acks_dropped() == 4);
}

TEST_CASE("dgt 10.1 emu: no clock connected, then a clock plugged in") {
    emu::DgtEmulatorOptions eo;
    eo.clock.connected = false;
    PtyHarness h(eo);
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return !h.all<ClockReport>().empty(); }));
    CHECK_FALSE(h.all<ClockReport>().back().connected);
    CHECK(h.driver->clock_model() == ClockModel::None);
    h.emu->set_clock_connected(true);
    REQUIRE(h.pump_until([&] { return h.driver->clock_model() == ClockModel::Dgt3000; }));
}

TEST_CASE("dgt emu: the device vanishing mid-session is reported") {
    PtyHarness h;
    REQUIRE(h.ready());
    h.emu->disconnect();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    const auto link = h.all<LinkStatus>();
    REQUIRE(link.size() == 2);
    CHECK(link[0].connected);
    CHECK_FALSE(link[1].connected);
}
