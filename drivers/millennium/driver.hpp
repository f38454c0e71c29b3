// The Millennium ChessLink driver (millennium.md): start-up with the version, report mode set
// in the E2ROM only when it differs, full-board status reports turned into a board dump and
// square changes, orientation from the start position in either square order, LEDs, and a
// keep-alive. See drivers/millennium/README.md for the quirks it handles.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/millennium/protocol.hpp"

#include <deque>
#include <functional>
#include <optional>

namespace eboard::drivers::millennium {

/// Quirk flags of the models (ModelInfo::quirks).
namespace quirk {
/// Performance boards may not acknowledge commands (chesslinkdriver sends L/X without waiting).
inline constexpr std::uint32_t no_ack = 1u << 0;
/// eONE firmware may not set the parity bit (chesslinkdriver does not check it): no counting.
inline constexpr std::uint32_t parity_unreliable = 1u << 1;
} // namespace quirk

/// How the board stands (5).
enum class Orientation : std::uint8_t {
    H1First, ///< the first reported square is h1 (the open drivers' default)
    A8First, ///< the first reported square is a8 (the document's order)
    Auto,    ///< H1First until a start position shows which way round the board is
};

/// The default debounce: 1, a change is reported once two scans in a row saw it (E2ROM 02 =
/// 4, millennium.md 7). The board scans every 40.96 ms and reports at most once a scan, so a
/// sensor glitch of one scan comes back 40.96 ms later at the earliest, just outside the
/// reconstruction's bounce filter (ReconConfig::bounce_ms = 40, docs/reconstruction.md, which
/// every board's readings go through): with no debounce it would be a lift and a placement (a
/// touch, Art. 4.3). One extra scan is the least that keeps it on the board; it costs one
/// scan (41 ms) per change, far below the settle time (300 ms). More would only add latency.
inline constexpr int kDefaultDebounce = 1;

struct MillenniumOptions {
    Orientation orientation = Orientation::Auto;
    std::uint32_t quirks = 0;
    int debounce = kDefaultDebounce; ///< 0..4: reports on change after n extra stable scans (E2ROM 02 = 3 + n)
    TimeMs startup_delay_ms = 100;  ///< quiet time after open before the first `V`
    TimeMs version_retry_ms = 2000; ///< resend `V` until a `v` arrives
    TimeMs reply_timeout_ms = 1000; ///< a command not answered in this time is sent again
    int max_retries = 2;            ///< then it is given up (traced)
    TimeMs keepalive_ms = 3000;     ///< silence before a `V` ping (reports come only on change)
    int max_missed_keepalives = 3;  ///< then LinkStatus{false} and the start-up again

    /// Reads "orientation" (auto|h1-first|a8-first; normal = h1-first, rotated = a8-first),
    /// "debounce" (0..4), "startup-delay-ms", "reply-timeout-ms".
    [[nodiscard]] static Expected<MillenniumOptions> from_params(const DriverOptions& o);
};

class MillenniumDriver final : public Driver, public LedControl {
  public:
    explicit MillenniumDriver(MillenniumOptions options = {});

    [[nodiscard]] const drivers::FrameRule& frame_rule() const override { return rule_; }
    [[nodiscard]] std::string_view trace_name() const override { return "millennium"; }
    void start(DriverHost& host, TimeMs now) override;
    void on_packet(std::span<const std::uint8_t> packet, TimeMs now) override;
    void on_resync(TimeMs now) override;
    void on_link_down(TimeMs now) override;
    /// Writes E2ROM 02 back to what the board had before this driver changed it (7: "consider
    /// restoring them on exit"); nothing if it was never changed.
    void stop(TimeMs now) override;
    [[nodiscard]] bool stopped() const override;
    void on_tick(TimeMs now) override;
    /// Event-driven (as the DGT driver): the start-up delay, the version retry, a reply's
    /// timeout, a queued command, the keep-alive after keepalive_ms of silence; never a poll.
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    void request_board_dump() override;
    [[nodiscard]] LedControl* leds() override { return this; }

    /// LEDs (6): the four corner LEDs of each square in `squares` show `pattern` (8-step blink
    /// pattern, FF = steady), all others are off; slot time in 4.096 ms units. A newer request
    /// replaces one not sent yet.
    void show_squares(Bitboard squares, std::uint8_t pattern = 0xff, std::uint8_t slot_time = 0x20);
    /// LedControl: the squares in `lit` steadily on, all else off (`X` when none).
    void set_leds(Bitboard lit) override;
    /// All 81 patterns as given (LED k in the document's numbering, 0-based).
    void set_led_patterns(std::span<const std::uint8_t, led_count> codes, std::uint8_t slot_time);
    /// All LEDs off (`X`).
    void leds_off();

    /// The board as last reported, oriented.
    [[nodiscard]] const BoardReading& board() const noexcept { return board_; }
    [[nodiscard]] SquareOrder order() const noexcept { return order_; }
    [[nodiscard]] bool ready() const noexcept { return state_ == State::Ready; }
    /// Received bytes whose bit 7 was not their odd parity, counted only on a line that
    /// passes bit 7 through (8N1, pty, TCP) and not on eONE models (2).
    [[nodiscard]] int parity_errors() const noexcept { return parity_errors_; }

  private:
    enum class State : std::uint8_t { Opening, WaitVersion, Configure, Ready };
    struct Command {
        std::string text; // without check
        char reply = 0;   // letter that acknowledges it; 0: none expected
        std::function<void(const std::string* reply, TimeMs now)> done; // nullptr reply: gave up
    };
    void send_now(std::string_view text);
    void queue(Command c);
    void pump(TimeMs now);
    void on_reply(const std::string& text, TimeMs now);
    void on_status(std::string_view squares, TimeMs now);
    void on_version(const std::string& text, TimeMs now);
    void configure(TimeMs now);
    void lost(TimeMs now, const std::string& why);

    MillenniumOptions opt_;
    FrameRule rule_;
    const TraceChannel& trace_;
    DriverHost* host_ = nullptr;
    State state_ = State::Opening;
    SquareOrder order_ = SquareOrder::H1First;
    TimeMs now_ = 0, started_at_ = 0, last_rx_ = 0, last_version_request_ = 0, last_ping_ = 0,
           sent_at_ = 0;
    int missed_ = 0, attempts_ = 0;
    bool linked_ = false, dump_wanted_ = true, eight_bit_line_ = false, have_version_ = false;
    int parity_errors_ = 0;
    /// E2ROM 02 as the board had it before the first write (kept over reconnections: the
    /// board then already holds our value); nullopt while unchanged.
    std::optional<std::uint8_t> found_report_mode_;
    bool stopping_ = false;
    BoardReading board_;
    std::deque<Command> queue_;
    std::optional<Command> in_flight_;
};

} // namespace eboard::drivers::millennium
