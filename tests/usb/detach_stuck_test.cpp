// DETACH of a board whose device thread is stuck in a libusb transfer (a fake Chessnut board in
// a umockdev testbed that stops answering: its output reports stay in flight, past libusb's
// timeout, FakeUsbBus::hold_output). The event loop never waits for a device thread: the
// DETACH is answered and the daemon goes on serving other clients while the thread is stuck;
// once the device answers again the thread ends and eboardd exits cleanly.
#include "usb_harness.hpp"

#include "drivers/emu/chessnut_emulator.hpp"
#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

#include <nlohmann/json.hpp>

#include <thread>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

/// One request on the client API socket and its reply ("" if none came within `timeout_ms`).
std::string ask(const std::string& socket, const std::string& request, int timeout_ms) {
    eboard::test::LineSocket s(socket);
    if (!s.line(timeout_ms)) return {}; // VERSION
    if (!s.send(request + "\n")) return {};
    return s.line(timeout_ms).value_or("");
}

/// A fake Chessnut board at usb:1.ADDRESS that stops answering (hold_output) as soon as it is
/// plugged, and eboardd started with it: once constructed, eboardd is ready and its device thread
/// hangs in its first write. The device answers again before eboardd is stopped, whatever happens.
struct StuckBoardDaemon {
    UsbBus b;
    eboard::test::TempDir dir;
    int id;
    struct Release {
        UsbBus& b;
        int id;
        ~Release() { b.bus.hold_output(id, false); }
    } release;
    std::string uri;
    std::string socket;
    eboard::test::NotifySocket notify;
    eboard::test::Process d;

    StuckBoardDaemon(const char* name, int address, const std::string& port)
        : dir(name), id(plug(b, address, port)), release{b, id},
          uri("chessnut:usb:1." + std::to_string(address)), socket((dir.path / "s").string()),
          notify((dir.path / "notify").string()),
          d(std::string(EBOARD_BIN_DIR) + "/eboardd",
            {"--board", uri, "--state-dir", (dir.path / "state").string(), "--socket", socket, "--events", "-"},
            notify.path(), (dir.path / "stderr").string()) {
        REQUIRE(notify.wait_for("READY=1"));
        // The device thread made its write and hangs in it (libusb's 1 s timeout cannot end it).
        const TimeMs end = steady_now_ms() + kEventDeadlineMs;
        while (b.bus.stats(id).held == 0 && steady_now_ms() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // polling the fake's counter
        REQUIRE(b.bus.stats(id).held > 0);
    }

    static int plug(UsbBus& bus, int address, const std::string& port) {
        emu::FakeUsbDescription board;
        board.address = address;
        board.port = port;
        const int id = bus.bus.plug(board, std::make_shared<emu::ChessnutEmulator>());
        bus.bus.hold_output(id, true); // stuck before eboardd's first write reaches the board
        return id;
    }
};

} // namespace

TEST_CASE("DETACH of a board stuck in a libusb transfer is answered at once, the daemon goes on") {
    StuckBoardDaemon t("eboardd-detach-stuck", 8, "5");
    auto& b = t.b;
    const int id = t.id;
    auto& d = t.d;
    const std::string& socket = t.socket;
    auto& dir = t.dir;
    const std::string detached = ask(socket, R"({"class":"DETACH","board":"chessnut:usb:1.8","id":1})", 10000);
    INFO(eboard::test::slurp(dir.path / "stderr"));
    REQUIRE_FALSE(detached.empty());
    const auto reply = nlohmann::json::parse(detached);
    CHECK(reply.value("class", "") == "OK");
    CHECK(reply.value("detached", false));
    // Still stuck, and the daemon serves the next client.
    CHECK(b.bus.stats(id).held > 0);
    const std::string boards = ask(socket, R"({"class":"BOARDS","id":2})", 10000);
    CHECK(boards.find("\"class\":\"BOARDS\"") != std::string::npos);
    CHECK(boards.find("chessnut:usb:1.8") == std::string::npos);

    b.bus.hold_output(id, false); // the device answers: the thread ends, the daemon exits cleanly
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
}

TEST_CASE("ATTACH of a board DETACHed while its thread still holds the device opens it once that thread let it go") {
    StuckBoardDaemon t("eboardd-reattach-held", 9, "6"); // the old device thread holds the device
    auto& b = t.b;
    const int id = t.id;
    auto& d = t.d;
    const std::string& socket = t.socket;
    auto& dir = t.dir;
    TimeMs end = 0;
    INFO(eboard::test::slurp(dir.path / "stderr"));
    REQUIRE(ask(socket, R"({"class":"DETACH","board":"chessnut:usb:1.9","id":1})", 10000).find("\"OK\"") !=
            std::string::npos);
    const int opens = b.bus.stats(id).opens;
    const std::string attached = ask(socket, R"({"class":"ATTACH","uri":"chessnut:usb:1.9","id":2})", 10000);
    CHECK(attached.find("\"attached\":true") != std::string::npos);
    // While the old thread holds the device the new link does not open it. A window, not a
    // pace: the new link would open at once (well within it); it waits up to 3 s.
    end = steady_now_ms() + 500;
    while (b.bus.stats(id).opens == opens && steady_now_ms() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(b.bus.stats(id).opens == opens);

    b.bus.hold_output(id, false); // the old thread ends, closing the device: the new link opens it
    end = steady_now_ms() + kEventDeadlineMs;
    while (!(b.bus.stats(id).opens > opens && b.bus.stats(id).claimed) && steady_now_ms() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto stats = b.bus.stats(id);
    CHECK(stats.opens > opens);
    CHECK(stats.claimed);
    CHECK(stats.claim_conflicts == 0); // never two handles claiming it at once
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    CHECK(eboard::test::slurp(dir.path / "stderr").find("still held") == std::string::npos);
}
