// Rules profiles: every difference between the editions of the Laws (FIDE 2001, 2005, 2023),
// their rapid and blitz appendices and a club regulation (docs/profiles.md), as data. Later code
// reads edition differences only from here, never from an `if` on the edition
// (docs/architecture.md). Sources: docs/profiles.md (the editions and the articles of each key).
//
// A profile is text in the format of docs/profiles.md (`key = value` lines, `inherit = NAME`,
// `[supervised]` / `[unsupervised]` sections for rapid and blitz). The built-in profiles
// (rules/profiles/*.profile) are compiled into the library in that same format, so a user's
// file given to `--rules PATH` is read by exactly the same parser.
//
// The rules core does no I/O: the caller reads a profile file and passes its text.
#pragma once

#include "base/expected.hpp"
#include "rules/time_control.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard {

/// The edition of the FIDE Laws a profile is based on (key `edition`: 2001, 2005, 2023).
enum class Edition : std::uint8_t { Fide2001, Fide2005, Fide2023 };

/// The kind of game (key `category`). [23] A.1/B.1 and [05] B1/C1 define rapid and blitz by
/// the time per player (see Profile::category_minutes).
enum class Category : std::uint8_t { Standard, Rapid, Blitz };

/// How castling enters the "same position" of Art. 9.2 (key `repetition.castling`).
enum class RepetitionCastling : std::uint8_t {
    /// [23] 9.2.2.2: positions differ only when a castling right was lost for good (by a king
    /// or rook move). This is Position::key().
    Permanent,
    /// [05] 9.2 ("temporarily or permanently"), [01] 9.2 ("now or later"): positions also
    /// differ when castling is possible now in one and not in the other (e.g. an attacked
    /// transit square). The key adds the set of castling moves legal right now.
    TemporaryOrPermanent,
};

/// Who acts on an irregularity (keys `illegal.actor`, `flag.actor`).
enum class Actor : std::uint8_t {
    /// The arbiter acts on what he observes (standard play; [23] A.5.5 for the flag).
    Arbiter,
    /// The arbiter if he sees it, else the opponent may claim ([23] A.5.2; club Art. 6).
    ArbiterOrClaim,
    /// Only on the opponent's claim; the arbiter stays silent ([05] B6/B7/C3).
    Claim,
};

/// What happens when both flags are down and the order is unknown (key `flag.both`).
/// eboardd always knows the order; this is for imported or manually entered clock states.
enum class BothFlags : std::uint8_t {
    PlayOn,           ///< no rule: play on ([23] blitz)
    Draw,             ///< draw ([05] B9)
    DrawInLastPeriod, ///< play on, except in the last period: draw ([05] 6.12)
    DrawInQuickplay,  ///< play on, except in a quickplay finish: draw ([01] 6.11, 10.4)
    DrawInLastPeriodWithoutIncrement, ///< as [05] 6.12 in games without increment ([23] III.3.1)
};

/// One rung of the illegal-move ladder (list key `illegal.ladder`): `+Nmin`, `loss`, `win-claim`.
struct Penalty {
    enum class Kind : std::uint8_t {
        None,     ///< no penalty (only the position is restored)
        AddTime,  ///< the opponent gets `minutes` more ([05] 7.4 b, [23] 7.5.5, A.3)
        Loss,     ///< the offender loses ([05] 7.4 b third, [23] 7.5.5 second)
        WinClaim, ///< the opponent may claim a win before his own move ([05] C3)
    };
    Kind kind = Kind::None;
    int minutes = 0; ///< for AddTime, 1..60

    /// "+2min", "loss", "win-claim", "none" (as in the profile text and the ALERT `penalty`).
    [[nodiscard]] std::string text() const;
    bool operator==(const Penalty&) const = default;
};

/// A range of minutes per player (key `time.category-minutes`), written `[60, inf)`,
/// `(10, 60)`, `[0, 10]` or `any`. Bounds are whole minutes; a bracket includes its bound.
struct MinuteRange {
    bool any = true;
    int low = 0;
    bool low_inclusive = true;
    std::optional<int> high; ///< none = no upper bound (`inf`)
    bool high_inclusive = false;

    /// True if `seconds` (allotted time + 60 x increment, per player) is inside the range.
    [[nodiscard]] bool contains_seconds(std::int64_t seconds) const noexcept;
    /// As written in a profile: "[60, inf)", "any".
    [[nodiscard]] std::string text() const;
    bool operator==(const MinuteRange&) const = default;
};

