// Human handling of a chess set on a sensor board, as sensor events (base/sensors.hpp): the
// lifts and placements of a player making a move, with the variety real players and real boards
// show (capture, castling, en passant and promotion orders; slides over intermediate squares;
// sensor bounce; DGT scan dynamics; adjusting a piece), seeded so a test or a simulated game
// (eboardd --simulate) is reproducible. Sources: how picochess and the DGT
// drivers read boards, docs/protocols/dgt.md section 8, Art. 4 and [23] Guidelines II.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "rules/position.hpp"
#include "base/sensors.hpp"

namespace eboard {

/// What the simulated board and players do. Times in ms.
struct HandlingOptions {
    std::uint64_t seed = 1;
    bool identity = false;   ///< the board reports piece identity (DGT) or occupancy only
    bool clock = true;       ///< the player presses the clock after each move
    bool rotated = false;    ///< the board stands reversed: events use 63 - square
    bool vary_orders = true; ///< capture / castling / en passant / promotion orders vary
    bool slides = true;      ///< sliding pieces register on intermediate squares
    bool bounce = true;      ///< squares sometimes toggle for a few ms
    bool jadoube = true;     ///< the piece to be moved is sometimes lifted and put back first
    bool dgt_scan = false;   ///< identity: a placement reported before the lift; a captured
                             ///< square changes identity directly, its "empty" never seen
    TimeMs think_min = 150, think_max = 1200;   ///< before a move
    TimeMs press_min = 80, press_max = 500;     ///< from the last placement to the press
    TimeMs tick_ms = 50;                        ///< Tick events while waiting
    /// Irregularity::IllegalMove: how long the illegal move stands after the press before it
    /// is put right (shorter than the reconstructor's mismatch grace, longer than its press
    /// grace).
    TimeMs illegal_stands_ms = 1500;
    /// Irregularity::Displaced: how long a knocked piece lies before it is put back (longer
    /// than the reconstructor's mismatch grace, --mismatch-grace, default 5 s).
    TimeMs displaced_ms = 6000;
};

/// Irregularities the hands commit on purpose (the injected irregularities of the tests), each
/// meant to raise one ALERT of docs/client-api.md (in brackets).
enum class Irregularity : std::uint8_t {
    /// [touch_move 4.3.1] before the move, another own piece that can move is lifted and put
    /// back.
    TouchMove,
    /// [illegal_move 7.5.1] the piece about to move goes to a square it cannot reach, the clock
    /// is pressed, and after illegal_stands_ms the position is restored; then the move (with
    /// the same piece, as 4.3.1 requires).
    IllegalMove,
    /// [illegal_move 7.5.3] the clock is pressed before the move is made.
    PressWithoutMove,
    /// [position_mismatch 7.4] after the move and before the press, a pawn is knocked sideways
    /// onto an empty square and put back after displaced_ms.
    Displaced,
    /// [position_mismatch 7.4] after the move, one of the player's other pieces is knocked
    /// over (a piece on its side: both kinds of board read its square as empty); the clock is
    /// pressed with it lying and it is put back after displaced_ms.
    KnockedOver,
    /// [flag 6.9] the flag of the player on move falls before his move.
    FlagFall,
    /// [draw_claimable 9.2] before the move, a piece of each side goes there and back twice,
    /// so that the position stands on the board for the third time.
    Repetition,
};

/// Every Irregularity, in declaration order.
inline constexpr Irregularity kIrregularities[] = {
    Irregularity::TouchMove,  Irregularity::IllegalMove, Irregularity::PressWithoutMove,
    Irregularity::Displaced,  Irregularity::KnockedOver, Irregularity::FlagFall,
    Irregularity::Repetition};

/// A pair of hands over a sensor board: primitives for tests (lift, place, press, ...) and
/// play() for a whole move handled the human way. Keeps the board as the sensors see it, in
/// game orientation; events are written in board numbering (rotated when so configured).
class BoardHands {
  public:
    explicit BoardHands(HandlingOptions o = {});

    /// Puts the position on the board at once (one BoardSnapshot).
    void setup(const Position& p);
    /// Clears the board (one BoardSnapshot with nothing on it).
    void clear();
    void lift(Square s);
    /// Places `p` on s (its identity is reported only on identity boards).
    void place(Square s, Piece p);
    /// Identity boards: the piece on s becomes `p` in one scan (a capture whose "empty" the
    /// board never reports).
    void retype(Square s, Piece p);
    /// Moves the piece on `from` to `to` (lift, then place), `gap` ms apart.
    void shift(Square from, Square to, TimeMs gap = 60);
    /// A square toggles and comes back within `ms` (sensor bounce).
    void bounce(Square s, TimeMs ms = 8);
    /// Time passes; Tick events every tick_ms.
    void wait(TimeMs ms);
    void press(Color by);
    void button(int b);
    void flag(Color side);

    /// The move m of p (legal), handled like a person would, with seeded variants; presses the
    /// clock afterwards if the options say so.
    void play(const Position& p, Move m);
    /// The move m of p, with `what` committed on the way (see Irregularity). Returns the moves
    /// played in order, m last (Repetition plays moves before m); an irregularity that cannot
    /// be committed in p (no piece that qualifies) is left out, and only m is played.
    std::vector<Move> play_with(const Position& p, Move m, Irregularity what);

    [[nodiscard]] TimeMs now() const noexcept { return now_; }
    [[nodiscard]] Piece on(Square s) const noexcept {
        return board_[static_cast<std::size_t>(s.index())];
    }
    [[nodiscard]] const std::vector<SensorEvent>& events() const noexcept { return events_; }
    /// Hands the events over and forgets them.
    [[nodiscard]] std::vector<SensorEvent> take_events();
    [[nodiscard]] HandlingOptions& options() noexcept { return o_; }

  private:
    [[nodiscard]] Square board_sq(Square s) const noexcept { return o_.rotated ? s.rotate() : s; }
    [[nodiscard]] SquareReading reading(Piece p) const noexcept;
    [[nodiscard]] TimeMs between(TimeMs lo, TimeMs hi);
    [[nodiscard]] bool chance(int percent);
    void step(TimeMs lo, TimeMs hi) { wait(between(lo, hi)); }
    void slide_over(Square from, Square to, Piece p);
    void play_castling(Move m, Piece king, Piece rook);
    void play_promotion(const Position& p, Move m);
    void play_unpressed(const Position& p, Move m);
    [[nodiscard]] std::vector<Move> repetition_moves(const Position& p) const;

    HandlingOptions o_;
    std::mt19937_64 rng_;
    std::array<Piece, 64> board_{};
    TimeMs now_ = 0;
    std::vector<SensorEvent> events_;
};

/// A whole game: the start position set up, then every move handled by play(). The moves must
/// be legal in turn from `start`.
[[nodiscard]] std::vector<SensorEvent> handle_game(const Position& start,
                                                   const std::vector<Move>& moves,
                                                   const HandlingOptions& o);

} // namespace eboard
