// Test helpers for the driver tests: a recording DriverHost (driver on byte buffers with
// simulated time) and a pty harness (real driver + DeviceSession against DgtEmulator).
#pragma once

#include "drivers/core/session.hpp"
#include "drivers/core/transport.hpp"
#include "drivers/dgt/driver.hpp"
#include "drivers/emu/dgt_emulator.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace eboard::drivers::test {

/// Collects what a driver sends and emits.
struct RecordingHost final : DriverHost {
    std::vector<std::uint8_t> sent;
    std::vector<DriverEvent> events;
    void send(std::span<const std::uint8_t> b) override { sent.insert(sent.end(), b.begin(), b.end()); }
    void emit(DriverEvent e) override { events.push_back(std::move(e)); }
    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
        return out;
    }
    std::vector<std::uint8_t> take_sent() { return std::exchange(sent, {}); }
};

/// Feeds a byte string to a driver through a Framer, as the session would.
inline void feed(Driver& d, const std::vector<std::uint8_t>& bytes, Millis now) {
    static const TraceChannel& t = trace_channel("test");
    Framer f(d.frame_rule(), t);
    f.push(bytes, [&](std::span<const std::uint8_t> p) { d.on_packet(p, now); });
}

/// A DeviceSession and the events it reported; pump_until() polls it until a condition holds.
struct SessionHarness {
    std::unique_ptr<DeviceSession> session;
    std::vector<DriverEvent> events;

    /// The sink to give the session.
    DeviceSession::EventSink sink() {
        return [this](const DriverEvent& e) { events.push_back(e); };
    }

    /// Polls the session until `pred` holds or `timeout_ms` passed (a condition, not a sleep).
    bool pump_until(const std::function<bool()>& pred, int timeout_ms = 3000) {
        const Millis end = steady_now_ms() + timeout_ms;
        while (!pred()) {
            if (steady_now_ms() > end) return false;
            if (!session->poll(10) && !pred()) return pred();
        }
        return true;
    }

    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
        return out;
    }

    template <typename T>
    [[nodiscard]] std::optional<T> last() const {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (const T* t = std::get_if<T>(&*it)) return *t;
        return std::nullopt;
    }
};

/// The real DGT driver in a DeviceSession on the emulator's pty.
struct PtyHarness : SessionHarness {
    std::unique_ptr<emu::DgtEmulator> emu;
    dgt::DgtDriver* driver = nullptr;

    explicit PtyHarness(emu::DgtEmulatorOptions eo = {}, dgt::DgtOptions dopt = fast_options()) {
        if (const char* t = std::getenv("EBOARD_TRACE")) (void)enable_traces(t);  // e.g. EBOARD_TRACE=dgt
        emu = std::make_unique<emu::DgtEmulator>(std::move(eo));
        auto t = open_termios(emu->pty_slave_path(), SerialSettings{});
        REQUIRE(t.has_value());
        auto d = std::make_unique<dgt::DgtDriver>(dopt);
        driver = d.get();
        session = std::make_unique<DeviceSession>(std::move(t.value()), std::move(d), sink());
        session->start();
    }

    /// Short timings so no test waits seconds of wall time.
    static dgt::DgtOptions fast_options() {
        dgt::DgtOptions o;
        o.startup_delay_ms = 0;
        o.version_retry_ms = 200;
        o.clock.ack_timeout_ms = 100;
        return o;
    }

    bool ready() {
        return pump_until([&] { return driver->ready() && !all<BoardDump>().empty(); });
    }
};

} // namespace eboard::drivers::test
