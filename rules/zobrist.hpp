// Zobrist keys for Position::key() (the "same position" of Art. 9.2): one random 64-bit number
// per (piece, square), per castling-rook square, per en passant file and for Black to move.
// Generated at compile time by splitmix64 from a fixed seed, so keys are stable across runs.
#pragma once

#include <array>
#include <cstdint>

namespace eboard::zobrist {

struct Keys {
    std::array<std::array<std::uint64_t, 64>, 16> piece_square{};  // [Piece][square]
    std::array<std::uint64_t, 64> castling_rook{};  // [square of a rook with a castling right]
    std::array<std::uint64_t, 8> ep_file{};
    std::uint64_t black_to_move = 0;
};

constexpr Keys make_keys() {
    std::uint64_t s = 0x2545F4914F6CDD1DULL;
    auto next = [&s]() {
        s += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    Keys k;
    for (auto& row : k.piece_square)
        for (auto& v : row) v = next();
    for (auto& v : k.castling_rook) v = next();
    for (auto& v : k.ep_file) v = next();
    k.black_to_move = next();
    return k;
}

inline constexpr Keys keys = make_keys();

} // namespace eboard::zobrist
