// The real Millennium driver in a DeviceSession on the emulator's pty (termios transport with
// the board's 7O1 line settings, which a pty accepts and ignores).
#pragma once

#include "drivers/emu/millennium_emulator.hpp"
#include "drivers/millennium/driver.hpp"
#include "harness.hpp"

namespace eboard::drivers::test {

struct MillenniumHarness : SessionHarness {
    std::unique_ptr<emu::MillenniumEmulator> emu;
    millennium::MillenniumDriver* driver = nullptr;

    explicit MillenniumHarness(const emu::MillenniumEmulatorOptions& eo = {},
                               millennium::MillenniumOptions dopt = fast_options())
        : emu(std::make_unique<emu::MillenniumEmulator>(eo)) {
        auto d = std::make_unique<millennium::MillenniumDriver>(dopt);
        driver = d.get();
        open(emu->device_path(), std::move(d), SerialSettings::parse("38400/7o1").value());
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
        return pump_until([&] { return driver->ready() && !all<BoardSnapshot>().empty(); });
    }
};

} // namespace eboard::drivers::test
