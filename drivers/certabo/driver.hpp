// The Certabo driver (certabo-sentio.md 2.1, 3, 4): RFID tag ids per square, learned from the
// start position (calibration), unknown ids read as empty, a per-square majority vote over
// frames against noisy reads, LED commands (classic or RGB). See drivers/certabo/README.md.
#pragma once

#include "drivers/line/driver.hpp"
#include "drivers/certabo/protocol.hpp"

#include <optional>

namespace eboard::drivers::certabo {

/// Quirk flags of Certabo models (ModelInfo::quirks).
namespace quirk {
inline constexpr std::uint32_t rgb_leds = 1u << 0;  ///< "Spectrum" RGB corner LEDs (4.2): no detection
}

struct CertaboOptions {
    line::LineOptions line = defaults();
    std::optional<Calibration> calibration;  ///< known tags: no calibration at start (3.1)
    Calibrator::Options calibrator;
    std::uint32_t quirks = 0;

    /// The line defaults for Certabo: majority over 3 frames (certabo-lichess, 3.2).
    [[nodiscard]] static line::LineOptions defaults() {
        line::LineOptions o;
        o.vote_frames = 3;
        return o;
    }
    /// Reads the line options and "calibration" (a file in Calibration::to_text() format,
    /// read here, when the driver is created).
    [[nodiscard]] static Expected<CertaboOptions> from_params(const DriverOptions& o);
};

class CertaboDriver final : public line::LineDriver {
  public:
    explicit CertaboDriver(CertaboOptions options = {});

    /// True once tags are known (loaded or learned); before that nothing is reported.
    [[nodiscard]] bool calibrated() const noexcept { return calibrated_; }
    /// The tags in use (save it with to_text() to skip calibration next time).
    [[nodiscard]] const Calibration& calibration() const noexcept { return calibration_; }
    /// Forgets the tags and learns them again from the next start position.
    void recalibrate();

  private:
    void on_frame(std::span<const std::uint8_t> numbers, TimeMs now) override;
    [[nodiscard]] std::string description() const override;

    Calibration calibration_;
    Calibrator calibrator_;
    bool calibrated_ = false;
    bool failure_noted_ = false;
};

} // namespace eboard::drivers::certabo
