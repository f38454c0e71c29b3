// The Certabo and Sentio drivers through the libserialport path: opened by URI on a fake USB
// serial port (FakeTty, umockdev) whose node leads to LineEmulator's pty, so the driver code
// that runs for /dev/ttyUSB* on a real machine (line settings, DTR, libserialport reads) runs
// here byte for byte. Checked on the fake device: 38400 8N1 and DTR cleared (certabo-sentio.md
// 1, as picochess); then calibration (Certabo), a game, and an unplug seen at once.
// Run under umockdev-wrapper (ctest does).
#include "serialport_harness.hpp"
#include "tests/drivers/line_harness.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

/// A board streaming a frame every 5 ms (real boards: about one a second).
emu::LineEmulatorOptions fast(emu::LineBoardKind kind) {
    emu::LineEmulatorOptions eo;
    eo.kind = kind;
    eo.frame_period_ms = 5;
    return eo;
}

/// A USB serial port with `vid:pid` as /dev/ttyUSB0.
emu::FakeTtyDescription usb_serial(std::uint16_t vid, std::uint16_t pid, std::string product) {
    emu::FakeTtyDescription d;
    d.name = "ttyUSB0";
    d.vid = vid;
    d.pid = pid;
    d.product = std::move(product);
    return d;
}

/// 38400 8N1, no flow control, raw, DTR cleared (certabo-sentio.md 1).
void check_line(const FakePort& port) {
    termios t{};
    REQUIRE(port.tty.line_settings(t));
    CHECK(cfgetospeed(&t) == B38400);
    CHECK((t.c_cflag & CSIZE) == CS8);
    CHECK_FALSE(t.c_cflag & PARENB);
    CHECK_FALSE(t.c_cflag & CSTOPB);
    CHECK_FALSE(t.c_cflag & CRTSCTS);
    CHECK_FALSE(t.c_lflag & (ICANON | ECHO));
    CHECK_FALSE(port.dtr());
    CHECK(port.cleared(TIOCM_DTR));
}

} // namespace

TEST_CASE("libserialport: certabo:/dev/ttyUSB0 on the CP210x id: 38400 8N1, DTR cleared, "
          "calibration, a game, unplug") {
    const DriverInfo* certabo = find_driver("certabo");
    REQUIRE(certabo != nullptr);
    REQUIRE_FALSE(certabo->usb_ids.empty());
    const UsbId id = certabo->usb_ids.front();  // 10c4:ea60
    FakePort port(usb_serial(id.vid, id.pid, "CP2102 USB to UART Bridge Controller"));
    emu::LineEmulator e(fast(emu::LineBoardKind::Certabo));
    port.attach(e.service());
    UriSession h("certabo:/dev/ttyUSB0", {});
    auto& d = h.driver<certabo::CertaboDriver>();
    REQUIRE(h.pump_until([&] { return d.calibrated() && !h.all<BoardSnapshot>().empty(); }));
    CHECK(h.all<BoardSnapshot>().front().board == BoardReading::start_position());
    CHECK(h.all<LinkStatus>().front().reason == "/dev/ttyUSB0");
    check_line(port);

    play(h, e, first_game("molinari-bordais-1979.pgn"), [&] { return d.board(); });
    d.set_leds(bb(Square::parse("d3")));
    REQUIRE(h.pump_until([&] { return e.leds() == bb(Square::parse("d3")); }));

    e.disconnect();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    CHECK_FALSE(h.last<LinkStatus>()->connected);
}

TEST_CASE("libserialport: sentio:/dev/ttyUSB0: 38400 8N1, DTR cleared, occupancy through a "
          "game") {
    // No Sentio USB id is known (certabo-sentio.md 1): any USB serial adapter, here a CH340.
    FakePort port(usb_serial(0x1a86, 0x7523, "USB Serial"));
    emu::LineEmulator e(fast(emu::LineBoardKind::Sentio));
    port.attach(e.service());
    UriSession h("sentio:/dev/ttyUSB0", {});
    auto& d = h.driver<sentio::SentioDriver>();
    REQUIRE(h.pump_until([&] { return !h.all<BoardSnapshot>().empty(); }));
    CHECK(h.all<BoardSnapshot>().front().board == seen(BoardReading::start_position(), emu::LineBoardKind::Sentio));
    check_line(port);

    const PgnGame g = first_game("kasparov-deep-blue-1997.pgn");
    const auto boards = game_boards(g);
    REQUIRE(boards.size() == g.san.size() + 1);
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << g.san[i - 1]);
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return d.board() == seen(boards[i], emu::LineBoardKind::Sentio); }));
    }
}
