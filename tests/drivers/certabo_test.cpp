// The Certabo driver (certabo-sentio.md 2.1, 3, 4): calibration from the start position, the
// majority vote against noisy ids, LEDs (classic and RGB), against the emulator over a pty, and
// every move of every game in data/games through a loopback, both orientations.
#include "base/placement.hpp"
#include "line_harness.hpp"

#include "drivers/core/registry.hpp"

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using Bytes = std::vector<std::uint8_t>;

namespace {

emu::LineEmulatorOptions fast(emu::LineEmulatorOptions eo = {}) {
    eo.kind = emu::LineBoardKind::Certabo;
    eo.frame_period_ms = 5;
    return eo;
}

} // namespace

TEST_CASE("certabo 3.1 driver: nothing is reported until the start position calibrated it") {
    emu::LineEmulatorOptions eo;
    eo.frame_period_ms = 10;
    eo.position = read_placement("4k3/8/8/8/8/8/8/4K3", true).value();
    emu::LineBoardEmu board(eo);
    certabo::CertaboDriver d;
    Loopback loop(board, d);
    loop.run(300, 10);
    CHECK_FALSE(d.calibrated());
    CHECK(loop.host.all<BoardSnapshot>().empty());
    REQUIRE(loop.host.all<DeviceInfo>().size() == 1);
    CHECK(loop.host.all<DeviceInfo>()[0].trademark == "Certabo (RFID), not calibrated: set up the start position");
    board.set_calibration_position();
    REQUIRE(loop.run_until([&] { return d.calibrated(); }, 300, 10));
    CHECK(d.calibration().size() == 34);
    CHECK(loop.host.all<DeviceInfo>().back().trademark == "Certabo (RFID), 34 tags known");
    REQUIRE(loop.run_until([&] { return !loop.host.all<BoardSnapshot>().empty(); }, 100, 10));
    CHECK(write_placement(loop.host.all<BoardSnapshot>()[0].board) == "rnbqkbnr/pppppppp/3q4/8/8/3Q4/PPPPPPPP/RNBQKBNR");
    // The spare queens leave: the squares change, the ids stay known.
    board.lift(Square::parse("d3"));
    board.lift(Square::parse("d6"));
    REQUIRE(loop.run_until([&] { return d.board() == BoardReading::start_position(); }, 100, 10));
    // A white queen put down later is known by its tag.
    board.place(Square::parse("e4"), Piece::WQueen);
    REQUIRE(loop.run_until([&] { return d.board().at(Square::parse("e4")).piece == Piece::WQueen; }, 100, 10));
}

namespace {

/// 300 frames of a start position with noise through a driver voting over `vote` frames;
/// returns the square changes it reported after its first board.
std::vector<SquareChange> noisy_frames(int vote) {
    emu::LineEmulatorOptions eo;
    eo.frame_period_ms = 10;
    eo.empty_noise = 0.8;  // as often as the official simulator
    eo.drop_probability = 0.02;
    eo.swap_probability = 0.1;
    eo.seed = 11;
    emu::LineBoardEmu board(eo);
    certabo::CertaboOptions co;
    co.line.vote_frames = vote;
    co.calibration = board.full_calibration();
    certabo::CertaboDriver d(co);
    Loopback loop(board, d);
    REQUIRE(loop.run_until([&] { return !loop.host.all<BoardSnapshot>().empty(); }, 100, 10));
    CHECK(loop.host.all<BoardSnapshot>()[0].board == BoardReading::start_position());
    loop.run(3000, 10);
    return loop.host.all<SquareChange>();
}

} // namespace

TEST_CASE("certabo 3.2 noise: unknown ids read as empty, the 3-frame vote removes most flicker") {
    const auto raw = noisy_frames(1), voted = noisy_frames(3);
    const Bitboard start = BoardReading::start_position().occupancy();
    // Bogus ids on 80% of the empty squares never put a piece there, vote or not.
    for (const auto* changes : {&raw, &voted})
        for (const auto& c : *changes) CHECK((c.reading.occupied ? (start & bb(c.square)) != 0 : true));
    CHECK(raw.size() > 300);                // 2% dropped reads, 10% swapped frames
    CHECK(voted.size() * 10 < raw.size());  // only 2-of-3 coincidences get through
}

