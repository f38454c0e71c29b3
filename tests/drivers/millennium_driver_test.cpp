// The Millennium driver on byte buffers with simulated time (RecordingHost), and wired straight
// to the emulator's board model (DirectLink): start-up, E2ROM written only when it differs,
// reports between a command and its acknowledgement, orientation from the start position,
// square changes, retries, keep-alive, LEDs, parity counting.
#include "base/placement.hpp"
#include "harness.hpp"
#include "drivers/emu/millennium_emu.hpp"
#include "drivers/millennium/driver.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::millennium;
using Bytes = std::vector<std::uint8_t>;

namespace {

/// A status report's text: "s" and the 64 squares.
std::string report(const std::string& squares) {
    return message('s', {squares});
}

const std::string kStart = status_from_board(BoardReading::start_position(), SquareOrder::H1First);

/// The board model scans every 40.96 ms from power-on at time 0: the time of its next scan
/// after `now`, ms (the Loopback ticks it every ms).
TimeMs next_scan_ms(TimeMs now) {
    const TimeMs k = now * 1000 / 40960 + 1;
    return (k * 40960 + 999) / 1000;
}

MillenniumOptions fast() {
    MillenniumOptions o;
    o.startup_delay_ms = 0;
    return o;
}

/// The model and the driver wired together, started.
struct Wired {
    emu::MillenniumBoardEmu board;
    MillenniumDriver driver;
    Loopback link;
    explicit Wired(emu::MillenniumEmulatorOptions eo = {}, MillenniumOptions o = fast())
        : board(std::move(eo)), driver(o), link(board, driver) {}
    bool ready() {
        return link.run_until([&] { return driver.ready() && !link.host.all<BoardSnapshot>().empty(); },
                              10000);
    }
};

} // namespace

TEST_CASE("millennium: event-driven ticks: start-up delay, version retry, keep-alive of an idle board") {
    RecordingHost host;
    MillenniumOptions o;
    MillenniumDriver d(o);
    d.start(host, 0);
    CHECK(d.next_tick_ms(0) == o.startup_delay_ms);
    d.on_tick(o.startup_delay_ms);
    CHECK(d.next_tick_ms(o.startup_delay_ms) == o.startup_delay_ms + o.version_retry_ms);
    Wired w;
    REQUIRE(w.ready());
    w.link.run(100);  // the start-up's replies are in
    const TimeMs now = w.link.now;
    CHECK(w.driver.next_tick_ms(now) > now + 1000);  // not polled: the next keep-alive
    CHECK(w.driver.next_tick_ms(now) <= now + o.keepalive_ms);
}

TEST_CASE("millennium start-up: V, version, report mode read then written, status, dump") {
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    CHECK(host.take_sent() == encode("V"));
    feed(d, encode("v0103"), 10);
    const auto info = host.all<DeviceInfo>();
    REQUIRE(info.size() == 1);
    CHECK(info[0].driver == "millennium");
    CHECK(info[0].version_major == 1);
    CHECK(info[0].version_minor == 3);
    CHECK(host.take_sent() == encode("R02"));
    feed(d, encode("r0200"), 20); // every scan (the board's default): set "on change", debounced
    CHECK(host.take_sent() == encode("W0204"));
    feed(d, encode("w0204"), 30);
    CHECK(host.take_sent() == encode("S"));
    CHECK_FALSE(d.ready());
    feed(d, encode(report(kStart)), 40);
    CHECK(d.ready());
    REQUIRE(host.all<BoardSnapshot>().size() == 1);
    CHECK(host.all<BoardSnapshot>()[0].board == BoardReading::start_position());
}

TEST_CASE("millennium 7 E2ROM: nothing written when the report mode is already right") {
    RecordingHost host;
    MillenniumOptions o = fast();
    o.debounce = 2;
    MillenniumDriver d(o);
    d.start(host, 0);
    d.on_tick(1);
    feed(d, encode("v0103"), 10);
    host.take_sent();
    feed(d, encode("r0205"), 20); // 3 + 2
    CHECK(host.take_sent() == encode("S"));
}

