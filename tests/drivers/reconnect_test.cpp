// DeviceSession reconnection (drivers/core/session.hpp): the back-off schedule on injected time
// with a scripted transport, then the real drivers against the emulators over a pty when the
// device is unplugged mid-game, pieces move while it is away, and it comes back; a disconnect
// in the middle of a message; noise on a silent board's line (issue 26).
#include "harness.hpp"
#include "line_harness.hpp"
#include "millennium_harness.hpp"
#include "pgn_moves.hpp"

#include <random>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

/// A transport the test controls: bytes to hand out, and whether the device is there.
struct Line {
    std::vector<std::uint8_t> incoming, written;
    bool gone = false;
};

struct ScriptedTransport final : Transport {
    std::shared_ptr<Line> line;
    explicit ScriptedTransport(std::shared_ptr<Line> l) : line(std::move(l)) {}
    [[nodiscard]] std::string name() const override { return "scripted"; }
    bool write(std::span<const std::uint8_t> b) override {
        if (line->gone) return false;
        line->written.insert(line->written.end(), b.begin(), b.end());
        return true;
    }
    std::size_t read(std::span<std::uint8_t> buf, int) override {
        const std::size_t n = std::min(buf.size(), line->incoming.size());
        std::copy_n(line->incoming.begin(), n, buf.begin());
        line->incoming.erase(line->incoming.begin(),
                             line->incoming.begin() + static_cast<std::ptrdiff_t>(n));
        return n;
    }
    void close() override { line->gone = true; }
    [[nodiscard]] bool disconnected() const override { return line->gone; }
    [[nodiscard]] std::string error() const override { return line->gone ? "device hung up" : ""; }
};

/// Every byte is a packet; counts what the session asks of it.
struct CountingDriver final : Driver {
    struct Rule final : FrameRule {
        [[nodiscard]] bool starts_packet(std::uint8_t) const override { return true; }
        [[nodiscard]] bool continues_packet(std::uint8_t) const override { return true; }
        [[nodiscard]] std::size_t header_size() const override { return 1; }
        [[nodiscard]] FrameLength packet_length(std::span<const std::uint8_t>) const override {
            return FrameLength::ok(1);
        }
    } rule;
    DriverHost* host = nullptr;
    int starts = 0, link_downs = 0, ticks = 0;
    std::vector<TimeMs> start_times;
    [[nodiscard]] const FrameRule& frame_rule() const override { return rule; }
    [[nodiscard]] std::string_view trace_name() const override { return "test"; }
    void start(DriverHost& h, TimeMs now) override {
        host = &h;
        ++starts;
        start_times.push_back(now);
        const std::uint8_t hello = 0x42;
        host->send(std::span(&hello, 1));
    }
    void on_packet(std::span<const std::uint8_t>, TimeMs) override {}
    void on_link_down(TimeMs) override { ++link_downs; }
    void on_tick(TimeMs) override { ++ticks; }
    void request_board_dump() override {}
};

} // namespace

