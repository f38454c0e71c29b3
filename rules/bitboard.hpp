// Bitboard helpers and attack tables: popcount, lsb, shifts, leaper attacks, and slider
// attacks by "fancy" magic bitboards whose magics are found at start-up (a few ms, a fixed
// pseudo-random seed, so the tables are the same on every run). Squares a1=0 .. h8=63.
//
// Call init_bitboards() before using any table (Position does it in its factories; it is
// idempotent and thread-safe).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "base/types.hpp"

namespace eboard::bitboards {

inline constexpr Bitboard kFileA = 0x0101010101010101ULL;
inline constexpr Bitboard kFileH = kFileA << 7;
inline constexpr Bitboard kRank1 = 0xFFULL;
inline constexpr Bitboard kRank2 = kRank1 << 8;
inline constexpr Bitboard kRank3 = kRank1 << 16;
inline constexpr Bitboard kRank6 = kRank1 << 40;
inline constexpr Bitboard kRank7 = kRank1 << 48;
inline constexpr Bitboard kRank8 = kRank1 << 56;

[[nodiscard]] constexpr Bitboard bit(int sq) noexcept { return Bitboard{1} << sq; }
/// Counted in registers: std::popcount calls into libgcc unless the build targets POPCNT, which
/// it does not (the generic x86-64 target), and the searches count in every node.
[[nodiscard]] constexpr int popcount(Bitboard b) noexcept {
    b -= (b >> 1) & 0x5555555555555555ULL;
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
}
/// Index of the lowest set bit; b must not be 0.
[[nodiscard]] constexpr int lsb(Bitboard b) noexcept { return std::countr_zero(b); }
/// Index of the lowest set bit, which is cleared; b must not be 0.
constexpr int pop_lsb(Bitboard& b) noexcept {
    const int s = lsb(b);
    b &= b - 1;
    return s;
}
[[nodiscard]] constexpr bool more_than_one(Bitboard b) noexcept { return (b & (b - 1)) != 0; }

/// The board shifted one rank towards rank 8 (North) or rank 1 (South), files kept in range.
[[nodiscard]] constexpr Bitboard north(Bitboard b) noexcept { return b << 8; }
[[nodiscard]] constexpr Bitboard south(Bitboard b) noexcept { return b >> 8; }
/// One square forward (towards the opponent) for colour c.
[[nodiscard]] constexpr Bitboard forward(Color c, Bitboard b) noexcept {
    return c == Color::White ? b << 8 : b >> 8;
}
/// Diagonal pawn-capture shifts: towards the a-file ("west") and the h-file ("east").
[[nodiscard]] constexpr Bitboard forward_west(Color c, Bitboard b) noexcept {
    return c == Color::White ? (b & ~kFileA) << 7 : (b & ~kFileA) >> 9;
}
[[nodiscard]] constexpr Bitboard forward_east(Color c, Bitboard b) noexcept {
    return c == Color::White ? (b & ~kFileH) << 9 : (b & ~kFileH) >> 7;
}

/// One slider table entry: attacks = table[pext-like index of occ].
struct Magic {
    Bitboard mask = 0;
    Bitboard magic = 0;
    const Bitboard* attacks = nullptr;
    unsigned shift = 0;
    [[nodiscard]] std::size_t index(Bitboard occ) const noexcept {
        return static_cast<std::size_t>(((occ & mask) * magic) >> shift);
    }
};

struct Tables {
    std::array<std::array<Bitboard, 64>, 2> pawn_attacks{};  // [colour][square]
    std::array<Bitboard, 64> knight{};
    std::array<Bitboard, 64> king{};
    std::array<Magic, 64> bishop_magic{};
    std::array<Magic, 64> rook_magic{};
    /// Squares strictly between a and b on a line (rank, file, diagonal), else 0.
    std::array<std::array<Bitboard, 64>, 64> between{};
    /// The whole line through a and b (edge to edge), else 0.
    std::array<std::array<Bitboard, 64>, 64> line{};
};

/// The tables; valid after init_bitboards().
extern Tables tables;
/// Fills `tables` once (later calls return at once).
void init_bitboards();

[[nodiscard]] inline Bitboard pawn_attacks(Color c, int sq) noexcept {
    return tables.pawn_attacks[static_cast<std::size_t>(c)][static_cast<std::size_t>(sq)];
}
[[nodiscard]] inline Bitboard knight_attacks(int sq) noexcept {
    return tables.knight[static_cast<std::size_t>(sq)];
}
[[nodiscard]] inline Bitboard king_attacks(int sq) noexcept {
    return tables.king[static_cast<std::size_t>(sq)];
}
[[nodiscard]] inline Bitboard bishop_attacks(int sq, Bitboard occ) noexcept {
    const Magic& m = tables.bishop_magic[static_cast<std::size_t>(sq)];
    return m.attacks[m.index(occ)];
}
[[nodiscard]] inline Bitboard rook_attacks(int sq, Bitboard occ) noexcept {
    const Magic& m = tables.rook_magic[static_cast<std::size_t>(sq)];
    return m.attacks[m.index(occ)];
}
[[nodiscard]] inline Bitboard queen_attacks(int sq, Bitboard occ) noexcept {
    return bishop_attacks(sq, occ) | rook_attacks(sq, occ);
}
[[nodiscard]] inline Bitboard between(int a, int b) noexcept {
    return tables.between[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}
[[nodiscard]] inline Bitboard line(int a, int b) noexcept {
    return tables.line[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

} // namespace eboard::bitboards
