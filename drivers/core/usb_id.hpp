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

/// A USB vendor/product id pair a driver can handle, or a range of product ids of one vendor
/// (`pid_last` > `pid`: every id pid..pid_last, as the Chessnut SDK takes 0x8000-0x86ff,
/// chessnut.md 1). `certain` says how sure the protocol notes are (DGT's ids are uncertain,
/// dgt.md 19): probe before trusting.
struct UsbId {
    std::uint16_t vid = 0, pid = 0;
    std::string_view note;        ///< e.g. "Microchip CDC-ACM (picochess #150)"
    bool certain = false;
    UsbAccess access = UsbAccess::Tty;
    std::uint16_t pid_last = 0;   ///< <= pid: the one id `pid`
    /// The last product id matched (pid itself for a single id).
    [[nodiscard]] constexpr std::uint16_t last() const noexcept { return pid_last > pid ? pid_last : pid; }
    /// True if `vid:product` is this id or in this range.
    [[nodiscard]] constexpr bool matches(std::uint16_t vendor, std::uint16_t product) const noexcept {
        return vendor == vid && product >= pid && product <= last();
    }
};

} // namespace eboard::drivers
