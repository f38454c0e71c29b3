#include "drivers/certabo/driver.hpp"

#include <fstream>
#include <sstream>

namespace eboard::drivers::certabo {

Expected<CertaboOptions> CertaboOptions::from_params(const DriverOptions& o) {
    CertaboOptions opt;
    auto line = line::LineOptions::from_params(o, defaults());
    if (!line) return line.error();
    opt.line = line.value();
    if (const auto it = o.params.find("calibration"); it != o.params.end()) {
        std::ifstream f(it->second);
        if (!f) return Error{"certabo: cannot read the calibration file '" + it->second + "'"};
        std::stringstream text;
        text << f.rdbuf();
        auto c = Calibration::from_text(text.str());
        if (!c) return Error{it->second + ":" + std::to_string(c.error().line) + ": " + c.error().message};
        opt.calibration = std::move(c.value());
    }
    return opt;
}

namespace {

std::vector<OptionInfo> with_calibration(std::vector<OptionInfo> options) {
    options.push_back({"calibration", "FILE",
                       "which RFID tag is which piece (Calibration::to_text()); eboardd gives back the one "
                       "the board learnt from the start position",
                       OptionSource::Daemon});
    return options;
}

line::LineOptions with_quirks(line::LineOptions o, std::uint32_t quirks) {
    if (quirks & quirk::rgb_leds) o.leds.kind = line::LedKind::Rgb;
    return o;
}

} // namespace

CertaboDriver::CertaboDriver(CertaboOptions options)
    : LineDriver("certabo", line::certabo_numbers, with_quirks(options.line, options.quirks)),
      calibrator_(options.calibrator) {
    if (options.calibration && !options.calibration->empty()) {
        calibration_ = std::move(*options.calibration);
        calibrated_ = true;
    }
}

void CertaboDriver::recalibrate() {
    calibrated_ = false;
    failure_noted_ = false;
    calibrator_.clear();
    stream_.reset();
}

void CertaboDriver::on_frame(std::span<const std::uint8_t> numbers, TimeMs now) {
    const TagBoard tags = tags_of(numbers.first<320>(), opt_.rotated);
    if (!calibrated_) {
        // Nothing is reported before the tags are known: noise ids on empty squares would
        // make even an occupancy report wrong (3.2).
        switch (calibrator_.push(tags)) {
        case Calibrator::Result::Collecting: return;
        case Calibrator::Result::Failed:
            if (!failure_noted_) trace_.note("calibration: " + calibrator_.problem());
            failure_noted_ = true;
            return;
        case Calibrator::Result::Done: break;
        }
        calibration_ = calibrator_.result();
        calibrated_ = true;
        trace_.note("calibrated from the start position: " + std::to_string(calibration_.size()) + " tags");
        report_info(now);
    }
    stream_.push(calibration_.board(tags), now, *host_);
}

std::string CertaboDriver::description() const {
    if (!calibrated_) return "Certabo (RFID), not calibrated: set up the start position";
    return "Certabo (RFID), " + std::to_string(calibration_.size()) + " tags known";
}

namespace {

SerialSettings line_settings() {
    SerialSettings s = SerialSettings::parse("38400/8n1").value();
    s.dtr = false;  // picochess clears DTR after opening (certabo-sentio.md 1; UNCERTAIN)
    return s;
}

const DriverRegistration registration{DriverInfo{
    "certabo",
    "Certabo RFID boards (USB serial, 38400/8n1)",
    {
        {"usb", "Certabo board, LED type detected (classic or RGB)", line_settings(), 0},
        {"spectrum", "Certabo board with RGB corner LEDs", line_settings(), quirk::rgb_leds},
    },
    {
        // certabo-sentio.md 1: the Certabo uses it (high confidence), but it is the generic
        // CP210x id of many unrelated devices: never trusted alone, confirm by content
        // (frames of 320 numbers), hence not "certain".
        {0x10c4, 0xea60, "Silicon Labs CP210x, generic (certabo-lichess port search)", false},
    },
    [](const DriverOptions& o) -> std::unique_ptr<Driver> {
        auto opt = CertaboOptions::from_params(o);
        if (!opt) return nullptr;
        const DriverInfo* self = find_driver("certabo");
        if (const ModelInfo* m = self ? self->model(o.model) : nullptr) opt->quirks = m->quirks;
        return std::make_unique<CertaboDriver>(std::move(opt.value()));
    },
    with_calibration(line::line_options()),
    check_by(&CertaboOptions::from_params),
}};

} // namespace

} // namespace eboard::drivers::certabo
