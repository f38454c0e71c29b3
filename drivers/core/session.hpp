// DeviceSession: one board's connection as the core runs it. It owns the transport, the
// driver and the framer; reads bytes, frames them, feeds packets to the driver, writes what
// the driver sends, logs the wire on the driver's trace channel, reports a LinkStatus event
// when the link goes down and, with reconnection on, gets the device back.
//
// Reconnection (enable_reconnect(); open_device() turns it on): when the transport goes away
// (read or write error, hang-up, EOF, USB unplug, the tty removed) the session
//   1. drops a message cut in the middle (Framer::reset, traced), calls Driver::on_link_down
//      and emits LinkStatus{connected=false, reason} once;
//   2. tries to open the same device again ReconnectPolicy::first_delay_ms later, the delay
//      doubling after every failed attempt up to max_delay_ms (0.5, 1, 2, 4, 5, 5 ... s by
//      default; session clock, so tests inject the time); the driver gets no ticks meanwhile;
//   3. when the device opens: LinkStatus{connected=true, "reconnected: NAME"}, then the
//      driver's start-up runs again (Driver::start) on the new transport. Board drivers end
//      their start-up with a BoardSnapshot, so a consumer that restarts its game check on
//      LinkStatus{true} (daemon/device_link.cpp does) compares the next BoardSnapshot with the
//      game: pieces moved while the board was away show there.
// poll() keeps returning true while it reconnects; it returns false only once disconnected
// without reconnection (or after close()). connected() says whether a transport is up now.
//
// Threading: a poll loop. Call poll() repeatedly from one thread (the daemon's device thread,
// or the test); driver commands (request_board_dump, clock()->...) must be called from that
// same thread, between polls; while the device is away they reach the driver but no wire.
// wake() may be called from any thread: a poll() that waits returns at once, so that commands
// queued for that thread go out without waiting for input (the daemon's DeviceLink).
// Time comes from the injected clock, so tests can use a fake one.
//
// Timers are event-driven: poll() sleeps until input arrives, wake() is called, or the
// driver's next timer is due (Driver::next_tick_ms), never on a fixed tick; a DGT board whose
// clock is stopped costs one wake-up per keep-alive (1.5 s), not twenty a second. A transport
// without a wait_fd() (libusb) is read in 50 ms slices, so wake() is heard within 50 ms.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/framer.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/core/transport.hpp"
#include "drivers/core/uri.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace eboard::drivers {

/// Milliseconds of std::chrono::steady_clock.
[[nodiscard]] TimeMs steady_now_ms();

/// When a session tries to get its device back (see the file comment).
struct ReconnectPolicy {
    TimeMs first_delay_ms = 500;  ///< first attempt this long after the link went down
    TimeMs max_delay_ms = 5000;   ///< the delay doubles after each failure up to this
};

/// Opens the device again (the same path, host or USB spec the session was opened with).
using TransportOpener = std::function<Expected<std::unique_ptr<Transport>>()>;

class DeviceSession final : private DriverHost {
  public:
    /// After garbage, a bad header or a cut message the driver resyncs (Driver::on_resync: a
    /// board dump asked for) at most once per this many ms; one due meanwhile comes after it.
    static constexpr TimeMs kMinResyncIntervalMs = 1000;
    using Clock = std::function<TimeMs()>;
    using EventSink = std::function<void(const DriverEvent&)>;

    DeviceSession(std::unique_ptr<Transport> transport, std::unique_ptr<Driver> driver,
                  EventSink sink, Clock clock = steady_now_ms);
    ~DeviceSession() override;
    DeviceSession(const DeviceSession&) = delete;
    DeviceSession& operator=(const DeviceSession&) = delete;

