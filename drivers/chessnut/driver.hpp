// The Chessnut driver (Air, Pro, and the Air+/Go that speak the same USB HID protocol;
// chessnut.md): realtime mode, position reports with piece identity, orientation, LEDs, beep,
// battery and firmware versions, with the SDK's 200 ms spacing between host writes. See
// drivers/chessnut/README.md for what it assumes where the sources are silent.
#pragma once

#include "drivers/chessnut/protocol.hpp"
#include "drivers/core/driver.hpp"
#include "drivers/core/registry.hpp"

#include <deque>
#include <optional>
#include <vector>

namespace eboard::drivers::chessnut {

/// How the pieces stand on the board (section 7).
enum class Orientation : std::uint8_t {
    Normal,   ///< white at the board's rank 1 side, as it is built
    Rotated,  ///< white at the far side: physical square p is game square p.rotate()
    Auto,     ///< picochess's rule on every report (orientation_from_board), starting normal
};

/// Quirk flags of Chessnut models (ModelInfo::quirks).
namespace quirk {
/// Battery powered: ask `29 01 00` at start-up and every battery_poll_ms (section 6).
inline constexpr std::uint32_t battery = 1u << 0;
/// Sends battery reports on its own ("new hardware", the SDK's comment, section 6): asked
/// only once at start-up.
inline constexpr std::uint32_t unsolicited_battery = 1u << 1;
}

struct ChessnutOptions {
    Orientation orientation = Orientation::Auto;
    std::uint32_t quirks = quirk::battery;
    TimeMs write_spacing_ms = min_write_spacing_ms;  ///< between two host writes (section 2)
    TimeMs realtime_retry_ms = 1000;  ///< resend realtime mode until a position report comes
    TimeMs battery_poll_ms = 60000;   ///< with quirk::battery and without unsolicited reports

    /// Reads "orientation" (normal|rotated|auto) and "write-spacing-ms" from the URI options.
    [[nodiscard]] static Expected<ChessnutOptions> from_params(const DriverOptions& o);
};

class ChessnutDriver final : public Driver, public LedControl {
  public:
    explicit ChessnutDriver(ChessnutOptions options = {});

    [[nodiscard]] const drivers::FrameRule& frame_rule() const override { return rule_; }
    [[nodiscard]] std::string_view trace_name() const override { return "chessnut"; }
    void start(DriverHost& host, TimeMs now) override;
    void on_packet(std::span<const std::uint8_t> packet, TimeMs now) override;
    void on_resync(TimeMs now) override;
    void on_tick(TimeMs now) override;
    /// Event-driven (as the DGT driver): the realtime-mode retry until a position came, the
    /// battery poll (quirk::battery), a dump's deadline, the next write slot; never a poll.
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    /// Asks for a fresh report by re-sending realtime mode; the next report is emitted even
    /// if unchanged. Without one within realtime_retry_ms, the last reported board is emitted
    /// (the board reports every change, so it is the board as it stands).
    void request_board_dump() override;
    [[nodiscard]] LedControl* leds() override { return this; }

    /// LEDs (section 5): the whole state is sent; a newer state replaces one not yet sent.
    void set_leds(Bitboard lit) override;
    /// Beep (section 3).
    void beep(int frequency_hz, TimeMs duration_ms);

    /// The board as last reported, oriented (empty before the first report).
    [[nodiscard]] BoardReading board() const;
    [[nodiscard]] bool rotated() const noexcept { return rotated_; }
    /// A position report has arrived since start().
    [[nodiscard]] bool ready() const noexcept { return physical_.has_value(); }
    /// Reports dropped for an invalid piece code (13..15).
    [[nodiscard]] int invalid_reports() const noexcept { return invalid_reports_; }
    /// Host writes still waiting for their 200 ms slot.
    [[nodiscard]] std::size_t queued_commands() const noexcept { return queue_.size(); }

  private:
    void queue(std::span<const std::uint8_t> command);
    void flush(TimeMs now);
    void on_position(std::span<const std::uint8_t> report, TimeMs now);
    void emit_info(TimeMs now);

    ChessnutOptions opt_;
    FrameRule rule_;
    const TraceChannel& trace_;
    DriverHost* host_ = nullptr;
    std::deque<std::vector<std::uint8_t>> queue_;
    TimeMs last_write_ = 0;
    bool written_ = false;
    TimeMs realtime_sent_ = 0, last_battery_request_ = 0, last_resync_request_ = 0;
    std::optional<BoardReading> physical_;  // last valid report, physical squares
    bool rotated_ = false;
    bool reported_rotated_ = false; ///< the orientation the host was told (BoardOrientation)
    bool dump_requested_ = false;
    Bitboard leds_ = 0;
    bool leds_set_ = false;
    int invalid_reports_ = 0;
    std::optional<TimeMs> dump_deadline_;
    std::string mcu_version_, ble_version_;
};

} // namespace eboard::drivers::chessnut
