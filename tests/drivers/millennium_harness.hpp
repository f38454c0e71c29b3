// The real Millennium driver in a DeviceSession on the emulator's pty (termios transport).
#pragma once

#include "drivers/emu/millennium_emulator.hpp"
#include "drivers/millennium/driver.hpp"
#include "harness.hpp"

namespace eboard::drivers::test {

struct MillenniumHarness : SessionHarness {
    std::unique_ptr<emu::MillenniumEmulator> emu;
    millennium::MillenniumDriver* driver = nullptr;

    explicit MillenniumHarness(emu::MillenniumEmulatorOptions eo = {},
                               millennium::MillenniumOptions dopt = fast_options()) {
        if (const char* t = std::getenv("EBOARD_TRACE"))
            (void)enable_traces(t); // e.g. millennium,emu
        emu = std::make_unique<emu::MillenniumEmulator>(std::move(eo));
        auto t = open_termios(emu->device_path(), SerialSettings::parse("38400/7o1").value());
        REQUIRE(t.has_value());
        auto d = std::make_unique<millennium::MillenniumDriver>(dopt);
        driver = d.get();
        session = std::make_unique<DeviceSession>(std::move(t.value()), std::move(d), sink());
        session->start();
    }

    /// Short timings so no test waits seconds of wall time.
    static millennium::MillenniumOptions fast_options() {
        millennium::MillenniumOptions o;
        o.startup_delay_ms = 0;
        o.version_retry_ms = 200;
        o.reply_timeout_ms = 200;
        return o;
    }

    bool ready() {
        return pump_until([&] { return driver->ready() && !all<BoardDump>().empty(); });
    }
};

} // namespace eboard::drivers::test
