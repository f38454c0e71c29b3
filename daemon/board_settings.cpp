#include "daemon/board_settings.hpp"

#include "daemon/atomic_file.hpp"
#include "daemon/driver_options.hpp"
#include "daemon/log.hpp"
#include "drivers/certabo/driver.hpp"
#include "drivers/millennium/driver.hpp"

namespace eboard::daemon {

std::optional<BoardSettings> LearnedSettings::poll(drivers::Driver& driver) {
    BoardSettings now = reported_;
    if (auto* c = dynamic_cast<drivers::certabo::CertaboDriver*>(&driver)) {
        // Learned once per calibration; to_text() only then.
        if (c->calibrated() && !reported_.count("calibration")) now["calibration"] = c->calibration().to_text();
        if (!c->calibrated()) now.erase("calibration");
    } else if (auto* m = dynamic_cast<drivers::millennium::MillenniumDriver*>(&driver)) {
        // Known once the board showed the start position the right way round under this order.
        if (m->ready() && drivers::start_position_rotated(m->board()) == std::optional<bool>(false))
            now["orientation"] = m->order() == drivers::millennium::SquareOrder::A8First ? "a8-first" : "h1-first";
    }
    if (now == reported_) return std::nullopt;
    reported_ = now;
    return now;
}

drivers::DriverOptions options_from_settings(const std::string& uri, const std::string& board,
                                             const BoardSettings& settings, const std::string& dir) {
    drivers::DriverOptions o;
    const std::string driver = uri_driver(uri);
    if (driver == "millennium") {
        if (auto it = settings.find("orientation"); it != settings.end()) o.params["orientation"] = it->second;
    } else if (driver == "certabo") {
        if (auto it = settings.find("calibration"); it != settings.end()) {
            // The driver reads its calibration from a file (drivers/certabo/README.md).
            std::string safe;
            for (char ch : board) safe += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
            const std::string path = dir + "/certabo-" + safe + ".calibration";
            if (auto ok = write_file_atomically(path, it->second); ok) o.params["calibration"] = path;
            else log_warning("board " + board + ": calibration not given back: " + ok.error().message);
        }
    }
    return o;
}

} // namespace eboard::daemon
