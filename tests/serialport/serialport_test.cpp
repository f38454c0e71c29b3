// The libserialport path (drivers/core/serialport_transport.cpp), never run against a device
// before: the real DGT and Millennium drivers, opened by URI (`dgt:/dev/ttyACM0` picks
// libserialport) through open_device(), talk to the wire-level emulators behind a fake USB
// serial port in a umockdev testbed (FakeTty). Checked on the fake device: the modem lines
// (DTR, RTS) and line settings each model asks for, as far as a pty can show them.
// Run under umockdev-wrapper (ctest does).
#include "serialport_harness.hpp"
#include "tests/drivers/millennium_harness.hpp"

#include <libserialport.h>
#include <sys/ioctl.h>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

emu::FakeTtyDescription acm_with_dgt_id() {
    const DriverInfo* dgt = find_driver("dgt");
    REQUIRE(dgt != nullptr);
    REQUIRE_FALSE(dgt->usb_ids.empty());
    emu::FakeTtyDescription d; // CDC-ACM, as DGT's Microchip id (dgt.md 19)
    d.name = "ttyACM0";
    d.vid = dgt->usb_ids.front().vid;
    d.pid = dgt->usb_ids.front().pid;
    d.product = "DGT Board";
    return d;
}

emu::FakeTtyDescription ftdi() {
    emu::FakeTtyDescription d; // no Millennium USB id is known (millennium.md 1): any FTDI
    d.name = "ttyUSB0";
    d.vid = 0x0403;
    d.pid = 0x6001;
    d.product = "FT232R USB UART";
    d.serial = "A1234";
    return d;
}

} // namespace

TEST_CASE("libserialport lists the fake CDC-ACM port with the USB id the DGT registry declares") {
    FakePort port(acm_with_dgt_id());
    sp_port** ports = nullptr;
    REQUIRE(sp_list_ports(&ports) == SP_OK);
    bool found = false;
    for (int i = 0; ports[i]; ++i) {
        int vid = 0, pid = 0;
        if (std::string(sp_get_port_name(ports[i])) != "/dev/ttyACM0") continue;
        found = true;
        CHECK(sp_get_port_transport(ports[i]) == SP_TRANSPORT_USB);
        REQUIRE(sp_get_port_usb_vid_pid(ports[i], &vid, &pid) == SP_OK);
        CHECK(vid == 0x04d8);
        CHECK(pid == 0x000a);
    }
    sp_free_port_list(ports);
    CHECK(found);
}

TEST_CASE("libserialport: dgt:/dev/ttyACM0 runs the DGT driver: DTR and RTS on, 9600 8N1, a game, "
          "the clock") {
    FakePort port(acm_with_dgt_id());
    emu::DgtEmulator e;
    port.attach(e.service());
    DriverOptions opt;
    opt.params["startup-delay-ms"] = "0";
    UriSession h("dgt:/dev/ttyACM0", opt);
    auto& d = h.driver<dgt::DgtDriver>();
    REQUIRE(h.pump_until([&] { return d.ready() && !h.all<BoardSnapshot>().empty(); }));
    CHECK(h.all<BoardSnapshot>().front().board == BoardReading::start_position());
    CHECK(h.all<LinkStatus>().front().reason == "/dev/ttyACM0");

    // What the driver's line settings did to the device.
    CHECK(port.dtr());
    CHECK(port.rts());
    termios t{};
    REQUIRE(port.tty.line_settings(t));
    CHECK(cfgetospeed(&t) == B9600);
    CHECK((t.c_cflag & CSIZE) == CS8);
    CHECK_FALSE(t.c_cflag & PARENB);
    CHECK_FALSE(t.c_cflag & CSTOPB);
    CHECK_FALSE(t.c_cflag & CRTSCTS);
    CHECK_FALSE(t.c_iflag & (IXON | IXOFF));
    CHECK_FALSE(t.c_lflag & (ICANON | ECHO)); // raw

    play(h, e, first_game("molinari-bordais-1979.pgn"), [&] { return d.board(); });

    // The clock round trip through the same port.
    REQUIRE(h.pump_until([&] { return d.clock_model() == ClockModel::Dgt3000; }));
    d.set_and_run(5 * 60000, 3 * 60000, ClockRun::Left);
    REQUIRE(h.pump_until([&] {
        for (const auto& c : h.all<ClockCommandDone>())
            if (c.command == dgt::clk::setnrun && c.ok) return true;
        return false;
    }));
    CHECK(e.clock().run == ClockRun::Left);
}

TEST_CASE("libserialport: millennium.exclusive on an FTDI ttyUSB0: 38400 7O1, DTR cleared, RTS on, "
          "a game") {
    FakePort port(ftdi());
    emu::MillenniumEmulatorOptions eo;
    eo.order = millennium::SquareOrder::A8First;
    eo.instant_scan = true;
    emu::MillenniumEmulator e(eo);
    port.attach(e.service());
    DriverOptions opt;
    opt.params["startup-delay-ms"] = "0";
    UriSession h("millennium.exclusive:/dev/ttyUSB0", opt);
    auto& d = h.driver<millennium::MillenniumDriver>();
    REQUIRE(h.pump_until([&] { return d.ready() && !h.all<BoardSnapshot>().empty(); }));
    CHECK(d.order() == millennium::SquareOrder::A8First); // found from the start position

    CHECK_FALSE(port.dtr());
    CHECK(port.cleared(TIOCM_DTR)); // explicitly, as python-mchess does
    CHECK(port.rts());
    termios t{};
    REQUIRE(port.tty.line_settings(t));
    CHECK(cfgetospeed(&t) == B38400);
    CHECK((t.c_cflag & CSIZE) == CS7);
    CHECK(t.c_cflag & PARENB);
    CHECK(t.c_cflag & PARODD);
    CHECK_FALSE(t.c_cflag & CSTOPB);
    CHECK_FALSE(t.c_cflag & CRTSCTS);

    play(h, e, first_game("kasparov-deep-blue-1997.pgn"), [&] { return d.board(); });
    // Every byte the driver wrote had its odd-parity bit, every command was accepted.
    const auto model = e.snapshot();
    CHECK(model.commands_ignored() == 0);
    for (const std::uint8_t b : model.received()) CHECK(millennium::parity_ok(b));
}

