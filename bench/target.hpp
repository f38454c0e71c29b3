// The targets the issues set for a bench's figures, checked where the figure is measured.
// Each check prints one line that scripts/bench collects for its summary:
//   target: <figure> = <value> <unit> (target <op> <goal> <unit>, <source>): met|MISSED
// and a bench ends with `return bench::target_exit_status(...)`: non-zero when any target of the
// run was missed, so `scripts/bench` (and anyone running the bench alone) sees the failure.
#pragma once

#include <cstdio>

namespace eboard::bench {

/// How a figure compares with its target.
enum class Bound {
    AtMost,  ///< value <= goal (latencies, memory)
    Below,   ///< value <  goal (issue 5: "under 50% of one core")
    AtLeast, ///< value >= goal (throughput, ratios)
};

/// Targets missed so far in this process.
inline int& missed_targets() noexcept {
    static int missed = 0;
    return missed;
}

/// Checks `value` (in `unit`, e.g. "ms", "positions/s", "x") against `goal`, prints the
/// `target:` line (figure and source, e.g. "issue 5", are free text without a newline) and
/// counts a miss. A value that was not measured (NaN) is a miss. Returns whether it was met.
inline bool check_target(const char* figure, double value, Bound bound, double goal,
                         const char* unit, const char* source) {
    const bool met = bound == Bound::AtMost  ? value <= goal
                     : bound == Bound::Below ? value < goal
                                             : value >= goal;
    const char* op = bound == Bound::AtMost ? "<=" : bound == Bound::Below ? "<" : ">=";
    std::printf("target: %s = %.6g %s (target %s %.6g %s, %s): %s\n", figure, value, unit, op, goal,
                unit, source, met ? "met" : "MISSED");
    std::fflush(stdout);
    if (!met) ++missed_targets();
    return met;
}

/// A figure with a target that this run could not measure (a peer or a tool missing): a miss.
inline void target_not_measured(const char* figure, const char* why, const char* source) {
    std::printf("target: %s not measured (%s, %s): MISSED\n", figure, why, source);
    std::fflush(stdout);
    ++missed_targets();
}

/// The exit status of a bench: `other` (its own failure, e.g. a wrong answer) if non-zero,
/// otherwise 1 when a target was missed, 0 when all were met.
inline int target_exit_status(int other = 0) noexcept {
    return other != 0 ? other : missed_targets() > 0 ? 1 : 0;
}

} // namespace eboard::bench
