// The value types of the rules core: Color, PieceType, Piece, Square, Bitboard, Move.
// Every other part of eboardd (drivers, reconstruction, daemon) speaks in these.
//
// Squares are numbered a1=0, b1=1, ..., h1=7, a2=8, ..., h8=63 (rank-major, little-endian
// rank-file mapping). A Bitboard has bit n set for square n.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace eboard {

/// The side: White moves first (Art. 1.1).
enum class Color : std::uint8_t { White = 0, Black = 1 };

/// The opponent of `c`.
[[nodiscard]] constexpr Color operator~(Color c) noexcept {
    return c == Color::White ? Color::Black : Color::White;
}

/// The piece kinds of Art. 2.2, without colour. None = empty square.
enum class PieceType : std::uint8_t { None = 0, Pawn, Knight, Bishop, Rook, Queen, King };

/// A coloured piece, or no piece. Layout: bit 3 = colour (0 white, 1 black), bits 0-2 = type.
enum class Piece : std::uint8_t {
    None = 0,
    WPawn = 1, WKnight, WBishop, WRook, WQueen, WKing,
    BPawn = 9, BKnight, BBishop, BRook, BQueen, BKing,
};

[[nodiscard]] constexpr Piece make_piece(Color c, PieceType t) noexcept {
    return t == PieceType::None
               ? Piece::None
               : static_cast<Piece>(static_cast<unsigned>(t) | (c == Color::Black ? 8u : 0u));
}
[[nodiscard]] constexpr PieceType type_of(Piece p) noexcept {
    return static_cast<PieceType>(static_cast<unsigned>(p) & 7u);
}
/// Colour of a piece; meaningless for Piece::None.
[[nodiscard]] constexpr Color color_of(Piece p) noexcept {
    return (static_cast<unsigned>(p) & 8u) ? Color::Black : Color::White;
}

/// FEN letter of a piece ('P'..'K' white, 'p'..'k' black, '.' for none).
[[nodiscard]] char piece_to_char(Piece p) noexcept;
/// Inverse of piece_to_char for "PNBRQKpnbrqk"; Piece::None for anything else.
[[nodiscard]] Piece piece_from_char(char c) noexcept;

/// A square a1=0 .. h8=63, or none (64). Explicit construction only, from an index or file/rank.
class Square {
  public:
    constexpr Square() noexcept = default;
    constexpr explicit Square(int index) noexcept : v_(static_cast<std::uint8_t>(index)) {}
    /// file 0..7 = a..h, rank 0..7 = 1..8.
    [[nodiscard]] static constexpr Square at(int file, int rank) noexcept {
        return Square(rank * 8 + file);
    }
    /// Parses "e4" (lower case); none() on anything else.
    [[nodiscard]] static Square parse(std::string_view s) noexcept;
    [[nodiscard]] static constexpr Square none() noexcept { return Square(64); }

    [[nodiscard]] constexpr int index() const noexcept { return v_; }
    [[nodiscard]] constexpr int file() const noexcept { return v_ & 7; }
    [[nodiscard]] constexpr int rank() const noexcept { return v_ >> 3; }
    [[nodiscard]] constexpr bool valid() const noexcept { return v_ < 64; }
    /// The same square seen from the other side (a1 <-> a8).
    [[nodiscard]] constexpr Square flip_rank() const noexcept { return Square(v_ ^ 56); }
    /// The square seen with the board turned round (a1 <-> h8).
    [[nodiscard]] constexpr Square rotate() const noexcept { return Square(63 - v_); }
    /// True for the light squares (h1 is light, Art. 2.1).
    [[nodiscard]] constexpr bool light() const noexcept { return ((file() + rank()) & 1) != 0; }
    /// "e4"; "-" for none.
    [[nodiscard]] std::string name() const;

    constexpr bool operator==(const Square&) const noexcept = default;
    constexpr auto operator<=>(const Square&) const noexcept = default;

  private:
    std::uint8_t v_ = 64;
};

/// A set of squares: bit n = square n.
using Bitboard = std::uint64_t;

[[nodiscard]] constexpr Bitboard bb(Square s) noexcept { return Bitboard{1} << s.index(); }

/// A move in 16 bits: bits 0-5 from, 6-11 to, 12-13 promotion piece (0 knight .. 3 queen),
/// 14-15 kind. Castling is stored as king-from -> castling-rook square, so that one encoding
/// serves standard chess and Chess960 (Guidelines II); king_to()/rook_to() give the final
/// squares. Move::none() is the null value (from == to == a1).
class Move {
  public:
    enum class Kind : std::uint8_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

    constexpr Move() noexcept = default;
    [[nodiscard]] static constexpr Move none() noexcept { return Move(); }
    [[nodiscard]] static constexpr Move normal(Square from, Square to) noexcept {
        return Move(from, to, Kind::Normal, PieceType::Knight);
    }
    [[nodiscard]] static constexpr Move promotion(Square from, Square to, PieceType promo) noexcept {
        return Move(from, to, Kind::Promotion, promo);
    }
    [[nodiscard]] static constexpr Move en_passant(Square from, Square to) noexcept {
        return Move(from, to, Kind::EnPassant, PieceType::Knight);
    }
    /// King on `king` castles with the rook on `rook`.
    [[nodiscard]] static constexpr Move castling(Square king, Square rook) noexcept {
        return Move(king, rook, Kind::Castling, PieceType::Knight);
    }

    [[nodiscard]] constexpr Square from() const noexcept { return Square(v_ & 63); }
    /// The destination; for castling the castling rook's square (see king_to()).
    [[nodiscard]] constexpr Square to() const noexcept { return Square((v_ >> 6) & 63); }
    [[nodiscard]] constexpr Kind kind() const noexcept { return static_cast<Kind>(v_ >> 14); }
    /// Knight..Queen for promotions; meaningless otherwise.
    [[nodiscard]] constexpr PieceType promotion_type() const noexcept {
        return static_cast<PieceType>(((v_ >> 12) & 3) + 2);
    }
    [[nodiscard]] constexpr bool is_castling() const noexcept { return kind() == Kind::Castling; }
    /// Where the king ends: g1/c1 (g8/c8) for castling (Guidelines II.3), else to().
    [[nodiscard]] constexpr Square king_to() const noexcept {
        if (!is_castling()) return to();
        return Square::at(to().index() > from().index() ? 6 : 2, from().rank());
    }
    /// Where the castling rook ends: f1/d1 (f8/d8); none() for other moves.
    [[nodiscard]] constexpr Square rook_to() const noexcept {
        if (!is_castling()) return Square::none();
        return Square::at(to().index() > from().index() ? 5 : 3, from().rank());
    }
    [[nodiscard]] constexpr std::uint16_t raw() const noexcept { return v_; }
    [[nodiscard]] constexpr bool is_none() const noexcept { return v_ == 0; }

    constexpr bool operator==(const Move&) const noexcept = default;

  private:
    constexpr Move(Square from, Square to, Kind k, PieceType promo) noexcept
        : v_(static_cast<std::uint16_t>(
              from.index() | (to.index() << 6) |
              ((static_cast<int>(promo) - 2) & 3) << 12 | (static_cast<int>(k) << 14))) {}
    std::uint16_t v_ = 0;
};

} // namespace eboard
