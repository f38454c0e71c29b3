// Recorded conversations of a Certabo and a Sentio board (`--trace` logs in
// tests/drivers/data/*.trace) replayed into the real drivers, gpsd style: the decoded events are
// checked in next to them (*.events; EBOARD_REGENERATE=1 rewrites those). The recordings were
// made with the emulators and all their noise switched on (the hidden "[.record]" cases below
// make them again); no capture of a real board was available. Also eboard-emu's --board choice.
#include "base/placement.hpp"
#include "line_harness.hpp"

#include "drivers/core/event_text.hpp"
#include "drivers/emu/replay.hpp"
#include "rules/handling.hpp"
#include "tests/support/test_io.hpp"

#include <cstdio>
#include <fstream>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

const std::string kData = EBOARD_TEST_DATA;

/// Collects the trace lines of `category` while alive.
struct TraceRecorder {
    std::string text;
    explicit TraceRecorder(const char* category) {
        set_trace_sink([this](std::string_view l) {
            text += l;
            text += '\n';
        });
        (void)enable_traces(category);
    }
    ~TraceRecorder() {
        disable_traces();
        set_trace_sink(nullptr);
    }
};

/// Replays `<name>.trace` into `driver` (one chunk every 5 simulated ms) and returns the
/// events as text, one per line.
std::string replay(const std::string& name, line::LineDriver& driver) {
    const auto rec = emu::parse_trace_log(eboard::test::slurp(kData + "/" + name + ".trace"), name);
    REQUIRE(rec.has_value());
    REQUIRE_FALSE(rec->empty());
    emu::ChunkPlayer player(rec.value(), 5);
    Loopback loop(player, driver);
    REQUIRE(loop.run_until([&] { return player.done(); }, 100000, 5));
    loop.run(20, 5);
    std::string got;
    for (const auto& e : loop.host.events) got += describe(e) + "\n";
    return got;
}

/// gpsd-style comparison with `<name>.events`; EBOARD_REGENERATE=1 rewrites the file.
void check_events(const std::string& name, const std::string& got) {
    const std::string path = kData + "/" + name + ".events";
    if (std::getenv("EBOARD_REGENERATE")) {
        std::ofstream(path, std::ios::binary) << got;
        WARN("regenerated " << path);
    }
    const std::string want = eboard::test::slurp(path);
    REQUIRE_FALSE(want.empty());
    CHECK(got == want);
}

/// Polls until the emulator sent `n` more frames.
template <typename H>
void frames(H& h, int n) {
    const int until = h.emu->frames_sent() + n;
    REQUIRE(h.pump_until([&] { return h.emu->frames_sent() >= until; }));
}

} // namespace

