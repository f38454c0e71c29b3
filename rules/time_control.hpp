// The PGN TimeControl tag (PGN standard 1994, section 9.6.1), with the multi-period form the
// Laws describe (Art. 6.3.1 [2023], 6.2 a [2005]: "a minimum number of moves" per period, or
// all remaining moves, optionally with extra time per move).
//
// Grammar accepted (one or more fields separated by ':'):
//   ?              unknown
//   -              no time control
//   *S             sandclock (hourglass) of S seconds
//   [M/]S[+I][dD]  a period of S seconds for M moves (no M: the rest of the game), with an
//                  increment of I seconds per move (Fischer, cumulative) and/or a delay of
//                  D seconds per move (eboardd extension, the "time delay mode" of [05] 6.2 /
//                  [23] 6.3.2; written `5400d30`). S, I and D may have a decimal fraction
//                  (cutechess writes `10+0.05`); the value is kept in milliseconds.
// Examples: `40/5400+30:1800+30` (FIDE classical: 40 moves in 90 min, then the rest in 30 min,
// 30 s per move from move 1), `40/7200:20/3600:900+30`, `5400+30`, `300`, `*180`.
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace eboard {

/// One period of a time control. Times in milliseconds.
struct TimePeriod {
    /// Moves to be made in this period; 0 = all remaining moves (sudden death).
    int moves = 0;
    /// Time allotted for the period (added to the clock when the period starts).
    std::int64_t time_ms = 0;
    /// Added after each move made in this period (cumulative, "Fischer").
    std::int64_t increment_ms = 0;
    /// Per-move delay before the main time runs (non-cumulative, "time delay mode").
    std::int64_t delay_ms = 0;

    bool operator==(const TimePeriod&) const = default;
};

/// A parsed TimeControl tag value.
struct TimeControl {
    enum class Kind : std::uint8_t {
        Unknown,   ///< "?"
        None,      ///< "-": no time control
        Periods,   ///< one or more periods
        Sandclock, ///< "*S": one sandclock of periods[0].time_ms
    };
    Kind kind = Kind::Unknown;
    /// For Periods: in order of play. If the last period has a move quota (moves > 0) it
    /// repeats (PGN 9.6.1: `40/9000` = 40 moves every 150 minutes). For Sandclock: one entry.
    std::vector<TimePeriod> periods;

    /// Index into `periods` of the period in which the player's move number `move`
    /// (1-based, counted per player) is made; -1 if there are no periods.
    [[nodiscard]] int period_of_move(int move) const;
    /// The 1-based move number with which period `index` begins (the move after the previous
    /// quota is completed); for the repeating last period, its first occurrence. 0 if the
    /// index is out of range or an earlier period has no quota.
    [[nodiscard]] int first_move_of_period(int index) const;

    bool operator==(const TimeControl&) const = default;
};

/// Parses a TimeControl tag value. Errors name the problem, with column = 1-based position
/// in `text` (line 1): "expected seconds", "move count must be positive", ...
[[nodiscard]] Expected<TimeControl> parse_time_control(std::string_view text);

/// Formats as a TimeControl tag value (the inverse of parse_time_control: parse(format(tc))
/// == tc for every tc that parse produced). Whole seconds print without a fraction.
[[nodiscard]] std::string format_time_control(const TimeControl& tc);

} // namespace eboard
