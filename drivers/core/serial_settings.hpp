// Line settings of a serial board, written the libsigrok way: "9600/8n1", "9600/7o1".
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace eboard::drivers {

enum class Parity : std::uint8_t { None, Odd, Even };

/// Baud rate, frame format and modem lines for a serial port. Ptys and TCP ignore all of it.
struct SerialSettings {
    int baud = 9600;
    int data_bits = 8;  ///< 5..8
    Parity parity = Parity::None;
    int stop_bits = 1;  ///< 1 or 2
    bool dtr = true;    ///< assert DTR after open (DGT: dgtnix does); false clears it (Millennium)
    bool rts = true;    ///< assert RTS after open

    /// Parses "BAUD/<bits><n|o|e><stop>", e.g. "9600/8n1" or "38400/7o1"; DTR/RTS stay on.
    [[nodiscard]] static Expected<SerialSettings> parse(std::string_view text);
    /// "9600/8n1".
    [[nodiscard]] std::string str() const;
    bool operator==(const SerialSettings&) const noexcept = default;
};

} // namespace eboard::drivers
