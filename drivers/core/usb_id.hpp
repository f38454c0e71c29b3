// A USB vendor/product id as a driver declares it in its registration (registry.hpp) and the
// transports match it (transport.hpp, usb.hpp): kept apart from the driver interface so that a
// transport needs no driver.
#pragma once

#include <cstdint>
#include <string_view>

namespace eboard::drivers {

/// How the host reaches a USB device: through the kernel's USB-serial tty (`/dev/ttyACM*`,
/// `/dev/ttyUSB*`; libserialport) or directly with libusb (`/dev/bus/usb/BBB/DDD`; HID boards,
/// URI transport `usb`). The generated udev rules (tools/eboard-udev-rules) match the tty or the
/// USB device node accordingly.
enum class UsbAccess { Tty, Libusb };

/// A USB vendor/product id pair a driver can handle. `certain` says how sure the protocol
/// notes are (DGT's ids are uncertain, dgt.md 19): probe before trusting.
struct UsbId {
    std::uint16_t vid = 0, pid = 0;
    std::string_view note;        ///< e.g. "Microchip CDC-ACM (picochess #150)"
    bool certain = false;
    UsbAccess access = UsbAccess::Tty;
};

} // namespace eboard::drivers
