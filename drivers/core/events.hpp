// What drivers report: board events and clock events. Drivers report what changed; the
// daemon decides what clients see (gpsd's rule). Times are milliseconds of the session's
// monotonic clock (DeviceSession's clock source), squares a1=0 .. h8=63 in eboard numbering
// after the driver applied the board's orientation.
#pragma once

#include "drivers/core/board_state.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace eboard::drivers {

/// Milliseconds (monotonic time stamps and durations).
using Millis = std::int64_t;

/// One square changed (e.g. DGT FIELD_UPDATE). Never derive a move from one of these alone:
/// boards report in scan order, not in the order hands moved (dgt.md section 8).
struct SquareChanged {
    Millis at_ms = 0;
    Square square;
    SquareReading reading;
};

/// A complete board reading (e.g. DGT BOARD_DUMP), already oriented.
struct BoardDump {
    Millis at_ms = 0;
    BoardState board;
};

/// Identity of the board; fields the board did not report are empty / nullopt.
struct DeviceInfo {
    Millis at_ms = 0;
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
    Millis at_ms = 0;
    int percent = 0;
    bool charging = false;
    bool discharging = false;
};

/// A side of the clock as seen from its front; never swapped by board rotation (dgt.md 7).
enum class ClockSide : std::uint8_t { None, Left, Right };

/// The other side of the clock: the lever is a see-saw, one side down and the other up
/// (dgt.md 10.1, 13). None stays None.
constexpr ClockSide other_side(ClockSide side) {
    return side == ClockSide::Left ? ClockSide::Right : side == ClockSide::Right ? ClockSide::Left : ClockSide::None;
}

/// The clock's time report (DGT BWTIME time report, dgt.md 10.1). When `connected` is false
/// ("no clock connected" bit) the times are meaningless and left at 0.
struct ClockTimes {
    Millis at_ms = 0;
    bool connected = true;
    Millis left_ms = 0, right_ms = 0;  ///< whole seconds as shown, in ms
    bool running = false;              ///< clock not stopped with start/stop
    ClockSide lever_high = ClockSide::None;  ///< which side of the see-saw lever is up
    ClockSide turn = ClockSide::None;        ///< whose turn the clock indicates
    bool left_flag = false, right_flag = false;  ///< flag fallen (blocked or shown)
    bool left_delay = false, right_delay = false; ///< time-per-move indicator on
    bool battery_low = false;
};

/// The lever changed position (derived from a change of the lever bit, dgt.md 13).
struct ClockLever {
    Millis at_ms = 0;
    ClockSide high = ClockSide::None;
};

/// A clock button was pressed. `button` is 0..4 from left to right (back, minus, run/pause,
/// plus, ok on a DGT3000); `code` is the raw key code ('1'..'5' = 31..35), `held_mask` the
/// raw ack2 bit mask (several buttons held at once).
struct ClockButton {
    Millis at_ms = 0;
    int button = 0;
    std::uint8_t code = 0;
    std::uint8_t held_mask = 0;
};

/// Kind of clock attached to the board.
enum class ClockModel : std::uint8_t { None, Dgt3000, DgtXl };

/// Clock presence and version (DGT clock VERSION ACK); model None = no clock answered.
struct ClockInfo {
    Millis at_ms = 0;
    ClockModel model = ClockModel::None;
    int version_major = 0, version_minor = 0;
};

/// Outcome of one clock command (after its ACK, an error ACK, or the last retry).
struct ClockCommandDone {
    Millis at_ms = 0;
    std::uint8_t command = 0;  ///< protocol command id (DGT: 01 display .. 0c ascii)
    bool ok = false;
    int attempts = 0;          ///< 1 = first send acknowledged
    std::string error;         ///< why not ok ("no ACK after 3 retries", "error ACK 20")
};

/// The link to the device came up or went down.
struct LinkStatus {
    Millis at_ms = 0;
    bool connected = false;
    std::string reason;
};

/// Everything a driver can report.
using DriverEvent = std::variant<SquareChanged, BoardDump, DeviceInfo, BatteryInfo, ClockTimes,
                                 ClockLever, ClockButton, ClockInfo, ClockCommandDone, LinkStatus>;

} // namespace eboard::drivers
