// The DGT driver and the board model with its DGT3000 wired byte for byte on simulated time
// (Loopback): the two update modes of dgt.md 3, the flags of a BWTIME time report (10.1), and
// the model table's quirks (a Bluetooth board's long serial and battery, 4.1).
#include "harness.hpp"

#include "drivers/core/registry.hpp"
#include "drivers/emu/board_emu.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::dgt;

namespace {

/// The options the registry makes from `params` (as eboardd passes them), with no start-up delay.
DgtOptions options(const std::map<std::string, std::string>& params) {
    DriverOptions o;
    for (const auto& [k, v] : params) o.params.emplace(k, v);
    o.params.emplace("startup-delay-ms", "0");
    auto opt = DgtOptions::from_params(o);
    REQUIRE(opt.has_value());
    return opt.value();
}

/// The driver the registry makes for `model` ("" = the default), as open_device() does.
std::unique_ptr<Driver> registry_driver(const std::string& model, const std::string& battery_poll_ms = "") {
    const DriverInfo* info = find_driver("dgt");
    REQUIRE(info != nullptr);
    REQUIRE(info->model(model) != nullptr);
    DriverOptions o;
    o.model = model;
    o.params.emplace("startup-delay-ms", "0");
    if (!battery_poll_ms.empty()) o.params.emplace("battery-poll-ms", battery_poll_ms);
    auto d = info->create(o);
    REQUIRE(d != nullptr);
    return d;
}

/// Time reports the driver emitted from index `from` on.
std::size_t times_since(const RecordingHost& host, std::size_t from) { return host.all<ClockReport>().size() - from; }

/// The last time report the driver emitted (a default one if none).
ClockReport last_times(const RecordingHost& host) {
    const auto all = host.all<ClockReport>();
    return all.empty() ? ClockReport{} : all[all.size() - 1];
}

} // namespace

TEST_CASE("dgt 3 update modes: UPDATE sends the times every second, UPDATE_NICE only on change") {
    for (const bool nice : {true, false}) {
        INFO(std::string(nice ? "update-mode=nice" : "update-mode=update"));
        emu::DgtBoardEmu board;
        DgtDriver driver(options({{"update-mode", nice ? "nice" : "update"}}));
        Loopback link(board, driver);
        REQUIRE(link.run_until([&] { return driver.ready() && driver.clock_model() == ClockModel::Dgt3000; }, 5000));
        CHECK(board.mode() == (nice ? emu::BoardMode::UpdateNice : emu::BoardMode::Update));
        // A stopped clock for 5 s: UPDATE repeats its times every second, UPDATE_NICE is quiet.
        const std::size_t before = link.host.all<ClockReport>().size();
        link.run(5000, 5);
        if (nice) CHECK(times_since(link.host, before) == 0);
        else CHECK(times_since(link.host, before) >= 4);
        // Field updates come in either mode.
        board.lift(Square::parse("e2"), link.now);
        board.place(Square::parse("e4"), Piece::WPawn, link.now);
        REQUIRE(link.run_until([&] { return driver.board() == board.position(); }, 1000));
        // A running clock: the times follow in either mode, once a second.
        const std::size_t running = link.host.all<ClockReport>().size();
        driver.set_and_run(60000, 60000, ClockRun::Left);
        link.run(3500, 5);
        CHECK(times_since(link.host, running) >= 3);
        CHECK(last_times(link.host).left_ms < 60000);
    }
    DriverOptions bad;
    bad.params.emplace("update-mode", "fast");
    CHECK_FALSE(DgtOptions::from_params(bad).has_value());
}

