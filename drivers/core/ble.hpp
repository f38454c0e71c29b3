// Bluetooth LE boards through BlueZ over D-Bus (sd-bus): the `ble:ADDRESS` / `ble:NAME-PREFIX`
// transport. A model that can be reached over BLE declares its GATT profile (BleProfile) in its
// registration (registry.hpp, ModelInfo::ble); the transport finds the device (already known to
// BlueZ, else through Adapter1.StartDiscovery and ObjectManager.InterfacesAdded), connects
// (Device1.Connect), waits for ServicesResolved, subscribes to the notifying characteristics
// (GattCharacteristic1.StartNotify; the bytes arrive as PropertiesChanged on Value) and writes
// with GattCharacteristic1.WriteValue. Pairing, when a board needs it, is BlueZ's
// (bluetoothctl); reconnection is the session's (session.hpp: the transport reports the
// Device1.Connected=false and is opened again on the session's back-off).
// The bus is the system bus, or DBUS_SYSTEM_BUS_ADDRESS (the tests' private bus with a fake
// BlueZ, tests/ble/).
#pragma once

#include "drivers/core/transport.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace eboard::drivers {

/// The GATT side of a board: which characteristics carry its bytes. UUIDs in lower case, as
/// BlueZ reports them. The sources are in the driver's README and docs/protocols/.
struct BleProfile {
    std::string_view service;                   ///< the board's primary service (found by it)
    std::string_view write;                     ///< the characteristic the host writes commands to
    std::array<std::string_view, 2> notify{};   ///< characteristics whose notifications are the board's bytes
    /// True if every notification is one whole device message (Chessnut's reports): the
    /// session then tells the framer where messages end. False for UART-like services, whose
    /// notifications are slices of a byte stream (Nordic UART, Microchip transparent UART).
    bool message_oriented = false;
    /// The most bytes one WriteValue carries (ATT MTU 23 - 3 without a larger MTU); longer
    /// writes go in pieces.
    std::size_t write_chunk = 20;
};

/// How long the transport waits for BlueZ (ms): the device to appear in a discovery, to
/// connect, to resolve its services.
struct BleTimeouts {
    int discovery_ms = 10000;
    int connect_ms = 20000;
    int services_ms = 10000;
};

/// Finds, connects and subscribes to the board `target` ("AA:BB:CC:DD:EE:FF", matched without
/// regard to case, or a prefix of the device's Name or Alias: "Chessnut", "MILLENNIUM",
/// "DGT_PEGASUS") with `profile`. Errors say what is missing (no adapter, not found in the
/// discovery time, the service not on the device, BlueZ's error on Connect). `cancel_fd`, when
/// not -1, is a descriptor that turns readable when the caller gives the open up (eboardd
/// stopping, transport.hpp): every wait of the open (discovery, Connect, services) watches it,
/// and the open then ends at once with an error that says so. It is only polled, never read.
[[nodiscard]] Expected<std::unique_ptr<Transport>> open_ble(const std::string& target,
                                                             const BleProfile& profile,
                                                             const BleTimeouts& timeouts = {},
                                                             int cancel_fd = -1);

/// True if `text` is a Bluetooth address (six hex pairs separated by ':').
[[nodiscard]] bool is_bluetooth_address(std::string_view text) noexcept;

} // namespace eboard::drivers
