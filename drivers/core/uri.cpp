#include "drivers/core/uri.hpp"

#include "drivers/core/usb.hpp"

#include <charconv>

namespace eboard::drivers {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

Expected<TransportSpec> parse_tcp(std::string_view rest, std::string_view whole) {
    TransportSpec t;
    t.kind = TransportKind::Tcp;
    std::string_view host, port;
    if (starts_with(rest, "[")) {
        const auto close = rest.find(']');
        if (close == std::string_view::npos || close + 1 >= rest.size() || rest[close + 1] != ':')
            return Error{"tcp transport must be tcp:[ADDRESS]:PORT: '" + std::string(whole) + "'"};
        host = rest.substr(1, close - 1);
        port = rest.substr(close + 2);
    } else {
        const auto colon = rest.rfind(':');
        if (colon == std::string_view::npos)
            return Error{"tcp transport must be tcp:HOST:PORT: '" + std::string(whole) + "'"};
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
    }
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (host.empty() || port.empty() || ec != std::errc{} || ptr != port.data() + port.size() ||
        value == 0 || value > 65535)
        return Error{"tcp transport needs a host and a port 1..65535: '" + std::string(whole) + "'"};
    t.host = std::string(host);
    t.port = static_cast<std::uint16_t>(value);
    return t;
}

} // namespace

Expected<TransportSpec> parse_transport(std::string_view text) {
    if (starts_with(text, "tcp:")) return parse_tcp(text.substr(4), text);
    if (text == "usb" || starts_with(text, "usb:")) {
        TransportSpec t;
        t.kind = TransportKind::Usb;
        if (text.size() > 4) {
            if (auto a = UsbAddress::parse(text.substr(4)); !a) return a.error();
            t.usb_address = std::string(text.substr(4));
        }
        return t;
    }
    if (starts_with(text, "ble:")) {
        TransportSpec t;
        t.kind = TransportKind::Ble;
        t.ble_target = std::string(text.substr(4));
        if (t.ble_target.empty())
            return Error{"ble transport needs a Bluetooth address or a name prefix: '" + std::string(text) + "'"};
        return t;
    }
    if (starts_with(text, "/")) {
        TransportSpec t;
        t.path = std::string(text);
        t.kind = starts_with(text, "/dev/ttyACM") || starts_with(text, "/dev/ttyUSB")
                     ? TransportKind::SerialPort
                     : TransportKind::Termios;
        return t;
    }
    return Error{"unknown transport '" + std::string(text) +
                 "' (expected a /dev path, tcp:HOST:PORT, usb[:BUS.ADDR] or ble:ADDRESS|NAME-PREFIX)"};
}

Expected<DeviceUri> parse_device_uri(std::string_view text) {
    DeviceUri uri;
    uri.text = std::string(text);
    const auto colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    if (name.empty()) return Error{"board URI must be DRIVER:TRANSPORT: '" + std::string(text) + "'"};
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_'))
            return Error{"bad driver name '" + std::string(name) + "'"};
    const auto dot = name.find('.');
    uri.driver = std::string(name.substr(0, dot));
    if (dot != std::string_view::npos) uri.model = std::string(name.substr(dot + 1));
    if (colon == std::string_view::npos) {
        if (!starts_with(uri.driver, "emu-"))
            return Error{"board URI needs a transport: '" + std::string(text) + "'"};
        return uri;
    }
    auto transport = parse_transport(text.substr(colon + 1));
    if (!transport) return transport.error();
    uri.transport = std::move(transport.value());
    return uri;
}

} // namespace eboard::drivers
