// Fake USB HID boards for libusb, without hardware or privileges
// (umockdev): a umockdev testbed holds the device's sysfs entry (with the binary `descriptors`
// attribute libusb reads) and its /dev/bus/usb node; an in-process usbdevfs ioctl handler
// (SUBMITURB / REAPURBNDELAY / DISCARDURB, claim, kernel-driver detach) connects libusb's URBs
// to a UsbReportDevice (an emulator). Plugging and unplugging emit the uevents libusb's
// hotplug monitor listens to.
//
// The process must run under umockdev's preload library from exec time on (umockdev-wrapper,
// or LD_PRELOAD=libumockdev-preload.so.0); FakeUsbBus::usable() says whether it does. A child
// started with the same environment (UMOCKDEV_DIR, LD_PRELOAD) sees the same devices
// (eboard-emu's `chessnut -- COMMAND` mode).
// Threading: the ioctl handler runs on umockdev's worker thread; every method here is
// thread-safe, and the UsbReportDevice must be too.
//
// Built as its own library (eboard_emu_umockdev), not part of eboard_drivers: only tests and
// eboard-emu link umockdev.
#pragma once

#include "drivers/emu/usb_device.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace eboard::drivers::emu {

/// The descriptors and sysfs facts of a fake device. Real Chessnut descriptors are not
/// documented (chessnut.md 11), so every value is configurable.
struct FakeUsbDescription {
    std::uint16_t vid = 0x2d80, pid = 0x8002;
    int bus = 1, address = 2;        ///< /dev/bus/usb/BBB/DDD; a re-plug usually gets a new address
    std::string port = "1";          ///< sysfs name "<bus>-<port>"
    std::string manufacturer = "Chessnut", product = "Chessnut Air", serial = "EMU0001";
    std::uint8_t interface_class = 3;  ///< 3 = HID
    std::uint8_t in_endpoint = 0x81;   ///< interrupt IN
    std::uint8_t out_endpoint = 0x02;  ///< interrupt OUT; 0 = none (commands go as SET_REPORT)
    std::uint16_t max_packet = 64;
    bool kernel_driver_bound = true;   ///< usbhid owns the interface when it is plugged in
    /// A standard HID interface (a boot keyboard, usage page 01, its own interrupt IN endpoint
    /// `keyboard_in_endpoint` that never reports) as interface 0, before the board's vendor-page
    /// (FF00) interface, which is then interface 1: the SDK opens the FF00 one (chessnut.md 1).
    bool keyboard_interface_first = false;
    std::uint8_t keyboard_in_endpoint = 0x83;
    /// More udev properties of the device node, "KEY=VALUE": what udev rules would add
    /// (EBOARD_DRIVER of udev/70-eboard.rules), read through sd-device/libudev.
    std::vector<std::string> udev_properties;
};

/// What the fake device saw (for tests).
struct FakeUsbStats {
    int opens = 0;                  ///< GET_CAPABILITIES calls (libusb asks once per open)
    int kernel_detaches = 0;        ///< usbhid detached (DISCONNECT_CLAIM or USBDEVFS_DISCONNECT)
    int kernel_reattaches = 0;      ///< usbhid given back (USBDEVFS_CONNECT)
    bool kernel_driver_bound = false;
    bool claimed = false;
    int out_reports = 0;            ///< on the interrupt OUT endpoint
    int set_reports = 0;            ///< as SET_REPORT control requests
    int in_reports = 0;             ///< input reports delivered
    int discarded = 0;              ///< IN URBs cancelled (libusb timeouts, close)
    int refused = 0;                ///< requests answered with an error (busy, stall, gone)
    int held = 0;                   ///< output reports taken while hold_output() was on
    /// Interface claims made while another open handle held the claim (usbfs would refuse
    /// them with EBUSY; a handle of a killed process counts as holding it: FakeDevice::claim).
    int claim_conflicts = 0;
};

/// A umockdev testbed with fake USB devices served in this process.
class FakeUsbBus {
  public:
    /// Creates the testbed (sets $UMOCKDEV_DIR for this process). Throws std::runtime_error
    /// if umockdev cannot create it.
    FakeUsbBus();
    ~FakeUsbBus();
    FakeUsbBus(const FakeUsbBus&) = delete;
    FakeUsbBus& operator=(const FakeUsbBus&) = delete;

    /// True when this process runs under umockdev's preload (else libusb sees the real bus).
    [[nodiscard]] bool usable() const;
    /// The testbed directory ($UMOCKDEV_DIR).
    [[nodiscard]] std::string dir() const;

    /// Plugs a device in: sysfs entry, device node, ioctl handler, then the "add" uevent.
    /// Returns its id for unplug()/stats().
    int plug(const FakeUsbDescription& description, std::shared_ptr<UsbReportDevice> device);
    /// Unplugs: the "remove" uevent, then every later request on an open handle fails with
    /// ENODEV, as on a real unplug.
    void unplug(int id);
    /// `hold` true: the device stops answering. Its output reports (interrupt OUT, SET_REPORT)
    /// are taken and never completed, and a discard does not find them (EINVAL), so a libusb
    /// write hangs past its timeout, as one was seen to under umockdev: the device thread that
    /// makes it is stuck until `hold` false hands them to the device and completes them.
    void hold_output(int id, bool hold);
    [[nodiscard]] FakeUsbStats stats(int id) const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

/// The binary `descriptors` sysfs attribute for `d`: device, configuration, interface, HID
/// and endpoint descriptors (USB 2.0 9.6, HID 1.11 6.2.1).
[[nodiscard]] std::vector<std::uint8_t> usb_descriptors(const FakeUsbDescription& d);

} // namespace eboard::drivers::emu
