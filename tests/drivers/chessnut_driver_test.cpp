// The Chessnut driver on byte buffers with simulated time (RecordingHost): start-up, the
// 200 ms write spacing, realtime-mode retries, decoding with orientation, repeated and invalid
// reports, LEDs, beep, battery, versions, board dumps and resync.
#include "base/placement.hpp"
#include "harness.hpp"

#include "drivers/chessnut/driver.hpp"
#include "drivers/core/event_text.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::chessnut;
using namespace eboard::drivers::test;

namespace {

std::vector<std::uint8_t> v(std::span<const std::uint8_t> s) { return {s.begin(), s.end()}; }

std::vector<std::uint8_t> position(const std::string& fen, bool rotated = false) {
    return v(encode_position(read_placement(fen, true).value(), rotated));
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// A started driver with the writes of its start-up drained.
struct Fixture {
    RecordingHost host;
    ChessnutDriver driver;
    TimeMs now = 1000;
    explicit Fixture(ChessnutOptions o = {}) : driver(o) { driver.start(host, now); }
    void advance(TimeMs ms) {
        for (TimeMs t = 0; t < ms; t += 50) {
            now += 50;
            driver.on_tick(now);
        }
    }
    void packet(const std::vector<std::uint8_t>& p) { driver.on_packet(p, now); }
};

} // namespace

TEST_CASE("chessnut 3 start-up: realtime mode first, then versions and battery, 200 ms apart") {
    Fixture f;
    CHECK(f.host.take_sent() == v(realtime_mode));  // at once
    f.driver.on_tick(f.now + 150);
    CHECK(f.host.sent.empty());  // the SDK's WRITE_INTERVAL (2)
    f.driver.on_tick(f.now + 200);
    CHECK(f.host.take_sent() == v(mcu_version_request));
    f.driver.on_tick(f.now + 399);
    CHECK(f.host.sent.empty());
    f.driver.on_tick(f.now + 400);
    CHECK(f.host.take_sent() == v(ble_version_request));
    f.driver.on_tick(f.now + 600);
    CHECK(f.host.take_sent() == v(battery_request));
    CHECK(f.driver.queued_commands() == 0);
    CHECK_FALSE(f.driver.ready());
}

TEST_CASE("chessnut 2 the 200 ms count from the end of a write a busy machine held up") {
    // A host with a clock whose writes take 40 ms or 1 ms in turn to reach the board
    // (umockdev's worker thread on a loaded machine): the board must still see 200 ms between
    // two writes.
    struct SlowHost final : DriverHost {
        TimeMs clock = 1000;
        std::vector<TimeMs> arrived;  // when each write reached the board
        void send(std::span<const std::uint8_t>) override { arrived.push_back(clock += arrived.size() % 2 ? 1 : 40); }
        void emit(DriverEvent) override {}
        [[nodiscard]] std::optional<TimeMs> clock_ms() const override { return clock; }
    } host;
    ChessnutDriver driver;
    driver.start(host, host.clock);
    for (int i = 0; i < 200 && host.arrived.size() < 4; ++i) driver.on_tick(host.clock += 10);
    REQUIRE(host.arrived.size() == 4);  // realtime mode, two versions, battery
    for (std::size_t i = 1; i < host.arrived.size(); ++i) CHECK(host.arrived[i] - host.arrived[i - 1] >= 200);
}

TEST_CASE("chessnut 3 realtime mode is sent again until a position report arrives") {
    ChessnutOptions o;
    o.quirks = 0;
    Fixture f(o);
    f.host.take_sent();
    f.advance(900);
    CHECK(f.host.take_sent() == std::vector<std::uint8_t>{0x27, 0x01, 0x01, 0x27, 0x01, 0x00});
    f.advance(200);
    CHECK(f.host.take_sent() == v(realtime_mode));
    f.packet(position(kStart));
    f.advance(5000);
    CHECK(f.host.sent.empty());  // silence is normal once reports come: no keep-alive
    CHECK(f.driver.ready());
}

TEST_CASE("chessnut: event-driven ticks: write slots and the realtime retry, nothing once reports come") {
    ChessnutOptions o;
    o.quirks = 0;
    Fixture f(o);
    CHECK(f.driver.next_tick_ms(f.now) == f.now + 200);  // the version requests' write slot
    f.advance(400);
    f.host.take_sent();
    CHECK(f.driver.next_tick_ms(f.now) == 1000 + o.realtime_retry_ms);  // no position yet
    f.packet(position(kStart));
    CHECK(f.driver.next_tick_ms(f.now) == kNoTick);  // an idle board costs no wake-up
}

TEST_CASE("chessnut 4 every changed report is a board dump, repeats are ignored") {
    Fixture f;
    f.packet(position(kStart));
    f.packet(position(kStart));
    f.packet(position("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"));
    const auto dumps = f.host.all<BoardSnapshot>();
    REQUIRE(dumps.size() == 2);
    CHECK(write_placement(dumps[0].board) == kStart);
    CHECK(write_placement(dumps[1].board) == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR");
    CHECK(dumps[1].t_ms == f.now);
    const auto info = f.host.all<DeviceInfo>();
    REQUIRE(info.size() == 1);
    CHECK(info[0].driver == "chessnut");
}

TEST_CASE("chessnut 4 a report with an invalid piece code is dropped, the board stands") {
    Fixture f;
    f.packet(position(kStart));
    auto bad = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
    bad[10] = 0x0e;
    f.packet(bad);
    CHECK(f.driver.invalid_reports() == 1);
    CHECK(f.host.all<BoardSnapshot>().size() == 1);
    CHECK(write_placement(f.driver.board()) == kStart);
}

TEST_CASE("chessnut 7 auto orientation: white at the far side turns the board round") {
    Fixture f;
    f.packet(position(kStart, true));
    CHECK(f.driver.rotated());
    CHECK(write_placement(f.host.all<BoardSnapshot>().back().board) == kStart);
    // e2-e4 on the turned board arrives as the board's d7-d5.
    f.packet(position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", true));
    CHECK(write_placement(f.host.all<BoardSnapshot>().back().board) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
    // Set up again the normal way: turned back.
    f.packet(position(kStart));
    CHECK_FALSE(f.driver.rotated());
    CHECK(write_placement(f.host.all<BoardSnapshot>().back().board) == kStart);
}

TEST_CASE("chessnut 7 a fixed orientation is kept whatever stands on the board") {
    ChessnutOptions o;
    o.orientation = Orientation::Rotated;
    Fixture f(o);
    f.packet(position(kStart));
    CHECK(f.driver.rotated());
    CHECK(write_placement(f.host.all<BoardSnapshot>().back().board) == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr");
    CHECK_FALSE(ChessnutOptions::from_params(DriverOptions{"", {{"orientation", "sideways"}}}).has_value());
    CHECK_FALSE(ChessnutOptions::from_params(DriverOptions{"", {{"write-spacing-ms", "x"}}}).has_value());
    CHECK(ChessnutOptions::from_params(DriverOptions{"", {{"write-spacing-ms", "0"}}})->write_spacing_ms == 0);
}

TEST_CASE("chessnut 5 LEDs: the whole state is sent, a newer state replaces one waiting") {
    ChessnutOptions o;
    o.quirks = 0;
    o.orientation = Orientation::Normal;
    Fixture f(o);
    f.packet(position(kStart));
    f.advance(1000);
    f.host.take_sent();
    f.driver.set_leds(bb(Square::parse("e2")));
    f.driver.on_tick(f.now + 1);
    CHECK(f.host.take_sent() == v(led_command(bb(Square::parse("e2")), false)));
    f.driver.set_leds(bb(Square::parse("e4")));
    f.driver.set_leds(bb(Square::parse("e2")) | bb(Square::parse("e4")));  // before the 200 ms slot
    CHECK(f.driver.queued_commands() == 1);
    f.driver.on_tick(f.now + 250);
    CHECK(f.host.take_sent() == v(led_command(bb(Square::parse("e2")) | bb(Square::parse("e4")), false)));
    f.driver.beep(1000, 200);
    f.driver.on_tick(f.now + 500);
    CHECK(f.host.take_sent() == v(beep_command(1000, 200)));
    REQUIRE(f.driver.leds() == &f.driver);
}

TEST_CASE("chessnut 5 LEDs follow the orientation the driver found") {
    ChessnutOptions o;
    o.quirks = 0;
    Fixture f(o);
    f.driver.set_leds(bb(Square::parse("c3")));
    f.packet(position(kStart, true));  // turned round: LEDs sent again, mapped
    f.advance(1000);
    const auto sent = f.host.take_sent();
    const auto want = v(led_command(bb(Square::parse("c3")), true));
    CHECK(std::search(sent.begin(), sent.end(), want.begin(), want.end()) != sent.end());
}

TEST_CASE("chessnut 6 battery reports in both encodings, versions as firmware") {
    Fixture f;
    f.packet({0x2a, 0x02, 0x58, 0x00});
    f.packet({0x2a, 0x02, 0xe4, 0x00});
    f.packet({0x2a, 0x02, 0x00, 0x00});
    const auto b = f.host.all<BatteryInfo>();
    REQUIRE(b.size() == 2);
    CHECK(b[0].percent == 88);
    CHECK_FALSE(b[0].charging);
    CHECK(b[0].discharging);
    CHECK(b[1].percent == 100);
    CHECK(b[1].charging);
    f.packet(encode_version({true, "CN_DVT9_210659"}));
    f.packet(encode_version({false, "CNCA100_V201"}));
    CHECK(describe(f.host.all<DeviceInfo>().back()) == "info driver=chessnut firmware=\"CN_DVT9_210659 BLE CNCA100_V201\"");
    f.packet({0x32, 0x01, 0x03});
    f.packet({0x37, 0x01, 0xbe});
    f.packet({0x55, 0x00});
    CHECK(f.host.all<BoardSnapshot>().empty());
}

TEST_CASE("chessnut 6 battery: polled without the unsolicited quirk, asked once with it") {
    ChessnutOptions o;
    o.battery_poll_ms = 10000;
    Fixture polled(o);
    polled.advance(25000);
    const auto a = polled.host.take_sent();
    CHECK(std::count(a.begin(), a.end(), cmd::battery) == 3);
    o.quirks = quirk::battery | quirk::unsolicited_battery;
    Fixture pushed(o);
    pushed.advance(25000);
    const auto b = pushed.host.take_sent();
    CHECK(std::count(b.begin(), b.end(), cmd::battery) == 1);
}

TEST_CASE("chessnut board dump: a fresh report is emitted even if unchanged, else the last one") {
    ChessnutOptions o;
    o.quirks = 0;
    Fixture f(o);
    f.packet(position(kStart));
    f.advance(1000);
    f.host.take_sent();
    f.driver.request_board_dump();
    f.advance(250);
    CHECK(f.host.take_sent() == v(realtime_mode));
    f.packet(position(kStart));
    CHECK(f.host.all<BoardSnapshot>().size() == 2);
    // The board does not answer: after realtime_retry_ms the last board is emitted.
    f.driver.request_board_dump();
    f.advance(1500);
    CHECK(f.host.all<BoardSnapshot>().size() == 3);
    CHECK(write_placement(f.host.all<BoardSnapshot>().back().board) == kStart);
}

TEST_CASE("chessnut resync asks for the position again, at most once a retry period") {
    ChessnutOptions o;
    o.quirks = 0;
    Fixture f(o);
    f.packet(position(kStart));
    f.advance(1000);
    f.host.take_sent();
    f.driver.on_resync(f.now);
    f.driver.on_resync(f.now + 10);
    f.advance(1000);
    CHECK(f.host.take_sent() == v(realtime_mode));
}