TEST_CASE(
    "session reconnection: back-off 0.5 s doubling to 5 s on injected time, then start-up again") {
    TimeMs now = 1000;
    auto first = std::make_shared<Line>();
    auto d = std::make_unique<CountingDriver>();
    CountingDriver& driver = *d;
    std::vector<LinkStatus> links;
    DeviceSession s(
        std::make_unique<ScriptedTransport>(first), std::move(d),
        [&](const DriverEvent& e) {
            if (const auto* l = std::get_if<LinkStatus>(&e)) links.push_back(*l);
        },
        [&] { return now; });
    std::vector<TimeMs> attempts;
    std::shared_ptr<Line> second;
    int fail = 5;
    s.enable_reconnect([&]() -> Expected<std::unique_ptr<Transport>> {
        attempts.push_back(now);
        if (fail-- > 0) return Error{"/dev/ttyACM0: No such file or directory"};
        second = std::make_shared<Line>();
        return std::unique_ptr<Transport>(std::make_unique<ScriptedTransport>(second));
    });
    s.start();
    REQUIRE(s.poll(0));
    CHECK(first->written == std::vector<std::uint8_t>{0x42});

    first->gone = true; // unplugged
    CHECK(s.poll(0));   // still a session: it reconnects
    CHECK_FALSE(s.connected());
    CHECK(s.reconnecting());
    REQUIRE(links.size() == 2);
    CHECK_FALSE(links[1].connected);
    CHECK(links[1].reason == "device hung up");
    CHECK(driver.link_downs == 1);
    const int ticks = driver.ticks;
    for (; now < 1000 + 30000 && !second; now += 10) CHECK(s.poll(0));
    CHECK(driver.ticks == ticks); // no timers while the board is away
    // 0.5, 1, 2, 4, 5 s apart (5 failures), then the sixth attempt opens it.
    CHECK(attempts == std::vector<TimeMs>{1500, 2500, 4500, 8500, 13500, 18500});
    CHECK(s.failed_attempts() == 5);
    REQUIRE(s.connected());
    REQUIRE(links.size() == 3);
    CHECK(links[2].connected);
    CHECK(links[2].reason == "reconnected: scripted");
    CHECK(driver.starts == 2);
    CHECK(driver.start_times.back() == 18500);
    CHECK(second->written == std::vector<std::uint8_t>{0x42}); // the start-up ran again

    // Down again: the schedule starts over at 0.5 s.
    second->gone = true;
    attempts.clear();
    fail = 0;
    for (TimeMs end = now + 2000; now < end && attempts.empty(); now += 10) (void)s.poll(0);
    CHECK(attempts == std::vector<TimeMs>{18500 + 10 + 500});
    CHECK(driver.link_downs == 2);
}

TEST_CASE("session without reconnection: poll() is false once the device is gone") {
    auto line = std::make_shared<Line>();
    std::vector<LinkStatus> links;
    DeviceSession s(std::make_unique<ScriptedTransport>(line), std::make_unique<CountingDriver>(),
                    [&](const DriverEvent& e) {
                        if (const auto* l = std::get_if<LinkStatus>(&e)) links.push_back(*l);
                    });
    s.start();
    REQUIRE(s.poll(0));
    line->gone = true;
    CHECK_FALSE(s.poll(0));
    CHECK_FALSE(s.poll(0));
    REQUIRE(links.size() == 2); // reported once
    CHECK_FALSE(s.reconnecting());
}

namespace {

/// open_device() on a URI, with a short reconnection schedule, its events in the harness.
void open_with_reconnect(SessionHarness& h, std::string_view driver, const std::string& path) {
    std::string uri(driver);
    uri += ':';
    uri += path;
    DriverOptions opt;
    opt.params.emplace("startup-delay-ms", "0");
    auto s = open_device(
        uri, [&h](const DriverEvent& ev) { h.events.push_back(ev); }, opt, steady_now_ms,
        ReconnectPolicy{20, 80});
    INFO(uri << ": " << (s ? "" : s.error().message));
    REQUIRE(s.has_value());
    h.session = std::move(s.value());
    h.session->start();
}

} // namespace

