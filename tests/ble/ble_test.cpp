// The `ble:` transport (drivers/core/ble.hpp) against a fake BlueZ on a private bus
// (fake_bluez.hpp): discovery, connect, GATT write and notify, whole games through the DGT
// Pegasus, Chessnut and Millennium emulators, and a link lost mid-game with the board out of
// range for a while, then back: reconnected on the session's back-off, nothing lost.
#include "fake_bluez.hpp"

#include "drivers/chessnut/driver.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/core/uri.hpp"
#include "drivers/dgt/driver.hpp"
#include "drivers/emu/chessnut_emulator.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "drivers/emu/millennium_emulator.hpp"
#include "drivers/millennium/driver.hpp"
#include "harness.hpp"
#include "pgn_moves.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <future>
#include <sys/eventfd.h>
#include <unistd.h>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using eboard::test::FakeBleDevice;
using eboard::test::FakeBluez;

namespace {

const std::string kNus = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
const std::string kNusRx = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";
const std::string kNusTx = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";
const std::array<std::uint8_t, 6> kKey{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc}; // a made-up key

std::vector<BoardReading> game() {
    return game_boards(
        read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1).at(0));
}

/// What an occupancy-only board reads for `b`.
BoardReading occupancy(const BoardReading& b) {
    BoardReading out = b;
    for (int i = 0; i < 64; ++i)
        if (b.at(Square(i)).occupied) out.set(Square(i), SquareReading::unknown());
    return out;
}

/// open_device() on a `ble:` URI with a short reconnection schedule; `cancel_fd` as
/// open_device's.
void open_ble_board(SessionHarness& h, const std::string& uri, DriverOptions opt = {}, int cancel_fd = -1) {
    opt.params.emplace("startup-delay-ms", "0");
    auto s = open_device(
        uri, [&h](const DriverEvent& ev) { h.events.push_back(ev); }, std::move(opt), steady_now_ms,
        ReconnectPolicy{20, 80}, cancel_fd);
    INFO(uri << ": " << (s ? "" : s.error().message));
    REQUIRE(s.has_value());
    h.session = std::move(s.value());
    h.session->start();
}

/// A DGT Pegasus (occupancy only, developer key kKey) behind the Nordic UART service of a fake
/// BlueZ device at `address` named `name`; `known`: BlueZ knows it already (no discovery).
struct PegasusOverBle {
    static emu::DgtEmulatorOptions options() {
        emu::DgtEmulatorOptions eo;
        eo.occupancy_only = true;
        eo.developer_key = kKey;
        return eo;
    }
    PegasusOverBle(const std::string& address, const std::string& name, bool known)
        : e(options()), peer(e.pty_slave_path(), kNusTx),
          bluez({FakeBleDevice{address, name, {{kNus, {{kNusRx, true, false}, {kNusTx, false, true}}}}, &peer, known}}) {}
    emu::DgtEmulator e;
    eboard::test::PtyPeer peer;
    FakeBluez bluez;
};

/// Plays boards[from..to) on `e` and waits until `read()` shows each.
template <typename Emu, typename Read>
void play(SessionHarness& h, Emu& e, const std::vector<BoardReading>& boards, std::size_t from, std::size_t to,
          Read&& read) {
    for (std::size_t i = from; i < to; ++i) {
        INFO("move " << i);
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return read(i); }, 5000));
    }
}

/// The link drops mid-game, the board stays out of range for some reconnection attempts while
/// the players go on (two moves), then comes back: one link down, one reconnection, a fresh
/// snapshot showing what stands on the board.
template <typename Emu>
void drop_and_return(SessionHarness& h, FakeBluez& bluez, const std::string& address, Emu& e,
                     const std::vector<BoardReading>& boards, std::size_t at, const BoardReading& expected_after) {
    DeviceSession& session = *h.session;
    const std::size_t snapshots = h.all<BoardSnapshot>().size();
    bluez.set_in_range(address, false);
    bluez.drop_link(address);
    REQUIRE(h.pump_until([&] { return !session.connected(); }));
    CHECK_FALSE(h.last<LinkStatus>()->connected);
    play_on_board(e, boards[at], boards[at + 1]);
    play_on_board(e, boards[at + 1], boards[at + 2]);
    REQUIRE(h.pump_until([&] { return bluez.stats().refused_connects >= 2; }));  // the back-off runs
    CHECK_FALSE(session.connected());
    bluez.set_in_range(address, true);
    REQUIRE(h.pump_until([&] { return session.connected() && h.all<BoardSnapshot>().size() > snapshots; }, 5000));
    CHECK(h.last<LinkStatus>()->reason.rfind("reconnected: ble:", 0) == 0);
    CHECK(h.all<BoardSnapshot>().back().board == expected_after);
    CHECK(bluez.connected(address));
}

} // namespace

