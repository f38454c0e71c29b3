// One line of text per driver event, for traces, logs and the recorded-conversation replay
// tests (gpsd style: decoded events checked in as text, regenerated on demand).
#pragma once

#include "drivers/core/events.hpp"

#include <string>

namespace eboard::drivers {

/// E.g. "dump rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "square e4 P", "square e2 .",
/// "clock left=300000 right=180000 running turn=left lever=right", "button 2",
/// "info serial=25805 version=3.1". With `with_time`, "@<ms> " comes first.
[[nodiscard]] std::string describe(const DriverEvent& event, bool with_time = false);

} // namespace eboard::drivers
