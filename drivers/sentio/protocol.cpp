#include "drivers/sentio/protocol.hpp"

#include "drivers/line/protocol.hpp"

namespace eboard::drivers::sentio {

// Frame position k = 8 * (8 - rank) + file, as for Certabo (2.1), so number k / 8 holds
// position k at bit 7 - k % 8 (MSB = a-file, 2.2).
Bitboard occupancy_of(std::span<const std::uint8_t, 8> numbers, bool rotated) noexcept {
    Bitboard occ = 0;
    for (int k = 0; k < 64; ++k)
        if (numbers[static_cast<std::size_t>(k >> 3)] & (0x80u >> (k & 7)))
            occ |= bb(line::square_of_index(k, rotated));
    return occ;
}

std::array<std::uint8_t, 8> numbers_of(Bitboard occupied, bool rotated) noexcept {
    std::array<std::uint8_t, 8> n{};
    for (int i = 0; i < 64; ++i) {
        if (!(occupied & bb(Square(i)))) continue;
        const int k = line::index_of_square(Square(i), rotated);
        n[static_cast<std::size_t>(k >> 3)] |= static_cast<std::uint8_t>(0x80u >> (k & 7));
    }
    return n;
}

BoardReading board_of(Bitboard occupied) noexcept {
    BoardReading b;
    for (int i = 0; i < 64; ++i)
        if (occupied & bb(Square(i))) b.set(Square(i), SquareReading::unknown());
    return b;
}

} // namespace eboard::drivers::sentio