TEST_CASE("dgt over a pty: unplugged mid-game, pieces moved meanwhile, replugged: reconnected, "
          "fresh dump") {
    emu::DgtEmulator e;
    SessionHarness h;
    open_with_reconnect(h, "dgt", e.device_path());
    DeviceSession& session = *h.session;
    auto& driver = dynamic_cast<dgt::DgtDriver&>(session.driver());
    REQUIRE(h.pump_until([&] { return driver.ready() && !h.all<BoardSnapshot>().empty(); }));

    const auto boards = game_boards(
        read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1)
            .at(0));
    const std::size_t half = 20;
    for (std::size_t i = 1; i <= half; ++i) {
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return driver.board() == boards[i]; }));
    }

    e.unplug();
    REQUIRE(h.pump_until([&] { return !session.connected(); }));
    CHECK_FALSE(h.last<LinkStatus>()->connected);
    // While the board is away the players go on: two moves the driver cannot see.
    play_on_board(e, boards[half], boards[half + 1]);
    play_on_board(e, boards[half + 1], boards[half + 2]);
    const std::size_t dumps = h.all<BoardSnapshot>().size();
    e.replug();
    REQUIRE(h.pump_until([&] { return session.connected() && h.all<BoardSnapshot>().size() > dumps; }));
    CHECK(h.last<LinkStatus>()->connected);
    CHECK(h.last<LinkStatus>()->reason.rfind("reconnected", 0) == 0);
    CHECK(h.all<BoardSnapshot>().back().board == boards[half + 2]); // what stands on the board now
    REQUIRE(h.pump_until([&] { return e.mode() == emu::BoardMode::UpdateNice; })); // start-up again
    for (std::size_t i = half + 3; i < boards.size(); ++i) {
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return driver.board() == boards[i]; }));
    }
    CHECK(h.all<LinkStatus>().size() == 3); // up, down, up
}

TEST_CASE("millennium over a pty: unplugged in the middle of a report: the half is dropped, the "
          "board re-read") {
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    emu::MillenniumEmulator e(eo);
    SessionHarness h;
    open_with_reconnect(h, "millennium", e.device_path());
    DeviceSession& session = *h.session;
    auto& driver = dynamic_cast<millennium::MillenniumDriver&>(session.driver());
    REQUIRE(h.pump_until([&] { return driver.ready() && e.snapshot().commands().size() >= 4; }));
    REQUIRE(e.snapshot().e2rom_writes() == 1);

    e.cut_next_report(30); // the report of this lift stops after 30 of its 67 bytes
    e.lift(Square::parse("e2"));
    REQUIRE(h.pump_until([&] { return session.in_packet(); }));
    const std::size_t changes = h.all<SquareChange>().size();
    const std::size_t dumps = h.all<BoardSnapshot>().size();
    e.unplug();
    REQUIRE(h.pump_until([&] { return !session.connected(); }));
    CHECK(session.framer_stats().dropped_partial == 1);
    CHECK(h.all<SquareChange>().size() == changes); // nothing from the half
    e.place(Square::parse("e4"), Piece::WPawn);      // moved while away
    e.replug();
    REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() > dumps; }));
    BoardReading want = BoardReading::start_position();
    want.set(Square::parse("e2"), Piece::None);
    want.set(Square::parse("e4"), Piece::WPawn);
    CHECK(h.all<BoardSnapshot>().back().board == want);
    CHECK(driver.board() == want);
    CHECK(e.snapshot().e2rom_writes() == 1); // the report mode was right already: not rewritten
}

