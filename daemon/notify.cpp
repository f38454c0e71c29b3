#include "daemon/notify.hpp"

#include <systemd/sd-daemon.h>

namespace eboard::daemon {

void notify_ready(const std::string& status) {
    (void)sd_notify(0, ("READY=1\nSTATUS=" + status).c_str());
}

void notify_status(const std::string& status) { (void)sd_notify(0, ("STATUS=" + status).c_str()); }

void notify_stopping() { (void)sd_notify(0, "STOPPING=1"); }

void notify_watchdog() { (void)sd_notify(0, "WATCHDOG=1"); }

std::optional<std::chrono::microseconds> watchdog_ping_interval() {
    std::uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return std::nullopt;
    return std::chrono::microseconds(static_cast<std::int64_t>(usec / 2));
}

} // namespace eboard::daemon
