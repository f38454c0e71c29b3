#include "base/sensors.hpp"

#include "base/placement.hpp"

namespace eboard {

char reading_to_char(SquareReading r) noexcept {
    if (!r.occupied) return '.';
    if (!r.known()) return '?';
    return piece_to_char(r.piece);
}

Bitboard BoardReading::occupancy() const noexcept {
    Bitboard b = 0;
    for (int i = 0; i < 64; ++i)
        if (at(Square(i)).occupied) b |= bb(Square(i));
    return b;
}

BoardReading BoardReading::rotated() const noexcept {
    BoardReading r{};
    for (int i = 0; i < 64; ++i) r.set(Square(i).rotate(), at(Square(i)));
    return r;
}

BoardReading BoardReading::start_position() noexcept {
    BoardReading b{};
    constexpr std::string_view kBackRank = "RNBQKBNR";
    for (int file = 0; file < 8; ++file) {
        const Piece white = piece_from_char(kBackRank[static_cast<std::size_t>(file)]);
        b.set(Square::at(file, 0), white);
        b.set(Square::at(file, 1), Piece::WPawn);
        b.set(Square::at(file, 6), Piece::BPawn);
        b.set(Square::at(file, 7), make_piece(Color::Black, type_of(white)));
    }
    return b;
}

} // namespace eboard
