// The spoken form of the alerts a visually impaired player must hear ([23] D.2.9, D.2.10.5):
// an illegal move (Art. 7.5), pieces displaced (Art. 7.4: the board shows a position the game
// does not explain), the two boards of a game differing (App. D.2.9) and agreeing again, and a
// flag fall (Art. 6.9). The squares are named in the player's vocabulary. No I/O.
#pragma once

#include "access/vocabulary.hpp"
#include "base/types.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace eboard::access {

/// The ALERT kinds (docs/client-api.md) that are spoken: illegal_move, position_mismatch,
/// both_boards_differ, flag; plus "boards_agree" (both_boards_differ cleared).
[[nodiscard]] bool alert_is_spoken(std::string_view kind) noexcept;

/// The words of an alert: "Bretter verschieden: Eva vier, David fünf", "flag fall, White",
/// "illegal move". `squares` are said after the kind when given; `side` after a flag fall
/// (whose flag fell). "" for a kind that is not spoken (alert_is_spoken() false).
[[nodiscard]] std::string alert_text(std::string_view kind, std::span<const Square> squares,
                                     std::optional<Color> side, Vocabulary v);

} // namespace eboard::access
