// Device URIs of eboardd(8) (BOARDS): `DRIVER:TRANSPORT`.
//   dgt:/dev/ttyACM0       /dev/ttyACM* and /dev/ttyUSB*: libserialport (real USB serial)
//   dgt:/dev/pts/3         any other path (ptys, /dev/rfcomm0, /dev/ttyS0): plain termios
//   dgt:tcp:HOST:PORT      raw TCP (ser2net); HOST may be [v6-address]
//   chessnut:usb, chessnut:usb:BUS.ADDR   libusb HID (usb.hpp); BUS.ADDR as lsusb shows them
//   chessnut:ble:Chessnut, dgt.pegasus:ble:AA:BB:CC:DD:EE:FF   Bluetooth LE through BlueZ (ble.hpp):
//                          a Bluetooth address or a prefix of the device's name
//   emu-dgt                built-in emulator, no transport
// A driver name may carry a model after a dot ("dgt.revelation2"); see the driver's README.
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace eboard::drivers {

enum class TransportKind : std::uint8_t { None, SerialPort, Termios, Tcp, Usb, Ble };

/// Where the bytes go.
struct TransportSpec {
    TransportKind kind = TransportKind::None;
    std::string path;         ///< SerialPort, Termios
    std::string host;         ///< Tcp
    std::uint16_t port = 0;   ///< Tcp
    std::string usb_address;  ///< Usb: "" = any matching device, else "BUS.ADDR"
    std::string ble_target;   ///< Ble: "AA:BB:CC:DD:EE:FF" or a prefix of the device's name
    bool operator==(const TransportSpec&) const = default;
};

/// A parsed `--board` URI.
struct DeviceUri {
    std::string text;    ///< as given
    std::string driver;  ///< "dgt"
    std::string model;   ///< after the dot, may be empty
    TransportSpec transport;
};

/// Parses the transport part alone ("/dev/ttyACM0", "tcp:host:4000", "usb:1.4", "ble:Chessnut").
[[nodiscard]] Expected<TransportSpec> parse_transport(std::string_view text);
/// Parses DRIVER[.MODEL]:TRANSPORT; the transport may be left out only for "emu-" drivers.
[[nodiscard]] Expected<DeviceUri> parse_device_uri(std::string_view text);

} // namespace eboard::drivers
