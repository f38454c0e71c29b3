#include "daemon/notify.hpp"

#include <systemd/sd-daemon.h>

#include <string>

namespace eboard::daemon {

void notify_ready(const std::string& status) {
    (void)sd_notify(0, ("READY=1\nSTATUS=" + status).c_str());
}

void notify_status(const std::string& status) { (void)sd_notify(0, ("STATUS=" + status).c_str()); }

void notify_reloading() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const auto usec = static_cast<long long>(ts.tv_sec) * 1000000LL + ts.tv_nsec / 1000;
    (void)sd_notify(0, ("RELOADING=1\nMONOTONIC_USEC=" + std::to_string(usec)).c_str());
}

void notify_stopping() { (void)sd_notify(0, "STOPPING=1"); }

void notify_watchdog() { (void)sd_notify(0, "WATCHDOG=1"); }

std::optional<std::chrono::microseconds> watchdog_ping_interval() {
    std::uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return std::nullopt;
    return std::chrono::microseconds(static_cast<std::int64_t>(usec / 2));
}

} // namespace eboard::daemon
