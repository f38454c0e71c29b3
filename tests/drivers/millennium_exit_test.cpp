// Millennium on a clean exit (millennium.md 7: "E2ROM writes persist ... consider restoring
// them on exit"): DeviceSession::shutdown() has the driver write back the report mode it
// changed, over a pty against the emulator, whose E2ROM outlives a session as the board's does.
#include "millennium_harness.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::millennium;
using namespace eboard::drivers::test;

namespace {
/// The report mode the driver sets: on change, with the default debounce.
constexpr std::uint8_t kOurs = e2rom::report_on_change + kDefaultDebounce;
} // namespace

TEST_CASE("millennium 7 clean exit: the report mode the driver wrote is put back in the E2ROM") {
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    eo.e2rom[e2rom::auto_report] = e2rom::report_off;  // another program polls with S
    MillenniumHarness h(eo);
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.emu->snapshot().e2rom()[e2rom::auto_report] == kOurs; }));
    h.emu->move(Square::parse("e2"), Square::parse("e4"));
    REQUIRE(h.pump_until([&] { return h.driver->board() == h.emu->position(); }));

    CHECK(h.session->shutdown(5000));
    const auto board = h.emu->snapshot();
    CHECK(board.e2rom()[e2rom::auto_report] == e2rom::report_off);
    CHECK(board.e2rom_writes() == 2);  // ours at start-up, the old value at exit
    CHECK(board.commands_ignored() == 0);
}

TEST_CASE("millennium 7 clean exit: nothing is written when the driver changed nothing") {
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    eo.e2rom[e2rom::auto_report] = kOurs;
    MillenniumHarness h(eo);
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.emu->snapshot().commands().size() >= 3; }));  // V R02 S
    CHECK(h.session->shutdown(5000));
    CHECK(h.emu->snapshot().e2rom_writes() == 0);
}

TEST_CASE("millennium 7 clean exit after a reconnection: the value found at the first start-up") {
    // After an unplug the board already holds our report mode; the start-up again must not
    // take that for the board's own setting.
    emu::MillenniumEmulatorOptions eo;
    eo.instant_scan = true;
    MillenniumHarness h(eo);  // a new board: report after every scan (00)
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return h.emu->snapshot().e2rom()[e2rom::auto_report] == kOurs; }));
    h.session->enable_reconnect([&] { return open_termios(h.emu->device_path(), SerialSettings::parse("38400/7o1").value()); },
                                ReconnectPolicy{20, 80});
    h.emu->unplug();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    h.emu->replug();
    const std::size_t dumps = h.all<BoardSnapshot>().size();
    REQUIRE(h.pump_until([&] { return h.session->connected() && h.all<BoardSnapshot>().size() > dumps; }));
    CHECK(h.emu->snapshot().e2rom_writes() == 1);  // read again, already right

    CHECK(h.session->shutdown(5000));
    CHECK(h.emu->snapshot().e2rom()[e2rom::auto_report] == e2rom::report_every_scan);
}