TEST_CASE("ble URIs: ble:ADDRESS and ble:NAME-PREFIX, a model without a BLE profile is refused") {
    auto a = parse_device_uri("chessnut:ble:C0:FF:EE:00:00:01");
    REQUIRE(a.has_value());
    CHECK(a->transport.kind == TransportKind::Ble);
    CHECK(a->transport.ble_target == "C0:FF:EE:00:00:01");
    CHECK(is_bluetooth_address(a->transport.ble_target));
    auto b = parse_device_uri("dgt.pegasus:ble:DGT_PEGASUS");
    REQUIRE(b.has_value());
    CHECK(b->model == "pegasus");
    CHECK(b->transport.ble_target == "DGT_PEGASUS");
    CHECK_FALSE(is_bluetooth_address("DGT_PEGASUS"));
    CHECK_FALSE(parse_device_uri("dgt:ble:").has_value());
    auto classic = open_device("dgt.classic:ble:DGT", nullptr);
    REQUIRE_FALSE(classic.has_value());
    CHECK(classic.error().message.find("no Bluetooth LE profile") != std::string::npos);
}

TEST_CASE("ble transport: a board BlueZ does not know yet is discovered, connected, written and "
          "notified, not found: a clear error") {
    emu::DgtEmulatorOptions eo;
    eo.occupancy_only = true;
    emu::DgtEmulator e(eo);
    eboard::test::PtyPeer peer(e.pty_slave_path(), kNusTx);
    FakeBluez bluez({FakeBleDevice{"C0:FF:EE:00:00:01", "DGT_PEGASUS_1234",
                                   {{kNus, {{kNusRx, true, false}, {kNusTx, false, true}}}}, &peer, false}});
    const BleProfile profile{kNus, kNusRx, {kNusTx, ""}};

    auto missing = open_ble("NO_SUCH_BOARD", profile, BleTimeouts{300, 1000, 1000});
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().message.find("not found") != std::string::npos);

    auto t = open_ble("DGT_PEGASUS", profile);
    INFO((t ? "" : t.error().message));
    REQUIRE(t.has_value());
    Transport& link = *t.value();
    CHECK(link.name() == "ble:C0:FF:EE:00:00:01 (DGT_PEGASUS_1234)");
    CHECK(bluez.stats().discoveries >= 1);
    CHECK(bluez.stats().connects == 1);
    // 40 leaves bus mode, 42 asks for the dump: 67 bytes come back in 20-byte notifications.
    const std::array<std::uint8_t, 2> cmds{0x40, 0x42};
    REQUIRE(link.write(cmds));
    std::vector<std::uint8_t> got;
    std::array<std::uint8_t, 512> buf{};
    const TimeMs end = steady_now_ms() + 3000;
    while (got.size() < 67 && steady_now_ms() < end) {
        const std::size_t n = link.read(buf, 50);
        got.insert(got.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
    }
    REQUIRE(got.size() == 67);
    std::array<std::uint8_t, 67> dump{};
    std::copy_n(got.begin(), dump.size(), dump.begin());
    CHECK(dump[0] == 0x86);
    CHECK(dump[3 + 52] == 0x01); // e2 (field 52) occupied: code 01 on a Pegasus
    CHECK(dump[3 + 36] == 0x00); // e4 empty
    link.close();
    CHECK_FALSE(bluez.connected("C0:FF:EE:00:00:01")); // a close lets the board go
}

/// open_ble on another thread, so that the test can cancel it while it waits.
std::future<Expected<std::unique_ptr<Transport>>> open_ble_async(const std::string& target, const BleProfile& profile,
                                                                 int cancel_fd) {
    return std::async(std::launch::async, [=] { return open_ble(target, profile, BleTimeouts{60000, 60000, 60000}, cancel_fd); });
}

