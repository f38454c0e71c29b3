// USB helpers shared by the transport and the monitor (usb.hpp, usb_common.hpp): addresses,
// id tables, error texts, listing the connected boards.
#include "drivers/core/usb_common.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace eboard::drivers {

std::string UsbAddress::str() const { return std::to_string(bus) + "." + std::to_string(address); }

Expected<UsbAddress> UsbAddress::parse(std::string_view text) {
    const auto dot = text.find('.');
    const auto number = [](std::string_view s, int& out) {
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return !s.empty() && ec == std::errc{} && p == s.data() + s.size() && out >= 1 && out <= 255;
    };
    UsbAddress a;
    if (dot == std::string_view::npos || !number(text.substr(0, dot), a.bus) ||
        !number(text.substr(dot + 1), a.address))
        return Error{"usb address must be BUS.ADDR as lsusb shows them (e.g. usb:1.4), not '" +
                     std::string(text) + "'"};
    return a;
}

std::string usb_id_text(std::uint16_t vid, std::uint16_t pid) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04x:%04x", vid, pid);
    return buf;
}

std::string UsbBoardInfo::str() const { return "usb:" + where.str() + " (" + usb_id_text(vid, pid) + ")"; }

bool usb_id_listed(std::span<const UsbId> ids, std::uint16_t vid, std::uint16_t pid) noexcept {
    return std::any_of(ids.begin(), ids.end(), [&](const UsbId& u) { return u.matches(vid, pid); });
}

std::string usb_ids_text(std::span<const UsbId> ids) {
    std::string out;
    for (const UsbId& u : ids) {
        out += (out.empty() ? "" : ", ") + usb_id_text(u.vid, u.pid);
        if (u.last() != u.pid) {
            out += '-';
            out += usb_id_text(u.vid, u.last()).substr(5);
        }
    }
    return out;
}

std::vector<std::uint16_t> hid_top_level_usage_pages(std::span<const std::uint8_t> d) {
    // HID 1.11 6.2.2: short items (prefix: tag 4 bits, type 2 bits, size 2 bits: 0, 1, 2, 4
    // bytes) and long items (FE, size, tag). Usage Page is the global item 0x04; a Collection
    // (main item 0xA0) at depth 0 is a top-level collection, End Collection is 0xC0.
    std::vector<std::uint16_t> pages;
    std::uint32_t page = 0;
    int depth = 0;
    for (std::size_t i = 0; i < d.size();) {
        const std::uint8_t prefix = d[i];
        if (prefix == 0xfe) {
            if (i + 1 >= d.size()) break;
            i += 3 + std::size_t{d[i + 1]};
            continue;
        }
        const std::size_t size = (prefix & 3) == 3 ? 4 : (prefix & 3);
        if (i + 1 + size > d.size()) break;
        std::uint32_t value = 0;
        for (std::size_t k = 0; k < size; ++k) value |= std::uint32_t{d[i + 1 + k]} << (8 * k);
        switch (prefix & 0xfc) {
        case 0x04: page = value; break;
        case 0xa0:
            if (depth++ == 0) pages.push_back(static_cast<std::uint16_t>(page));
            break;
        case 0xc0: depth = std::max(0, depth - 1); break;
        default: break;
        }
        i += 1 + size;
    }
    return pages;
}

std::string usb_error_text(int code, std::string_view what) {
    const std::string head = std::string(what) + ": ";
    const std::string name = std::string(" (") + libusb_error_name(code) + ")";
    switch (code) {
    case LIBUSB_ERROR_ACCESS:
        return head + "permission denied" + name +
               ". Install eboardd's udev rules (they give the plugdev group read/write access to "
               "the board's /dev/bus/usb node), add this user to plugdev, then re-plug the board";
    case LIBUSB_ERROR_BUSY:
        return head + "the board is busy" + name +
               ": another program has claimed it (another eboardd, or an app using the board's SDK)";
    case LIBUSB_ERROR_NO_DEVICE: return head + "the board is gone (unplugged?)" + name;
    case LIBUSB_ERROR_NOT_SUPPORTED:
        return head + "not supported by this system's libusb (no usbfs under /dev/bus/usb?)" + name;
    case LIBUSB_ERROR_TIMEOUT: return head + "timed out: the board does not answer" + name;
    default: return head + libusb_strerror(code) + name;
    }
}

Expected<UsbContext> make_usb_context() {
    libusb_context* c = nullptr;
    if (const int r = libusb_init(&c); r != 0) return Error{usb_error_text(r, "start libusb")};
    return UsbContext(c);
}

Expected<std::vector<UsbBoardInfo>> list_usb_boards() {
    auto ctx = make_usb_context();
    if (!ctx) return ctx.error();
    libusb_device** list = nullptr;
    const ssize_t n = libusb_get_device_list(ctx->get(), &list);
    if (n < 0) return Error{usb_error_text(static_cast<int>(n), "list USB devices")};
    std::vector<UsbBoardInfo> out;
    const auto drivers = all_drivers();
    for (ssize_t i = 0; i < n; ++i) {
        libusb_device_descriptor dd{};
        if (libusb_get_device_descriptor(list[i], &dd) != 0) continue;
        for (const DriverInfo* d : drivers) {
            if (!usb_id_listed(d->usb_ids, dd.idVendor, dd.idProduct)) continue;
            out.push_back({{libusb_get_bus_number(list[i]), libusb_get_device_address(list[i])},
                           dd.idVendor, dd.idProduct, std::string(d->name)});
            break;
        }
    }
    libusb_free_device_list(list, 1);
    std::sort(out.begin(), out.end(), [](const UsbBoardInfo& a, const UsbBoardInfo& b) {
        return std::pair(a.where.bus, a.where.address) < std::pair(b.where.bus, b.where.address);
    });
    return out;
}

} // namespace eboard::drivers
