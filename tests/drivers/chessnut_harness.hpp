// The real Chessnut driver in a DeviceSession against ChessnutEmulator: over the in-process
// ReportLoopback transport by default (fast, for the all-games sweep), or over any transport a
// test opens (tests/usb: the libusb transport on a fake USB device under umockdev).
#pragma once

#include "harness.hpp"

#include "drivers/chessnut/driver.hpp"
#include "drivers/emu/chessnut_emulator.hpp"

namespace eboard::drivers::test {

struct ChessnutHarness : SessionHarness {
    std::shared_ptr<emu::ChessnutEmulator> emu;
    chessnut::ChessnutDriver* driver = nullptr;
    emu::ReportLoopback* loopback = nullptr;  ///< the transport, when it is the loopback

    /// Writes 5 ms apart instead of 200 ms, so start-up takes no wall time; everything else
    /// as in a real session.
    static chessnut::ChessnutOptions fast_options() {
        chessnut::ChessnutOptions o;
        o.write_spacing_ms = 5;
        o.realtime_retry_ms = 200;
        return o;
    }
    static emu::ChessnutEmulatorOptions fast_emulator(emu::ChessnutEmulatorOptions eo = {}) {
        eo.min_write_spacing_ms = 5;
        return eo;
    }

    /// Emulator and driver over the loopback transport.
    explicit ChessnutHarness(emu::ChessnutEmulatorOptions eo = fast_emulator(),
                             chessnut::ChessnutOptions dopt = fast_options())
        : emu(std::make_shared<emu::ChessnutEmulator>(std::move(eo))) {
        auto t = std::make_unique<emu::ReportLoopback>(emu, "chessnut");
        loopback = t.get();
        connect(std::move(t), dopt);
    }

    /// Emulator `e` (already served somewhere) and the driver over `transport`.
    ChessnutHarness(std::shared_ptr<emu::ChessnutEmulator> e, std::unique_ptr<Transport> transport,
                    chessnut::ChessnutOptions dopt = fast_options())
        : emu(std::move(e)) {
        connect(std::move(transport), dopt);
    }

    /// A new session (after a re-plug) on `transport`; the events so far are kept.
    void connect(std::unique_ptr<Transport> transport, chessnut::ChessnutOptions dopt = fast_options()) {
        auto d = std::make_unique<chessnut::ChessnutDriver>(dopt);
        driver = d.get();
        open(std::move(transport), std::move(d));
    }

    /// Realtime mode on and the first position decoded (waiting at most `timeout_ms`).
    bool ready(int timeout_ms = 3000) {
        return pump_until([&] { return driver->ready() && !all<BoardSnapshot>().empty(); }, timeout_ms);
    }
};

} // namespace eboard::drivers::test
