// Boards opened at run time (the ATTACH request, `eboardctl attach`, eboardd-device@.service):
// what a URI must be, which device a udev node is, and whether two URIs name one device.
#pragma once

#include <string>
#include <string_view>

#include "base/expected.hpp"

namespace eboard::daemon {

/// Checks a board URI as `--board` takes it: `emu-KIND[:PGN]`, or `DRIVER[.MODEL]:TRANSPORT`
/// with a registered driver and model. Errors name what is wrong.
[[nodiscard]] Expected<bool> check_board_uri(std::string_view uri);

/// Checks a board URI a client asks for (ATTACH, and the boards it attached, reopened after
/// a restart): check_board_uri(), and no game file for an emulated board (`emu-KIND:PGN`): a
/// client never makes the daemon read a file (issue 26); such a game is configuration
/// (`--board`, `[board.NAME]`). Errors name what is wrong.
[[nodiscard]] Expected<bool> check_attach_uri(std::string_view uri);

/// The board URI of a device node from its udev properties (the rules of udev/, generated from
/// the drivers' USB ids): the first driver of EBOARD_DRIVER, and for a tty its
/// /dev/eboard-DRIVER-* link if it has one (else the node), for a USB device node
/// (/dev/bus/usb/BBB/DDD) `usb:BUS.ADDR`. Errors: the node is unknown to udev, or is no board
/// of the rules (then give the URI).
[[nodiscard]] Expected<std::string> board_uri_of_device(const std::string& devnode);

/// Whether two board URIs open the same device: the same text, the same driver on the same
/// tty (links resolved: /dev/eboard-dgt-25805 is /dev/ttyACM0), or the same driver on `usb`
/// (any board of the driver) and `usb:BUS.ADDR`.
[[nodiscard]] bool same_device(std::string_view a, std::string_view b);

} // namespace eboard::daemon
