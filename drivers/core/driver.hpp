// The driver interface: a driver decodes and encodes bytes and reports what changed. It never
// touches a file descriptor or reads the wall clock: the core (DeviceSession, or a test) feeds
// it packets and the current time, and gives it a DriverHost to write bytes and emit events.
// That is what makes every driver testable on byte buffers with simulated time.
#pragma once

#include "drivers/core/events.hpp"
#include "drivers/core/framer.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

namespace eboard::drivers {

/// Driver::next_tick_ms(): no timer armed; on_tick runs with the next input.
inline constexpr TimeMs kNoTick = std::numeric_limits<TimeMs>::max();

/// What a driver may do to the outside world.
class DriverHost {
  public:
    virtual ~DriverHost() = default;
    /// Queue bytes for the device (written at once, traced by the core).
    virtual void send(std::span<const std::uint8_t> bytes) = 0;
    /// Report an event.
    virtual void emit(DriverEvent event) = 0;
    /// The host's clock (ms; the clock every `now` comes from), read after send() returned.
    /// A driver that paces its writes measures the pause from there: the write has reached the
    /// device by then, while the tick that started it may be earlier by however long a busy
    /// machine held the write up (Chessnut's 200 ms between writes, chessnut.md 2). nullopt
    /// for hosts on simulated time, where the `now` the driver was given is exact.
    [[nodiscard]] virtual std::optional<TimeMs> clock_ms() const { return std::nullopt; }
};

/// What to run the clock with after SETNRUN.
enum class ClockRun : std::uint8_t { None, Left, Right };

/// Commands for a clock attached to (or part of) the board. Times are ms, whole seconds are
/// sent. Each call queues a command; the outcome arrives as a ClockCommandDone event.
class ClockControl {
  public:
    virtual ~ClockControl() = default;
    /// Sets both times and starts `run` (None = both stopped).
    virtual void set_and_run(TimeMs left_ms, TimeMs right_ms, ClockRun run) = 0;
    /// Shows text (DGT3000: 8 ASCII characters; XL: 6 seven-segment characters), optional beep.
    virtual void show_text(std::string_view text, bool beep) = 0;
    /// Beeps for about `duration_ms`.
    virtual void beep(TimeMs duration_ms) = 0;
    /// Back to the time display.
    virtual void end_display() = 0;
    /// Asks for the clock version (answer: ClockInfo).
    virtual void request_version() = 0;
    /// Asks for the times now (answer: ClockReport).
    virtual void request_times() = 0;
};

/// The square LEDs of a board that has them (Chessnut: one per square, chessnut.md 5; Certabo
/// and Sentio: certabo-sentio.md 4, rate-limited and coalesced, the latest call wins). The
/// driver owns the complete LED state and sends all of it; squares are in game numbering
/// (a1=0 .. h8=63) and the driver applies the board's orientation.
class LedControl {
  public:
    virtual ~LedControl() = default;
    /// Lights exactly the squares whose bit is set (bit n = square n); 0 turns all off.
    virtual void set_leds(Bitboard lit) = 0;
};

/// A board driver. Single-threaded: all calls come from the session's thread.
class Driver {
  public:
    virtual ~Driver() = default;
    /// How the device frames its packets (used by the core's Framer).
    [[nodiscard]] virtual const FrameRule& frame_rule() const = 0;
    /// The trace category ("dgt").
    [[nodiscard]] virtual std::string_view trace_name() const = 0;
    /// Link is up: begin the start-up sequence. `host` outlives the driver's use of it.
    virtual void start(DriverHost& host, TimeMs now) = 0;
    /// One complete packet from the device.
    virtual void on_packet(std::span<const std::uint8_t> packet, TimeMs now) = 0;
    /// The framer dropped garbage or a truncated packet: the driver may resynchronise
    /// (e.g. ask for a full board dump).
    virtual void on_resync(TimeMs now) { (void)now; }
    /// The device went away (DeviceSession: read/write error, hang-up, unplug): drop what is in
    /// flight, expect no answers. If the session gets the device back it calls start() again,
    /// so the start-up runs as after the first open; what the driver learnt (e.g. the board's
    /// orientation) it may keep.
    virtual void on_link_down(TimeMs now) { (void)now; }
    /// The host is about to close the link on purpose (a clean exit, DeviceSession::shutdown):
    /// put back on the device what the driver changed there and that outlives the session
    /// (Millennium's E2ROM, millennium.md 7). Commands go out through the host as usual;
    /// stopped() says when nothing is left to wait for.
    virtual void stop(TimeMs now) { (void)now; }
    /// True once stop() has nothing left in flight (at once for drivers that change nothing).
    [[nodiscard]] virtual bool stopped() const { return true; }
    /// Timers, retries, keep-alive: called after every packet and when next_tick_ms() is due.
    virtual void on_tick(TimeMs now) = 0;
    /// Upper bound for the time between on_tick calls of a driver that keeps the default
    /// next_tick_ms() (polled).
    [[nodiscard]] virtual TimeMs tick_interval_ms() const { return 50; }
    /// When on_tick must run next (the host's clock, ms), asked after on_tick ran at `now` and
    /// after commands were given: the earliest timer the driver has armed (a start-up step,
    /// an ACK wait or retry, a write spacing, a keep-alive), `now` when something waits to be
    /// sent, kNoTick when nothing is due before the next input. The session sleeps until then
    /// or until input arrives (an idle board costs no wake-ups). Default: now +
    /// tick_interval_ms(), a driver polled at its tick interval.
    [[nodiscard]] virtual TimeMs next_tick_ms(TimeMs now) const { return now + tick_interval_ms(); }
    /// Ask for a complete board reading (answer: BoardSnapshot).
    virtual void request_board_dump() = 0;
    /// The clock, if this board drives one; nullptr otherwise.
    [[nodiscard]] virtual ClockControl* clock() { return nullptr; }
    /// The square LEDs, if this board has them; nullptr otherwise.
    [[nodiscard]] virtual LedControl* leds() { return nullptr; }
};

} // namespace eboard::drivers
