// DeviceSession: one board's connection as the core runs it. It owns the transport, the
// driver and the framer; reads bytes, frames them, feeds packets to the driver, writes what
// the driver sends, logs the wire on the driver's trace channel and reports a LinkStatus
// event when the link goes down.
//
// Threading: a poll loop. Call poll() repeatedly from one thread (the daemon's device thread,
// or the test); driver commands (request_board_dump, clock()->...) must be called from that
// same thread, between polls. Time comes from the injected clock, so tests can use a fake one.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/framer.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/core/transport.hpp"
#include "drivers/core/uri.hpp"

#include <functional>
#include <memory>

namespace eboard::drivers {

/// Milliseconds of std::chrono::steady_clock.
[[nodiscard]] Millis steady_now_ms();

class DeviceSession final : private DriverHost {
  public:
    using Clock = std::function<Millis()>;
    using EventSink = std::function<void(const DriverEvent&)>;

    DeviceSession(std::unique_ptr<Transport> transport, std::unique_ptr<Driver> driver,
                  EventSink sink, Clock clock = steady_now_ms);
    DeviceSession(const DeviceSession&) = delete;
    DeviceSession& operator=(const DeviceSession&) = delete;

    /// Starts the driver's start-up sequence (emits LinkStatus connected).
    void start();
    /// Waits at most `max_wait_ms` for input (less if the driver needs a tick sooner),
    /// handles what arrived and runs the driver's timers. Returns false once disconnected.
    bool poll(int max_wait_ms);
    [[nodiscard]] bool connected() const { return !transport_->disconnected(); }
    [[nodiscard]] Driver& driver() { return *driver_; }
    [[nodiscard]] const FramerStats& framer_stats() const { return framer_.stats(); }
    [[nodiscard]] Millis now() const { return clock_(); }

  private:
    void send(std::span<const std::uint8_t> bytes) override;
    void emit(DriverEvent event) override;
    void handle_disconnect();

    std::unique_ptr<Transport> transport_;
    std::unique_ptr<Driver> driver_;
    EventSink sink_;
    Clock clock_;
    const TraceChannel& trace_;
    Framer framer_;
    bool down_reported_ = false;
};

/// Opens the board a URI names (`dgt:/dev/ttyACM0`): finds the driver in the registry, opens
/// the transport with the model's serial settings and creates the session (not started).
[[nodiscard]] Expected<std::unique_ptr<DeviceSession>> open_device(
    std::string_view uri, DeviceSession::EventSink sink, DriverOptions options = {},
    DeviceSession::Clock clock = steady_now_ms);

} // namespace eboard::drivers
