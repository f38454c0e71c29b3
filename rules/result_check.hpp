// Results by command (the players' or the arbiter's RESULT request) checked against the Laws
// of the profile's edition, on the Result and Termination types of rules/game.hpp: what a
// tournament arbiter would refuse to record.
//   [23] 5.2.3 (game.agreement-min-moves): no draw by agreement before each player has made
//              that many moves;
//   [23] 5.1.2 (game.resignation-draw-if-cannot-mate): a resignation is a draw when the
//              winner cannot checkmate by any series of legal moves.
// Other terminations (arbiter, time forfeit, ...) pass: the arbiter always decides (8.7).
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "base/expected.hpp"
#include "rules/game.hpp"
#include "rules/position.hpp"
#include "rules/profile.hpp"
#include "rules/winnable.hpp"

namespace eboard {

/// The Result of a PGN result text: "1-0", "0-1", "1/2-1/2", "*" (Ongoing); unset otherwise.
[[nodiscard]] std::optional<Result> result_from_pgn(std::string_view s) noexcept;

/// The game a result is recorded for: its position now, and the moves made by each player from
/// the start position (Art. 5.2.3 counts moves, not plies).
struct GameSoFar {
    const Position& position;
    int white_moves = 0;
    int black_moves = 0;
};

/// The moves each player has made after `plies` plies from a start with `first` to move.
[[nodiscard]] GameSoFar game_so_far(const Position& position, int plies, Color first) noexcept;

/// Whether `result` by `termination` may be recorded for `game` under `profile`; the error
/// says which article refuses it and what to send instead (its message names the profile and
/// the key: "no draw by agreement before each player has made 1 move(s) (rules fide-2023,
/// game.agreement-min-moves); use termination 'arbiter' to decide otherwise").
/// `can_mate` answers 5.1.2's question (default: can_checkmate() of rules/winnable.hpp in
/// quick mode); only Unwinnable refuses a resignation.
[[nodiscard]] Expected<bool> check_result_command(
    const Profile& profile, const GameSoFar& game, Result result, Termination termination,
    const std::function<Winnability(const Position&, Color)>& can_mate = {});

} // namespace eboard
