// The Tabutronic Sentio driver (certabo-sentio.md 2.2): an occupancy-only board on the
// Certabo line protocol. Reports SquareReading::unknown_occupant() on occupied squares; the
// reconstruction (rules/) turns occupancy into moves. See drivers/sentio/README.md.
#pragma once

#include "drivers/certabo/line_driver.hpp"

namespace eboard::drivers::sentio {

class SentioDriver final : public line::LineDriver {
  public:
    /// Default options: no vote (reed contacts; the reconstruction filters bounce).
    explicit SentioDriver(line::LineOptions options = {});

  private:
    void on_frame(std::span<const std::uint8_t> numbers, Millis now) override;
    [[nodiscard]] std::string description() const override;
};

} // namespace eboard::drivers::sentio
