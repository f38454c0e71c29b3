// drivers/core: URIs, serial settings, board state, registry, trace switch, TCP transport.
#include "harness.hpp"

#include "drivers/core/event_text.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

TEST_CASE("uri: DRIVER:TRANSPORT as in eboardd(8)") {
    auto a = parse_device_uri("dgt:/dev/ttyACM0");
    REQUIRE(a.has_value());
    CHECK(a->driver == "dgt");
    CHECK(a->transport.kind == TransportKind::SerialPort);
    CHECK(a->transport.path == "/dev/ttyACM0");
    auto b = parse_device_uri("dgt:/dev/pts/3");
    REQUIRE(b.has_value());
    CHECK(b->transport.kind == TransportKind::Termios);
    auto c = parse_device_uri("dgt.bluetooth:tcp:raspberrypi:4000");
    REQUIRE(c.has_value());
    CHECK(c->model == "bluetooth");
    CHECK(c->transport.kind == TransportKind::Tcp);
    CHECK(c->transport.host == "raspberrypi");
    CHECK(c->transport.port == 4000);
    auto d = parse_device_uri("dgt:tcp:[::1]:2000");
    REQUIRE(d.has_value());
    CHECK(d->transport.host == "::1");
    auto e = parse_device_uri("chessnut:usb:1.4");
    REQUIRE(e.has_value());
    CHECK(e->transport.kind == TransportKind::Usb);
    CHECK(e->transport.usb_address == "1.4");
    CHECK(parse_device_uri("emu-dgt").has_value());
    CHECK_FALSE(parse_device_uri("dgt").has_value());
    CHECK_FALSE(parse_device_uri("dgt:tcp:host").has_value());
    CHECK_FALSE(parse_device_uri("dgt:tcp:host:99999").has_value());
    CHECK_FALSE(parse_device_uri("dgt:ttyUSB0").has_value());
    CHECK_FALSE(parse_device_uri(":/dev/x").has_value());
}

TEST_CASE("serial settings: 9600/8n1 and 7o1") {
    auto a = SerialSettings::parse("9600/8n1");
    REQUIRE(a.has_value());
    CHECK(a->baud == 9600);
    CHECK(a->parity == Parity::None);
    auto b = SerialSettings::parse("38400/7o1");
    REQUIRE(b.has_value());
    CHECK(b->data_bits == 7);
    CHECK(b->parity == Parity::Odd);
    CHECK(b->str() == "38400/7o1");
    CHECK_FALSE(SerialSettings::parse("9600").has_value());
    CHECK_FALSE(SerialSettings::parse("9600/9n1").has_value());
    CHECK_FALSE(SerialSettings::parse("x/8n1").has_value());
}

TEST_CASE("registry: the dgt driver registered itself with models and USB ids") {
    const DriverInfo* d = find_driver("dgt");
    REQUIRE(d != nullptr);
    CHECK(d->model("")->name == "classic");
    CHECK(d->model("bluetooth") != nullptr);
    CHECK(d->model("nope") == nullptr);
    CHECK(d->model("")->serial.str() == "9600/8n1");
    CHECK_FALSE(d->usb_ids.empty());
    DriverOptions opt;
    opt.params["orientation"] = "sideways";
    CHECK(d->create(opt) == nullptr);
    opt.params["orientation"] = "rotated";
    CHECK(d->create(opt) != nullptr);
}

TEST_CASE("trace: switchable at run time, wire logged both ways in hex") {
    std::vector<std::string> lines;
    set_trace_sink([&](std::string_view l) { lines.emplace_back(l); });
    TraceChannel& ch = trace_channel("unit-trace");
    ch.sent(std::vector<std::uint8_t>{0x40});
    CHECK(lines.empty());
    CHECK(enable_traces("core,unit-trace"));
    ch.sent(std::vector<std::uint8_t>{0x40, 0x4d});
    ch.received(std::vector<std::uint8_t>{0x93, 0x00});
    ch.note("hello");
    disable_traces();
    ch.note("not logged");
    set_trace_sink(nullptr);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "unit-trace > 40 4d");
    CHECK(lines[1] == "unit-trace < 93 00");
    CHECK(lines[2] == "unit-trace : hello");
}


