// The device side of a USB HID board, as the emulators implement it: output reports in, input
// reports out. Two ways to connect one to a driver:
//   - FakeUsbBus (drivers/emu/umockdev/fake_usb.hpp): a fake USB device in a umockdev testbed,
//     reached through the real libusb transport (open_usb);
//   - open_report_loopback (below): a direct in-process Transport, no libusb, for long sweeps.
#pragma once

#include "drivers/core/events.hpp"
#include "drivers/core/transport.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace eboard::drivers::emu {

/// A USB HID device's behaviour. Thread-safe: called from the transport's (or umockdev's)
/// thread while a test plays the board from another.
class UsbReportDevice {
  public:
    virtual ~UsbReportDevice() = default;
    /// One output report from the host (interrupt OUT or SET_REPORT) at `now` (ms).
    virtual void out_report(std::span<const std::uint8_t> report, TimeMs now) = 0;
    /// The next input report due at `now`, if any; runs the device's timers.
    [[nodiscard]] virtual std::optional<std::vector<std::uint8_t>> in_report(TimeMs now) = 0;
    /// Blocks up to `timeout_ms` or until in_report() may have something new (a player
    /// action, a host report); spurious returns are allowed.
    virtual void wait_for_activity(int timeout_ms) = 0;
    /// The device was plugged in (powered up): back to its power-up state.
    virtual void power_on(TimeMs now) = 0;
};

/// A Transport straight into `device` (message-oriented like the USB transport: one read =
/// one report). unplug() makes it report "unplugged" like a vanished USB device. The name is
/// "loopback:<name>".
class ReportLoopback final : public Transport {
  public:
    ReportLoopback(std::shared_ptr<UsbReportDevice> device, std::string name);
    [[nodiscard]] std::string name() const override { return name_; }
    bool write(std::span<const std::uint8_t> bytes) override;
    std::size_t read(std::span<std::uint8_t> buf, int timeout_ms) override;
    void close() override;
    [[nodiscard]] bool disconnected() const override { return down_; }
    [[nodiscard]] std::string error() const override { return error_; }
    [[nodiscard]] bool message_oriented() const override { return true; }
    /// The device vanishes (as a USB unplug): reads and writes fail from now on.
    void unplug();

  private:
    std::shared_ptr<UsbReportDevice> device_;
    std::string name_;
    bool down_ = false;
    std::string error_;
};

} // namespace eboard::drivers::emu
