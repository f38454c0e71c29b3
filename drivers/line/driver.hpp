// What the Certabo and Sentio drivers share (certabo-sentio.md): both boards stream frames of
// the same line protocol without being asked, take the same LED commands and can stand either
// way round. LineDriver owns the framing rule, frame decoding and type checks, the watchdog on
// the stream, the LEDs and the BoardStream (vote + events); a subclass turns a frame's numbers
// into a board reading.
#pragma once

#include "drivers/line/leds.hpp"
#include "drivers/line/protocol.hpp"
#include "drivers/core/board_stream.hpp"
#include "drivers/core/driver.hpp"
#include "drivers/core/registry.hpp"

#include <string>

namespace eboard::drivers::line {

struct LineOptions {
    bool rotated = false;       ///< the board stands turned round (white at its rank-8 edge)
    int vote_frames = 1;        ///< per-square majority over this many frames (3.2)
    TimeMs silence_ms = 5000;   ///< no valid frame this long: LinkStatus down (rate UNCERTAIN, 7)
    LedOptions leds;

    /// Reads "orientation" (normal|rotated), "vote-frames", "silence-ms", "led-interval-ms",
    /// "led-repeats" over `defaults`.
    [[nodiscard]] static Expected<LineOptions> from_params(const DriverOptions& o, LineOptions defaults);
};

/// The options LineOptions::from_params reads, for the registry of the Certabo and Sentio
/// drivers (both default to `vote-frames` 3).
[[nodiscard]] std::vector<OptionInfo> line_options();

class LineDriver : public Driver, public LedControl {
  public:
    [[nodiscard]] const drivers::FrameRule& frame_rule() const override { return rule_; }
    [[nodiscard]] std::string_view trace_name() const override { return name_; }
    void start(DriverHost& host, TimeMs now) override;
    void on_packet(std::span<const std::uint8_t> packet, TimeMs now) override;
    void on_tick(TimeMs now) override;
    /// Event-driven (as the DGT driver): the silence limit while linked, or an LED command
    /// due; nothing else runs on a timer (frames come by themselves).
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    /// The next settled frame is reported whole (BoardSnapshot); the board streams, so no command.
    void request_board_dump() override { stream_.request_dump(); }
    [[nodiscard]] LedControl* leds() override { return this; }
    void set_leds(Bitboard on) override { leds_.set(on); }

    /// The board as last reported, oriented.
    [[nodiscard]] const BoardReading& board() const noexcept { return stream_.board(); }
    [[nodiscard]] bool rotated() const noexcept { return opt_.rotated; }
    [[nodiscard]] LedKind led_kind() const noexcept { return leds_.kind(); }
    /// Frames dropped: bad numbers, or the wrong count for this board type.
    [[nodiscard]] std::size_t bad_frames() const noexcept { return bad_frames_; }

  protected:
    /// `name`: registry and trace name; `numbers`: numbers per frame (8 or 320).
    LineDriver(std::string name, std::size_t numbers, LineOptions options);
    /// A frame with the right count of numbers, in the board's order (a8 first).
    virtual void on_frame(std::span<const std::uint8_t> numbers, TimeMs now) = 0;
    /// Free text for DeviceInfo::trademark (the board type, calibration state).
    [[nodiscard]] virtual std::string description() const = 0;
    /// Emits a DeviceInfo with the current description().
    void report_info(TimeMs now);

    const TraceChannel& trace_;
    LineOptions opt_;
    DriverHost* host_ = nullptr;
    BoardStream stream_;

  private:
    void on_bad_frame(const std::string& why, TimeMs now);

    std::string name_;
    std::size_t numbers_;
    FrameRule rule_;
    LedChannel leds_;
    TimeMs last_frame_ = 0;
    bool linked_ = false, seen_frame_ = false;
    std::size_t bad_frames_ = 0;
    TimeMs last_bad_note_ = -1;
};

} // namespace eboard::drivers::line
