// Helpers for the libusb tests: a fake USB bus that insists on umockdev's preload, and a tiny
// echo device (each output report comes back as an input report) for transport-level tests.
#pragma once

#include "drivers/core/session.hpp"
#include "drivers/core/usb.hpp"
#include "drivers/emu/umockdev/fake_usb.hpp"

#include <catch2/catch.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace eboard::drivers::test {

/// How long a test waits for an event it is owed before it fails: a safety net for a machine
/// loaded by other builds, never a pace (every wait ends as soon as the event is there).
inline constexpr int kEventDeadlineMs = 30000;

/// Hotplug events from `m` until `count` arrived (or kEventDeadlineMs passed): an arrival and
/// a departure may come in one poll() or in several.
inline std::vector<UsbHotplugEvent> poll_events(UsbMonitor& m, std::size_t count) {
    std::vector<UsbHotplugEvent> got;
    const TimeMs end = steady_now_ms() + kEventDeadlineMs;
    while (got.size() < count && steady_now_ms() < end) {
        auto more = m.poll(static_cast<int>(std::max<TimeMs>(0, end - steady_now_ms())));
        got.insert(got.end(), more.begin(), more.end());
    }
    return got;
}

/// A FakeUsbBus; fails the test with a hint when the preload is missing (run the binary
/// under umockdev-wrapper, as ctest does).
struct UsbBus {
    emu::FakeUsbBus bus;
    UsbBus() {
        INFO("run this test under umockdev-wrapper (ctest does): libusb would see the real bus");
        REQUIRE(bus.usable());
    }
};

/// Echoes every output report back as an input report; push() adds unsolicited ones.
struct EchoDevice final : emu::UsbReportDevice {
    mutable std::mutex mutex;
    std::condition_variable cv;
    std::deque<std::vector<std::uint8_t>> pending;
    std::vector<std::vector<std::uint8_t>> received;
    int power_ons = 0;

    void out_report(std::span<const std::uint8_t> r, TimeMs) override {
        const std::lock_guard lock(mutex);
        received.emplace_back(r.begin(), r.end());
        pending.emplace_back(r.begin(), r.end());
        cv.notify_all();
    }
    std::optional<std::vector<std::uint8_t>> in_report(TimeMs) override {
        const std::lock_guard lock(mutex);
        if (pending.empty()) return std::nullopt;
        auto r = std::move(pending.front());
        pending.pop_front();
        return r;
    }
    void wait_for_activity(int timeout_ms) override {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return !pending.empty(); });
    }
    void power_on(TimeMs) override {
        const std::lock_guard lock(mutex);
        ++power_ons;
        pending.clear();
    }
    void push(std::vector<std::uint8_t> r) {
        const std::lock_guard lock(mutex);
        pending.push_back(std::move(r));
        cv.notify_all();
    }
    std::vector<std::vector<std::uint8_t>> got() const {
        const std::lock_guard lock(mutex);
        return received;
    }
};

/// Reads from `t` until a report arrives or `timeout_ms` passed.
inline std::vector<std::uint8_t> read_report(Transport& t, int timeout_ms = 2000) {
    std::array<std::uint8_t, 256> buf{};
    const TimeMs end = steady_now_ms() + timeout_ms;
    while (steady_now_ms() < end && !t.disconnected()) {
        const std::size_t n = t.read(buf, 50);
        if (n > 0) return {buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n)};
    }
    return {};
}

} // namespace eboard::drivers::test
