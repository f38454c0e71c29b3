// A simulated pair of players at an emulated board (drivers/emu DgtEmulator, or any emulator
// through SimulatedPlayer::Hands): each move becomes the lifts, placements and clock press of a
// person (rules/handling.hpp BoardHands:
// capture, castling, en passant and promotion orders, slides, bounces, j'adoube), played on
// the emulator at human pace divided by `speed`. Used by `eboardd --simulate`, the integration
// tests and the benchmarks, so that all of them drive the real driver code over a pty.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "drivers/core/events.hpp"
#include "rules/handling.hpp"
#include "rules/position.hpp"

namespace eboard::drivers::emu {
class DgtEmulator;
}

namespace eboard::daemon {

class SimulatedPlayer {
  public:
    /// Waits for a stretch of human time (already divided by the speed); returns false when
    /// the player should stop.
    using Wait = std::function<bool(std::chrono::microseconds)>;

    /// What the player does to the board: lift a piece, place one, press a side of the clock
    /// (`press` empty: a board without a clock; moves are then never pressed).
    struct Hands {
        std::function<void(Square)> lift;
        std::function<void(Square, Piece)> place;
        std::function<void(drivers::ClockSide)> press;
    };

    /// The board must already show `start`. White presses the `white_side` of the clock.
    SimulatedPlayer(drivers::emu::DgtEmulator& board, const Position& start, std::uint64_t seed,
                    double speed, drivers::ClockSide white_side = drivers::ClockSide::Left);
    /// The same on any emulated board; `identity`: the board reports which piece stands where.
    SimulatedPlayer(Hands hands, bool identity, const Position& start, std::uint64_t seed, double speed,
                    drivers::ClockSide white_side = drivers::ClockSide::Left);

    /// Makes the legal move `m` on the board and presses the clock (unless `press` is false).
    /// Returns false if `wait` said stop.
    bool play(Move m, const Wait& wait, bool press = true);

    /// The position after the moves played.
    [[nodiscard]] const Position& position() const { return pos_; }

  private:
    Hands board_;
    Position pos_;
    BoardHands hands_;
    double speed_;
    drivers::ClockSide white_side_;
};

} // namespace eboard::daemon
