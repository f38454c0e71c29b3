// libserialport transport for real USB serial devices (/dev/ttyACM*, /dev/ttyUSB*).
// Not testable on a bare pty (libserialport does not open ptys): tests/serialport runs it against
// the emulators behind a fake USB serial port in a umockdev testbed (emu/umockdev/fake_tty).
#include "drivers/core/transport.hpp"
#include "drivers/core/ble.hpp"
#include "drivers/core/usb.hpp"

#include <cerrno>
#include <libserialport.h>
#include <poll.h>

namespace eboard::drivers {

namespace {

std::string sp_error_text(const char* what) {
    char* msg = sp_last_error_message();
    std::string out = std::string(what) + ": " + (msg ? msg : "libserialport error");
    sp_free_error_message(msg);
    return out;
}

class SerialPortTransport final : public Transport {
  public:
    SerialPortTransport(sp_port* port, std::string name) : port_(port), name_(std::move(name)) {}
    ~SerialPortTransport() override {
        SerialPortTransport::close();
        sp_free_port(port_);
    }

    [[nodiscard]] std::string name() const override { return name_; }

    bool write(std::span<const std::uint8_t> bytes) override {
        if (!open_) return false;
        // libserialport returns a byte count in its enum type: keep it an int (an sp_return holding
        // 27 is out of the enum's range, undefined behaviour that UBSan reports).
        const int n = static_cast<int>(sp_blocking_write(port_, bytes.data(), bytes.size(), 1000));
        if (n < 0 || static_cast<std::size_t>(n) != bytes.size()) {
            fail(n < 0 ? sp_error_text("write") : std::string("write timed out"));
            return false;
        }
        return true;
    }

    std::size_t read(std::span<std::uint8_t> buf, int timeout_ms) override {
        if (!open_ || buf.empty()) return 0;
        // We wait on the fd ourselves: when the device goes (USB unplug) the tty is hung up and
        // read() returns 0, which sp_blocking_read_next() takes for "nothing yet" and spins on
        // until its timeout, so a silent board would look connected until a write failed.
        int fd = -1;
        if (sp_get_port_handle(port_, &fd) != SP_OK || fd < 0) {
            fail(sp_error_text("read"));
            return 0;
        }
        pollfd p{fd, POLLIN, 0};
        int r = 0;
        do {
            r = ::poll(&p, 1, timeout_ms);
        } while (r < 0 && errno == EINTR);
        if (r <= 0) return 0;
        if (!(p.revents & POLLIN) && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
            fail("device hung up");
            return 0;
        }
        const int n = static_cast<int>(sp_nonblocking_read(port_, buf.data(), buf.size())); // a byte count, see write()
        if (n < 0) {
            fail(sp_error_text("read"));
            return 0;
        }
        if (n == 0) fail("device hung up (end of file)");  // readable, yet nothing to read
        return static_cast<std::size_t>(n);
    }

    void close() override {
        if (open_) sp_close(port_);
        open_ = false;
        if (error_.empty()) error_ = "closed";
    }
    [[nodiscard]] bool disconnected() const override { return !open_; }
    [[nodiscard]] std::string error() const override { return error_; }
    [[nodiscard]] int wait_fd() const override {
        int fd = -1;
        if (!open_ || sp_get_port_handle(port_, &fd) != SP_OK) return -1;
        return fd;
    }

  private:
    void fail(std::string why) {
        if (error_.empty()) error_ = std::move(why);
        close();
    }
    sp_port* port_;
    std::string name_;
    bool open_ = true;
    std::string error_;
};

} // namespace

Expected<std::unique_ptr<Transport>> open_serialport(const std::string& path,
                                                     const SerialSettings& settings) {
    sp_port* port = nullptr;
    if (sp_get_port_by_name(path.c_str(), &port) != SP_OK) return Error{sp_error_text(path.c_str())};
    // sp_open sets TIOCEXCL on Linux, so a second program cannot open the board.
    if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
        Error e{sp_error_text(path.c_str())};
        sp_free_port(port);
        return e;
    }
    auto transport = std::make_unique<SerialPortTransport>(port, path);
    const sp_parity parity = settings.parity == Parity::None  ? SP_PARITY_NONE
                             : settings.parity == Parity::Odd ? SP_PARITY_ODD
                                                              : SP_PARITY_EVEN;
    if (sp_set_baudrate(port, settings.baud) != SP_OK || sp_set_bits(port, settings.data_bits) != SP_OK ||
        sp_set_parity(port, parity) != SP_OK || sp_set_stopbits(port, settings.stop_bits) != SP_OK ||
        sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) != SP_OK ||
        sp_set_dtr(port, settings.dtr ? SP_DTR_ON : SP_DTR_OFF) != SP_OK ||
        sp_set_rts(port, settings.rts ? SP_RTS_ON : SP_RTS_OFF) != SP_OK)
        return Error{sp_error_text((path + " " + settings.str()).c_str())};
    sp_flush(port, SP_BUF_INPUT);
    return std::unique_ptr<Transport>(std::move(transport));
}

Expected<std::unique_ptr<Transport>> open_transport(const TransportSpec& spec,
                                                    const SerialSettings& settings,
                                                    std::span<const UsbId> usb_ids,
                                                    const BleProfile* ble, int cancel_fd) {
    switch (spec.kind) {
    case TransportKind::SerialPort: return open_serialport(spec.path, settings);
    case TransportKind::Termios: return open_termios(spec.path, settings);
    case TransportKind::Tcp: return open_tcp(spec.host, spec.port);
    case TransportKind::Usb: {
        // Only ids reached through libusb; the others are USB-serial ttys (registry.hpp).
        std::vector<UsbId> libusb_ids;
        for (const UsbId& id : usb_ids)
            if (id.access == UsbAccess::Libusb) libusb_ids.push_back(id);
        return open_usb(spec.usb_address, libusb_ids);
    }
    case TransportKind::Ble:
        if (!ble) return Error{"this board model has no Bluetooth LE profile (see the driver's README for its BLE model)"};
        return open_ble(spec.ble_target, *ble, BleTimeouts{}, cancel_fd);
    case TransportKind::None: break;
    }
    return Error{"no transport given"};
}

} // namespace eboard::drivers
