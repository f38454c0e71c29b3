// The input vocabulary of move reconstruction: what a board driver and a clock driver report.
// Drivers produce these values (drivers/core/events.hpp reports them as they are), the daemon
// feeds them to a Reconstructor (rules/reconstruction.hpp).
//
// Squares a1=0 .. h8=63 as the board numbers them when White sits at its a1 side (a driver
// converts its own field numbers once). A board set up the other way round (Black at the
// connector side, docs/protocols/dgt.md section 7) is detected by the reconstructor from the start
// position and rotated there, so drivers never need to know.
// Times are milliseconds on one monotonic time line chosen by the caller (the daemon's steady
// clock, a recording's time stamps); the rules core never reads a clock itself.
#pragma once

#include <array>
#include <cstdint>
#include <variant>

#include "base/types.hpp"

namespace eboard {

/// Milliseconds on the caller's monotonic time line.
using TimeMs = std::int64_t;

/// One square as the board sees it: empty; occupied by an unknown piece (occupancy-only boards:
/// Sentio, Pegasus, hall-sensor boards); or occupied by a known piece (identity boards: DGT,
/// Certabo, Millennium, Chessnut):
///   occupied=false                      empty square (piece is Piece::None)
///   occupied=true, piece != Piece::None identified piece
///   occupied=true, piece == Piece::None something stands there, identity unknown
/// The invariant "piece != None implies occupied" is kept by the constructors below.
struct SquareReading {
    bool occupied = false;
    Piece piece = Piece::None;  ///< the identity when known; Piece::None when empty or unknown

    [[nodiscard]] static constexpr SquareReading empty() noexcept { return {}; }
    [[nodiscard]] static constexpr SquareReading unknown() noexcept { return {true, Piece::None}; }
    [[nodiscard]] static constexpr SquareReading of(Piece p) noexcept {
        return {p != Piece::None, p};
    }
    [[nodiscard]] constexpr bool known() const noexcept { return piece != Piece::None; }
    constexpr bool operator==(const SquareReading&) const noexcept = default;
};

/// FEN letter of a reading: "PNBRQKpnbrqk", '.' for empty, '?' for an unknown occupant.
[[nodiscard]] char reading_to_char(SquareReading r) noexcept;

/// The whole board: index = square a1=0 .. h8=63 (an array, so `board[i]` reads square i).
/// Its text form is a FEN placement field with '?' for unknown occupants (base/placement.hpp).
struct BoardReading : std::array<SquareReading, 64> {
    [[nodiscard]] SquareReading at(Square s) const noexcept { return (*this)[idx(s)]; }
    void set(Square s, SquareReading r) noexcept { (*this)[idx(s)] = r; }
    void set(Square s, Piece p) noexcept { set(s, SquareReading::of(p)); }
    /// Bit n set when square n is occupied.
    [[nodiscard]] Bitboard occupancy() const noexcept;
    /// The board turned round (a1 <-> h8): what a board wired for the other side reports.
    [[nodiscard]] BoardReading rotated() const noexcept;
    /// The standard start position (Art. 2.3).
    [[nodiscard]] static BoardReading start_position() noexcept;

  private:
    static std::size_t idx(Square s) noexcept { return static_cast<std::size_t>(s.index() & 63); }
};

/// One square changed (a DGT FIELD_UPDATE, a Sentio occupancy bit). Drivers report every change
/// they see, bounces included; filtering is the reconstructor's job.
struct SquareChange {
    TimeMs t_ms = 0;
    Square square;
    SquareReading reading;
};

/// A full board report (a DGT board dump; a Chessnut reports one on every change). Squares that
/// differ from the last known state are changes at `t_ms`: they pass the bounce filter like
/// SquareChanges, and the changes of one report have no order (the board did not see one).
struct BoardSnapshot {
    TimeMs t_ms = 0;
    BoardReading board{};
};

/// The clock lever/button pressed by a player: `by` stops his own clock and starts the
/// opponent's (Art. 6.2.1). The daemon maps the clock's left/right to colours (--white-side).
struct LeverPressed {
    TimeMs t_ms = 0;
    Color by = Color::White;
};

/// The times the clock displays (ms left per player), and whose clock runs, if any.
struct ClockTimes {
    TimeMs t_ms = 0;
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
    bool running = false;  ///< a clock is running
    Color running_side = Color::White;  ///< whose, when running
};

/// A flag fell: `side` has used up his time (Art. 6.1, 6.9).
struct FlagFall {
    TimeMs t_ms = 0;
    Color side = Color::White;
};

/// A clock button other than the lever, numbered 0..4 from left to right as seen from the front
/// of the clock (DGT3000: back, minus, play/pause, plus, ok; docs/protocols/dgt.md section 13).
/// While a pawn of the side to move can promote, buttons choose the promotion piece on
/// occupancy-only boards (Reconstructor::promotion_for_button). The driver also gives what it
/// read: `code` is the raw key code (DGT '1'..'5' = 31..35), `held_mask` the raw ack2 bit mask
/// (several buttons held at once); 0 when the clock reports none.
struct ClockButton {
    TimeMs t_ms = 0;
    int button = 0;
    std::uint8_t code = 0;
    std::uint8_t held_mask = 0;
};

/// Nothing happened until `t_ms`: lets settle and grace periods expire. The daemon sends one
/// from a timer (e.g. every 50 ms while a game runs); a replay sends them between events.
struct Tick {
    TimeMs t_ms = 0;
};

/// Every input of the reconstructor.
using SensorEvent =
    std::variant<SquareChange, BoardSnapshot, LeverPressed, ClockTimes, FlagFall, ClockButton, Tick>;

/// The time stamp of any input.
[[nodiscard]] constexpr TimeMs time_of(const SensorEvent& e) {
    return std::visit([](const auto& x) { return x.t_ms; }, e);
}

} // namespace eboard
