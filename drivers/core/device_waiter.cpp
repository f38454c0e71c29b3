#include "drivers/core/device_waiter.hpp"

#include "drivers/core/session.hpp"
#include "drivers/core/trace.hpp"
#include "drivers/core/uri.hpp"

#include <algorithm>

namespace eboard::drivers {

namespace {

// Monitor polls last at most this long, so that a stop is seen soon.
constexpr int kSliceMs = 50;
// After an arrival the next attempt comes soon, doubling from here: the device node may not
// be usable yet when the event comes (udev still setting its group and mode).
constexpr TimeMs kAfterArrivalMs = 200;

} // namespace

DeviceWaiter::DeviceWaiter(std::string_view uri)
    : note_("retrying after 0.5 s, then less often (up to every 5 s)") {
    auto parsed = parse_device_uri(uri);
    if (!parsed || parsed->transport.kind != TransportKind::Usb) return;
    auto monitor = open_usb_monitor(parsed->driver);
    if (!monitor) {
        note_ = monitor.error().message + "; " + note_;
        return;
    }
    monitor_ = std::move(monitor.value());
    (void)monitor_->poll(0); // the boards present now arrive first: not news
    first_ = delay_ = 5000;
    max_ = 60000;
    note_ = "waiting for it to be plugged in (USB hotplug)";
}

DeviceWaiter::Wake DeviceWaiter::wait(const Pause& pause) {
    const TimeMs delay = delay_;
    delay_ = std::min(delay_ * 2, max_);
    if (!monitor_) return pause(static_cast<int>(delay)) ? Wake::Due : Wake::Stopped;
    const TimeMs end = steady_now_ms() + delay;
    for (TimeMs now = steady_now_ms(); now < end; now = steady_now_ms()) {
        for (const auto& e : monitor_->poll(static_cast<int>(std::min<TimeMs>(kSliceMs, end - now))))
            if (e.arrived) {
                trace_channel("usb").note("hotplug: " + e.board.str() + " arrived, opening it now");
                delay_ = kAfterArrivalMs;
                return Wake::Arrived;
            }
        if (!pause(0)) return Wake::Stopped;
    }
    return Wake::Due;
}

void DeviceWaiter::reset() { delay_ = first_; }

bool DeviceWaiter::arrived() {
    if (!monitor_) return false;
    bool any = false;
    for (const auto& e : monitor_->poll(0)) any = any || e.arrived;
    return any;
}

} // namespace eboard::drivers
