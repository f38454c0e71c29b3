// The libusb transport (drivers/core/usb.hpp) against fake devices in a umockdev testbed:
// choosing a device by the VID:PID table or by BUS.ADDR, kernel driver detach and re-attach,
// reports both ways (interrupt OUT and SET_REPORT), read timeouts, unplug detection, the
// hotplug monitor, and error texts.
#include "usb_harness.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

const std::vector<UsbId> kIds = {{0x2d80, 0x8001, "test", false}, {0x2d80, 0x8002, "test", false}};

emu::FakeUsbDescription board(int address, std::uint16_t pid = 0x8002, std::uint16_t vid = 0x2d80) {
    emu::FakeUsbDescription d;
    d.vid = vid;
    d.pid = pid;
    d.address = address;
    d.port = std::to_string(address);
    return d;
}

} // namespace

TEST_CASE("the first device in the VID:PID table is chosen, others are left alone") {
    UsbBus b;
    const auto other = board(2, 0x0001, 0x1209);
    auto echo = std::make_shared<EchoDevice>();
    (void)b.bus.plug(other, std::make_shared<EchoDevice>());
    const int id = b.bus.plug(board(5), echo);
    auto t = open_usb("", kIds);
    REQUIRE(t.has_value());
    CHECK(t.value()->name() == "usb:1.5 (2d80:8002)");
    CHECK(t.value()->message_oriented());
    CHECK(b.bus.stats(id).claimed);

    // The registry knows 2d80:8002 as a Chessnut; 1209:0001 is nobody's.
    const auto boards = list_usb_boards();
    REQUIRE(boards.has_value());
    REQUIRE(boards->size() == 1);
    CHECK(boards->front().driver == "chessnut");
    CHECK(boards->front().str() == "usb:1.5 (2d80:8002)");

    const auto wrong = open_usb("1.2", kIds);
    REQUIRE_FALSE(wrong.has_value());
    CHECK(wrong.error().message == "USB device 1.2 is 1209:0001, not a board of this driver (2d80:8001, 2d80:8002)");
    const auto absent = open_usb("1.9", kIds);
    REQUIRE_FALSE(absent.has_value());
    CHECK(absent.error().message.find("no USB device at bus 1 address 9") != std::string::npos);
    CHECK_FALSE(open_usb("1.x", kIds).has_value());
}

TEST_CASE("nothing connected says which ids were looked for") {
    UsbBus b;
    const auto t = open_usb("", kIds);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().message.find("2d80:8001, 2d80:8002") != std::string::npos);
    CHECK(t.error().message.find("plug it in") != std::string::npos);
}

TEST_CASE("usbhid is detached on open and given back on close, reports both ways") {
    UsbBus b;
    auto echo = std::make_shared<EchoDevice>();
    const int id = b.bus.plug(board(2), echo);
    CHECK(b.bus.stats(id).kernel_driver_bound);
    {
        auto t = open_usb("1.2", kIds);
        REQUIRE(t.has_value());
        Transport& tr = *t.value();
        const auto s = b.bus.stats(id);
        CHECK(s.kernel_detaches == 1);
        CHECK_FALSE(s.kernel_driver_bound);
        CHECK(s.claimed);

        // Nothing pending: a read times out with 0 (libusb keeps its IN transfer in flight).
        std::array<std::uint8_t, 64> buf{};
        CHECK(tr.read(buf, 30) == 0);
        CHECK(tr.read(buf, 0) == 0);

        REQUIRE(tr.write(std::vector<std::uint8_t>{0x21, 0x01, 0x00}));
        CHECK(read_report(tr) == std::vector<std::uint8_t>{0x21, 0x01, 0x00});
        CHECK(b.bus.stats(id).out_reports == 1);
        // Reports queue up between reads and come out one per read, in order.
        echo->push({1, 2, 3});
        echo->push({4, 5});
        CHECK(read_report(tr) == std::vector<std::uint8_t>{1, 2, 3});
        CHECK(read_report(tr) == std::vector<std::uint8_t>{4, 5});
        CHECK_FALSE(tr.disconnected());
    }
    const auto s = b.bus.stats(id);
    CHECK(s.kernel_driver_bound);
    CHECK(s.kernel_reattaches == 1);
    CHECK_FALSE(s.claimed);
}

