// The service manager protocol (sd_notify(3), sd_watchdog_enabled(3)): READY=1 once the
// boards are opened and the socket listens, STATUS= lines, WATCHDOG=1 pings at half the
// interval systemd asks for (WatchdogSec=), RELOADING=1 then READY=1 around a SIGHUP reload,
// STOPPING=1 on exit. Without $NOTIFY_SOCKET
// every call is a no-op.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace eboard::daemon {

/// READY=1 plus a STATUS line.
void notify_ready(const std::string& status);
/// STATUS=... (one line).
void notify_status(const std::string& status);
/// RELOADING=1 with MONOTONIC_USEC (SIGHUP); READY=1 follows when the reload is done.
void notify_reloading();
/// STOPPING=1.
void notify_stopping();
/// WATCHDOG=1.
void notify_watchdog();
/// How often to ping the watchdog (half of WATCHDOG_USEC), or nullopt when not asked for.
[[nodiscard]] std::optional<std::chrono::microseconds> watchdog_ping_interval();

} // namespace eboard::daemon
