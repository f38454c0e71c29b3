// USB boards through libusb (eboardd(8): `usb` and `usb:BUS.ADDR`): finding a board by the
// registry's VID:PID table, the HID transport (interrupt IN reports; interrupt OUT or
// SET_REPORT for commands, chessnut.md 2), and hotplug through libusb's callbacks so a board
// plugged in later is found and an unplugged one reported.
//
// Threading: a UsbTransport or UsbMonitor is used from one thread; libusb's own hotplug
// notifications are delivered inside their read()/poll() calls, never from another thread.
#pragma once

#include "drivers/core/registry.hpp"
#include "drivers/core/transport.hpp"
#include "base/expected.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers {

/// Where a USB device sits: bus number and device address, as lsusb prints them.
struct UsbAddress {
    int bus = 0, address = 0;
    /// "BUS.ADDR", e.g. "1.4".
    [[nodiscard]] std::string str() const;
    /// Parses "BUS.ADDR" (decimal, 1..255 each, as in `usb:1.4`); errors name the text.
    [[nodiscard]] static Expected<UsbAddress> parse(std::string_view text);
    bool operator==(const UsbAddress&) const = default;
};

/// A USB device that one of the registered drivers can handle.
struct UsbBoardInfo {
    UsbAddress where;
    std::uint16_t vid = 0, pid = 0;
    std::string driver;  ///< registry name of the driver whose table lists the id ("chessnut")
    /// "usb:1.4 (2d80:8002)".
    [[nodiscard]] std::string str() const;
};

/// "2d80:8002".
[[nodiscard]] std::string usb_id_text(std::uint16_t vid, std::uint16_t pid);

/// The usage page of each top-level collection of a HID report descriptor (HID 1.11 6.2.2), in
/// order; a truncated descriptor gives those read so far. The Chessnut SDK opens the interface
/// whose page is 0xFF00 (vendor-defined), as hidapi reports it (chessnut.md 1).
[[nodiscard]] std::vector<std::uint16_t> hid_top_level_usage_pages(std::span<const std::uint8_t> descriptor);

/// libusb error code (negative LIBUSB_ERROR_*) as a sentence that says what to do: ACCESS
/// mentions the udev rules and the plugdev group, BUSY another program holding the board.
/// `what` names the step that failed ("open usb:1.4 (2d80:8002)").
[[nodiscard]] std::string usb_error_text(int libusb_error, std::string_view what);

/// Opens a USB HID board. `address` empty: the first connected device (lowest bus, then
/// address) whose VID:PID is in `ids`; "BUS.ADDR": that device, which must have a vendor id
/// of `ids` (a model whose exact product id is not in the table still opens this way).
/// Detaches the kernel's usbhid driver (given back on close), claims the HID interface with an
/// interrupt IN endpoint whose report descriptor has the vendor usage page 0xFF00 (as the
/// Chessnut SDK does; with one such HID interface, or none with that page, the first), and keeps an interrupt IN transfer in flight; each read()
/// returns one input report (message_oriented()). write() sends one output report on the
/// interrupt OUT endpoint, or as a SET_REPORT(Output) control request when there is none.
/// Disconnect: a libusb hotplug "left" callback for the device, or a transfer failing with
/// LIBUSB_ERROR_NO_DEVICE. Errors say which step failed and what to do.
[[nodiscard]] Expected<std::unique_ptr<Transport>> open_usb(std::string_view address,
                                                            std::span<const UsbId> ids);

/// The connected devices whose VID:PID is in a registered driver's table (all drivers).
[[nodiscard]] Expected<std::vector<UsbBoardInfo>> list_usb_boards();

/// A board arrived or left (libusb hotplug callback).
struct UsbHotplugEvent {
    bool arrived = false;
    UsbBoardInfo board;
};

/// Watches the bus for the boards of the registry's USB id tables with libusb hotplug
/// callbacks (the udev monitor underneath): boards already connected are reported as arrived
/// by the first poll(), later ones as they come and go.
class UsbMonitor {
  public:
    virtual ~UsbMonitor() = default;
    /// Waits up to `timeout_ms` (0 = do not wait) for hotplug events and returns them, in
    /// order; returns at once when some are pending.
    [[nodiscard]] virtual std::vector<UsbHotplugEvent> poll(int timeout_ms) = 0;
    /// The boards connected now, as far as the events seen so far tell.
    [[nodiscard]] virtual std::vector<UsbBoardInfo> present() const = 0;
};

/// A monitor for the ids of every registered driver (or only `driver`'s when not empty).
/// Fails when libusb cannot start or this libusb has no hotplug support.
[[nodiscard]] Expected<std::unique_ptr<UsbMonitor>> open_usb_monitor(std::string_view driver = {});

} // namespace eboard::drivers
