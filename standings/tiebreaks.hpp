// The tie-breaks of FIDE Handbook C.07 (Tie-Break Regulations, 2024 and 2026 editions) and
// the club regulation's own (docs/standings.md lists each with the clause it follows).
#pragma once

#include "base/expected.hpp"
#include "standings/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::standings {

/// What a tie-break computes. The names are C.07's acronyms where C.07 has one.
enum class Method {
    BH,               ///< Buchholz, C.07 8.1
    SB,               ///< Sonneborn-Berger, 9.1
    DE,               ///< direct encounter, 6 (computed by the ranking: it needs the tied group)
    WIN,              ///< rounds with a win's points, played or not, 7.1
    WON,              ///< games won over the board, 7.2
    BPG,              ///< games played over the board with Black, 7.3
    BWG,              ///< games won over the board with Black, 7.4
    ARO,              ///< average rating of opponents, 10.1
    PS,               ///< progressive score, 7.5
    KS,               ///< Koya score, 9.2
    SB_ADJ,           ///< club Art. 13.1: Sonneborn-Berger on forfeit-adjusted scores
    KASHDAN,          ///< club Art. 13.3: 4 a win, 2 a draw, 1 a loss
    RATING_LOW,       ///< club Art. 13.4: the rating, the lower ranking higher
    BLACK_SCHEDULED,  ///< club Art. 13.6: Blacks on the calendar (forfeits included)
    LOT,              ///< club Art. 13.7: lot, from a recorded seed
};

/// One entry of a tie-break list: the method and its cut modifiers (C.07 14: /C1 /C2 cut the
/// least significant values, /M1 /M2 also the most significant).
struct TieBreak {
    std::string name;  ///< as written in the list, e.g. "BH/C1"
    Method method = Method::BH;
    int low_cut = 0;
    int high_cut = 0;
};

/// Reads one name: BH, BH/C1, BH/M1 (and /C2, /M2; cuts on BH, SB, ARO, and /Cn on PS), SB,
/// DE, WIN, WON, BPG, BWG, ARO, PS, KS, SB-ADJ, KASHDAN, RATING-LOW, BLACK-SCHEDULED, LOT.
/// Case-insensitive; "BH-C1" is read as "BH/C1".
[[nodiscard]] Expected<TieBreak> parse_tiebreak(std::string_view name);
/// A comma-separated list of names; the column of an error is the 1-based offset in `list`.
[[nodiscard]] Expected<std::vector<TieBreak>> parse_tiebreak_list(std::string_view list);

/// True when a higher value ranks higher (false for DE, RATING-LOW and LOT).
[[nodiscard]] bool higher_is_better(Method m);

/// The club regulation's values where it is silent (its profile keys, docs/standings.md).
struct ClubOptions {
    double sbadj_forfeit_win = -0.5;     ///< added to a player's score per forfeit win
    double sbadj_forfeit_loss = 0.5;     ///< per forfeit loss
    double sbadj_double_forfeit = 0.5;   ///< per 0-0 double forfeit
    double kashdan_win = 4;
    double kashdan_draw = 2;
    double kashdan_loss = 1;
    double kashdan_forfeit_win = 4;
    double kashdan_forfeit_loss = 0;
    double kashdan_double_forfeit = 0;
    int unrated_rating = 0;              ///< the rating RATING-LOW uses for an unrated player
    std::uint64_t lot_seed = 0;          ///< the seed of LOT

    friend bool operator==(const ClubOptions&, const ClubOptions&) = default;
};

/// One summand of a cut-able tie-break: what "least significant" is judged by (the opponent's
/// score, or rating), what is summed, and whether it comes from a voluntary unplayed round
/// (C.07 16.1.2).
struct CutElement {
    double key = 0;
    double contribution = 0;
    bool vur = false;
};

/// Computes tie-break values on one tournament (scores computed once).
class TieBreakCalculator {
  public:
    TieBreakCalculator(const Tournament& t, const ClubOptions& club);

    /// The value of `tb` for player `index` (into t.players); nullopt where the tie-break has
    /// no value (ARO with no rated opponent played). DE is not computed here (nullopt).
    [[nodiscard]] std::optional<double> value(const TieBreak& tb, std::size_t index) const;

    /// The player's score (sum of points).
    [[nodiscard]] double score(std::size_t index) const { return score_[index]; }
    /// C.07 16.3: the score a Swiss opponent counts with (a requested bye followed only by
    /// voluntary unplayed rounds, or in the last round, evaluated as a draw); the score itself
    /// in a round robin (15.2).
    [[nodiscard]] double adjusted_score(std::size_t index) const { return adjusted_[index]; }
    /// The points `index` scored against the players of `group` in the games that count for
    /// direct encounter (C.07 6), and whether every pair of `group` met in such a game.
    [[nodiscard]] double encounter_points(std::size_t index, const std::vector<std::size_t>& group) const;
    [[nodiscard]] bool all_met(const std::vector<std::size_t>& group) const;

  private:
    [[nodiscard]] std::vector<CutElement> opponent_elements(std::size_t index, bool sb) const;
    [[nodiscard]] bool vur(std::size_t index, std::size_t round) const;
    [[nodiscard]] bool vur_to_the_end(std::size_t index, std::size_t round) const;
    [[nodiscard]] bool counts_as_game(char result) const;
    [[nodiscard]] double sb_adjusted(std::size_t index) const;

    const Tournament& t_;
    ClubOptions club_;
    std::vector<double> score_;
    std::vector<double> adjusted_;
};

/// Cuts `low` least and then `high` most significant elements (C.07 14.1-14.4) and sums the
/// rest. With `vur_exception` (Swiss, C.07 16.5) a low cut takes the lowest contribution of a
/// voluntary unplayed round instead when it is not lower than the least significant value.
/// Exposed for the tests.
[[nodiscard]] std::vector<CutElement> apply_cuts(std::vector<CutElement> elements, int low,
                                                 int high, bool vur_exception);

} // namespace eboard::standings
