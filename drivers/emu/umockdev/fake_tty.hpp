// A fake USB serial port for the libserialport path, without hardware or privileges
// (umockdev): a umockdev testbed holds the tty (/dev/ttyACM0 under a
// cdc_acm interface, or /dev/ttyUSB0 under an ftdi_sio usb-serial port) with its USB parents in
// sysfs, so libserialport finds it by VID:PID and opens it. Its device node is a symlink to an
// emulator's pty (PtyService::add_link(node())), so the real driver talks to a wire-level
// emulator through libserialport. A pty has no modem lines and answers TIOCMGET with ENOTTY,
// which sp_open() cannot live with: an ioctl handler answers TIOCMGET/TIOCMSET/TIOCMBIS/TIOCMBIC
// from its own state (what the program set: observable) and forwards every other ioctl to the
// pty.
//
// The line settings: a pty overwrites CS7 and PARENB with CS8 and no parity on every tcsetattr
// (Linux pty_set_termios), and umockdev's preload then fails the call with EINVAL, so no 7-bit
// line could be opened; glibc's tcsetattr does not go through the preloaded ioctl() either. The
// fake therefore plays the UART for its own fds (tcsetattr/tcgetattr, fake_tty.cpp): it keeps
// the whole termios the program set, gives the pty the rest, and reports it back. So what
// reaches the fake device can be checked whole: DTR and RTS (modem_bits), baud rate, data bits,
// parity, stop bits, flow control and the input flags (line_settings).
//
// The process must run under umockdev's preload library from exec time on (umockdev-wrapper);
// usable() says whether it does. The handler runs on umockdev's thread; methods are thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <termios.h>
#include <vector>

namespace eboard::drivers::emu {

struct FakeTtyDescription {
    std::string name = "ttyACM0"; ///< node under /dev: ttyACM* (cdc_acm) or ttyUSB* (ftdi_sio)
    std::uint16_t vid = 0x04d8, pid = 0x000a;
    std::string manufacturer = "eboardd", product = "Fake serial board", serial = "EMU0001";
    int bus = 1, address = 4;
    std::string port = "2"; ///< sysfs "<bus>-<port>"
};

/// A TIOCM* request the program made, in order.
struct ModemRequest {
    unsigned long request = 0; ///< TIOCMGET, TIOCMSET, TIOCMBIS or TIOCMBIC
    int bits = 0;              ///< argument (set/cleared bits; the answer for TIOCMGET)
};

class FakeTty {
  public:
    /// Creates the testbed (sets $UMOCKDEV_DIR for this process) and the device. Throws
    /// std::runtime_error if umockdev refuses.
    explicit FakeTty(FakeTtyDescription description = {});
    ~FakeTty();
    FakeTty(const FakeTty&) = delete;
    FakeTty& operator=(const FakeTty&) = delete;

    /// True when the process runs under umockdev's preload (else programs see the real /dev).
    [[nodiscard]] bool usable() const;
    /// "/dev/ttyACM0": what the program opens.
    [[nodiscard]] std::string device() const;
    /// The file in the testbed behind device(): give it to PtyService::add_link().
    [[nodiscard]] std::string node() const;
    /// TIOCM_DTR, TIOCM_RTS, ... as the program last set them (all clear at first).
    [[nodiscard]] int modem_bits() const;
    [[nodiscard]] std::vector<ModemRequest> modem_requests() const;
    /// The termios the program last set on the device (as a UART keeps it); false if none yet.
    [[nodiscard]] bool line_settings(termios& out) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace eboard::drivers::emu
