// The Chessnut driver through the real libusb transport, against ChessnutEmulator served as a
// fake USB HID device under umockdev: open_device("chessnut:usb") finds it by the registry's
// VID:PID table, the start-up runs at the real 200 ms spacing, reports and commands go both
// ways, a subset of the games is played, and the board is unplugged and plugged in again in
// the middle of a game (hotplug monitor + a new session).
#include "usb_harness.hpp"

#include "tests/drivers/chessnut_harness.hpp"
#include "tests/drivers/game_play.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::chessnut;
using namespace eboard::drivers::test;

namespace {

emu::FakeUsbDescription air(int address) {
    emu::FakeUsbDescription d;  // 2d80:8002, interrupt IN 81 and OUT 02, usbhid bound
    d.address = address;
    d.port = std::to_string(address);
    return d;
}

/// The driver in a session over libusb on the fake bus.
std::unique_ptr<Transport> open_chessnut(std::string_view address = {}) {
    auto t = open_transport(parse_transport(address.empty() ? "usb" : "usb:" + std::string(address)).value(),
                            SerialSettings{}, find_driver("chessnut")->usb_ids);
    INFO((t.has_value() ? std::string() : t.error().message));
    REQUIRE(t.has_value());
    // cppcheck-suppress returnStdMoveLocal ; moves out of the Expected, no local to elide
    return std::move(t.value());
}

/// Plays moves [from, to) of `g` on the emulator; the driver must follow each.
void play_moves(ChessnutHarness& h, const PgnGame& g, int from, int to) {
    int i = 0;
    (void)for_each_move(g, [&](const BoardReading& before, const BoardReading& after) {
        const int n = i++;
        if (n < from || n >= to) return;
        play_on_board(*h.emu, before, after);
        REQUIRE(h.pump_until([&] { return h.driver->board() == after; }, kEventDeadlineMs));
    });
}

} // namespace

TEST_CASE("chessnut over libusb: found by VID:PID, usbhid detached, start-up at 200 ms spacing") {
    UsbBus b;
    auto e = std::make_shared<emu::ChessnutEmulator>();
    const int id = b.bus.plug(air(4), e);
    std::vector<DriverEvent> events;
    auto s = open_device("chessnut:usb", [&](const DriverEvent& ev) { events.push_back(ev); });
    REQUIRE(s.has_value());
    DeviceSession& session = *s.value();
    session.start();
    CHECK(b.bus.stats(id).kernel_detaches == 1);
    const auto driver = dynamic_cast<ChessnutDriver*>(&session.driver());
    REQUIRE(driver != nullptr);
    const TimeMs end = steady_now_ms() + kEventDeadlineMs;
    const auto battery = [&] {
        return std::any_of(events.begin(), events.end(), [](const DriverEvent& ev) { return std::holds_alternative<BatteryInfo>(ev); });
    };
    while (!(driver->ready() && battery()) && steady_now_ms() < end) session.poll(20);
    REQUIRE(driver->ready());
    REQUIRE(battery());
    CHECK(driver->board() == BoardReading::start_position());
    const auto link = std::get<LinkStatus>(events.front());
    CHECK(link.connected);
    CHECK(link.reason == "usb:1.4 (2d80:8002)");
    // realtime, MCU version, BLE version, battery: each 200 ms after the one before.
    const auto cmds = e->commands();
    REQUIRE(cmds.size() >= 4);
    CHECK(cmds[0] == std::vector<std::uint8_t>{0x21, 0x01, 0x00});
    CHECK(cmds[3] == std::vector<std::uint8_t>{0x29, 0x01, 0x00});
    CHECK(e->spacing_violations() == 0);
    CHECK(b.bus.stats(id).out_reports == static_cast<int>(cmds.size()));
}

TEST_CASE("chessnut over libusb: any PID 80xx-86xx as the SDK takes them, the HID interface on usage page FF00") {
    // Issue 23: the vendor SDK takes every product id whose high byte is 0x80..0x86 and opens
    // the HID interface whose usage page is 0xFF00, not the first HID interface.
    UsbBus b;
    auto d = air(7);
    d.pid = 0x8405;                      // in the SDK's range, in no list of ids seen
    d.keyboard_interface_first = true;  // interface 0: a keyboard; the board is interface 1
    auto e = std::make_shared<emu::ChessnutEmulator>(ChessnutHarness::fast_emulator());
    const int id = b.bus.plug(d, e);
    auto other = air(8);
    other.pid = 0x8700;                  // outside the range: not a Chessnut board
    const int outside = b.bus.plug(other, std::make_shared<emu::ChessnutEmulator>());
    const auto boards = list_usb_boards();
    REQUIRE(boards.has_value());
    REQUIRE(boards->size() == 1);
    CHECK(boards->front().str() == "usb:1.7 (2d80:8405)");
    ChessnutHarness h(e, open_chessnut());  // the first Chessnut on the bus: the 8405
    REQUIRE(h.ready());
    h.emu->move(Square::parse("e2"), Square::parse("e4"));
    REQUIRE(h.pump_until([&] { return h.driver->board().at(Square::parse("e4")).piece == Piece::WPawn; }));
    h.driver->set_leds(bb(Square::parse("e4")));
    REQUIRE(h.pump_until([&] { return h.emu->leds() == bb(Square::parse("e4")); }));
    CHECK(b.bus.stats(id).claimed);
    CHECK(b.bus.stats(id).in_reports >= 2);
    CHECK(b.bus.stats(outside).opens == 0);
}