TEST_CASE("libserialport: millennium (eONE, the default model) opens 8N1 and reads a board without "
          "parity bits") {
    FakePort port(ftdi());
    emu::MillenniumEmulatorOptions eo;
    eo.parity_bit = false; // eONE firmware that never sets bit 7
    eo.instant_scan = true;
    emu::MillenniumEmulator e(eo);
    port.attach(e.service());
    DriverOptions opt;
    opt.params["startup-delay-ms"] = "0";
    UriSession h("millennium:/dev/ttyUSB0", opt);
    auto& d = h.driver<millennium::MillenniumDriver>();
    REQUIRE(h.pump_until([&] { return d.ready() && !h.all<BoardSnapshot>().empty(); }));
    termios t{};
    REQUIRE(port.tty.line_settings(t));
    CHECK(cfgetospeed(&t) == B38400);
    CHECK((t.c_cflag & CSIZE) == CS8);
    CHECK_FALSE(t.c_cflag & PARENB);
    CHECK_FALSE(port.dtr());
    play(h, e, first_game("molinari-bordais-1979.pgn"), [&] { return d.board(); });
    CHECK(d.parity_errors() == 0);
}

TEST_CASE("libserialport: a board unplugged under the driver is reported at once, without waiting "
          "for a write") {
    // libserialport's blocking read treats the 0 a hung-up tty returns as "no data yet": the
    // transport checks the fd itself, or a silent board (Millennium reports only on change)
    // would look connected until the next keep-alive write fails.
    FakePort port(ftdi());
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    emu::MillenniumEmulator e(eo);
    port.attach(e.service());
    DriverOptions opt;
    opt.params["startup-delay-ms"] = "0";
    UriSession h("millennium:/dev/ttyUSB0", opt);
    auto& d = h.driver<millennium::MillenniumDriver>();
    REQUIRE(h.pump_until([&] { return d.ready(); }));
    REQUIRE(h.pump_until([&] { return e.snapshot().commands().size() >= 4; })); // V R02 W0204 S
    const std::size_t written = e.snapshot().received().size();
    e.unplug();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }, 1000));
    const auto link = h.last<LinkStatus>();
    REQUIRE(link.has_value());
    CHECK_FALSE(link->connected);
    CHECK(e.snapshot().received().size() == written);
}

TEST_CASE("libserialport: unplugged and plugged in again mid-game: reopened by libserialport, "
          "start-up again") {
    FakePort port(acm_with_dgt_id());
    emu::DgtEmulator e;
    port.attach(e.service());
    DriverOptions opt;
    opt.params["startup-delay-ms"] = "0";
    UriSession h("dgt:/dev/ttyACM0", opt, ReconnectPolicy{20, 80});
    auto& d = h.driver<dgt::DgtDriver>();
    REQUIRE(h.pump_until([&] { return d.ready() && d.clock_model() == ClockModel::Dgt3000; }));
    const auto boards = game_boards(first_game("kasparov-deep-blue-1997.pgn"));
    for (std::size_t i = 1; i <= 10; ++i) {
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return d.board() == boards[i]; }));
    }
    const std::size_t modem_requests = port.tty.modem_requests().size();
    e.unplug();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    CHECK(h.last<LinkStatus>()->reason.find("hung up") != std::string::npos);
    play_on_board(e, boards[10], boards[11]); // a move while the board is away
    const std::size_t dumps = h.all<BoardSnapshot>().size();
    e.replug();
    REQUIRE(
        h.pump_until([&] { return h.session->connected() && h.all<BoardSnapshot>().size() > dumps; }));
    CHECK(h.last<LinkStatus>()->connected);
    CHECK(h.all<BoardSnapshot>().back().board == boards[11]);
    CHECK(port.tty.modem_requests().size() > modem_requests); // DTR and RTS set again on reopen
    CHECK(port.dtr());
    CHECK(port.rts());
    for (std::size_t i = 12; i <= 16; ++i) {
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return d.board() == boards[i]; }));
    }
}

TEST_CASE("termios path (/dev/serial/by-id links): DTR and RTS set or cleared as the model asks, as libserialport does") {
    // The path for every node that is no /dev/ttyACM* or /dev/ttyUSB*; opened here on the fake
    // FTDI port so that its modem requests are seen. dtr=false used to leave DTR as the open
    // left it (raised), unlike the libserialport path.
    for (bool dtr : {false, true}) {
        INFO("dtr " << dtr);
        FakePort port(ftdi());
        emu::MillenniumEmulator e(emu::MillenniumEmulatorOptions{});
        port.attach(e.service());
        auto settings = SerialSettings::parse("38400/7o1");
        REQUIRE(settings.has_value());
        settings->dtr = dtr;
        auto t = open_termios(port.tty.device(), *settings);
        INFO((t ? "" : t.error().message));
        REQUIRE(t.has_value());
        CHECK(port.dtr() == dtr);
        CHECK(port.cleared(TIOCM_DTR) == !dtr);
        CHECK(port.rts());
    }
}
