// Which side of the clock is White's (`--white-side`, docs/configuration.md): fixed by the
// arbiter (left, right) or, with `auto`, learnt per game from the clock and the board. Pure: no
// I/O, no clock of its own; DeviceLink (device_link.hpp) feeds it what the driver reported and
// carries out what it decides (log and store a side learnt, feed a press to the
// reconstruction).
//
// How `auto` learns (eboardd(8) `--white-side`: "the side whose clock runs when the game
// starts"):
// - a side kept with the game (the store) is the game's: a resumed game reads the lever as
//   before; a game without one learns its own, the side found earlier standing in meanwhile;
// - before the first move, the lever's high side is the side whose clock runs (or will run when
//   started): the first mover's (dgt.md 10.1 status bit 1);
// - without a lever read before the first move, the first press of the game is the first
//   mover's: it completes his move;
// - a lever change before the first move and before any piece was touched is either the first
//   mover's press with the board reporting his move late, or the clock being set up (Black
//   starting White's clock, the arbiter turning it): it is held until the board speaks. A
//   touch within the board's lag (kBoardLagMs) after it makes it the first mover's press; a
//   time report later than that with no touch, or a second such change, makes it the set-up.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "base/sensors.hpp"
#include "daemon/config.hpp"
#include "drivers/core/events.hpp"

namespace eboard::daemon {

/// How late a board may report a piece touched before the clock's press that followed it
/// (a DGT board scans every 200-250 ms, dgt.md 8; the press comes with the next BWTIME).
inline constexpr TimeMs kBoardLagMs = 300;

/// The clock sides of a board and how they are learnt (see the file comment).
class WhiteSideLearner {
  public:
    /// What the caller knows of the board's game when an input comes.
    struct Game {
        bool exists = false;                 ///< a game is in progress
        int plies = 0;                       ///< plies recorded in it
        int plies_on_board = 0;              ///< plies the reconstruction made since it started
        Color first_to_move = Color::White;  ///< Black when the arbiter set a position so
    };
    /// White plays on `white` in this game (auto): the caller keeps it with the game and says
    /// it in the log when `changed`. `how` names what showed it.
    struct Learnt {
        drivers::ClockSide white = drivers::ClockSide::Left;
        const char* how = "";
        bool changed = false;
    };
    /// What the caller does, in this order: store a side learnt, or feed a press to the
    /// reconstruction.
    using Action = std::variant<Learnt, LeverPressed>;

    explicit WhiteSideLearner(WhiteSide mode);

    /// A game starts or is taken up again (auto): `kept` is the side stored with it, if any.
    void game_begins(std::optional<drivers::ClockSide> kept);
    /// A new driver session, or none: a held press is forgotten.
    void link_changed() { held_press_.reset(); }
    /// The board reported a piece lifted or placed at `t_ms` while `game` has no move yet.
    void touched_at_start(TimeMs t_ms);
    /// The lever went to `lever` (its high side). Returns the press to feed, if it is one now.
    [[nodiscard]] std::vector<Action> lever(const drivers::ClockLever& lever, const Game& game);
    /// The clock's time report: the lever's position before the first move, and the time that
    /// decides a held press.
    [[nodiscard]] std::vector<Action> clock_report(const drivers::ClockReport& report, const Game& game);
    /// After each input the reconstruction took: a held press followed by a touch is decided.
    [[nodiscard]] std::vector<Action> after_input(const Game& game);
    /// A game just started with the lever last reported high on `high` (None: not known).
    [[nodiscard]] std::vector<Action> game_started(drivers::ClockSide high, const Game& game);

    /// The player whose clock is on `side`; Left is White's until a side is known.
    [[nodiscard]] Color color_of(drivers::ClockSide side) const;
    /// The clock side of player `c`.
    [[nodiscard]] drivers::ClockSide side_of(Color c) const;
    /// A side is known (configured, kept or learnt; or learnt for an earlier game).
    [[nodiscard]] bool known() const { return white_.has_value(); }

  private:
    // The game is at its start (no move made) and White's side is to be learnt (auto).
    [[nodiscard]] bool open(const Game& game) const;
    void learn(drivers::ClockSide white, const char* how, std::vector<Action>& out);
    void learn_from_lever(drivers::ClockSide high, const Game& game, std::vector<Action>& out);
    // The held press is decided: by a touch reported `touch_ms` after it, or by time passing
    // without one (nullopt: set up).
    void decide_held_press(std::optional<TimeMs> touch_ms, const Game& game, std::vector<Action>& out);

    bool auto_ = false;
    std::optional<drivers::ClockSide> white_;
    bool learnt_ = false;          ///< auto: White's side is known for this game
    bool touched_at_start_ = false; ///< auto: a piece was touched in this game before its first move
    std::optional<drivers::ClockLever> held_press_;
    std::optional<TimeMs> held_touch_; ///< the first touch reported after held_press_
};

} // namespace eboard::daemon
