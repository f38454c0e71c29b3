// What a board's sensors say about its 64 squares, in eboard's numbering (a1=0 .. h8=63).
//
// Boards differ in what they can see: DGT and Certabo boards identify pieces, Sentio-style
// boards only see whether a square is occupied. A SquareReading carries both facts:
//   occupied=false                      empty square (piece is Piece::None)
//   occupied=true, piece != Piece::None identified piece
//   occupied=true, piece == Piece::None something stands there, identity unknown
// The invariant "piece != None implies occupied" is kept by the constructors below.
#pragma once

#include "rules/expected.hpp"
#include "rules/types.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace eboard::drivers {

/// One square as the sensors report it (see the file comment for the three cases).
struct SquareReading {
    bool occupied = false;
    Piece piece = Piece::None;

    [[nodiscard]] static constexpr SquareReading empty() noexcept { return {}; }
    /// A known piece, or empty() for Piece::None.
    [[nodiscard]] static constexpr SquareReading of(Piece p) noexcept {
        return {p != Piece::None, p};
    }
    /// Occupied by something the board cannot identify (occupancy-only boards).
    [[nodiscard]] static constexpr SquareReading unknown_occupant() noexcept {
        return {true, Piece::None};
    }
    [[nodiscard]] constexpr bool identified() const noexcept { return piece != Piece::None; }
    constexpr bool operator==(const SquareReading&) const noexcept = default;
};

/// FEN letter of a reading: "PNBRQKpnbrqk", '.' for empty, '?' for an unknown occupant.
[[nodiscard]] char reading_to_char(SquareReading r) noexcept;

/// The 64 readings of a board, indexed by Square (a1=0 .. h8=63).
class BoardState {
  public:
    [[nodiscard]] SquareReading at(Square s) const noexcept { return squares_[idx(s)]; }
    void set(Square s, SquareReading r) noexcept { squares_[idx(s)] = r; }
    void set(Square s, Piece p) noexcept { set(s, SquareReading::of(p)); }

    /// Bit n set when square n is occupied.
    [[nodiscard]] Bitboard occupancy() const noexcept;
    /// The board turned round (a1 <-> h8): what a board wired for the other side reports.
    [[nodiscard]] BoardState rotated() const noexcept;

    /// FEN piece placement ("rnbqkbnr/pppppppp/8/..."), with '?' for unknown occupants.
    [[nodiscard]] std::string placement() const;
    /// Parses a FEN piece placement (the first field of a FEN; further fields are ignored),
    /// also accepting '?' for an unknown occupant. Errors name the column of the bad character.
    [[nodiscard]] static Expected<BoardState> from_placement(std::string_view fen);
    /// The standard start position.
    [[nodiscard]] static BoardState start_position();

    bool operator==(const BoardState&) const noexcept = default;

  private:
    static std::size_t idx(Square s) noexcept { return static_cast<std::size_t>(s.index() & 63); }
    std::array<SquareReading, 64> squares_{};
};

/// Orientation from a start position, for boards that cannot tell how they stand: `b` as read
/// with the driver's current orientation. False when ranks 1-2 hold only white pieces and ranks
/// 7-8 only black ones (at least 8 each: any Chess960 start position, pieces still missing
/// allowed), true when it is the other way round (the board is turned), nullopt otherwise
/// (e.g. a middle game: keep the orientation you have).
[[nodiscard]] std::optional<bool> start_position_rotated(const BoardState& b) noexcept;

} // namespace eboard::drivers
