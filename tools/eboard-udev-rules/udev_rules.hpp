// The udev rules for the supported boards, generated from the drivers' USB id tables
// (drivers/core/registry.hpp). `eboard-udev-rules` prints them at build time into
// build/udev/70-eboard.rules, which `cmake --install` puts into lib/udev/rules.d; nobody keeps
// a list of ids by hand (docs/adding-a-driver.md, udev/README.md).
//
// What a matching device gets (udev(7); udev/README.md):
// - ENV{ID_MM_DEVICE_IGNORE}="1": ModemManager does not probe it with AT commands;
// - GROUP/MODE 0660: `dialout` for a tty, `plugdev` for a libusb device node (the groups
//   eboardd.service joins with SupplementaryGroups=), and TAG+="uaccess" for the seat's user;
// - ENV{EBOARD_DRIVER}: the driver name(s) claiming the id, for tools and humans;
// - /dev/eboard-DRIVER-ID: ID = the USB serial number, else the USB port (ID_PATH_TAG);
// - TAG+="systemd", ENV{SYSTEMD_WANTS}+="eboardd-device@INSTANCE.service", INSTANCE = the
//   device node below /dev with '/' as '-' (ttyACM0, bus-usb-001-005).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "drivers/core/registry.hpp"
#include "base/expected.hpp"

namespace eboard::tools {

/// The rules file text for `drivers` (normally drivers::all_drivers()). Drivers without USB
/// ids are listed in a comment. `release` goes into the header comment.
/// Errors: a driver name that cannot be part of a device link (allowed: a-z 0-9 - _), a
/// note with a line break, or a product id range that is not whole 0x100 blocks.
[[nodiscard]] Expected<std::string> udev_rules(const std::vector<const drivers::DriverInfo*>& drivers,
                                               const std::string& release);

/// One line per USB id, "DRIVER VID PID tty|libusb certain|uncertain" (VID/PID as 4 lower-case
/// hex digits; a range of product ids as PID-LAST, "8000-86ff"), for tests that build fake
/// devices for every id.
[[nodiscard]] std::string udev_id_list(const std::vector<const drivers::DriverInfo*>& drivers);

/// Driver tables read back from udev_id_list() text (blank lines and `#` comments allowed),
/// so that rules can be made for ids no built-in driver has (tests, packagers). The notes say
/// "from <origin>". Errors name the line.
class IdTable {
  public:
    [[nodiscard]] static Expected<IdTable> parse(const std::string& text, const std::string& origin);
    [[nodiscard]] std::vector<const drivers::DriverInfo*> drivers() const;

  private:
    std::vector<std::unique_ptr<std::string>> strings_; // what the string_views point into
    std::vector<std::unique_ptr<drivers::DriverInfo>> drivers_;
};

} // namespace eboard::tools
