// DeviceWaiter: how a board's reader waits for a device that is not there (yet) before it
// tries to open it again (the daemon's device thread, daemon/device_link.cpp).
//   - serial paths and TCP hosts: a back-off schedule, 0.5 s doubling to 5 s (as
//     ReconnectPolicy), reset once the device opened;
//   - `usb` boards (`DRIVER:usb`, `DRIVER:usb:BUS.ADDR`): libusb hotplug (UsbMonitor, for the
//     driver's USB ids): a board of the driver arriving ends the wait at once (and, should
//     it not open yet, the next attempts come 0.2 s, 0.4 s ... later); the schedule
//     stays as a fallback (5 s doubling to 60 s) for what hotplug cannot see (a product id not
//     in the driver's table at usb:BUS.ADDR, udev rules fixed later). When libusb has no
//     hotplug support the waiter says so (note()) and uses the serial schedule.
// While a session is up, arrived() tells its reader that a board of the driver came back, so
// that it reopens at once (DeviceSession::reconnect_now) instead of on its own back-off.
//
// Threading: one thread (the reader's); wait() returns within about 50 ms of pause(0) saying
// stop.
#pragma once

#include "drivers/core/events.hpp"
#include "drivers/core/usb.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace eboard::drivers {

class DeviceWaiter {
  public:
    /// Why wait() returned.
    enum class Wake { Due, Arrived, Stopped };
    /// Waits `ms` (0: only asks); false when the reader is stopping.
    using Pause = std::function<bool(int ms)>;

    /// For the board `uri` (`DRIVER[.MODEL]:TRANSPORT`): a USB monitor for `usb` transports.
    explicit DeviceWaiter(std::string_view uri);

    /// Waits until the next attempt to open is due (the delay passed, or a board of the driver
    /// arrived), then lengthens the delay for the attempt after it.
    Wake wait(const Pause& pause);
    /// The device opened: the next wait starts the schedule again.
    void reset();
    /// Whether a board of the driver arrived since the last call (hotplug only; does not wait).
    bool arrived();

    /// True when libusb hotplug watches for the board.
    [[nodiscard]] bool hotplug() const { return monitor_ != nullptr; }
    /// The delay of the next wait (ms).
    [[nodiscard]] TimeMs delay_ms() const { return delay_; }
    /// How the board is waited for, for the log: "waiting for it to be plugged in (USB hotplug)".
    [[nodiscard]] const std::string& note() const { return note_; }

  private:
    std::unique_ptr<UsbMonitor> monitor_;
    TimeMs first_ = 500, max_ = 5000, delay_ = 500;
    std::string note_;
};

} // namespace eboard::drivers
