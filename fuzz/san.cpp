// libFuzzer target for the move parser (rules/notation_parse.cpp): any bytes in, a move or an
// Error out, never a crash. Byte 0 picks the position, byte 1 the language; the rest is the
// move text. A move read must be legal and must read back from its own SAN and long notation.
#include "rules/notation.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace eboard;

namespace {
constexpr const char* kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
    "4k3/8/8/8/1b6/8/3N3N/4K3 w - - 0 1",
};
constexpr const char* kChess960 = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::size_t n = sizeof kFens / sizeof kFens[0];
    const std::size_t pick = data[0] % (n + 1);
    auto pos = pick < n ? Position::from_fen(kFens[pick]) : Position::from_fen(kChess960, true);
    if (!pos) std::abort();
    const auto lang = static_cast<Language>(data[1] % 6);
    const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
    const auto m = parse_move(*pos, text, lang);
    if (!m) return 0;
    if (!pos->is_legal(*m)) std::abort();
    const NotationFormat fmt{lang};
    const auto again = parse_move(*pos, to_san(*pos, *m, fmt), lang);
    if (!again || *again != *m) std::abort();
    const auto lan = parse_move(*pos, to_lan(*pos, *m, fide_format(lang)), lang);
    if (!lan || *lan != *m) std::abort();
    return 0;
}