TEST_CASE("certabo and sentio over a pty: unplugged in the middle of a frame: the half is "
          "dropped, a fresh board after replug") {
    for (const auto kind : {emu::LineBoardKind::Certabo, emu::LineBoardKind::Sentio}) {
        const bool certabo = kind == emu::LineBoardKind::Certabo;
        INFO(std::string(certabo ? "certabo" : "sentio"));
        emu::LineEmulatorOptions eo;
        eo.kind = kind;
        eo.frame_period_ms = 20;
        emu::LineEmulator e(eo);
        if (certabo) e.set_calibration_position(); // the driver calibrates from it (3.1)
        SessionHarness h;
        open_with_reconnect(h, certabo ? "certabo" : "sentio", e.device_path());
        DeviceSession& session = *h.session;
        auto& driver = dynamic_cast<line::LineDriver&>(session.driver());
        REQUIRE(h.pump_until([&] { return !h.all<BoardSnapshot>().empty(); }));
        e.set_position(BoardReading::start_position());
        REQUIRE(h.pump_until([&] { return driver.board() == seen(e.position(), kind); }));

        // The frame that would show e2 empty stops after 10 bytes: the cable is pulled.
        e.cut_next_frame(10);
        e.lift(Square::parse("e2"));
        REQUIRE(h.pump_until([&] { return session.in_packet(); }));
        const std::size_t changes = h.all<SquareChange>().size();
        const std::size_t dumps = h.all<BoardSnapshot>().size();
        e.unplug();
        REQUIRE(h.pump_until([&] { return !session.connected(); }));
        CHECK(session.framer_stats().dropped_partial == 1);
        CHECK(h.all<SquareChange>().size() == changes); // nothing from the half
        CHECK(driver.bad_frames() == 0);
        e.place(Square::parse("e4"), Piece::WPawn); // moved while away
        e.replug();
        REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() > dumps; }));
        BoardReading want = BoardReading::start_position();
        want.set(Square::parse("e2"), Piece::None);
        want.set(Square::parse("e4"), Piece::WPawn);
        CHECK(h.all<BoardSnapshot>().back().board == seen(want, kind)); // the board as it stands now
        CHECK(h.all<SquareChange>().size() == changes);           // a dump, not square changes
        CHECK(h.last<LinkStatus>()->reason.rfind("reconnected", 0) == 0);
    }
}

TEST_CASE("session liveness: random bytes from a silent DGT board neither keep it connected nor ask for a dump "
          "per read") {
    // Issue 26: 956 kB of random bytes (40 kB/s) kept a silent board "connected" (noise frames
    // by chance: a message id and a length that fits) and asked for 1,540 board dumps in 24 s.
    TimeMs now = 0;
    auto line = std::make_shared<Line>();
    std::vector<LinkStatus> links;
    DeviceSession s(
        std::make_unique<ScriptedTransport>(line), std::make_unique<dgt::DgtDriver>(),
        [&](const DriverEvent& e) {
            if (const auto* l = std::get_if<LinkStatus>(&e)) links.push_back(*l);
        },
        [&] { return now; });
    s.start();
    for (; now < 400; now += 10) REQUIRE(s.poll(0));
    line->incoming = {0x93, 0x00, 0x05, 0x03, 0x01};              // VERSION: ready
    REQUIRE(s.poll(0));
    line->incoming = {0x91, 0x00, 0x08, '1', '2', '3', '4', '5'}; // its serial number
    now += 10;
    REQUIRE(s.poll(0));
    line->written.clear();

    // The board falls silent; the line carries noise, 400 bytes every 10 ms.
    std::mt19937 noise(26); // NOLINT(cert-msc51-cpp): the same noise on every run, reproducible
    std::uniform_int_distribution<int> byte(0, 255);
    const TimeMs silent_at = now;
    std::size_t dumps_before_lost = 0;
    TimeMs lost_at = -1;
    for (; now < silent_at + 24000; now += 10) {
        for (int i = 0; i < 400; ++i) line->incoming.push_back(static_cast<std::uint8_t>(byte(noise)));
        REQUIRE(s.poll(0));
        if (lost_at < 0) {
            for (const std::uint8_t b : line->written) dumps_before_lost += b == dgt::cmd::send_brd;
            line->written.clear();
            if (links.size() > 1 && !links.back().connected) lost_at = now;
        }
    }
    std::printf("noise: %zu bytes, %zu packets framed by chance, lost after %lld ms, %zu dumps asked before\n",
                static_cast<std::size_t>(2400 * 400), s.framer_stats().packets,
                static_cast<long long>(lost_at - silent_at), dumps_before_lost);
    CHECK(s.framer_stats().packets > 0); // the noise did frame packets
    // Gone once 3 keep-alives (1.5 s apart) went unanswered.
    REQUIRE(lost_at >= 0);
    CHECK(lost_at - silent_at <= 7000);
    // One board dump per second at most while it counted as there.
    CHECK(dumps_before_lost <= static_cast<std::size_t>((lost_at - silent_at) / DeviceSession::kMinResyncIntervalMs + 1));
}
