#include "daemon/emu_uri.hpp"

#include <array>

namespace eboard::daemon {

namespace {
constexpr std::array<std::string_view, 5> kKinds{"dgt", "certabo", "sentio", "millennium", "chessnut"};
} // namespace

Expected<std::optional<EmuUri>> parse_emu_uri(std::string_view uri) {
    if (uri.rfind("emu-", 0) != 0) return std::optional<EmuUri>{};
    const auto colon = uri.find(':');
    EmuUri out;
    out.kind = std::string(uri.substr(4, colon == std::string_view::npos ? std::string_view::npos : colon - 4));
    if (colon != std::string_view::npos) out.pgn = std::string(uri.substr(colon + 1));
    bool known = false;
    for (auto k : kKinds) known = known || k == out.kind;
    if (!known)
        return Error{"'" + std::string(uri) +
                     "': unknown emulator (emu-dgt, emu-certabo, emu-sentio, emu-millennium, emu-chessnut)"};
    return std::optional<EmuUri>{std::move(out)};
}

} // namespace eboard::daemon
