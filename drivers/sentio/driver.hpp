// The Tabutronic Sentio driver (certabo-sentio.md 2.2): an occupancy-only board on the
// Certabo line protocol. Reports SquareReading::unknown() on occupied squares; the
// reconstruction (rules/) turns occupancy into moves. See drivers/sentio/README.md.
#pragma once

#include "drivers/line/driver.hpp"

namespace eboard::drivers::sentio {

class SentioDriver final : public line::LineDriver {
  public:
    explicit SentioDriver(line::LineOptions options = defaults());

    /// The Sentio's defaults: a square changes once 2 of the last 3 frames agree
    /// (`vote-frames` 3). A reed contact bouncing just as one frame is taken would otherwise
    /// be a lift of a whole frame period (about 100 ms), too long for the reconstruction's
    /// 40 ms bounce filter: a touched piece (Art. 4.3) the player never touched, and a false
    /// touch_move alert. The price is one frame period of latency (README "Bounce").
    [[nodiscard]] static line::LineOptions defaults() {
        line::LineOptions o;
        o.vote_frames = 3;
        return o;
    }

  private:
    void on_frame(std::span<const std::uint8_t> numbers, TimeMs now) override;
    [[nodiscard]] std::string description() const override;
};

} // namespace eboard::drivers::sentio
