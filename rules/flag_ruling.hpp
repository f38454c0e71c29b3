// The ruling on a flag fall, as the rules profile says (Art. 6.4 and 6.9 [23]; 6.3 and 6.10
// [05]; 6.3 and 6.9 [01]; club Art. 3; docs/profiles.md, `flag.*`): first the period's
// quota against the moves the player completed, then the edition's draw test (the opponent
// cannot checkmate by any series of legal moves), then the club's material rule
// (`flag.cannot-win-with`). The draw rules are flag_fall_outcome() of rules/game.hpp; this adds
// the quota check and the words for the arbiter. No I/O; the caller gives the winnability of
// the opponent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rules/position.hpp"
#include "rules/profile.hpp"
#include "rules/time_control.hpp"
#include "rules/winnable.hpp"

namespace eboard {

/// What a flag fall means for the game.
struct FlagRuling {
    /// "1-0", "0-1" or "1/2-1/2"; empty when the flag decides nothing: the period's quota was
    /// completed before it fell (the clock should have added the next period's time, 6.10.2).
    std::string result;
    /// One sentence for the arbiter: whose flag, after how many moves, and why this result.
    std::string text;
    /// The profile's `article.flag` ("6.9", "6.10, club 3").
    std::string article;
    /// `flag.actor = claim` ([05] B7/B8): the flag counts only on the opponent's correct claim.
    bool claim_only = false;
    /// `flag.visible-to-players`: whether the players may be told (clock, sounds, speech).
    bool visible_to_players = true;
};

/// The ruling when `flagged`'s flag falls in `pos` (the game's position).
/// - `opponent`: can_checkmate(pos, ~flagged) (Art. 6.9: a draw only when proven Unwinnable;
///   Undetermined gives the win and says in `text` that it was not decided).
/// - `tc`: the game's time control (Kind::Unknown when none is known: no quota check).
/// - `own_clock_ms`: the flagged player's clock reading after each of his completed moves, in
///   order (what `[%clk]` records). With a quota period the reading after the move that
///   completes the quota tells whether the clock added the next period's time; if it did not
///   and the quota was completed, the flag decides nothing ([23] 6.4, 6.10.2).
[[nodiscard]] FlagRuling rule_flag_fall(const Profile& profile, const Position& pos, Color flagged,
                                        Winnability opponent, const TimeControl& tc,
                                        const std::vector<std::int64_t>& own_clock_ms);

} // namespace eboard
