// The board's battery in BOARD events (docs/client-api.md, BOARD `battery`, proto_minor 7): the
// eboardd process reads an emulated DGT Bluetooth board on a pty, whose driver asks BATTERY_STATUS
// (4c, dgt.md 4.1) at start-up and every battery-poll-ms. A BOARD event carries the battery when
// it is first known and each time its whole percent or charging changes, never for the same
// report again; BOARDS has it; a board that goes has none. A classic board reports none.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include <algorithm>

using namespace eboard;
using namespace eboard::test;

namespace {

/// The BOARD events of `board` that carry a battery with `percent`.
std::size_t with_battery(EventLog& log, const std::string& board, int percent) {
    const auto events = log.of("BOARD", board);
    return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const ojson& e) {
        return e.contains("battery") && e["battery"]["percent"] == percent;
    }));
}

} // namespace

TEST_CASE("BOARD battery: on the first report and on each change of the percent or of charging, in BOARDS, gone with the board") {
    TempDir dir("eboardd-battery");
    drivers::emu::DgtEmulatorOptions eo;
    eo.battery_percent = 84;
    drivers::emu::DgtEmulator bt(eo);
    drivers::emu::DgtEmulator classic{drivers::emu::DgtEmulatorOptions{}};
    const std::string socket = (dir.path / "s").string();
    ReadyDaemon eboardd(dir.path, config_args(dir.path,
                                              "socket = " + socket + "\n[board.bt]\nuri = dgt.bluetooth:" +
                                                  bt.pty_slave_path() + "\ndriver-options = battery-poll-ms=50\n"
                                                  "[board.classic]\nuri = dgt:" + classic.pty_slave_path() + "\n"));
    EventLog log(eboardd.process);
    const auto battery_is = [](int percent, bool charging) {
        return [=](const ojson& e) {
            return e.contains("battery") && e["battery"] == ojson{{"percent", percent}, {"charging", charging}};
        };
    };

    // The first report: a BOARD event, connected, with the battery.
    const ojson first = log.wait_for("BOARD", "bt", battery_is(84, false));
    REQUIRE_FALSE(first.is_null());
    CHECK(first["state"] == "connected");
    CHECK(first["driver"] == "dgt.bluetooth"); // the URI's driver part, model included
    // The board is asked again and again (4c every 50 ms) and says the same: no more events.
    const std::size_t after_first = log.of("BOARD", "bt").size();
    REQUIRE(bt.wait_until([](const drivers::emu::DgtBoardEmu& m) {
        return std::count(m.received().begin(), m.received().end(), std::uint8_t{0x4c}) >= 5;
    }, 20000));
    // A change of one percent, then of charging alone: one event each.
    CHECK(log.of("BOARD", "bt").size() == after_first);
    bt.set_battery(83, false);
    REQUIRE_FALSE(log.wait_for("BOARD", "bt", battery_is(83, false)).is_null());
    bt.set_battery(83, true);
    REQUIRE_FALSE(log.wait_for("BOARD", "bt", battery_is(83, true)).is_null());
    CHECK(with_battery(log, "bt", 84) == 1);
    CHECK(with_battery(log, "bt", 83) == 2);

    // BOARDS: the battery of the board that reports one, none for the classic board.
    const ojson boards = request(socket, {{"class", "BOARDS"}})["boards"];
    REQUIRE(boards.size() == 2);
    for (const auto& b : boards) {
        INFO(b.dump());
        CHECK(b["state"] == "connected");
        if (b["board"] == "bt") CHECK(b["battery"] == ojson{{"percent", 83}, {"charging", true}});
        else CHECK_FALSE(b.contains("battery"));
    }
    // The classic board reports none (4c is for the Bluetooth models).
    for (const auto& e : log.of("BOARD", "classic")) CHECK_FALSE(e.contains("battery"));

    // Unplugged: BOARD disconnected without a battery, and BOARDS has none.
    bt.unplug();
    const ojson gone = log.wait_for("BOARD", "bt", [](const ojson& e) { return e["state"] == "disconnected"; });
    REQUIRE_FALSE(gone.is_null());
    CHECK_FALSE(gone.contains("battery"));
    const ojson after = request(socket, {{"class", "BOARDS"}}); // held: a range-for over a temporary's member dangles
    for (const auto& b : after["boards"])
        if (b["board"] == "bt") CHECK_FALSE(b.contains("battery"));

    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
}
