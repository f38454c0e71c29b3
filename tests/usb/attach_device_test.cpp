// `eboardctl attach --device NODE` (eboardd-device@.service) through the real udev lookup
// (daemon/board_attach.cpp, sd-device) under umockdev: the eboardd process inherits this
// process's testbed, where a fake Chessnut board's /dev/bus/usb node carries the udev
// properties the generated rules give its USB id (EBOARD_DRIVER, from `eboard-udev-rules
// --ids`). eboardd names the driver from udev, opens the board by bus address through libusb,
// closes it on `detach --device`, and remembers it across a kill -9 (the store). A USB device
// udev knows that is no board of the rules is refused. The tty branch with its
// /dev/eboard-* link is not covered here: sd-device reads links from the udev database under
// /run/udev, which umockdev's preload does not redirect.
#include "usb_harness.hpp"

#include "drivers/emu/chessnut_emulator.hpp"
#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

#include <sstream>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

/// The driver(s) the generated udev rules give a USB id (`eboard-udev-rules --ids` lines are
/// "DRIVER VID PID tty|libusb certain|uncertain"), space-separated as EBOARD_DRIVER is.
std::string rules_drivers(const std::string& vid, const std::string& pid) {
    const auto ids = eboard::test::run_command(std::string(EBOARD_BIN_DIR) + "/eboard-udev-rules --ids");
    REQUIRE(ids.status == 0);
    std::istringstream in(ids.out);
    std::string drivers, line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string driver, v, p;
        fields >> driver >> v >> p;
        // PID or PID-LAST, a range (4 lower-case hex digits each: text order is number order).
        const auto dash = p.find('-');
        const std::string first = p.substr(0, dash), last = dash == std::string::npos ? first : p.substr(dash + 1);
        if (v == vid && first <= pid && pid <= last) drivers += (drivers.empty() ? "" : " ") + driver;
    }
    return drivers;
}

/// Waits for a stdout line of `d` holding every one of `parts`; "" after the deadline.
std::string wait_line(eboard::test::Process& d, const std::vector<std::string>& parts) {
    for (auto l = d.line(kEventDeadlineMs); l; l = d.line(kEventDeadlineMs)) {
        bool all = true;
        for (const auto& p : parts) all = all && l->find(p) != std::string::npos;
        if (all) return *l;
    }
    return {};
}

} // namespace

TEST_CASE("eboardctl attach --device: udev names a USB board's driver, eboardd opens it and reopens it after kill -9") {
    UsbBus b;
    eboard::test::TempDir dir("eboardd-attach-device");
    emu::FakeUsbDescription board;
    board.address = 6;
    board.port = "3";
    const std::string drivers = rules_drivers("2d80", "8002");
    REQUIRE(drivers == "chessnut");
    board.udev_properties = {"EBOARD_DRIVER=" + drivers};
    (void)b.bus.plug(board, std::make_shared<emu::ChessnutEmulator>());
    emu::FakeUsbDescription gadget; // a USB device no rule names (pid.codes test id)
    gadget.vid = 0x1209;
    gadget.pid = 0x0001;
    gadget.address = 7;
    gadget.port = "4";
    REQUIRE(rules_drivers("1209", "0001").empty());
    (void)b.bus.plug(gadget, std::make_shared<EchoDevice>());

    const std::string socket = (dir.path / "s").string();
    const std::vector<std::string> args{"--state-dir", (dir.path / "state").string(), "--socket", socket,
                                        "--events", "-"};
    auto ctl = [&](const std::string& words) {
        return eboard::test::run_command("EBOARD_SOCKET=" + socket + " " + EBOARD_BIN_DIR + "/eboardctl " + words +
                                         " 2>&1");
    };
    const std::string uri = "chessnut:usb:1.6";
    const std::string connected = "\"state\":\"connected\"";
    {
        // The child inherits the preload and UMOCKDEV_DIR: it sees this process's devices.
        eboard::test::NotifySocket notify((dir.path / "notify1").string());
        eboard::test::Process d(std::string(EBOARD_BIN_DIR) + "/eboardd", args, notify.path(),
                                (dir.path / "stderr1").string());
        REQUIRE(notify.wait_for("READY=1"));
        const auto attached = ctl("attach --device /dev/bus/usb/001/006");
        CHECK(attached.status == 0);
        CHECK(attached.out == uri + " attached\n");
        const std::string up = wait_line(d, {"\"class\":\"BOARD\"", "\"board\":\"" + uri + "\"", connected});
        if (up.empty()) UNSCOPED_INFO(eboard::test::slurp(dir.path / "stderr1"));
        CHECK(up.find("\"driver\":\"chessnut\"") != std::string::npos);
        // Known to udev, but no board of the rules: refused, with the way out named.
        const auto refused = ctl("attach --device /dev/bus/usb/001/007");
        CHECK(refused.status == 1);
        CHECK(refused.out.find("/dev/bus/usb/001/007 is not a board of the eboard udev rules") != std::string::npos);
        // Closed by its node (what the unit does when the board is unplugged), then back.
        const auto detached = ctl("detach --device /dev/bus/usb/001/006");
        CHECK(detached.status == 0);
        CHECK(detached.out == uri + " detached\n");
        CHECK(ctl("attach --device /dev/bus/usb/001/006").out == uri + " attached\n");
        CHECK_FALSE(wait_line(d, {"\"class\":\"BOARD\"", "\"board\":\"" + uri + "\"", connected}).empty());
        d.signal(SIGKILL);
        CHECK(d.wait_exit() == 128 + SIGKILL);
    }
    // Restarted: the board attached by its node is open again.
    eboard::test::NotifySocket notify((dir.path / "notify2").string());
    eboard::test::Process d(std::string(EBOARD_BIN_DIR) + "/eboardd", args, notify.path(),
                            (dir.path / "stderr2").string());
    REQUIRE(notify.wait_for("READY=1"));
    const std::string again = wait_line(d, {"\"class\":\"BOARD\"", "\"board\":\"" + uri + "\"", connected});
    if (again.empty()) UNSCOPED_INFO(eboard::test::slurp(dir.path / "stderr2"));
    CHECK_FALSE(again.empty());
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
}