TEST_CASE("HID report descriptors: the usage page of each top-level collection") {
    const std::vector<std::uint8_t> vendor = {0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x09, 0x01,
                                              0xa1, 0x00, 0x05, 0x01, 0xc0, 0xc0};
    CHECK(hid_top_level_usage_pages(vendor) == std::vector<std::uint16_t>{0xff00});
    const std::vector<std::uint8_t> two = {0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0xc0,
                                           0xfe, 0x01, 0x10, 0x00,  // a long item, skipped
                                           0x06, 0x00, 0xff, 0xa1, 0x01, 0xc0};
    CHECK(hid_top_level_usage_pages(two) == std::vector<std::uint16_t>{0x0001, 0xff00});
    const std::vector<std::uint8_t> cut = {0x06, 0x00};  // truncated: nothing read
    CHECK(hid_top_level_usage_pages(cut).empty());
}

TEST_CASE("chessnut over libusb: moves, LEDs and beep at usb:BUS.ADDR, by interrupt OUT or SET_REPORT") {
    UsbBus b;
    for (const bool out_endpoint : {true, false}) {
        INFO((out_endpoint ? "interrupt OUT" : "SET_REPORT"));
        auto d = air(out_endpoint ? 5 : 6);
        if (!out_endpoint) d.out_endpoint = 0;
        auto e = std::make_shared<emu::ChessnutEmulator>(ChessnutHarness::fast_emulator());
        const int id = b.bus.plug(d, e);
        ChessnutHarness h(e, open_chessnut("1." + std::to_string(d.address)));
        REQUIRE(h.ready());
        h.emu->move(Square::parse("e2"), Square::parse("e4"));
        REQUIRE(h.pump_until([&] { return h.driver->board().at(Square::parse("e4")).piece == Piece::WPawn; }));
        h.driver->set_leds(bb(Square::parse("e4")));
        h.driver->beep(1000, 200);
        REQUIRE(h.pump_until([&] { return h.emu->leds() == bb(Square::parse("e4")) && h.emu->beeps() == 1; }));
        const auto st = b.bus.stats(id);
        CHECK((out_endpoint ? st.out_reports : st.set_reports) >= 5);
        CHECK((out_endpoint ? st.set_reports : st.out_reports) == 0);
        CHECK(st.in_reports >= 3);
        b.bus.unplug(id);
    }
}

TEST_CASE("chessnut over libusb: games through umockdev, both orientations, with noise") {
    UsbBus b;
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1);
    const auto c960 = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/cutechess-fischerrandom.pgn", 1);
    int address = 2;
    for (const auto& g : {games.at(0), c960.at(0)}) {
        for (const bool rotated : {false, true}) {
            INFO((g.chess960 ? "Chess960" : "Kasparov-Deep Blue") << (rotated ? " rotated" : ""));
            auto eo = ChessnutHarness::fast_emulator();
            eo.position = game_boards(g).front();
            eo.rotated = rotated;
            eo.noise_probability = 0.05;
            eo.invalid_probability = 0.05;
            auto e = std::make_shared<emu::ChessnutEmulator>(eo);
            const int id = b.bus.plug(air(address++), e);
            ChessnutHarness h(e, open_chessnut());
            REQUIRE(h.ready());
            CHECK(h.driver->rotated() == rotated);
            play_moves(h, g, 0, static_cast<int>(g.san.size()));
            CHECK(h.driver->board() == h.emu->position());
            b.bus.unplug(id);
        }
    }
}

TEST_CASE("chessnut over libusb: unplugged and plugged in again in the middle of a game") {
    UsbBus b;
    auto monitor = open_usb_monitor("chessnut");
    REQUIRE(monitor.has_value());
    UsbMonitor& m = *monitor.value();
    CHECK(m.poll(0).empty());  // nothing connected yet

    // Plugged in after the monitor started: the arrival is reported, then the board opened.
    auto e = std::make_shared<emu::ChessnutEmulator>(ChessnutHarness::fast_emulator());
    const int first = b.bus.plug(air(3), e);
    auto arrived = poll_events(m, 1);
    REQUIRE(arrived.size() == 1);
    CHECK(arrived[0].arrived);
    CHECK(arrived[0].board.driver == "chessnut");
    ChessnutHarness h(e, open_chessnut(arrived[0].board.where.str()));
    REQUIRE(h.ready(kEventDeadlineMs));

    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/molinari-bordais-1979.pgn", 1);
    const PgnGame& g = games.at(0);
    const int half = static_cast<int>(g.san.size()) / 2;
    play_moves(h, g, 0, half);

    // Unplugged mid-game: the session reports the link down, the monitor the departure.
    b.bus.unplug(first);
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }, kEventDeadlineMs));
    REQUIRE(h.last<LinkStatus>().has_value());
    CHECK_FALSE(h.last<LinkStatus>()->connected);
    CHECK(h.last<LinkStatus>()->reason.find("unplugged") != std::string::npos);
    auto left = poll_events(m, 1);
    REQUIRE(left.size() == 1);
    CHECK_FALSE(left[0].arrived);
    CHECK(m.present().empty());

    // Plugged in again (a new address, as on real hardware): found, reopened, the game goes on
    // from the position standing on the board.
    const BoardReading standing = h.emu->position();
    (void)b.bus.plug(air(9), e);
    auto back = poll_events(m, 1);
    REQUIRE(back.size() == 1);
    CHECK(back[0].board.where == UsbAddress{1, 9});
    h.connect(open_chessnut());
    REQUIRE(h.pump_until([&] { return h.driver->ready(); }, kEventDeadlineMs));
    CHECK(h.driver->board() == standing);
    CHECK(h.last<LinkStatus>()->connected);
    play_moves(h, g, half, static_cast<int>(g.san.size()));
    CHECK(h.driver->board() == h.emu->position());
}
