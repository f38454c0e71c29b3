// What drivers report: board events and clock events. Drivers report what changed; the
// daemon decides what clients see (gpsd's rule). Times are milliseconds of the session's
// monotonic clock (DeviceSession's clock source), squares a1=0 .. h8=63 in eboard numbering
// after the driver applied the board's orientation. What the sensors read and the clock's
// buttons are reported in base/'s vocabulary (base/sensors.hpp), as the reconstruction takes
// them: SquareChange, BoardSnapshot, ClockButton.
#pragma once

#include "base/sensors.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace eboard::drivers {

/// Identity of the board; fields the board did not report are empty / nullopt.
struct DeviceInfo {
    TimeMs t_ms = 0;
    std::string driver;       ///< registry name, e.g. "dgt"
    std::string serial;       ///< e.g. "25805" (DGT SERIALNR)
    std::string long_serial;  ///< e.g. "3.36012345" (DGT LONG_SERIALNR)
    std::string trademark;    ///< free text (DGT TRADEMARK)
    std::string firmware;     ///< free-text firmware version(s), e.g. "CN_DVT9_210659" (Chessnut)
    std::optional<int> version_major, version_minor;
    std::optional<int> bus_address;
};

/// Battery report (DGT BATTERY_STATUS, dgt.md 4.1).
struct BatteryInfo {
    TimeMs t_ms = 0;
    int percent = 0;
    bool charging = false;
    bool discharging = false;
};

/// The driver found the board standing reversed (White's pieces set up at the far side, or
/// the configured `orientation=rotated`) and turns its reports round, or found it back in its
/// normal orientation. Sent when that changes; a driver starts each connection in the normal
/// orientation, so a board that never stands reversed never sends it (dgt.md 7, chessnut.md 4).
struct BoardOrientation {
    TimeMs t_ms = 0;
    bool rotated = false;  ///< true: the board stands reversed, its squares are turned round
};

/// A side of the clock as seen from its front; never swapped by board rotation (dgt.md 7).
enum class ClockSide : std::uint8_t { None, Left, Right };

/// The other side of the clock: the lever is a see-saw, one side down and the other up
/// (dgt.md 10.1, 13). None stays None.
constexpr ClockSide other_side(ClockSide side) {
    return side == ClockSide::Left ? ClockSide::Right : side == ClockSide::Right ? ClockSide::Left : ClockSide::None;
}

/// The clock's time report as the clock shows it, by side (DGT BWTIME time report, dgt.md
/// 10.1); the daemon turns it into the players' ClockReport once it knows White's side. When
/// `connected` is false ("no clock connected" bit) the times are meaningless and left at 0.
struct ClockReport {
    TimeMs t_ms = 0;
    bool connected = true;
    TimeMs left_ms = 0, right_ms = 0;  ///< whole seconds as shown, in ms
    bool running = false;              ///< clock not stopped with start/stop
    ClockSide lever_high = ClockSide::None;  ///< which side of the see-saw lever is up
    ClockSide turn = ClockSide::None;        ///< whose turn the clock indicates
    bool left_flag = false, right_flag = false;  ///< flag fallen (blocked or shown)
    bool left_delay = false, right_delay = false; ///< time-per-move indicator on
    bool battery_low = false;
};

/// The lever changed position (derived from a change of the lever bit, dgt.md 13).
struct ClockLever {
    TimeMs t_ms = 0;
    ClockSide high = ClockSide::None;
};

/// Kind of clock attached to the board.
enum class ClockModel : std::uint8_t { None, Dgt3000, DgtXl };

/// Clock presence and version (DGT clock VERSION ACK); model None = no clock answered.
struct ClockInfo {
    TimeMs t_ms = 0;
    ClockModel model = ClockModel::None;
    int version_major = 0, version_minor = 0;
};

/// Outcome of one clock command (after its ACK, an error ACK, or the last retry).
struct ClockCommandDone {
    TimeMs t_ms = 0;
    std::uint8_t command = 0;  ///< protocol command id (DGT: 01 display .. 0c ascii)
    bool ok = false;
    int attempts = 0;          ///< 1 = first send acknowledged
    std::string error;         ///< why not ok ("no ACK after 3 retries", "error ACK 20")
};

/// The link to the device came up or went down.
struct LinkStatus {
    TimeMs t_ms = 0;
    bool connected = false;
    std::string reason;
};

/// Everything a driver can report.
using DriverEvent = std::variant<SquareChange, BoardSnapshot, DeviceInfo, BatteryInfo, BoardOrientation,
                                 ClockReport, ClockLever, ClockButton, ClockInfo, ClockCommandDone, LinkStatus>;

} // namespace eboard::drivers