/// An eventfd, closed at the end of the scope.
struct EventFd {
    int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    EventFd() = default;
    EventFd(const EventFd&) = delete;
    EventFd& operator=(const EventFd&) = delete;
    ~EventFd() { ::close(fd); }
    void signal() const {
        const std::uint64_t one = 1;
        REQUIRE(::write(fd, &one, sizeof one) == sizeof one);
    }
};

TEST_CASE("ble transport: an open waiting for discovery or for Connect gives up at once when it is cancelled "
          "(eboardd stopping)") {
    const std::string addr = "C0:FF:EE:00:00:01";
    PegasusOverBle rig(addr, "DGT_PEGASUS_1234", true);
    FakeBluez& bluez = rig.bluez;
    const BleProfile profile{kNus, kNusRx, {kNusTx, ""}};
    // Each wait below is 60 s; a cancel must end it long before (the bound is the point).
    constexpr auto kBound = std::chrono::seconds(10);

    SECTION("a board that is not there: the discovery waits, the cancel ends it") {
        const EventFd cancel;
        auto open = open_ble_async("NO_SUCH_BOARD", profile, cancel.fd);
        REQUIRE(bluez.wait_for([](const auto& s) { return s.discoveries >= 1; }));
        CHECK(open.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout); // still waiting
        cancel.signal();
        REQUIRE(open.wait_for(kBound) == std::future_status::ready);
        const auto t = open.get();
        REQUIRE_FALSE(t.has_value());
        CHECK(t.error().message.find("cancelled") != std::string::npos);
    }
    SECTION("a board that does not answer Connect: the call is given up") {
        bluez.set_answers_connect(addr, false);
        const EventFd cancel;
        auto open = open_ble_async(addr, profile, cancel.fd);
        REQUIRE(bluez.wait_for([](const auto& s) { return s.connect_calls >= 1; }));
        CHECK(open.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout);
        cancel.signal();
        REQUIRE(open.wait_for(kBound) == std::future_status::ready);
        const auto t = open.get();
        REQUIRE_FALSE(t.has_value());
        CHECK(t.error().message.find("given up while connecting") != std::string::npos);
        // Not cancelled, the same board: Connect's own time runs out, and the error says so.
        const auto late = open_ble(addr, profile, BleTimeouts{1000, 300, 1000});
        REQUIRE_FALSE(late.has_value());
        CHECK(late.error().message.find("no answer from BlueZ") != std::string::npos);
        // Answering again: the same transport connects, as before the change.
        bluez.set_answers_connect(addr, true);
        const EventFd unused;
        auto ok = open_ble(addr, profile, BleTimeouts{}, unused.fd);
        INFO((ok ? "" : ok.error().message));
        CHECK(ok.has_value());
    }
    SECTION("already cancelled: nothing is waited for") {
        const EventFd cancel;
        cancel.signal();
        const auto t = open_ble("NO_SUCH_BOARD", profile, BleTimeouts{60000, 60000, 60000}, cancel.fd);
        REQUIRE_FALSE(t.has_value());
        CHECK(t.error().message.find("cancelled") != std::string::npos);
    }
}

TEST_CASE("ble transport: a reopen after the link was lost hears the session's cancel too") {
    const std::string addr = "C0:FF:EE:00:00:01";
    PegasusOverBle rig(addr, "DGT_PEGASUS_1234", true);
    FakeBluez& bluez = rig.bluez;
    const EventFd cancel;
    SessionHarness h;
    DriverOptions opt;
    opt.params.emplace("developer-key", "123456789abc");
    open_ble_board(h, "dgt.pegasus:ble:" + addr, opt, cancel.fd);
    REQUIRE(h.pump_until([&] { return !h.all<BoardSnapshot>().empty(); }, 5000));
    bluez.set_answers_connect(addr, false);
    bluez.drop_link(addr);
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    // The next reopen hangs in Connect; the cancel, written from another thread while the
    // session waits there, ends it, and poll() returns.
    auto waiter = std::async(std::launch::async, [&] {
        const bool seen = bluez.wait_for([](const auto& st) { return st.connect_calls >= 2; });
        cancel.signal();
        return seen;
    });
    const auto start = std::chrono::steady_clock::now();
    while (h.session->failed_attempts() == 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10))
        (void)h.session->poll(100);
    CHECK(waiter.get());
    CHECK(h.session->failed_attempts() >= 1);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    CHECK_FALSE(h.session->connected());
}