TEST_CASE("millennium 3 a status report between a command and its acknowledgement") {
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    feed(d, encode("v0103"), 10);
    host.take_sent();                    // R02 in flight
    feed(d, encode(report(kStart)), 15); // the board reports every scan until told otherwise
    CHECK(host.sent.empty());            // still waiting for 'r'
    feed(d, encode("r0204"), 20);
    CHECK(host.take_sent() == encode("S"));
    CHECK(host.all<BoardSnapshot>().size() == 1);
}

TEST_CASE("millennium 5 auto orientation: a start position read the wrong way round turns it") {
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    feed(d, encode("v0103"), 10);
    feed(d, encode("r0204"), 20);
    // The board reports a8 first (the document's order, "cable left").
    const std::string a8 = status_from_board(BoardReading::start_position(), SquareOrder::A8First);
    feed(d, encode(report(a8)), 30);
    CHECK(d.order() == SquareOrder::A8First);
    REQUIRE(host.all<BoardSnapshot>().size() == 1);
    CHECK(host.all<BoardSnapshot>()[0].board == BoardReading::start_position());
    // e2-e4 in the same order: two square changes, a middle game keeps the orientation.
    BoardReading after = BoardReading::start_position();
    after.set(Square::parse("e2"), Piece::None);
    after.set(Square::parse("e4"), Piece::WPawn);
    feed(d, encode(report(status_from_board(after, SquareOrder::A8First))), 40);
    const auto ch = host.all<SquareChange>();
    REQUIRE(ch.size() == 2);
    CHECK(ch[0].square == Square::parse("e4")); // a8-first scan reaches rank 4 before rank 2
    CHECK(ch[0].reading.piece == Piece::WPawn);
    CHECK(ch[1].square == Square::parse("e2"));
    CHECK_FALSE(ch[1].reading.occupied);
    CHECK(d.board() == after);
    CHECK(d.order() == SquareOrder::A8First);
}