/// The article numbers put into ALERT and RESULT events, per edition (keys `article.*`).
/// An empty string (written `-`) means the edition has no such rule.
struct Articles {
    std::string checkmate;              ///< [01]/[05] 5.1 a, [23] 5.1.1
    std::string stalemate;              ///< 5.2 a, 5.2.1
    std::string dead_position;          ///< 5.2 b, 5.2.2
    std::string threefold;              ///< 9.2
    std::string fifty_moves;            ///< 9.3
    std::string fivefold;               ///< [23] 9.6.1
    std::string seventy_five_moves;     ///< [23] 9.6.2
    std::string illegal_move;           ///< [01] 7.4, [05] 7.4, [23] 7.5.1 (B6/C3/A.5.2 variants)
    std::string illegal_move_quickplay; ///< [01] 10.3
    std::string press_without_move;     ///< [23] 7.5.3
    std::string unpromoted_pawn;        ///< [05] 7.4 a, [23] 7.5.2
    std::string illegal_penalty;        ///< [05] 7.4 b, [23] 7.5.5
    std::string incorrect_claim;        ///< [05] 9.5 b, [23] 9.5.3
    std::string flag;                   ///< [01] 6.9, [05] 6.10, [23] 6.9
    std::string both_flags;             ///< [01] 10.4, [05] 6.12 b / B9, [23] III.3.1
    std::string touch_move;             ///< 4.3
    std::string displaced;              ///< [01]/[05] 7.3, [23] 7.4
    std::string wrong_squares;          ///< [01] 7.4, [05] 7.5, [23] 7.6
    std::string category;               ///< where rapid/blitz is defined: [05] B1/C1, [23] A.1/B.1
    bool operator==(const Articles&) const = default;
};

/// A resolved rules profile: one edition, one category, one supervision case. Built by
/// parse_profile() / builtin_profile(); every field has a key in the text format, named in
/// its comment. Counts of moves are moves by each side (Art. 9.3), not plies.
struct Profile {
    std::string name;                    ///< `name`: "fide-2023", "club-2014", ... (not inherited)
    std::string title;                   ///< `title`: one line for people
    Edition edition = Edition::Fide2023; ///< `edition`
    Category category = Category::Standard; ///< `category`
    /// Whether the profile was resolved for a closely supervised game ([23] A.4/B.2) or not
    /// (A.5/B.3); selects the `[supervised]` or `[unsupervised]` section. Not a text key.
    bool supervised = false;

    // Draws and the end of the game (Art. 5, 9).
    int claim_repetitions = 3;     ///< `draw.claim.repetitions`: 9.2 (3)
    int claim_moves = 50;          ///< `draw.claim.moves`: 9.3 (50)
    int automatic_repetitions = 0; ///< `draw.automatic.repetitions`: [23] 9.6.1 (5); 0 = none
    int automatic_moves = 0;       ///< `draw.automatic.moves`: [23] 9.6.2 (75); 0 = none
    bool mate_prevails = true;     ///< `draw.automatic.mate-prevails`: 9.6.2, last sentence
    RepetitionCastling repetition_castling =
        RepetitionCastling::Permanent; ///< `repetition.castling`

    // Illegal moves (Art. 7; [05] B6/C3; [23] A.3, A.5.2; club Art. 6).
    Actor illegal_actor = Actor::Arbiter; ///< `illegal.actor`
    /// `illegal.stands-if-unclaimed`: an illegal move not pointed out before the opponent's
    /// next move stands ([05] B6/C3, [23] A.5.2, club Art. 6).
    bool illegal_stands_if_unclaimed = false;
    /// `illegal.ladder`: the penalty of the player's 1st, 2nd, ... completed illegal move; the
    /// last rung repeats. Empty (`none`) = no penalty ([01] standard play).
    std::vector<Penalty> illegal_ladder;
    /// `illegal.ladder-quickplay`: the same in a quickplay finish ([01] 10.3).
    std::vector<Penalty> illegal_ladder_quickplay;
    /// `illegal.loss-draw-if-cannot-mate`: a Loss (or WinClaim) becomes a draw when the
    /// opponent cannot mate by any series of legal moves ([23] 7.5.5, [05] C3).
    bool illegal_loss_draw_if_cannot_mate = false;
    /// `illegal.press-without-move`: pressing the clock without moving is an illegal move
    /// ([23] 7.5.3); otherwise it is only logged.
    bool press_without_move_illegal = false;
    /// `illegal.unpromoted-pawn-becomes-queen`: a pawn left on the last rank becomes a queen
    /// ([23] 7.5.2); otherwise the move is redone with a free choice ([05] 7.4 a).
    bool unpromoted_pawn_becomes_queen = false;
    /// `illegal.visible-to-players`: the illegal-move alert may reach the player-visible
    /// channel (clock, sounds). No in claim-only regimes: it would tip off the claimant.
    bool illegal_visible_to_players = true;

