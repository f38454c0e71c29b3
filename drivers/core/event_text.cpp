#include "base/placement.hpp"
#include "drivers/core/event_text.hpp"

#include <type_traits>

namespace eboard::drivers {

namespace {

const char* side(ClockSide s) {
    switch (s) {
    case ClockSide::Left: return "left";
    case ClockSide::Right: return "right";
    case ClockSide::None: break;
    }
    return "none";
}

const char* model(ClockModel m) {
    switch (m) {
    case ClockModel::Dgt3000: return "dgt3000";
    case ClockModel::DgtXl: return "dgtxl";
    case ClockModel::None: break;
    }
    return "none";
}

/// Appends every piece (std::string, const char*, char, numbers) to one string. (Chains of
/// "literal" + std::string trip g++ 12's false -Wrestrict.)
template <typename... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    const auto add = [&out](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_arithmetic_v<P> && !std::is_same_v<P, char>) out += std::to_string(p);
        else out += p;
    };
    (add(parts), ...);
    return out;
}

struct Describe {
    std::string operator()(const SquareChange& e) const {
        return cat("square ", e.square.name(), ' ', reading_to_char(e.reading));
    }
    std::string operator()(const BoardSnapshot& e) const { return cat("dump ", write_placement(e.board)); }
    std::string operator()(const DeviceInfo& e) const {
        std::string s = "info";
        if (!e.driver.empty()) s += cat(" driver=", e.driver);
        if (!e.serial.empty()) s += cat(" serial=", e.serial);
        if (!e.long_serial.empty()) s += cat(" long_serial=", e.long_serial);
        if (e.version_major) s += cat(" version=", *e.version_major, '.', e.version_minor.value_or(0));
        if (e.bus_address) s += cat(" bus_address=", *e.bus_address);
        if (!e.trademark.empty()) s += cat(" trademark=\"", e.trademark, '"');
        if (!e.firmware.empty()) s += cat(" firmware=\"", e.firmware, '"');
        return s;
    }
    std::string operator()(const BatteryInfo& e) const {
        return cat("battery ", e.percent, '%', e.charging ? " charging" : "", e.discharging ? " discharging" : "");
    }
    std::string operator()(const BoardOrientation& e) const {
        return e.rotated ? "orientation rotated" : "orientation normal";
    }
    std::string operator()(const ClockReport& e) const {
        if (!e.connected) return "clock none";
        return cat("clock left=", e.left_ms, " right=", e.right_ms, e.running ? " running" : " stopped",
                   " turn=", side(e.turn), " lever=", side(e.lever_high), e.left_flag ? " left_flag" : "",
                   e.right_flag ? " right_flag" : "", e.battery_low ? " battery_low" : "");
    }
    std::string operator()(const ClockLever& e) const { return cat("lever ", side(e.high)); }
    std::string operator()(const ClockButton& e) const { return cat("button ", e.button); }
    std::string operator()(const ClockInfo& e) const {
        if (e.model == ClockModel::None) return "clock_info none";
        return cat("clock_info ", model(e.model), ' ', e.version_major, '.', e.version_minor);
    }
    std::string operator()(const ClockCommandDone& e) const {
        static constexpr char hex[] = "0123456789abcdef";
        std::string s = "clock_done ";
        s += hex[e.command >> 4];
        s += hex[e.command & 15];
        s += e.ok ? " ok" : " failed";
        s += cat(" attempts=", e.attempts);
        if (!e.error.empty()) s += cat(" (", e.error, ')');
        return s;
    }
    std::string operator()(const LinkStatus& e) const {
        if (e.reason.empty()) return e.connected ? "link up" : "link down";
        return cat(e.connected ? "link up (" : "link down (", e.reason, ')');
    }
};

} // namespace

std::string describe(const DriverEvent& event, bool with_time) {
    std::string text = std::visit(Describe{}, event);
    if (!with_time) return text;
    const TimeMs at = std::visit([](const auto& e) { return e.t_ms; }, event);
    return cat('@', at, ' ', text);
}

} // namespace eboard::drivers
