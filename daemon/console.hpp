// The console of `eboardd --simulate`: moves, alerts and results as lines for people on
// stdout, as they happen (each line flushed).
#pragma once

#include <string>

#include "daemon/recorder.hpp"

namespace eboard::daemon {

/// A Recorder sink printing completed moves, alerts, results, game and board changes.
[[nodiscard]] Recorder::Sink console_sink();

/// One line on stdout, flushed.
void print_console_line(const std::string& line);

} // namespace eboard::daemon