    /// Starts the driver's start-up sequence (emits LinkStatus connected).
    void start();
    /// Turns reconnection on: after the device goes away, `reopen` is tried on the schedule of
    /// `policy` until it succeeds (see the file comment).
    void enable_reconnect(TransportOpener reopen, ReconnectPolicy policy = {});
    /// Waits at most `max_wait_ms` (negative: up to 60 s) for input, for wake(), or until the
    /// driver's next timer (Driver::next_tick_ms) is due, whichever comes first; handles what
    /// arrived and runs the driver's timers (on_tick); while the device is away, waits for the
    /// next reopen attempt instead (at most `max_wait_ms`) and makes it when it is due.
    /// Returns false once disconnected for good (no reconnection), true otherwise.
    bool poll(int max_wait_ms);
    /// Any thread: a poll() waiting now (or the next one) returns at once.
    void wake();
    /// A clean exit: reconnection off, Driver::stop, then polls until the driver has put the
    /// device back as it found it (Driver::stopped), the device is gone, or `max_wait_ms`
    /// passed. Returns whether the driver finished. The session stays open (destroy it).
    bool shutdown(int max_wait_ms);
    /// True while a transport is up.
    [[nodiscard]] bool connected() const { return transport_ && !transport_->disconnected(); }
    /// True while the device is away and the session tries to get it back.
    [[nodiscard]] bool reconnecting() const { return reopen_ && !connected(); }
    /// Session-clock time of the next reopen attempt (meaningful while reconnecting()).
    [[nodiscard]] TimeMs next_attempt_ms() const { return next_attempt_; }
    /// While reconnecting: make the next reopen attempt at the next poll() instead of on the
    /// back-off schedule (the device is known to be back, e.g. a libusb hotplug arrival).
    void reconnect_now() {
        if (reconnecting()) next_attempt_ = clock_();
    }
    /// Failed reopen attempts since the link last went down.
    [[nodiscard]] int failed_attempts() const { return failed_attempts_; }
    [[nodiscard]] Driver& driver() { return *driver_; }
    [[nodiscard]] const FramerStats& framer_stats() const { return framer_.stats(); }
    /// True while part of a message is buffered (the rest has not come yet).
    [[nodiscard]] bool in_packet() const { return framer_.in_packet(); }
    [[nodiscard]] TimeMs now() const { return clock_(); }

  private:
    void send(std::span<const std::uint8_t> bytes) override;
    void emit(DriverEvent event) override;
    [[nodiscard]] std::optional<TimeMs> clock_ms() const override { return clock_(); }
    void handle_disconnect();
    /// The framer saw garbage: Driver::on_resync now, or once kMinResyncIntervalMs passed.
    void resync_due();
    void try_reopen(int max_wait_ms);
    // Waits up to `wait_ms` for input or wake(), then reads what is there.
    std::size_t wait_and_read(std::span<std::uint8_t> buf, TimeMs wait_ms);
    void drain_wake();

    std::unique_ptr<Transport> transport_;
    std::unique_ptr<Driver> driver_;
    EventSink sink_;
    Clock clock_;
    const TraceChannel& trace_;
    Framer framer_;
    bool down_reported_ = false;
    std::string name_;  // of the transport, for the reports while it is away
    TransportOpener reopen_;
    ReconnectPolicy policy_;
    TimeMs delay_ = 0, next_attempt_ = 0;
    int failed_attempts_ = 0;
    int wake_fd_ = -1;  // eventfd: wake()
    TimeMs last_resync_ = kNoTick;  // of the last Driver::on_resync
    bool resync_pending_ = false;   // a resync waits for kMinResyncIntervalMs to pass
};

/// Opens the board a URI names (`dgt:/dev/ttyACM0`): finds the driver in the registry, opens
/// the transport with the model's serial settings and creates the session (not started), with
/// reconnection to the same transport spec on `reconnect`'s schedule (nullopt: off).
/// `cancel_fd` (-1: none) gives up an open that waits, this one and every reopen of the
/// session, once it turns readable (open_transport in transport.hpp; the daemon's device
/// thread passes an eventfd it writes when it stops).
[[nodiscard]] Expected<std::unique_ptr<DeviceSession>> open_device(
    std::string_view uri, DeviceSession::EventSink sink, DriverOptions options = {},
    DeviceSession::Clock clock = steady_now_ms,
    std::optional<ReconnectPolicy> reconnect = ReconnectPolicy{}, int cancel_fd = -1);

} // namespace eboard::drivers