    // Incorrect draw claims (9.5).
    int incorrect_claim_opponent_minutes = 0; ///< `claim.incorrect.opponent-minutes`
    /// `claim.incorrect.cut-claimant`: [05] 9.5 b: the claimant loses half his time (at most
    /// 3 min) if he has more than 2 min, is set to 1 min between 1 and 2 min, else unchanged.
    bool incorrect_claim_cut_claimant = false;

    // Flag fall (Art. 6).
    Actor flag_actor = Actor::Arbiter;   ///< `flag.actor` (Arbiter or Claim)
    bool flag_visible_to_players = true; ///< `flag.visible-to-players`
    /// `flag.draw-if-cannot-mate`: a draw, not a loss, when the opponent cannot mate by any
    /// series of legal moves ([01] 6.9, [05] 6.10, [23] 6.9).
    bool flag_draw_if_cannot_mate = true;
    /// `flag.cannot-win-with`: material signatures ("K", "KN", "KB": the king first, then
    /// QRBNP in that order) with which a player cannot win on the opponent's time (club Art. 3).
    std::vector<std::string> flag_cannot_win_with;
    BothFlags both_flags = BothFlags::PlayOn; ///< `flag.both`

    // Other edition differences.
    bool next_move_completes = false; ///< `game.next-move-completes`: [23] 6.2.1
    /// `game.players-take-back`: the players may take back the last move (one ply) without
    /// the arbiter, by setting the board back (casual and training games; no FIDE edition
    /// allows it). No: only the arbiter's TAKEBACK or SET_POSITION deletes a completed move,
    /// and a board that shows an earlier position of the game is an irregularity (7.4, 7.5.1).
    bool players_take_back = false;
    bool resignation_draw_if_cannot_mate =
        false;                      ///< `game.resignation-draw-if-cannot-mate`: [23] 5.1.2
    int agreement_min_moves = 0;    ///< `game.agreement-min-moves`: [23] 5.2.3 (1 each)
    bool quickplay_allowed = true;  ///< `quickplay.allowed`: no in blitz ([05] C2, [23] III.2)
    bool recording_required = true; ///< `recording.required`: club Art. 4: no

    // Time.
    /// `time.category-minutes`: the allotted time + 60 x increment per player that fits the
    /// category (warn outside it).
    MinuteRange category_minutes;
    /// `time.control`: the time control the regulations prescribe (club: 5400+10), PGN
    /// TimeControl syntax; Kind::Unknown when the profile prescribes none (`none`).
    TimeControl time_control;

    Articles articles; ///< `article.*`

    /// The penalty for the player's `count`-th completed illegal move (1-based); the last rung
    /// repeats; Kind::None if the ladder is empty or count < 1.
    [[nodiscard]] Penalty illegal_penalty(int count, bool quickplay = false) const;
    /// A warning when `tc` does not fit the category (allotted time of all periods + 60 x the
    /// first period's increment, per player; [23] A.1/B.1, [05] B1/C1), else nullopt. Nothing
    /// for an unknown/no time control or a profile with `any`.
    [[nodiscard]] std::optional<std::string> time_control_warning(const TimeControl& tc) const;

    bool operator==(const Profile&) const = default;
};

/// The names of the built-in profiles, in the order of eboardd(8) (`fide-2023` first: the
/// default of `--rules`).
[[nodiscard]] const std::vector<std::string_view>& builtin_profile_names();
/// The text of a built-in profile (as in rules/profiles/NAME.profile), nullopt if unknown.
[[nodiscard]] std::optional<std::string_view> builtin_profile_text(std::string_view name);

/// Parses profile text (docs/profiles.md) and resolves it for `supervised`. `inherit = NAME`
/// names a built-in profile. A profile without `inherit` must set every key. Errors carry the
/// 1-based line and column in `text` and name the problem ("unknown key 'flag.acter'",
/// "expected yes or no", "missing key 'edition'", ...). Never throws or crashes on any input.
[[nodiscard]] Expected<Profile> parse_profile(std::string_view text, bool supervised = false);

/// The built-in profile `name`, resolved for `supervised`; an Error naming the known profiles
/// if there is no such built-in.
[[nodiscard]] Expected<Profile> builtin_profile(std::string_view name, bool supervised = false);

/// The profile as complete text without `inherit` (every key, no sections), such that
/// parse_profile(to_text(p), p.supervised) == p.
[[nodiscard]] std::string to_text(const Profile& p);

/// Text names used in the profile format and in events.
[[nodiscard]] std::string_view to_string(Edition e) noexcept;  ///< "2001", "2005", "2023"
[[nodiscard]] std::string_view to_string(Category c) noexcept; ///< "standard", "rapid", "blitz"

} // namespace eboard
