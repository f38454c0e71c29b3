#include "drivers/core/serial_settings.hpp"

#include <charconv>

namespace eboard::drivers {

Expected<SerialSettings> SerialSettings::parse(std::string_view text) {
    SerialSettings s;
    const auto slash = text.find('/');
    if (slash == std::string_view::npos || text.size() != slash + 4)
        return Error{"serial settings must look like 9600/8n1: '" + std::string(text) + "'"};
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + slash, s.baud);
    if (ec != std::errc{} || ptr != text.data() + slash || s.baud <= 0)
        return Error{"bad baud rate in '" + std::string(text) + "'"};
    const char bits = text[slash + 1], parity = text[slash + 2], stop = text[slash + 3];
    if (bits < '5' || bits > '8') return Error{"data bits must be 5..8 in '" + std::string(text) + "'"};
    s.data_bits = bits - '0';
    switch (parity) {
    case 'n': case 'N': s.parity = Parity::None; break;
    case 'o': case 'O': s.parity = Parity::Odd; break;
    case 'e': case 'E': s.parity = Parity::Even; break;
    default: return Error{"parity must be n, o or e in '" + std::string(text) + "'"};
    }
    if (stop != '1' && stop != '2') return Error{"stop bits must be 1 or 2 in '" + std::string(text) + "'"};
    s.stop_bits = stop - '0';
    return s;
}

std::string SerialSettings::str() const {
    const char p = parity == Parity::None ? 'n' : parity == Parity::Odd ? 'o' : 'e';
    return std::to_string(baud) + '/' + static_cast<char>('0' + data_bits) + p +
           static_cast<char>('0' + stop_bits);
}

} // namespace eboard::drivers