TEST_CASE("without an interrupt OUT endpoint, commands go as SET_REPORT(Output)") {
    UsbBus b;
    auto d = board(3);
    d.out_endpoint = 0;
    auto echo = std::make_shared<EchoDevice>();
    const int id = b.bus.plug(d, echo);
    auto t = open_usb("", kIds);
    REQUIRE(t.has_value());
    REQUIRE(t.value()->write(std::vector<std::uint8_t>{0x29, 0x01, 0x00}));
    CHECK(read_report(*t.value()) == std::vector<std::uint8_t>{0x29, 0x01, 0x00});
    CHECK(b.bus.stats(id).set_reports == 1);
    CHECK(b.bus.stats(id).out_reports == 0);
}

TEST_CASE("a device without a HID interface is refused with a reason") {
    UsbBus b;
    auto d = board(2);
    d.interface_class = 0xff;
    (void)b.bus.plug(d, std::make_shared<EchoDevice>());
    const auto t = open_usb("", kIds);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().message == "usb:1.2 (2d80:8002) has no HID interface with an interrupt IN endpoint: "
                               "not a HID board (see the driver's README for the expected descriptors)");
}

TEST_CASE("an unplugged board is reported by the open transport") {
    UsbBus b;
    auto echo = std::make_shared<EchoDevice>();
    const int id = b.bus.plug(board(2), echo);
    auto t = open_usb("", kIds);
    REQUIRE(t.has_value());
    Transport& tr = *t.value();
    REQUIRE(tr.write(std::vector<std::uint8_t>{1}));
    CHECK(read_report(tr) == std::vector<std::uint8_t>{1});
    b.bus.unplug(id);
    std::array<std::uint8_t, 64> buf{};
    const TimeMs end = steady_now_ms() + 3000;
    while (!tr.disconnected() && steady_now_ms() < end) (void)tr.read(buf, 20);
    REQUIRE(tr.disconnected());
    CHECK(tr.error().find("unplugged") != std::string::npos);
    CHECK_FALSE(tr.write(std::vector<std::uint8_t>{1}));
    // Gone from the bus: a new open finds nothing.
    CHECK_FALSE(open_usb("", kIds).has_value());
}

TEST_CASE("the hotplug monitor reports boards present, plugged in later and unplugged") {
    UsbBus b;
    // The DGT driver's table has 04d8:000a (Microchip CDC-ACM): a board the monitor knows.
    (void)b.bus.plug(board(2, 0x000a, 0x04d8), std::make_shared<EchoDevice>());
    auto m = open_usb_monitor();
    REQUIRE(m.has_value());
    auto first = m.value()->poll(1000);
    REQUIRE(first.size() == 1);
    CHECK(first[0].arrived);
    CHECK(first[0].board.driver == "dgt");
    CHECK(first[0].board.str() == "usb:1.2 (04d8:000a)");

    const int id = b.bus.plug(board(7, 0x000a, 0x04d8), std::make_shared<EchoDevice>());
    auto arrived = m.value()->poll(3000);
    REQUIRE(arrived.size() == 1);
    CHECK(arrived[0].arrived);
    CHECK(arrived[0].board.where == UsbAddress{1, 7});
    CHECK(m.value()->present().size() == 2);

    b.bus.unplug(id);
    auto left = m.value()->poll(3000);
    REQUIRE(left.size() == 1);
    CHECK_FALSE(left[0].arrived);
    CHECK(left[0].board.where == UsbAddress{1, 7});
    CHECK(m.value()->present().size() == 1);
    CHECK(m.value()->poll(0).empty());
    CHECK_FALSE(open_usb_monitor("no-such-driver").has_value());
}

TEST_CASE("error texts say what to do") {
    const std::string access = usb_error_text(-3 /* LIBUSB_ERROR_ACCESS */, "open usb:1.4 (2d80:8002)");
    CHECK(access.rfind("open usb:1.4 (2d80:8002): permission denied (LIBUSB_ERROR_ACCESS)", 0) == 0);
    CHECK(access.find("udev rules") != std::string::npos);
    CHECK(access.find("plugdev") != std::string::npos);
    CHECK(usb_error_text(-6 /* BUSY */, "claim").find("another program") != std::string::npos);
    CHECK(usb_error_text(-4 /* NO_DEVICE */, "read").find("unplugged") != std::string::npos);
    CHECK(UsbAddress::parse("3.17").value() == UsbAddress{3, 17});
    CHECK_FALSE(UsbAddress::parse("0.1").has_value());
    CHECK_FALSE(UsbAddress::parse("1.256").has_value());
    CHECK_FALSE(UsbAddress::parse("1").has_value());
    CHECK_FALSE(parse_device_uri("chessnut:usb:1").has_value());
    CHECK(parse_device_uri("chessnut:usb").value().transport.kind == TransportKind::Usb);
}
