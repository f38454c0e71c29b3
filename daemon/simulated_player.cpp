#include "daemon/simulated_player.hpp"

#include "drivers/emu/dgt_emulator.hpp"

namespace eboard::daemon {

namespace {

HandlingOptions hands_options(std::uint64_t seed, bool identity, bool clock) {
    HandlingOptions o;
    o.identity = identity; // a DGT board reports piece identity
    o.clock = clock;
    o.seed = seed;
    return o;
}

} // namespace

SimulatedPlayer::SimulatedPlayer(drivers::emu::DgtEmulator& board, const Position& start,
                                 std::uint64_t seed, double speed, drivers::ClockSide white_side)
    : SimulatedPlayer(Hands{[&board](Square s) { board.lift(s); },
                            [&board](Square s, Piece p) { board.place(s, p); },
                            [&board](drivers::ClockSide side) { board.press_lever(side); }},
                      true, start, seed, speed, white_side) {}

SimulatedPlayer::SimulatedPlayer(Hands hands, bool identity, const Position& start, std::uint64_t seed,
                                 double speed, drivers::ClockSide white_side)
    : board_(std::move(hands)), pos_(start.copy()),
      hands_(hands_options(seed, identity, static_cast<bool>(board_.press))), speed_(speed),
      white_side_(white_side) {
    hands_.setup(pos_);
    (void)hands_.take_events(); // the emulator already shows the position
}

bool SimulatedPlayer::play(Move m, const Wait& wait, bool press) {
    hands_.options().clock = press && board_.press;
    hands_.play(pos_, m);
    TimeMs last = -1;
    const drivers::ClockSide black_side =
        white_side_ == drivers::ClockSide::Left ? drivers::ClockSide::Right : drivers::ClockSide::Left;
    for (const auto& e : hands_.take_events()) {
        const TimeMs t = time_of(e);
        if (last >= 0 && t > last) {
            const auto pause = std::chrono::microseconds(
                static_cast<std::int64_t>(static_cast<double>(t - last) * 1000.0 / speed_));
            if (!wait(pause)) return false;
        }
        last = t;
        if (const auto* c = std::get_if<SquareChange>(&e)) {
            if (c->reading.occupied) board_.place(c->square, c->reading.piece);
            else board_.lift(c->square);
        } else if (const auto* l = std::get_if<LeverPressed>(&e); l && board_.press) {
            board_.press(l->by == Color::White ? white_side_ : black_side);
        }
    }
    pos_.make_move(m);
    return true;
}

} // namespace eboard::daemon
