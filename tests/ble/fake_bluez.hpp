// A fake BlueZ for the `ble:` transport's tests: a private dbus-daemon started by the test
// (its readiness: the address it prints), and on it a service named org.bluez with the part of
// BlueZ's API the transport uses (ObjectManager; Adapter1 StartDiscovery/StopDiscovery;
// Device1 Connect/Disconnect, Connected, ServicesResolved; GattService1; GattCharacteristic1
// WriteValue, StartNotify/StopNotify, Value changes), served from its own thread with sd-bus.
// Each fake device forwards its GATT bytes to and from a board emulator (GattPeer): the pty
// emulators of drivers/emu (DGT, Millennium) or a USB report device (Chessnut).
// DBUS_SYSTEM_BUS_ADDRESS is pointed at the private bus, which is where sd_bus_open_system()
// (the transport) connects.
#pragma once

#include "drivers/core/transport.hpp"
#include "drivers/emu/usb_device.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace eboard::test {

/// The board's side of a GATT link, driven from the fake BlueZ's thread.
class GattPeer {
  public:
    virtual ~GattPeer() = default;
    /// The host wrote `bytes` to the write characteristic.
    virtual void written(std::span<const std::uint8_t> bytes) = 0;
    /// What the board has to send now: (characteristic UUID, bytes) per notification.
    virtual std::vector<std::pair<std::string, std::vector<std::uint8_t>>> take_notifications() = 0;
};

/// A serial emulator's pty (DgtEmulator, MillenniumEmulator) behind a UART-like service:
/// writes go to the pty, what the emulator writes is notified on `notify_uuid` in pieces of at
/// most `mtu_payload` bytes (so the host must put the stream together again).
class PtyPeer final : public GattPeer {
  public:
    PtyPeer(const std::string& pty_path, std::string notify_uuid, std::size_t mtu_payload = 20);
    void written(std::span<const std::uint8_t> bytes) override;
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> take_notifications() override;

  private:
    std::unique_ptr<drivers::Transport> pty_;
    std::string notify_uuid_;
    std::size_t mtu_payload_;
};

/// A USB report device (ChessnutEmulator) behind its BLE service: each host write is one
/// report to the device; each report of the device is one notification, on `board_uuid` for
/// reports whose type is `board_type`, else on `other_uuid`.
class ReportPeer final : public GattPeer {
  public:
    ReportPeer(drivers::emu::UsbReportDevice& device, std::string board_uuid, std::uint8_t board_type,
               std::string other_uuid);
    void written(std::span<const std::uint8_t> bytes) override;
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> take_notifications() override;

  private:
    drivers::emu::UsbReportDevice& device_;
    std::string board_uuid_, other_uuid_;
    std::uint8_t board_type_;
};

/// One fake Bluetooth LE device.
struct FakeBleDevice {
    struct Characteristic {
        std::string uuid;
        bool write = false, notify = false;
    };
    struct Service {
        std::string uuid;
        std::vector<Characteristic> characteristics;
    };
    std::string address;             ///< "C0:FF:EE:00:00:01"
    std::string name;                ///< advertised name
    std::vector<Service> services;
    GattPeer* peer = nullptr;        ///< outlives the FakeBluez
    bool known = false;              ///< true: BlueZ knows it already (no discovery needed)
};

/// What the fake saw, for the tests' checks.
struct FakeBluezStats {
    int discoveries = 0;      ///< StartDiscovery calls
    int connects = 0;         ///< successful Device1.Connect calls
    int connect_calls = 0;    ///< every Device1.Connect call, answered or held (set_answers_connect)
    int refused_connects = 0; ///< Connect calls while the device was out of range
    int writes = 0;           ///< WriteValue calls
};

class FakeBluez {
  public:
    /// Starts the private bus and the service; returns once org.bluez answers on it.
    explicit FakeBluez(std::vector<FakeBleDevice> devices);
    ~FakeBluez();
    FakeBluez(const FakeBluez&) = delete;
    FakeBluez& operator=(const FakeBluez&) = delete;

    /// The device drops the link (out of range, switched off): Connected goes false.
    void drop_link(const std::string& address);
    /// While out of range, Connect fails as BlueZ's does (org.bluez.Error.Failed).
    void set_in_range(const std::string& address, bool in_range);
    /// false: Connect calls to the device get no answer at all (a BlueZ stuck on a board that
    /// does not respond); they are held unanswered until the fake ends.
    void set_answers_connect(const std::string& address, bool answers);
    /// Waits until `holds(stats())`, at most `timeout_ms`; false on timeout. Each look is a
    /// round trip to the service's thread (no sleeping).
    [[nodiscard]] bool wait_for(const std::function<bool(const FakeBluezStats&)>& holds, int timeout_ms = 5000);
    [[nodiscard]] bool connected(const std::string& address);
    [[nodiscard]] FakeBluezStats stats();
    /// The private bus's address.
    [[nodiscard]] const std::string& bus_address() const { return address_; }

    struct State; ///< the service's side (fake_bluez.cpp)

  private:
    /// Runs `f` on the service's thread and waits for it.
    void run(const std::function<void(State&)>& f);

    pid_t daemon_pid_ = 0;
    std::string address_;
    std::unique_ptr<State> state_;
    std::thread thread_;
};

} // namespace eboard::test
