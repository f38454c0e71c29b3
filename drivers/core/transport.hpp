// The thin byte pipe under every driver (drivers/core/README.md): open, write,
// read with a timeout, close, and a "disconnected" signal. Implementations: termios (ptys and
// plain ttys), libserialport (real USB serial devices), TCP (ser2net), USB HID through libusb
// (usb.hpp), Bluetooth LE through BlueZ (ble.hpp).
#pragma once

#include "drivers/core/serial_settings.hpp"
#include "drivers/core/uri.hpp"
#include "drivers/core/usb_id.hpp"
#include "base/expected.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace eboard::drivers {

/// A connection to one device. Not thread-safe: one reader/writer thread.
class Transport {
  public:
    virtual ~Transport() = default;
    Transport() = default;
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    /// Human-readable name ("/dev/ttyACM0", "tcp:pi:4000").
    [[nodiscard]] virtual std::string name() const = 0;
    /// Writes all bytes (blocking). False on error; then disconnected() is true.
    virtual bool write(std::span<const std::uint8_t> bytes) = 0;
    /// Waits up to timeout_ms (0 = do not wait) for input and reads what is there, at most
    /// buf.size() bytes. Returns the count; 0 on timeout or when disconnected.
    virtual std::size_t read(std::span<std::uint8_t> buf, int timeout_ms) = 0;
    /// Closes; idempotent.
    virtual void close() = 0;
    /// True once the device went away (EOF, EIO/ENODEV on unplug, peer closed) or after close().
    [[nodiscard]] virtual bool disconnected() const = 0;
    /// Why it disconnected (empty while connected).
    [[nodiscard]] virtual std::string error() const = 0;
    /// True if every read() returns exactly one whole device message (a USB HID report) rather
    /// than a slice of a byte stream; the session then tells the framer where reports end.
    [[nodiscard]] virtual bool message_oriented() const { return false; }
    /// A descriptor that poll(2) reports readable (or hung up) when read() has something to
    /// return or would find the device gone, or -1 when there is none (libusb): the session
    /// then waits in read() itself, in slices short enough for its wake() (session.hpp).
    [[nodiscard]] virtual int wait_fd() const { return -1; }
};

/// Raw termios on a tty or pty: O_RDWR|O_NOCTTY, raw mode, the given line settings, TIOCEXCL.
[[nodiscard]] Expected<std::unique_ptr<Transport>> open_termios(const std::string& path,
                                                                 const SerialSettings& settings);
/// libserialport on a real serial device (it cannot open ptys).
[[nodiscard]] Expected<std::unique_ptr<Transport>> open_serialport(const std::string& path,
                                                                    const SerialSettings& settings);
/// Raw TCP client (ser2net in raw mode), TCP_NODELAY.
[[nodiscard]] Expected<std::unique_ptr<Transport>> open_tcp(const std::string& host,
                                                             std::uint16_t port);
struct BleProfile;

/// Opens what the spec names; settings apply to serial kinds only, `usb_ids` (the driver's
/// table in the registry) to the usb kind only (open_usb in usb.hpp), `ble` (the model's GATT
/// profile, ble.hpp) to the ble kind only; nullptr there means the model has no BLE profile.
/// `cancel_fd` (-1: none) is a descriptor that turns readable when the caller gives the open
/// up, e.g. an eventfd written when eboardd stops. Only opens that can wait long watch it: a
/// Bluetooth LE open waits up to 40 s for BlueZ (ble.hpp); the other kinds open at once.
[[nodiscard]] Expected<std::unique_ptr<Transport>> open_transport(const TransportSpec& spec,
                                                                   const SerialSettings& settings,
                                                                   std::span<const UsbId> usb_ids = {},
                                                                   const BleProfile* ble = nullptr,
                                                                   int cancel_fd = -1);

} // namespace eboard::drivers