TEST_CASE("millennium 5 fixed orientation is never changed by a start position") {
    RecordingHost host;
    MillenniumOptions o = fast();
    o.orientation = Orientation::H1First;
    MillenniumDriver d(o);
    d.start(host, 0);
    d.on_tick(1);
    feed(d, encode("v0103"), 10);
    feed(d, encode("r0204"), 20);
    feed(d, encode(report(status_from_board(BoardReading::start_position(), SquareOrder::A8First))),
         30);
    CHECK(d.order() == SquareOrder::H1First);
    CHECK(write_placement(d.board()) == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr");
}

TEST_CASE("millennium unanswered commands are sent again, then given up") {
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    host.take_sent();
    feed(d, encode("v0103"), 10);
    CHECK(host.take_sent() == encode("R02"));
    int resends = 0;
    for (TimeMs t = 100; t < 5000; t += 100) {
        d.on_tick(t);
        const Bytes sent = host.take_sent();
        if (sent == encode("R02"))
            ++resends;
        else if (!sent.empty()) {
            CHECK(sent == encode("S")); // after giving up on R02, the status is asked for
            break;
        }
        feed(d, encode("x"), t); // something keeps arriving: no keep-alive confusion
    }
    CHECK(resends == 2);
}

TEST_CASE("millennium keep-alive: silence brings V pings, 3 missed mean the board is gone") {
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    feed(d, encode("v0103"), 10);
    feed(d, encode("r0204"), 20);
    feed(d, encode(report(kStart)), 30);
    REQUIRE(d.ready());
    host.take_sent();
    int pings = 0;
    TimeMs t = 30;
    for (; t < 30000 && host.all<LinkStatus>().empty(); t += 100) {
        d.on_tick(t);
        if (host.take_sent() == encode("V")) ++pings;
    }
    CHECK(pings == 4); // 3 unanswered pings, then the start-up's V
    REQUIRE(host.all<LinkStatus>().size() == 1);
    CHECK_FALSE(host.all<LinkStatus>()[0].connected);
    CHECK_FALSE(d.ready());
    CHECK(t - 30 >= 4 * 3000);         // reports come only on change: silence alone is no alarm
    feed(d, encode("v0103"), t + 100); // back again: the start-up runs again
    CHECK(host.all<LinkStatus>().back().connected);
    CHECK(host.take_sent() == encode("R02"));
}

TEST_CASE("millennium driver + board model: start-up, E2ROM, moves, dump on request") {
    Wired w;
    REQUIRE(w.ready());
    REQUIRE(w.link.run_until([&] { return w.board.commands().size() == 4; }, 10000));
    CHECK(w.board.commands() == std::vector<std::string>{"V", "R02", "W0204", "S"});
    CHECK(w.board.e2rom()[e2rom::auto_report] == e2rom::report_on_change + kDefaultDebounce);
    CHECK(w.board.e2rom_writes() == 1);
    REQUIRE(w.link.host.all<DeviceInfo>().size() == 1);
    w.board.lift(Square::parse("g1"), w.link.now);
    w.board.place(Square::parse("f3"), Piece::WKnight, w.link.now);
    REQUIRE(w.link.run_until([&] { return w.driver.board() == w.board.position(); }, 10000));
    const auto ch = w.link.host.all<SquareChange>();
    REQUIRE(ch.size() == 2);
    w.driver.request_board_dump();
    REQUIRE(w.link.run_until([&] { return w.link.host.all<BoardSnapshot>().size() == 2; }, 10000));
    CHECK(w.link.host.all<BoardSnapshot>().back().board == w.board.position());
    // A second power-up with the same E2ROM (it persists): nothing is written again.
    emu::MillenniumEmulatorOptions eo;
    eo.e2rom = w.board.e2rom();
    Wired again(eo);
    REQUIRE(again.ready());
    REQUIRE(again.link.run_until([&] { return again.board.commands().size() == 3; }, 10000));
    CHECK(again.board.commands() == std::vector<std::string>{"V", "R02", "S"});
    CHECK(again.board.e2rom_writes() == 0);
}

TEST_CASE("millennium 3 replies come late, reports every scan come first: matched by letter") {
    emu::MillenniumEmulatorOptions eo;
    eo.reply_latency_ms = 300;
    MillenniumOptions o = fast();
    o.reply_timeout_ms = 1000;
    Wired w(eo, o);
    REQUIRE(w.ready());
    REQUIRE(w.link.run_until([&] { return w.board.commands().size() >= 4; }, 10000));
    REQUIRE(w.link.run_until([&] { return w.link.host.all<DeviceInfo>().size() == 1; }, 10000));
    // No command was sent twice: each late reply was matched by its letter among the reports.
    CHECK(w.board.commands() == std::vector<std::string>{"V", "R02", "W0204", "S"});
    CHECK(w.board.status_reports() > 5); // 40.96 ms reports went out while the replies were late
}

TEST_CASE("millennium 6 LEDs: squares light their four corners in the board's order") {
    Wired w;
    REQUIRE(w.ready());
    w.driver.show_squares(bb(Square::parse("e2")) | bb(Square::parse("e4")));
    REQUIRE(w.link.run_until([&] { return w.board.led_slot_time() == 0x20; }, 10000));
    std::vector<int> lit;
    for (int k = 0; k < led_count; ++k)
        if (w.board.leds()[static_cast<std::size_t>(k)] == 0xff) lit.push_back(k);
    // H1 first: e2 is d7 of the document's frame, e4 is d5 (1-based 29, 30, 38, 39 and 31, 32, 40,
    // 41).
    CHECK(lit == std::vector<int>{28, 29, 30, 31, 37, 38, 39, 40});
    REQUIRE(w.driver.leds() != nullptr);
    w.driver.leds()->set_leds(0);  // the core's LedControl: none lit is `X`
    REQUIRE(w.link.run_until([&] {
        return std::all_of(w.board.leds().begin(), w.board.leds().end(),
                           [](std::uint8_t c) { return c == 0; });
    }, 10000));
    CHECK(w.board.commands().back() == "X");
}

TEST_CASE("millennium 4 Performance: L and X are not waited for") {
    RecordingHost host;
    MillenniumOptions o = fast();
    o.quirks = quirk::no_ack;
    MillenniumDriver d(o);
    d.start(host, 0);
    d.on_tick(1);
    feed(d, encode("v0103"), 10);
    feed(d, encode("r0204"), 20);
    feed(d, encode(report(kStart)), 30);
    host.take_sent();
    d.leds_off();
    d.show_squares(bb(Square::parse("a1")));
    const Bytes sent = host.take_sent();
    CHECK(sent.size() == 3 + 167); // both at once, no 'x' awaited
}

TEST_CASE("millennium 2 parity: wrong bits counted on an 8-bit line, not for eONE") {
    Bytes damaged = encode(report(kStart));
    damaged[3] ^= 0x80;
    for (const bool eone : {false, true}) {
        RecordingHost host;
        MillenniumOptions o = fast();
        if (eone) o.quirks = quirk::parity_unreliable;
        MillenniumDriver d(o);
        d.start(host, 0);
        d.on_tick(1);
        feed(d, encode("v0103"), 10);
        feed(d, encode("r0204"), 20);
        feed(d, damaged, 30);
        CHECK(d.ready()); // the message is taken: its block check holds
        CHECK(d.parity_errors() == (eone ? 0 : 1));
    }
    // A 7-bit line (a 7O1 UART strips bit 7): nothing to count.
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    Bytes seven = encode("v0103");
    for (auto& b : seven) b &= 0x7f;
    feed(d, seven, 10);
    CHECK(d.parity_errors() == 0);
    CHECK(host.all<DeviceInfo>().size() == 1);
}

TEST_CASE("millennium status reports without any version reply still bring the board up") {
    RecordingHost host;
    MillenniumDriver d(fast());
    d.start(host, 0);
    d.on_tick(1);
    CHECK(host.take_sent() == encode("V"));
    feed(d, encode(report(kStart)), 10); // e.g. a Performance board that ignores V but reports
    CHECK(host.all<BoardSnapshot>().size() == 1);
    CHECK(host.take_sent() == encode("V")); // asked once more, through the command queue
    CHECK(host.all<DeviceInfo>().empty());
    feed(d, encode("v0200"), 20);
    REQUIRE(host.all<DeviceInfo>().size() == 1);
    CHECK(host.all<DeviceInfo>()[0].version_major == 2);
    CHECK(host.take_sent() == encode("R02"));
}

TEST_CASE("millennium 7 default debounce: a sensor glitch of one 40.96 ms scan never leaves the board") {
    Wired w; // the default options
    REQUIRE(w.ready());
    const std::size_t before = w.link.host.all<SquareChange>().size();
    // Right after a scan, e2 reads empty until just after the next one: one scan sees it.
    w.link.run(next_scan_ms(w.link.now) + 1 - w.link.now);
    w.board.lift(Square::parse("e2"), w.link.now);
    w.link.run(40);
    w.board.place(Square::parse("e2"), Piece::WPawn, w.link.now);
    w.link.run(500);
    CHECK(w.link.host.all<SquareChange>().size() == before);
    // A piece that stays lifted is reported, one scan later than without the debounce.
    const TimeMs lifted = w.link.now;
    w.board.lift(Square::parse("g1"), w.link.now);
    REQUIRE(w.link.run_until([&] { return w.link.host.all<SquareChange>().size() == before + 1; }, 1000));
    CHECK(w.link.now - lifted <= 2 * 41 + 1);
}
