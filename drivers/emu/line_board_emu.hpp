// A wire-level Certabo (RFID) or Tabutronic Sentio (occupancy) board as a pure state machine,
// following docs/protocols/certabo-sentio.md (section 6 is its checklist): it
// streams `:` + numbers + ` \r\n` frames every frame_period_ms without being asked, takes
// 8-byte LED commands and answers `L` (or, as an RGB "Spectrum" board, 247-byte `ff 55 .. 0d 0a`
// commands answered with `D`). Certabo pieces carry stable tag ids (`3 0 84 x y` style), so a
// driver can calibrate; options add the sensor noise of 3.2 (bogus ids on empty squares,
// dropped reads, swapped ids for one frame) and the line noise of 2.4 (bare LFs inside frames,
// a first frame cut, junk, cut or invalid frames, acknowledgements glued to a frame).
// LineEmulator (line_emulator.hpp) serves it on a pty; tests can also drive it directly.
#pragma once

#include "drivers/certabo/protocol.hpp"
#include "drivers/core/board_state.hpp"
#include "drivers/emu/pty_service.hpp"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace eboard::drivers::emu {

enum class LineBoardKind : std::uint8_t { Certabo, Sentio };

struct LineEmulatorOptions {
    LineBoardKind kind = LineBoardKind::Certabo;
    BoardReading position = BoardReading::start_position();  ///< what stands on the board
    bool rotated = false;           ///< the board stands turned round (frames start at h1)
    TimeMs frame_period_ms = 1000;  ///< one frame per period (official simulator: 1 s; real: UNCERTAIN)
    bool rgb_leds = false;          ///< "Spectrum" board: RGB commands answered 'D' (4.2)
    int extra_sets = 0;             ///< further complete sets of tagged pieces (a second set, 3.1)

    // Certabo sensor noise, per square and frame (3.2).
    double empty_noise = 0;       ///< an empty square reads a bogus id (`0 0 56 0 0`, `201 0 0 0 0`, random)
    double drop_probability = 0;  ///< an occupied square reads as empty
    double swap_probability = 0;  ///< per frame: two occupied squares report each other's ids
    /// Both kinds, per frame: one occupied square reads empty in this frame only: a reed
    /// contact (Sentio) or a tag read (Certabo) bouncing for a moment just as the frame was
    /// taken, seen by the host as a lift of one frame period (certabo-sentio.md 3.2).
    double bounce_probability = 0;

    // Line noise (2.4).
    std::size_t lf_every = 0;        ///< > 0: a bare LF after every N characters of a frame
    bool start_mid_frame = false;    ///< the first frame is sent from its middle on
    double garbage_probability = 0;  ///< per frame: junk before it, or it is cut, or carries a bad number
    bool glue_acks = false;          ///< an LED ack ends the next frame (`…255 254\nL\r\n`)

    unsigned seed = 1;               ///< for every probability above and fragmentation
    std::size_t fragment_max = 0;    ///< > 0: LineEmulator writes replies in 1..N byte pieces
};

/// One physical piece of the emulated Certabo set: its tag and what it is.
struct EmuTag {
    certabo::TagId id;
    Piece piece;
    bool spare;  ///< not in the standard set: a spare queen (on d3/d6 for calibration) or extra
};

class LineBoardEmu final : public WireModel {
  public:
    explicit LineBoardEmu(const LineEmulatorOptions& options = {});

    void receive(std::span<const std::uint8_t> bytes, TimeMs now) override;
    void tick(TimeMs now) override;
    /// The next frame's time (the board streams: one every frame_period_ms).
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    [[nodiscard]] std::vector<std::vector<std::uint8_t>> take_output() override;
    /// Power returns after an unplug: frames start again at once (a cut frame is not resumed).
    void power_on(TimeMs now) override;

    // The simulated player (game squares; the board converts with `rotated`). A Certabo piece
    // keeps its tag when it is lifted and put down again; a piece that was never on the board
    // takes a free tag of its kind, a new one if the set has none left (a second set).
    void lift(Square s);
    void place(Square s, Piece p);
    void set_position(const BoardReading& b);
    /// The next frame reads `s` the other way (occupied as empty, empty as occupied): a sensor
    /// bounce caught by exactly one frame. The position itself does not change.
    void bounce_next_frame(Square s);
    /// The next frame stops after `keep` bytes and the board sends nothing more until it is
    /// powered up again (tests: a cable pulled in the middle of a frame).
    void cut_next_frame(std::size_t keep) { cut_at_ = keep; }

    [[nodiscard]] const BoardReading& position() const noexcept { return board_; }
    [[nodiscard]] LineBoardKind kind() const noexcept { return opt_.kind; }
    /// Squares lit by the last classic LED command (eboard squares).
    [[nodiscard]] Bitboard leds() const noexcept { return leds_; }
    /// The last RGB LED command, empty if none.
    [[nodiscard]] const std::vector<std::uint8_t>& rgb_command() const noexcept { return rgb_; }
    [[nodiscard]] int led_commands() const noexcept { return led_commands_; }
    [[nodiscard]] int frames_sent() const noexcept { return frames_; }
    /// Squares read the other way so far (bounce_next_frame and bounce_probability).
    [[nodiscard]] int bounces_sent() const noexcept { return bounces_; }
    [[nodiscard]] const std::vector<std::uint8_t>& received() const noexcept { return received_; }
    /// Every tag of the set so far (standard set, spare queens, extras), in creation order.
    [[nodiscard]] const std::vector<EmuTag>& tags() const noexcept { return tags_; }
    /// The standard start position plus the spare queens on d3 and d6 (3.1) on the board.
    void set_calibration_position();
    /// The calibration of every tag made so far (what a user would load with --addpiece).
    [[nodiscard]] certabo::Calibration full_calibration() const;

  private:
    [[nodiscard]] std::size_t tag_for(Piece p);
    [[nodiscard]] bool chance(double p);
    [[nodiscard]] std::string frame_text();
    /// The squares the next frame reads the other way (bounce_next_frame, bounce_probability).
    [[nodiscard]] Bitboard bounced_squares();
    [[nodiscard]] certabo::TagBoard sensed_tags(Bitboard bounced);
    void send_frame();
    void led_input();

    LineEmulatorOptions opt_;
    BoardReading board_;
    std::array<std::optional<std::size_t>, 64> tag_on_{};  // index into tags_
    std::vector<EmuTag> tags_;
    std::vector<std::size_t> lifted_;  // tags off the board, most recent last
    std::mt19937 rng_;
    std::optional<TimeMs> next_frame_;
    std::vector<std::uint8_t> in_, received_;
    std::vector<std::vector<std::uint8_t>> out_;
    Bitboard leds_ = 0;
    std::vector<std::uint8_t> rgb_;
    int led_commands_ = 0, frames_ = 0, bounces_ = 0;
    std::string pending_ack_;  // glue_acks: sent at the end of the next frame
    Bitboard bounce_ = 0;      // squares read the other way in the next frame (game squares)
    std::size_t cut_at_ = 0;   // > 0: the next frame stops after this many bytes
    bool silent_ = false;      // a frame was cut: nothing more until power_on
};

} // namespace eboard::drivers::emu
