#include "drivers/sentio/driver.hpp"

#include "drivers/sentio/protocol.hpp"

namespace eboard::drivers::sentio {

SentioDriver::SentioDriver(line::LineOptions options)
    : LineDriver("sentio", line::sentio_numbers, options) {}

void SentioDriver::on_frame(std::span<const std::uint8_t> numbers, TimeMs now) {
    stream_.push(board_of(occupancy_of(numbers.first<8>(), opt_.rotated)), now, *host_);
}

std::string SentioDriver::description() const { return "Tabutronic Sentio (occupancy only)"; }

namespace {

SerialSettings line_settings() {
    SerialSettings s = SerialSettings::parse("38400/8n1").value();
    s.dtr = false;  // picochess clears DTR after opening (certabo-sentio.md 1; UNCERTAIN)
    return s;
}

const DriverRegistration registration{DriverInfo{
    "sentio",
    "Tabutronic Sentio (occupancy only, Certabo line protocol)",
    {{"sentio", "Tabutronic Sentio", line_settings(), 0}},
    {},  // USB identity unknown (certabo-sentio.md 1): confirm by content, see README
    [](const DriverOptions& o) -> std::unique_ptr<Driver> {
        const auto opt = line::LineOptions::from_params(o, SentioDriver::defaults());
        if (!opt) return nullptr;
        return std::make_unique<SentioDriver>(opt.value());
    },
    line::line_options(),
    check_by([](const DriverOptions& o) {
        return line::LineOptions::from_params(o, SentioDriver::defaults());
    }),
}};

} // namespace

} // namespace eboard::drivers::sentio