TEST_CASE("dgt.pegasus over ble: developer key, a whole game, the link lost mid-game and back") {
    const std::string addr = "C0:FF:EE:00:00:01";
    PegasusOverBle rig(addr, "PCS-REVII-081500", false);
    emu::DgtEmulator& e = rig.e;
    FakeBluez& bluez = rig.bluez;
    SessionHarness h;
    DriverOptions opt;
    opt.params.emplace("developer-key", "123456789abc");
    open_ble_board(h, "dgt.pegasus:ble:PCS-REVII", opt);
    auto& driver = dynamic_cast<dgt::DgtDriver&>(h.session->driver());
    REQUIRE(h.pump_until([&] { return driver.ready() && !h.all<BoardSnapshot>().empty(); }, 5000));
    const auto boards = game();
    CHECK(h.all<BoardSnapshot>().back().board == occupancy(boards[0]));
    const std::size_t half = 20;
    play(h, e, boards, 1, half + 1, [&](std::size_t i) { return driver.board() == occupancy(boards[i]); });
    drop_and_return(h, bluez, addr, e, boards, half, occupancy(boards[half + 2]));
    play(h, e, boards, half + 3, boards.size(), [&](std::size_t i) { return driver.board() == occupancy(boards[i]); });
    CHECK(h.all<LinkStatus>().size() == 3); // up, down, up
}

TEST_CASE("dgt.pegasus over ble: without the developer key the board stays silent") {
    DriverOptions opt;
    opt.model = "pegasus";
    const DriverInfo* dgt = find_driver("dgt");
    REQUIRE(dgt);
    auto refused = check_configured_options(*dgt, opt);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("developer-key") != std::string::npos);

    emu::DgtEmulatorOptions eo;
    eo.occupancy_only = true;
    eo.developer_key = kKey;
    emu::DgtEmulator e(eo);
    eboard::test::PtyPeer peer(e.pty_slave_path(), kNusTx);
    FakeBluez bluez({FakeBleDevice{"C0:FF:EE:00:00:01", "PCS-REVII-081500",
                                   {{kNus, {{kNusRx, true, false}, {kNusTx, false, true}}}}, &peer, true}});
    SessionHarness h;
    DriverOptions wrong;
    wrong.params.emplace("developer-key", "000000000000");
    open_ble_board(h, "dgt.pegasus:ble:C0:FF:EE:00:00:01", wrong);
    auto& driver = dynamic_cast<dgt::DgtDriver&>(h.session->driver());
    // The VERSION request is retried and never answered: no board reading at all.
    REQUIRE(h.pump_until([&] { return bluez.stats().writes >= 3; }, 5000));
    CHECK_FALSE(driver.ready());
    CHECK(h.all<BoardSnapshot>().empty());
    CHECK(bluez.stats().discoveries == 0); // known to BlueZ already: no discovery
}

TEST_CASE("chessnut over ble: two notifying characteristics, a whole game, the link lost mid-game and back") {
    emu::ChessnutEmulator e;
    const std::string fen = "1b7e8262-2877-41c3-b46e-cf057c562023";
    const std::string op_write = "1b7e8272-2877-41c3-b46e-cf057c562023";
    const std::string op_notify = "1b7e8273-2877-41c3-b46e-cf057c562023";
    eboard::test::ReportPeer peer(e, fen, chessnut::report::position, op_notify);
    const std::string addr = "C0:FF:EE:00:00:02";
    FakeBluez bluez({FakeBleDevice{addr,
                                   "Chessnut Air",
                                   {{"1b7e8261-2877-41c3-b46e-cf057c562023", {{fen, false, true}}},
                                    {"1b7e8271-2877-41c3-b46e-cf057c562023", {{op_write, true, false}, {op_notify, false, true}}}},
                                   &peer,
                                   false}});
    SessionHarness h;
    open_ble_board(h, "chessnut:ble:" + addr);
    auto& driver = dynamic_cast<chessnut::ChessnutDriver&>(h.session->driver());
    const auto boards = game();
    REQUIRE(h.pump_until([&] { return driver.ready() && driver.board() == boards[0]; }, 5000));
    REQUIRE(h.pump_until([&] { return !h.all<BatteryInfo>().empty(); }, 5000)); // a reply on 1b7e8273
    const std::size_t half = 20;
    play(h, e, boards, 1, half + 1, [&](std::size_t i) { return driver.board() == boards[i]; });
    drop_and_return(h, bluez, addr, e, boards, half, boards[half + 2]);
    play(h, e, boards, half + 3, boards.size(), [&](std::size_t i) { return driver.board() == boards[i]; });
    CHECK(h.all<LinkStatus>().size() == 3);
}

