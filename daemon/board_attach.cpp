#include "daemon/board_attach.hpp"

#include <systemd/sd-device.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "daemon/emu_uri.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/core/uri.hpp"

namespace eboard::daemon {

namespace {

struct DeviceUnref {
    void operator()(sd_device* d) const { sd_device_unref(d); }
};

std::string property(sd_device* d, const char* key) {
    const char* v = nullptr;
    return sd_device_get_property_value(d, key, &v) >= 0 && v ? std::string(v) : std::string();
}

// A tty path with its links resolved ("" when it does not exist).
std::string canonical(const std::string& path) {
    std::error_code ec;
    auto p = std::filesystem::canonical(path, ec);
    return ec ? std::string() : p.string();
}

} // namespace

Expected<bool> check_board_uri(std::string_view uri) {
    auto emu = parse_emu_uri(uri);
    if (!emu) return emu.error();
    if (*emu) return true;
    auto parsed = drivers::parse_device_uri(uri);
    if (!parsed) return Error{"'" + std::string(uri) + "': " + parsed.error().message};
    const drivers::DriverInfo* info = drivers::find_driver(parsed->driver);
    if (!info) return Error{"'" + std::string(uri) + "': unknown driver '" + parsed->driver + "'"};
    if (!info->model(parsed->model))
        return Error{"'" + std::string(uri) + "': driver '" + parsed->driver + "' has no model '" + parsed->model + "'"};
    return true;
}

Expected<bool> check_attach_uri(std::string_view uri) {
    if (auto ok = check_board_uri(uri); !ok) return ok;
    if (auto emu = parse_emu_uri(uri); emu && *emu && !(*emu)->pgn.empty())
        return Error{"'" + std::string(uri) + "': an emulated board's game is not taken over the socket; attach emu-" +
                     (*emu)->kind + " without one, or configure the board (--board, [board.NAME])"};
    return true;
}

Expected<std::string> board_uri_of_device(const std::string& devnode) {
    sd_device* raw = nullptr;
    const int r = sd_device_new_from_devname(&raw, devnode.c_str());
    if (r < 0) return Error{devnode + ": not a device udev knows (" + std::strerror(-r) + ")"};
    const std::unique_ptr<sd_device, DeviceUnref> d(raw);
    std::string drivers = property(d.get(), "EBOARD_DRIVER");
    if (drivers.empty())
        return Error{devnode + " is not a board of the eboard udev rules (no EBOARD_DRIVER); attach it by its URI, "
                               "e.g. dgt:" + devnode};
    // Two drivers may claim one id ("dgt certabo"): the first is taken.
    const std::string driver = drivers.substr(0, drivers.find(' '));
    if (property(d.get(), "SUBSYSTEM") == "usb") {
        const std::string bus = property(d.get(), "BUSNUM"), dev = property(d.get(), "DEVNUM");
        if (bus.empty() || dev.empty()) return Error{devnode + ": udev gives no BUSNUM/DEVNUM"};
        return driver + ":usb:" + std::to_string(std::stoi(bus)) + "." + std::to_string(std::stoi(dev));
    }
    const std::string stable = "/dev/eboard-" + driver + "-";
    for (const char* link = sd_device_get_devlink_first(d.get()); link; link = sd_device_get_devlink_next(d.get()))
        if (std::string(link).rfind(stable, 0) == 0) return driver + ":" + link;
    return driver + ":" + devnode;
}

bool same_device(std::string_view a, std::string_view b) {
    if (a == b) return true;
    auto ua = drivers::parse_device_uri(a), ub = drivers::parse_device_uri(b);
    if (!ua || !ub || ua->driver != ub->driver) return false;
    const auto& ta = ua->transport;
    const auto& tb = ub->transport;
    using drivers::TransportKind;
    if (ta.kind == TransportKind::Usb && tb.kind == TransportKind::Usb)
        return ta.usb_address.empty() || tb.usb_address.empty() || ta.usb_address == tb.usb_address;
    const bool tty_a = ta.kind == TransportKind::SerialPort || ta.kind == TransportKind::Termios;
    const bool tty_b = tb.kind == TransportKind::SerialPort || tb.kind == TransportKind::Termios;
    if (!tty_a || !tty_b) return false;
    const std::string ca = canonical(ta.path);
    return !ca.empty() && ca == canonical(tb.path);
}

} // namespace eboard::daemon