TEST_CASE("trace: a note's text (the framer's hex dumps) is built only while its channel is on") {
    std::vector<std::string> lines;
    set_trace_sink([&](std::string_view l) { lines.emplace_back(l); });
    int built = 0;
    const auto dgt = std::vector<std::uint8_t>{0x01, 0x02, 0x86, 0x00};  // garbage, a cut dump
    const auto push = [&] {
        const dgt::DgtDriver driver; // the Framer keeps a reference to the driver's rule
        Framer f(driver.frame_rule(), trace_channel("unit-lazy"));
        f.push(dgt, [](std::span<const std::uint8_t>) {});
        f.reset();
    };
    trace_channel("unit-lazy").note([&] { return "built " + std::to_string(++built); });
    push();
    CHECK(built == 0);
    CHECK(lines.empty());
    CHECK(enable_traces("unit-lazy"));
    trace_channel("unit-lazy").note([&] { return "built " + std::to_string(++built); });
    push();
    disable_traces();
    set_trace_sink(nullptr);
    CHECK(built == 1);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "unit-lazy : built 1");
    CHECK(lines[1] == "unit-lazy : resync: skipped 2 byte(s) of garbage");
    CHECK(lines[2] == "unit-lazy : partial packet dropped at reset (2 byte(s)): 86 00");
}
TEST_CASE("tcp transport: bytes both ways over loopback, peer close = disconnected") {
    const int srv = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(srv >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    socklen_t len = sizeof a;
    REQUIRE(::getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    REQUIRE(::listen(srv, 1) == 0);
    auto spec = parse_transport("tcp:127.0.0.1:" + std::to_string(ntohs(a.sin_port)));
    REQUIRE(spec.has_value());
    auto t = open_transport(spec.value(), SerialSettings{});
    REQUIRE(t.has_value());
    const int peer = ::accept(srv, nullptr, nullptr);
    REQUIRE(peer >= 0);
    const std::uint8_t cmd = 0x4d;
    REQUIRE(t.value()->write(std::span<const std::uint8_t>(&cmd, 1)));
    std::uint8_t got = 0;
    REQUIRE(::read(peer, &got, 1) == 1);
    CHECK(got == 0x4d);
    const std::uint8_t reply[] = {0x93, 0x00, 0x05, 0x03, 0x01};
    REQUIRE(::write(peer, reply, sizeof reply) == 5);
    std::array<std::uint8_t, 16> buf{};
    std::size_t n = 0;
    for (int i = 0; i < 100 && n < 5; ++i) n += t.value()->read(std::span(buf).subspan(n), 50);
    CHECK(n == 5);
    ::close(peer);
    for (int i = 0; i < 100 && !t.value()->disconnected(); ++i) (void)t.value()->read(buf, 50);
    CHECK(t.value()->disconnected());
    ::close(srv);
}

TEST_CASE("transports: clear errors for missing devices and refused connections") {
    CHECK_FALSE(open_termios("/nonexistent/tty", SerialSettings{}).has_value());
    CHECK_FALSE(open_serialport("/dev/ttyUSB99", SerialSettings{}).has_value());
    auto bad_baud = SerialSettings{};
    bad_baud.baud = 12345;
    CHECK_FALSE(open_termios("/dev/null", bad_baud).has_value());
    CHECK_FALSE(open_termios("/dev/null", SerialSettings{}).has_value());  // not a terminal
    CHECK_FALSE(open_device("nosuch:/dev/null", nullptr).has_value());
    TransportSpec usb;
    usb.kind = TransportKind::Usb;
    CHECK_FALSE(open_transport(usb, SerialSettings{}).has_value());
}

TEST_CASE("event text: one stable line per event") {
    ClockReport t;
    t.t_ms = 1500;
    t.left_ms = 300000;
    t.right_ms = 180000;
    t.running = true;
    t.turn = ClockSide::Left;
    t.lever_high = ClockSide::Left;
    CHECK(describe(t) == "clock left=300000 right=180000 running turn=left lever=left");
    CHECK(describe(t, true) == "@1500 clock left=300000 right=180000 running turn=left lever=left");
    CHECK(describe(SquareChange{0, Square::parse("e4"), SquareReading::of(Piece::WPawn)}) == "square e4 P");
    CHECK(describe(SquareChange{0, Square::parse("e2"), SquareReading::empty()}) == "square e2 .");
    CHECK(describe(ClockCommandDone{0, 0x0a, false, 4, "no ACK"}) == "clock_done 0a failed attempts=4 (no ACK)");
    CHECK(describe(ClockInfo{0, ClockModel::Dgt3000, 2, 0}) == "clock_info dgt3000 2.0");
}

// drivers/core/registry.hpp: each driver declares the options it reads. A declared option the
// driver does not read would be accepted in eboardd's configuration and silently ignored; an
// option it reads without declaring it could not be configured. The first is caught here: a
// value no option accepts must make the driver's own check fail, for every declared option.
TEST_CASE("registry: every option a driver declares is read by its own check") {
    std::size_t options = 0;
    for (const DriverInfo* d : all_drivers()) {
        INFO(d->name);
        REQUIRE(d->check);
        DriverOptions none;
        CHECK(check_configured_options(*d, none).has_value());
        for (const OptionInfo& o : d->options) {
            INFO(o.name);
            ++options;
            DriverOptions bad;
            bad.params[std::string(o.name)] = "?bad?";
            CHECK_FALSE(d->check(bad).has_value());
            CHECK_FALSE(d->create(bad)); // create() refuses what check() refuses
            CHECK_FALSE(o.values.empty());
            CHECK_FALSE(o.meaning.empty());
        }
    }
    CHECK(options >= 19);
    const DriverInfo* dgt = find_driver("dgt");
    REQUIRE(dgt);
    DriverOptions typo;
    typo.params["orientaton"] = "rotated";
    const auto e = check_configured_options(*dgt, typo);
    REQUIRE_FALSE(e.has_value());
    CHECK(e.error().message ==
          "unknown option 'orientaton' (dgt knows: orientation, update-mode, ack-timeout-ms, startup-delay-ms, battery-poll-ms, developer-key)");
}
