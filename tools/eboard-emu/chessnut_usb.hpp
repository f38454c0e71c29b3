// eboard-emu's chessnut mode: a Chessnut board (drivers/emu/chessnut_emulator.hpp) served as a
// fake USB HID device in a umockdev testbed (drivers/emu/umockdev/fake_usb.hpp).
//
//   eboard-emu chessnut [options] [-- COMMAND [ARGS...]]
//
// Prints `UMOCKDEV_DIR=<testbed>` on stdout (the readiness line), then serves. A program sees
// the board through libusb when it runs with UMOCKDEV_DIR set to that directory and
// LD_PRELOAD=libumockdev-preload.so.0; with `-- COMMAND` eboard-emu starts it so, forwards
// SIGINT/SIGTERM to it and exits with its status. Stdin commands play the board: "lift e2",
// "place e4 P", "move e2 e4", "fen <placement>", "battery <percent> [charging]", "unplug",
// "plug" (again, at the next address).
#pragma once

namespace eboard::tools {

/// Runs the chessnut mode; argv[0] is "chessnut". Returns the exit status.
int run_chessnut(int argc, char** argv);

} // namespace eboard::tools
