// Tournament profiles: the competition rules a standings table follows beyond the TRF file -
// the format, the withdrawal rule, the default tie-break list and the values a regulation
// leaves open. Plain `key = value` text like the rules profiles (docs/standings.md);
// built in: `fide` (C.07 alone) and `club-2014` (the Flemish club regulation 2014-2015).
#pragma once

#include "base/expected.hpp"
#include "standings/tiebreaks.hpp"
#include "standings/tournament.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace eboard::standings {

/// What a player's withdrawal does to his results.
enum class WithdrawalRule {
    None,  ///< the file's results are taken as they are (C.07)
    /// Club Art. 11: before half of the scheduled games the player counts as never entered
    /// (his results vanish); from half on his results stand and his remaining games are
    /// forfeit losses.
    HalfOfScheduled,
};

/// A tournament profile.
struct TournamentProfile {
    std::string name = "fide";
    std::string title;
    /// The round-robin cycles (2 = double round robin); 0 = the format is read from the file.
    int cycles = 0;
    std::string tiebreaks;  ///< the default list; "" = by format (docs/standings.md)
    WithdrawalRule withdrawal = WithdrawalRule::None;
    /// Whether forfeit wins count as games played for the withdrawal rule (else only games
    /// played over the board).
    bool withdrawal_counts_forfeit_wins = false;
    ClubOptions club;
    bool lot_seed_given = false;  ///< false: the seed is derived from the tournament

    friend bool operator==(const TournamentProfile&, const TournamentProfile&) = default;
};

/// Parses a profile. `inherit = NAME` starts from a built-in one. Errors carry line and column.
[[nodiscard]] Expected<TournamentProfile> parse_tournament_profile(std::string_view text);
/// A built-in profile by name ("fide", "club-2014").
[[nodiscard]] Expected<TournamentProfile> builtin_tournament_profile(std::string_view name);
/// The names of the built-in profiles.
[[nodiscard]] std::vector<std::string> builtin_tournament_profile_names();

/// Applies the profile to a tournament read from a file: the format, the withdrawal rule; fills
/// club.lot_seed when the profile gives none. Says what it did in `notes`.
void apply_profile(Tournament& t, TournamentProfile& profile, std::vector<std::string>& notes);

/// The tie-break list of the profile, or the default for the format: `DE, SB, WIN, KS` for a
/// round robin, `BH/C1, BH, DE, WIN` for a Swiss.
[[nodiscard]] std::string default_tiebreaks(const Tournament& t, const TournamentProfile& profile);

} // namespace eboard::standings