TEST_CASE("certabo calibration file: loaded by the registry's factory, errors refuse the driver") {
    const DriverInfo* info = find_driver("certabo");
    REQUIRE(info != nullptr);
    CHECK(info->model("")->serial.str() == "38400/8n1");
    CHECK(info->model("spectrum")->quirks == certabo::quirk::rgb_leds);
    REQUIRE(info->usb_ids.size() == 1);
    CHECK(info->usb_ids[0].vid == 0x10c4);
    CHECK(info->usb_ids[0].pid == 0xea60);
    CHECK_FALSE(info->usb_ids[0].certain);  // generic CP210x: confirm by content
    char path[] = "/tmp/eboard-certabo-XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    ::close(fd);
    emu::LineBoardEmu board;
    std::ofstream(path) << board.full_calibration().to_text();
    DriverOptions o;
    o.params["calibration"] = path;
    auto drv = info->create(o);
    REQUIRE(drv != nullptr);
    auto* cd = dynamic_cast<certabo::CertaboDriver*>(drv.get());
    REQUIRE(cd != nullptr);
    CHECK(cd->calibrated());
    CHECK(cd->calibration() == board.full_calibration());
    std::ofstream(path) << "3 0 84 1 2 Z\n";
    CHECK(info->create(o) == nullptr);
    o.params["calibration"] = "/nonexistent/calibration";
    CHECK(info->create(o) == nullptr);
    std::remove(path);
}

TEST_CASE("certabo emu over a pty: calibration, LF-split frames, noise, a capture, LEDs, unplug") {
    emu::LineEmulatorOptions eo = fast();
    eo.lf_every = 64;
    eo.empty_noise = 0.5;
    eo.glue_acks = true;
    eo.fragment_max = 200;
    eo.position = BoardReading::start_position();
    LineHarness<certabo::CertaboDriver> h(eo, std::make_unique<certabo::CertaboDriver>());
    REQUIRE(h.pump_until([&] { return h.driver->calibrated(); }));
    REQUIRE(h.ready());
    CHECK(h.all<BoardSnapshot>().front().board == BoardReading::start_position());
    h.emu->set_position(read_placement("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR", true).value());
    REQUIRE(h.pump_until([&] { return h.driver->board() == h.emu->position(); }));
    h.emu->move(Square::parse("e4"), Square::parse("d5"));  // exd5
    REQUIRE(h.pump_until([&] { return h.driver->board().at(Square::parse("d5")).piece == Piece::WPawn; }));
    CHECK(h.driver->board() == h.emu->position());
    h.driver->set_leds(bb(Square::parse("e4")) | bb(Square::parse("d5")));
    // The 'L' comes glued to the end of the next frame (2.4).
    REQUIRE(h.pump_until([&] { return h.driver->led_kind() == line::LedKind::Classic; }));
    CHECK(h.emu->leds() == (bb(Square::parse("e4")) | bb(Square::parse("d5"))));
    CHECK(h.driver->bad_frames() == 0);
    h.emu->disconnect();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
}

TEST_CASE("certabo 4.3 an RGB board: no 'L', the RGB form follows, 'D' keeps RGB") {
    emu::LineEmulatorOptions eo = fast();
    eo.rgb_leds = true;
    certabo::CertaboOptions co;
    co.calibration = emu::LineBoardEmu(eo).full_calibration();
    LineHarness<certabo::CertaboDriver> h(eo, std::make_unique<certabo::CertaboDriver>(co));
    REQUIRE(h.ready());
    h.driver->set_leds(bb(Square::parse("c3")));
    REQUIRE(h.pump_until([&] { return h.driver->led_kind() == line::LedKind::Rgb; }));
    const auto rx = h.emu->received();
    REQUIRE(rx.size() == 8 + 247);
    CHECK(Bytes(rx.begin() + 8, rx.end()) == line::rgb_led_command(bb(Square::parse("c3")), false));
    CHECK(h.emu->led_commands() == 1);
}

TEST_CASE("certabo line noise: a cut first frame, junk, cut and bad frames, oversized runs") {
    emu::LineEmulatorOptions eo;
    eo.frame_period_ms = 10;
    eo.start_mid_frame = true;
    eo.garbage_probability = 0.3;
    eo.lf_every = 61;
    eo.seed = 3;
    emu::LineBoardEmu board(eo);
    certabo::CertaboOptions co;
    co.calibration = board.full_calibration();
    certabo::CertaboDriver d(co);
    Loopback loop(board, d);
    loop.run(2000, 10);
    CHECK(d.board() == BoardReading::start_position());
    CHECK(d.bad_frames() > 0);      // the frames carrying 276
    CHECK(loop.framer.stats().truncated > 0);
    CHECK(loop.framer.stats().oversized > 0);
    CHECK(loop.framer.stats().packets > 100);
    board.lift(Square::parse("g8"));
    board.place(Square::parse("f6"), Piece::BKnight);
    REQUIRE(loop.run_until([&] { return d.board() == board.position(); }, 500, 10));
}

TEST_CASE("certabo emu: every move of the games in data/games, both orientations") {
    // 475 games (438 from the lichess sample), both orientations in about a second of CPU.
    const SweepCount swept = play_all_games(emu::LineBoardKind::Certabo);
    CHECK(swept.games == 475);
    WARN(swept.games << " games, " << swept.moves << " moves, both orientations");
}
