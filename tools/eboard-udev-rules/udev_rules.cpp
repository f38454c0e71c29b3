#include "tools/eboard-udev-rules/udev_rules.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

namespace eboard::tools {

namespace {

using drivers::DriverInfo;
using drivers::UsbAccess;
using drivers::UsbId;

std::string hex4(std::uint16_t v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04x", static_cast<unsigned>(v));
    return buf;
}

bool valid_name(std::string_view name) {
    if (name.empty()) return false;
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    return true;
}

// The drivers claiming one vid:pid (or one range of product ids), with where each has it from.
struct Claim {
    std::vector<std::pair<std::string_view, const UsbId*>> by;
};
using Claims = std::map<std::tuple<std::uint16_t, std::uint16_t, std::uint16_t>, Claim>;

Claims claims_for(const std::vector<const DriverInfo*>& drivers, UsbAccess access) {
    Claims out;
    for (const DriverInfo* d : drivers)
        for (const UsbId& id : d->usb_ids)
            if (id.access == access) out[{id.vid, id.pid, id.last()}].by.emplace_back(d->name, &id);
    return out;
}

// "8002" for one id, "8000-86ff" for a range (udev_id_list's PID field).
std::string pid_text(std::uint16_t pid, std::uint16_t last) {
    return pid == last ? hex4(pid) : hex4(pid) + "-" + hex4(last);
}

// The udev glob for the product ids pid..last (sysfs idProduct is 4 lower-case hex digits):
// one id as it is; a range of whole 0x100 blocks as the blocks' first two digits
// ("8[0123456]??" for 8000-86ff). Other ranges cannot be written: nullopt.
std::optional<std::string> pid_glob(std::uint16_t pid, std::uint16_t last) {
    if (pid == last) return hex4(pid);
    if ((pid & 0xff) != 0 || (last & 0xff) != 0xff) return std::nullopt;
    std::string alternatives;
    for (unsigned hi = pid >> 12; hi <= (last >> 12); ++hi) {
        const unsigned from = hi == (pid >> 12) ? (pid >> 8) & 15 : 0;
        const unsigned to = hi == (last >> 12) ? (last >> 8) & 15 : 15;
        if (!alternatives.empty()) alternatives += '|';
        alternatives += "0123456789abcdef"[hi];
        if (from != to) alternatives += '[';
        for (unsigned d = from; d <= to; ++d) alternatives += "0123456789abcdef"[d];
        if (from != to) alternatives += ']';
        alternatives += "??";
    }
    return alternatives;
}

// A udev glob matching `name` as one word of a space-separated list (ENV{X}+= appends with a
// space when several drivers claim one id).
std::string word_pattern(std::string_view name) {
    const std::string n(name);
    return n + "|" + n + " *|* " + n + "|* " + n + " *";
}

// One section: the rules for the devices reached one way (tty or libusb device node).
// `match` is the match prefix of an id line, `attrs` ATTRS or ATTR, `settings` what every
// board of the section gets, `instance` the eboardd-device@ instance.
struct Section {
    const char* label;
    const char* attrs;
    const char* settings;
    const char* instance;
};

void append_section(std::string& out, const Section& s, const Claims& claims) {
    out += "LABEL=\"" + std::string(s.label) + "\"\n";
    // A change event starts from the properties in the udev database: start afresh.
    out += "ENV{EBOARD_DRIVER}=\"\", ENV{EBOARD_ID}=\"\"\n";
    // ID_SERIAL_SHORT and ID_PATH_TAG, as 60-serial.rules / 50-udev-default.rules import them,
    // so that this file does not depend on their order.
    out += "IMPORT{builtin}=\"usb_id\"\n";
    out += "IMPORT{builtin}=\"path_id\"\n";
    std::set<std::string_view> names;
    for (const auto& [key, claim] : claims) {
        const auto [v, first, last] = key;
        const std::string vid = hex4(v), pid = pid_text(first, last);
        for (const auto& [name, id] : claim.by) {
            out += "# " + vid + ":" + pid + " " + std::string(name) + ": " + std::string(id->note);
            out += id->certain ? "\n" : " (uncertain id: the driver probes the board)\n";
            names.insert(name);
        }
        out += std::string(s.attrs) + "{idVendor}==\"" + vid + "\", " + s.attrs + "{idProduct}==\"" +
               pid_glob(first, last).value_or(pid) + "\"";
        for (const auto& [name, id] : claim.by) out += ", ENV{EBOARD_DRIVER}+=\"" + std::string(name) + "\"";
        out += "\n";
    }
    out += "ENV{EBOARD_DRIVER}!=\"?*\", GOTO=\"eboard_end\"\n";
    out += std::string(s.settings) + "\n";
    out += "ENV{ID_SERIAL_SHORT}==\"?*\", ENV{EBOARD_ID}=\"$env{ID_SERIAL_SHORT}\"\n";
    out += "ENV{ID_SERIAL_SHORT}!=\"?*\", ENV{EBOARD_ID}=\"$env{ID_PATH_TAG}\"\n";
    for (const std::string_view name : names)
        out += "ENV{EBOARD_ID}==\"?*\", ENV{EBOARD_DRIVER}==\"" + word_pattern(name) + "\", SYMLINK+=\"eboard-" +
               std::string(name) + "-$env{EBOARD_ID}\"\n";
    out += "TAG+=\"systemd\", ENV{SYSTEMD_WANTS}+=\"eboardd-device@" + std::string(s.instance) +
           ".service\"\n";
    out += "GOTO=\"eboard_end\"\n\n";
}

} // namespace

Expected<std::string> udev_rules(const std::vector<const DriverInfo*>& drivers,
                                 const std::string& release) {
    for (const DriverInfo* d : drivers) {
        if (!valid_name(d->name))
            return Error{"driver '" + std::string(d->name) +
                         "': a driver name in a device link may only use a-z, 0-9, '-' and '_'"};
        for (const UsbId& id : d->usb_ids) {
            if (id.note.find_first_of("\r\n") != std::string_view::npos)
                return Error{"driver '" + std::string(d->name) + "': USB id note with a line break"};
            if (!pid_glob(id.pid, id.last()))
                return Error{"driver '" + std::string(d->name) + "': product id range " + pid_text(id.pid, id.last()) +
                             " is not whole blocks of 0x100 (xx00-yyff): udev cannot match it"};
        }
    }
    const Claims tty = claims_for(drivers, UsbAccess::Tty);
    const Claims usb = claims_for(drivers, UsbAccess::Libusb);

    std::string out;
    out += "# 70-eboard.rules: electronic chessboards for eboardd " + release + ".\n";
    out += "# GENERATED by eboard-udev-rules from the drivers' USB id tables (DriverRegistration in\n"
           "# drivers/*/driver.cpp). Do not edit: declare the id in the driver and rebuild\n"
           "# (docs/adding-a-driver.md). What a board gets, and why, is in udev/README.md:\n"
           "# ModemManager keeps off it, group dialout (tty) or plugdev (libusb) with mode 0660 and\n"
           "# uaccess (so this file sorts before 73-seat-late.rules), EBOARD_DRIVER, a stable link\n"
           "# /dev/eboard-DRIVER-SERIAL (else -PORT), and eboardd-device@.service.\n";
    for (const DriverInfo* d : drivers)
        if (d->usb_ids.empty())
            out += "# " + std::string(d->name) + ": no USB id known (give its device path to eboardd)\n";
    out += "\n";
    out += "ACTION==\"remove\", GOTO=\"eboard_end\"\n";
    if (!tty.empty()) out += "SUBSYSTEM==\"tty\", SUBSYSTEMS==\"usb\", GOTO=\"eboard_tty\"\n";
    if (!usb.empty())
        out += "SUBSYSTEM==\"usb\", ENV{DEVTYPE}==\"usb_device\", GOTO=\"eboard_usb\"\n";
    out += "GOTO=\"eboard_end\"\n\n";
    if (!tty.empty())
        append_section(out,
                       {"eboard_tty", "ATTRS",
                        "ENV{ID_MM_DEVICE_IGNORE}=\"1\", GROUP=\"dialout\", MODE=\"0660\", TAG+=\"uaccess\"",
                        "%k"},
                       tty);
    if (!usb.empty())
        append_section(out,
                       {"eboard_usb", "ATTR",
                        "ENV{ID_MM_DEVICE_IGNORE}=\"1\", GROUP=\"plugdev\", MODE=\"0660\", TAG+=\"uaccess\"",
                        "bus-usb-$env{BUSNUM}-$env{DEVNUM}"},
                       usb);
    out += "LABEL=\"eboard_end\"\n";
    return out;
}

std::string udev_id_list(const std::vector<const DriverInfo*>& drivers) {
    std::string out;
    for (const DriverInfo* d : drivers)
        for (const UsbId& id : d->usb_ids)
            out += std::string(d->name) + " " + hex4(id.vid) + " " + pid_text(id.pid, id.last()) + " " +
                   (id.access == UsbAccess::Tty ? "tty" : "libusb") + " " +
                   (id.certain ? "certain" : "uncertain") + "\n";
    return out;
}

Expected<IdTable> IdTable::parse(const std::string& text, const std::string& origin) {
    IdTable t;
    auto keep = [&t](std::string s) -> std::string_view {
        t.strings_.push_back(std::make_unique<std::string>(std::move(s)));
        return *t.strings_.back();
    };
    const std::string_view note = keep("from " + origin);
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        std::istringstream words(line);
        std::string name, vid, pid, access, certainty, extra;
        words >> name;
        if (name.empty() || name[0] == '#') continue;
        words >> vid >> pid >> access >> certainty;
        auto hex = [](const std::string& s, std::uint16_t& v) {
            if (s.size() != 4 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
                return false;
            v = static_cast<std::uint16_t>(std::stoul(s, nullptr, 16));
            return true;
        };
        UsbId id;
        id.note = note;
        // PID or PID-LAST (a range, as udev_id_list prints it).
        const auto dash = pid.find('-');
        const bool range_ok = dash == std::string::npos || (hex(pid.substr(dash + 1), id.pid_last) && id.pid_last > 0);
        if (dash != std::string::npos) pid.resize(dash);
        if (!hex(vid, id.vid) || !hex(pid, id.pid) || !range_ok || (id.pid_last && id.pid_last <= id.pid) ||
            (access != "tty" && access != "libusb") ||
            (certainty != "certain" && certainty != "uncertain") || (words >> extra))
            return Error{origin + ":" + std::to_string(n) +
                             ": expected DRIVER VID PID[-LAST] tty|libusb certain|uncertain (VID, PID: 4 "
                             "lower-case hex digits)",
                         n, 0};
        id.access = access == "tty" ? UsbAccess::Tty : UsbAccess::Libusb;
        id.certain = certainty == "certain";
        DriverInfo* d = nullptr;
        for (auto& known : t.drivers_)
            if (known->name == name) d = known.get();
        if (!d) {
            t.drivers_.push_back(std::make_unique<DriverInfo>());
            d = t.drivers_.back().get();
            d->name = keep(name);
        }
        d->usb_ids.push_back(id);
    }
    return t;
}

std::vector<const DriverInfo*> IdTable::drivers() const {
    std::vector<const DriverInfo*> out;
    for (const auto& d : drivers_) out.push_back(d.get());
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
    return out;
}

} // namespace eboard::tools
