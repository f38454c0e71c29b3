// How a board that is not there is waited for (drivers/core/device_waiter.hpp): serial paths
// on a back-off schedule; `usb` boards on libusb hotplug, in process against a fake USB bus in
// the umockdev testbed, and through the eboardd process, which opens a Chessnut board at once
// when it is plugged in (no retry timer involved: the fallback schedule starts at 5 s).
#include "usb_harness.hpp"

#include "drivers/core/device_waiter.hpp"
#include "drivers/emu/chessnut_emulator.hpp"
#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

#include <fstream>
#include <sstream>
#include <thread>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

emu::FakeUsbDescription chessnut_air(int address) {
    emu::FakeUsbDescription d;
    d.address = address;
    d.port = std::to_string(address);
    return d;
}

} // namespace

TEST_CASE("a serial board that is not there is retried after 0.5 s, then less often up to every 5 s") {
    DeviceWaiter w("dgt:/dev/ttyACM9");
    CHECK_FALSE(w.hotplug());
    std::vector<int> asked;
    auto record = [&](int ms) {
        asked.push_back(ms);
        return true;
    };
    for (int i = 0; i < 6; ++i) CHECK(w.wait(record) == DeviceWaiter::Wake::Due);
    CHECK(asked == std::vector<int>{500, 1000, 2000, 4000, 5000, 5000});
    w.reset();
    CHECK(w.delay_ms() == 500);
    CHECK(w.wait([](int) { return false; }) == DeviceWaiter::Wake::Stopped);
    CHECK_FALSE(w.arrived());
}

TEST_CASE("a usb board plugged in ends the wait at once (libusb hotplug), other devices do not") {
    UsbBus b;
    DeviceWaiter w("chessnut:usb");
    REQUIRE(w.hotplug());
    CHECK(w.note().find("hotplug") != std::string::npos);
    CHECK(w.delay_ms() == 5000); // the fallback schedule only
    // A device of another driver (DGT's 04d8:000a) is not news for a Chessnut board.
    emu::FakeUsbDescription other = chessnut_air(3);
    other.vid = 0x04d8;
    other.pid = 0x000a;
    (void)b.bus.plug(other, std::make_shared<EchoDevice>());
    int pauses = 0;
    auto stop_after_a_while = [&](int) { return ++pauses < 10; }; // about 0.5 s of slices
    CHECK(w.wait(stop_after_a_while) == DeviceWaiter::Wake::Stopped);

    const TimeMs t0 = steady_now_ms();
    (void)b.bus.plug(chessnut_air(4), std::make_shared<emu::ChessnutEmulator>());
    CHECK(w.wait([](int) { return true; }) == DeviceWaiter::Wake::Arrived);
    CHECK(steady_now_ms() - t0 < 5000); // not the fallback timer
    auto s = open_device("chessnut:usb", [](const DriverEvent&) {});
    CHECK(s.has_value());
}

TEST_CASE("eboardd opens a usb board the moment it is plugged in") {
    UsbBus b;
    eboard::test::TempDir dir("eboardd-hotplug");
    const std::string err = (dir.path / "stderr").string();
    // The child inherits the preload and UMOCKDEV_DIR: it sees this process's fake bus.
    eboard::test::Process d(std::string(EBOARD_BIN_DIR) + "/eboardd",
                    {"--board", "chessnut:usb", "--events", "-", "--state-dir", (dir.path / "state").string(),
                     "--trace", "usb"},
                    "", err);
    auto first = d.line(10000);
    REQUIRE(first.has_value()); // VERSION
    // The daemon found no board and waits on hotplug.
    auto logged = [&](const std::string& what) {
        for (const TimeMs end = steady_now_ms() + 20000; steady_now_ms() < end;) {
            std::ifstream in(err);
            std::stringstream text;
            text << in.rdbuf();
            if (text.str().find(what) != std::string::npos) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // polling a log file
        }
        return false;
    };
    REQUIRE(logged("waiting for it to be plugged in (USB hotplug)"));
    auto board = std::make_shared<emu::ChessnutEmulator>();
    (void)b.bus.plug(chessnut_air(5), board);
    std::string connected;
    for (auto l = d.line(10000); l; l = d.line(10000))
        if (l->find("\"class\":\"BOARD\"") != std::string::npos) {
            connected = *l;
            break;
        }
    if (connected.empty()) UNSCOPED_INFO(eboard::test::slurp(dir.path / "stderr"));
    CHECK(connected.find("\"state\":\"connected\"") != std::string::npos);
    CHECK(logged("arrived, opening it now"));
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
}