TEST_CASE("certabo replay: a recorded session decodes into its checked-in events") {
    certabo::CertaboDriver d;
    const std::string got = replay("certabo", d);
    CHECK(d.calibrated());
    CHECK(d.calibration().size() == 34);
    // 1. e4 e5 2. Nf3 Nc6 after calibrating with the spare queens, which were then removed.
    CHECK(write_placement(d.board()) == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R");
    CHECK(d.led_kind() == line::LedKind::Classic);
    check_events("certabo", got);
}

TEST_CASE("sentio replay: a recorded session decodes into its checked-in events") {
    sentio::SentioDriver d;
    const std::string got = replay("sentio", d);
    // 1. e4 c5 2. Nf3 d6 3. d4 cxd4, played by hand with slides and lifts.
    CHECK(d.board() == sentio::board_of(
                           read_placement("rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R", true).value().occupancy()));
    CHECK(d.led_kind() == line::LedKind::Classic);
    check_events("sentio", got);
}

TEST_CASE("record certabo.trace from the emulator with every kind of noise", "[.record]") {
    emu::LineEmulatorOptions eo;
    eo.kind = emu::LineBoardKind::Certabo;
    eo.frame_period_ms = 20;
    eo.lf_every = 64;
    eo.empty_noise = 0.8;
    eo.drop_probability = 0.02;
    eo.swap_probability = 0.05;
    eo.garbage_probability = 0.05;
    eo.start_mid_frame = true;
    eo.glue_acks = true;
    eo.seed = 2024;
    eo.position = read_placement("rnbqkbnr/pppppppp/3q4/8/8/3Q4/PPPPPPPP/RNBQKBNR", true).value();
    TraceRecorder rec("certabo");
    {
        LineHarness<certabo::CertaboDriver> h(eo, std::make_unique<certabo::CertaboDriver>());
        REQUIRE(h.pump_until([&] { return h.driver->calibrated() && !h.all<BoardSnapshot>().empty(); }));
        h.emu->lift(Square::parse("d3"));
        h.emu->lift(Square::parse("d6"));
        REQUIRE(h.pump_until([&] { return h.driver->board() == BoardReading::start_position(); }));
        for (const auto& [from, to] : {std::pair{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}, {"b8", "c6"}}) {
            const Piece p = h.emu->position().at(Square::parse(from)).piece;
            h.emu->lift(Square::parse(from));
            frames(h, 2);
            h.emu->place(Square::parse(to), p);
            REQUIRE(h.pump_until([&] { return h.driver->board() == h.emu->position(); }));
            if (std::string(to) == "e4") h.driver->set_leds(bb(Square::parse("e2")) | bb(Square::parse("e4")));
        }
        frames(h, 2);
    }
    std::ofstream(kData + "/certabo.trace") << rec.text;
}

TEST_CASE("record sentio.trace from the emulator and a human's hands", "[.record]") {
    emu::LineEmulatorOptions eo;
    eo.kind = emu::LineBoardKind::Sentio;
    eo.frame_period_ms = 10;
    eo.lf_every = 13;
    eo.garbage_probability = 0.05;
    eo.start_mid_frame = true;
    eo.seed = 2024;
    TraceRecorder rec("sentio");
    {
        LineHarness<sentio::SentioDriver> h(eo, std::make_unique<sentio::SentioDriver>());
        REQUIRE(h.ready());
        HandlingOptions ho;
        ho.identity = true;
        ho.clock = false;
        ho.seed = 5;
        BoardHands hands(ho);
        Position pos = Position::startpos();
        hands.setup(pos);
        (void)hands.take_events();
        for (const char* san : {"e4", "c5", "Nf3", "d6", "d4", "cxd4"}) {
            const auto m = parse_move(pos, san);
            REQUIRE(m.has_value());
            hands.play(pos, m.value());
            pos.make_move(m.value());
            for (const SensorEvent& e : hands.take_events()) {
                const auto* c = std::get_if<eboard::SquareChange>(&e);
                if (!c) continue;
                if (c->reading.occupied) h.emu->place(c->square, c->reading.piece);
                else h.emu->lift(c->square);
                frames(h, 2);
            }
            if (std::string(san) == "Nf3") h.driver->set_leds(bb(Square::parse("g1")) | bb(Square::parse("f3")));
        }
        frames(h, 2);
    }
    std::ofstream(kData + "/sentio.trace") << rec.text;
}

TEST_CASE("eboard-emu --board sentio and --board certabo serve the drivers through open_device") {
    const auto first_dump = [](const std::string& uri, DriverOptions opt) -> std::optional<BoardSnapshot> {
        std::vector<DriverEvent> events;
        auto s = open_device(uri, [&](const DriverEvent& e) { events.push_back(e); }, std::move(opt));
        REQUIRE(s.has_value());
        s.value()->start();
        for (const TimeMs end = steady_now_ms() + 3000; steady_now_ms() < end;) {
            s.value()->poll(20);
            for (const auto& e : events)
                if (const auto* d = std::get_if<BoardSnapshot>(&e)) return *d;
        }
        return std::nullopt;
    };
    const std::string fen = "4k3/8/8/8/8/8/4P3/4K3";
    {
        EmuProcess emu({"--board", "sentio", "--fen", fen, "--rotated", "--frame-ms", "10", "--lf", "5"});
        DriverOptions opt;
        opt.params["orientation"] = "rotated";
        const auto d = first_dump("sentio:" + emu.pty, opt);
        REQUIRE(d.has_value());
        CHECK(d->board.occupancy() == read_placement(fen, true)->occupancy());
        CHECK(emu.stop() == 0);
    }
    {
        char path[] = "/tmp/eboard-calibration-XXXXXX";
        const int fd = ::mkstemp(path);
        REQUIRE(fd >= 0);
        ::close(fd);
        EmuProcess emu({"certabo", "--fen", fen, "--frame-ms", "10", "--empty-noise", "0.5", "--write-calibration", path});
        DriverOptions opt;
        opt.params["calibration"] = path;
        const auto d = first_dump("certabo:" + emu.pty, opt);
        std::remove(path);
        REQUIRE(d.has_value());
        CHECK(write_placement(d->board) == fen);
        CHECK(emu.stop() == 0);
    }
}