TEST_CASE("dgt 10.1 flags: a clock run down to zero reports its flag, the other side's stays down") {
    emu::DgtBoardEmu board;
    DgtDriver driver(options({}));
    Loopback link(board, driver);
    REQUIRE(link.run_until([&] { return driver.ready() && driver.clock_model() == ClockModel::Dgt3000; }, 5000));
    driver.set_and_run(2000, 60000, ClockRun::Left);
    REQUIRE(link.run_until([&] { return board.clock().state().times.left_flag; }, 5000, 5));
    REQUIRE(link.run_until([&] { return last_times(link.host).left_flag; }, 2000, 5));
    const ClockReport t = last_times(link.host);
    CHECK(t.left_ms == 0);
    CHECK_FALSE(t.right_flag);
    CHECK(t.right_ms == 60000);
    // The right side runs down next (the left one stays flagged: bit 4, blocked at zero).
    driver.set_and_run(0, 1000, ClockRun::Right);
    REQUIRE(link.run_until([&] { return last_times(link.host).right_flag; }, 5000, 5));
    CHECK(last_times(link.host).right_ms == 0);

    // The bits themselves (10.1): bit 4 = flag fallen and blocked, bit 6 = flag shown, bit 5 =
    // time per move; right player in bytes 0-2, left in 3-5.
    const std::array<std::uint8_t, 7> bits{0x10, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00};
    const auto d = decode_time_report(bits);
    REQUIRE(d.has_value());
    CHECK(d->right_flag);
    CHECK_FALSE(d->right_delay);
    CHECK(d->left_flag);
    CHECK(d->left_delay);
}

TEST_CASE("dgt 4.1 model quirks: Bluetooth and Revelation II ask the long serial and the battery") {
    for (const std::string model : {"classic", "bluetooth", "revelation2"}) {
        INFO(model);
        emu::DgtEmulatorOptions eo;
        eo.battery_percent = 73;
        emu::DgtBoardEmu board(eo);
        auto driver = registry_driver(model);
        auto& dgt = dynamic_cast<DgtDriver&>(*driver);
        Loopback link(board, *driver);
        REQUIRE(link.run_until([&] { return dgt.ready() && dgt.clock_model() == ClockModel::Dgt3000; }, 5000));
        link.run(200);
        const bool quirky = model != "classic";
        const auto& rx = board.received();
        CHECK((std::find(rx.begin(), rx.end(), cmd::return_long_serialnr) != rx.end()) == quirky);
        CHECK((std::find(rx.begin(), rx.end(), cmd::send_battery) != rx.end()) == quirky);
        const auto info = link.host.all<DeviceInfo>();
        REQUIRE_FALSE(info.empty());
        CHECK(info.back().serial == eo.serial);
        CHECK(info.back().version_major == eo.version_major);
        CHECK(info.back().long_serial == (quirky ? eo.long_serial : std::string()));
        const auto battery = link.host.all<BatteryInfo>();
        CHECK(battery.size() == (quirky ? 1u : 0u));
        if (quirky && !battery.empty()) CHECK(battery[0].percent == 73);
    }
}

TEST_CASE("dgt 4.1 a Bluetooth board's battery is asked every battery-poll-ms, charging from the status bits, at most 100 %") {
    emu::DgtEmulatorOptions eo;
    eo.battery_percent = 73;
    emu::DgtBoardEmu board(eo);
    auto driver = registry_driver("bluetooth", "1000");
    auto& dgt = dynamic_cast<DgtDriver&>(*driver);
    Loopback link(board, *driver);
    REQUIRE(link.run_until([&] { return !link.host.all<BatteryInfo>().empty(); }, 5000));
    const auto asked = [&] { return std::count(board.received().begin(), board.received().end(), cmd::send_battery); };
    CHECK(asked() == 1);
    CHECK(dgt.next_tick_ms(link.now) <= link.now + 1000); // the poll is a deadline of its own
    link.run(3100);
    CHECK(asked() == 4);
    for (const auto& b : link.host.all<BatteryInfo>()) {
        CHECK(b.percent == 73);
        CHECK_FALSE(b.charging);
        CHECK(b.discharging);
    }
    board.set_battery(40, true);
    link.run(1000);
    CHECK(link.host.all<BatteryInfo>().back().percent == 40);
    CHECK(link.host.all<BatteryInfo>().back().charging);
    board.set_battery(120, false); // 7 bits on the wire: more than a percent can be
    link.run(1000);
    CHECK(link.host.all<BatteryInfo>().back().percent == 100);
}