TEST_CASE("millennium over ble: the ChessLink module's UART service, a whole game, the link lost "
          "mid-game and back") {
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    emu::MillenniumEmulator e(eo);
    const std::string svc = "49535343-fe7d-4ae5-8fa9-9fafd205e455";
    const std::string rx = "49535343-8841-43f4-a8d4-ecbe34729bb3";
    const std::string tx = "49535343-1e4d-4bd9-ba61-23c647249616";
    eboard::test::PtyPeer peer(e.pty_slave_path(), tx);
    const std::string addr = "C0:FF:EE:00:00:03";
    FakeBluez bluez({FakeBleDevice{addr, "MILLENNIUM CHESS", {{svc, {{rx, true, false}, {tx, false, true}}}}, &peer, false}});
    SessionHarness h;
    open_ble_board(h, "millennium.chesslink:ble:MILLENNIUM");
    auto& driver = dynamic_cast<millennium::MillenniumDriver&>(h.session->driver());
    const auto boards = game();
    REQUIRE(h.pump_until([&] { return driver.ready() && driver.board() == boards[0]; }, 5000));
    const std::size_t half = 20;
    play(h, e, boards, 1, half + 1, [&](std::size_t i) { return driver.board() == boards[i]; });
    drop_and_return(h, bluez, addr, e, boards, half, boards[half + 2]);
    play(h, e, boards, half + 3, boards.size(), [&](std::size_t i) { return driver.board() == boards[i]; });
    CHECK(h.all<LinkStatus>().size() == 3);
}

TEST_CASE("bluetooth classic: an RFCOMM tty (/dev/rfcommN) goes through the termios transport and "
          "plays as a serial board") {
    auto uri = parse_device_uri("dgt.bluetooth:/dev/rfcomm0");
    REQUIRE(uri.has_value());
    CHECK(uri->transport.kind == TransportKind::Termios); // not libserialport: no USB parent
    // /dev/rfcomm0 is a tty like the emulator's pty; opened by a path of that shape through
    // open_device, the DGT Bluetooth model starts up and reads the board.
    emu::DgtEmulatorOptions eo;
    eo.battery_percent = 80;
    emu::DgtEmulator e(eo);
    char dir_template[] = "/tmp/eboard-rfcomm-XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    const std::string link = std::string(dir_template) + "/rfcomm0";
    REQUIRE(::symlink(e.pty_slave_path().c_str(), link.c_str()) == 0);
    SessionHarness h;
    DriverOptions opt;
    opt.params.emplace("startup-delay-ms", "0");
    opt.params.emplace("developer-key", "123456789abc");
    auto s = open_device("dgt.bluetooth:" + link, [&h](const DriverEvent& ev) { h.events.push_back(ev); }, opt);
    INFO((s ? "" : s.error().message));
    REQUIRE(s.has_value());
    h.session = std::move(s.value());
    h.session->start();
    auto& driver = dynamic_cast<dgt::DgtDriver&>(h.session->driver());
    CHECK(h.pump_until([&] { return driver.ready() && !h.all<BoardSnapshot>().empty(); }, 5000));
    CHECK(h.pump_until([&] { return !h.all<BatteryInfo>().empty(); }, 5000)); // the Bluetooth model asks (4c)
    h.session.reset();
    ::unlink(link.c_str());
    ::rmdir(dir_template);
}
