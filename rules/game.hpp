// A game under a rules profile: the start position, the moves played, repetition counting with
// the "same position" of Art. 9.2, the claimable draws of 9.2 and 9.3 (also by announcing a
// move), the automatic ends of the game (checkmate 5.1.1, stalemate 5.2.1, [23] 9.6 fivefold
// repetition and 75 moves with mate prevailing, a proven dead position 5.2.2), the ends that
// come by command (resignation, agreement, flag fall, arbiter) and taking moves back.
//
// Every edition difference comes from the Profile (rules/profile.hpp): the Game never asks
// which edition it is. No I/O, no clock: the daemon passes what happened.
#pragma once

#include "base/expected.hpp"
#include "rules/position.hpp"
#include "rules/profile.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard {

/// The result as PGN writes it (PGN 8.2.6) and the RESULT event carries it.
enum class Result : std::uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

/// "*", "1-0", "0-1", "1/2-1/2".
[[nodiscard]] std::string_view to_pgn(Result r) noexcept;
/// The win for `c`.
[[nodiscard]] constexpr Result win_for(Color c) noexcept {
    return c == Color::White ? Result::WhiteWins : Result::BlackWins;
}

/// Why a game ended.
enum class Termination : std::uint8_t {
    None,                ///< still in progress
    Checkmate,           ///< 5.1.1 ([01]/[05] 5.1 a)
    Stalemate,           ///< 5.2.1 (5.2 a)
    DeadPosition,        ///< 5.2.2 (5.2 b): neither side can mate by any series of legal moves
    FivefoldRepetition,  ///< [23] 9.6.1, automatic
    SeventyFiveMoves,    ///< [23] 9.6.2, automatic
    ThreefoldRepetition, ///< 9.2, on a correct claim
    FiftyMoves,          ///< 9.3, on a correct claim
    Resignation,         ///< 5.1.2 (5.1 b)
    Agreement,           ///< 5.2.3 (5.2 c)
    TimeForfeit,         ///< flag fall: a loss, or a draw if the opponent cannot mate (6.9)
    IllegalMoves,        ///< the last rung of the illegal-move ladder (7.5.5, 7.4 b)
    Arbiter,             ///< the arbiter's decision (e.g. a quickplay-finish claim, 8.7)
};

/// The `termination` string of the RESULT event: "checkmate", "stalemate", "dead_position",
/// "fivefold_repetition", "seventy_five_moves", "threefold_repetition", "fifty_moves",
/// "resignation", "agreement", "time_forfeit", "illegal_moves", "arbiter"; "" for None.
[[nodiscard]] std::string_view to_string(Termination t) noexcept;
/// The Termination of a RESULT `termination` string (to_string's vocabulary), or of a spelling
/// found in older records and clients: "dead position", "fivefold repetition", "75-move rule",
/// "time forfeit", "flag", "rules infraction", "arbiter decision", "adjudication". Unset for
/// anything else (and for "").
[[nodiscard]] std::optional<Termination> termination_from_string(std::string_view s) noexcept;
/// The PGN Termination tag value (PGN 9.8.1): "normal", "time forfeit", "rules infraction",
/// "adjudication"; "unterminated" for None.
[[nodiscard]] std::string_view pgn_termination(Termination t) noexcept;

/// How a game ended (or that it has not).
struct Outcome {
    Result result = Result::Ongoing;
    Termination termination = Termination::None;
    /// The article of the profile's edition ("5.1.1", "9.6.2", "5.1 a"); "" if none applies.
    std::string article;

    [[nodiscard]] bool ended() const noexcept { return result != Result::Ongoing; }
    bool operator==(const Outcome&) const = default;
};

/// The answer to a draw claim under 9.2 or 9.3.
struct ClaimVerdict {
    bool valid = false;
    /// The profile's article: "9.2" or "9.3".
    std::string article;
    /// 9.2: the plies after which the claimed position stood (0 = the start position), in
    /// order, including the current one (or the announced move's ply).
    std::vector<int> occurrences;
    /// 9.3: moves by each side without a capture or pawn move: plies / 2, rounded down.
    int moves_without_capture_or_pawn_move = 0;
};

/// A test for a dead position (5.2.2): true only if it is proven that neither side can
/// checkmate by any series of legal moves. "Not proven" must answer false.
using DeadPositionTest = std::function<bool(const Position&)>;

/// "Can `side` still checkmate in this position by some series of legal moves?" (the
/// one-sided helpmate test of 6.9 / 7.5.5 / 5.1.2). Must answer true when not proven false.
using CanMateTest = std::function<bool(const Position&, Color side)>;

/// The material of `side` as written in `flag.cannot-win-with`: "K", then one letter per
/// piece in the order QRBNP ("KBN", "KRPP").
[[nodiscard]] std::string material_signature(const Position& pos, Color side);

/// The outcome when the flag of `flagged` has fallen in `pos` (a game not already ended): a
/// loss for `flagged`, or a draw when the opponent cannot win on time - by the profile's
/// material rule (`flag.cannot-win-with`, club Art. 3) or, if `flag.draw-if-cannot-mate`,
/// because he cannot mate ([01] 6.9, [05] 6.10, [23] 6.9): asked of `can_mate`, by default
/// can_checkmate() of rules/winnable.hpp in its full mode (Undetermined counts as "can mate").
/// The article is the profile's `article.flag`.
[[nodiscard]] Outcome flag_fall_outcome(const Profile& profile, const Position& pos, Color flagged,
                                        const CanMateTest& can_mate = {});

/// The default dead-position test of Game: is_dead_position() of rules/winnable.hpp in its
/// quick mode (material, locked pawns, a small helpmate search; microseconds). Positions it
/// leaves undecided are not called dead; the daemon may run the full mode and end the game by
/// Game::end() with Termination::DeadPosition.
[[nodiscard]] bool dead_position_by_winnability(const Position& pos);

/// A game from a start position under a profile. Movable, not copyable.
class Game {
  public:
    /// A game from `start` (the standard position by default) under `profile`, with `dead_test`
    /// as its dead-position test (5.2.2; empty = never). If the start position already ends the
    /// game (checkmate, stalemate, 9.6.2 by its halfmove clock, a dead position), outcome()
    /// says so.
    explicit Game(Profile profile, Position start = Position::startpos(),
                  DeadPositionTest dead_test = dead_position_by_winnability);

    Game(Game&&) noexcept = default;
    Game& operator=(Game&&) noexcept = default;
    Game(const Game&) = delete;
    Game& operator=(const Game&) = delete;
    ~Game() = default;

    [[nodiscard]] const Profile& profile() const noexcept { return profile_; }
    /// The current position.
    [[nodiscard]] const Position& position() const noexcept { return pos_; }
    /// The start position (a copy).
    [[nodiscard]] Position start_position() const { return start_.copy(); }
    /// The position after `ply` moves (0 = start), a copy; the current one if ply is out of
    /// range.
    [[nodiscard]] Position position_at(int ply) const;
    [[nodiscard]] Color side_to_move() const noexcept { return pos_.side_to_move(); }
    /// Moves played so far (plies).
    [[nodiscard]] int ply() const noexcept { return static_cast<int>(moves_.size()); }
    /// The moves played, in order.
    [[nodiscard]] const std::vector<Move>& moves() const noexcept { return moves_; }

    /// The repetition key of the current position under the profile's "same position"
    /// (repetition.castling): Position::key() for [23]; with the castling moves possible
    /// right now added for [05]/[01].
    [[nodiscard]] std::uint64_t repetition_key() const noexcept { return keys_.back(); }
    /// The repetition key after each ply: [0] = the start position, [ply()] = now.
    [[nodiscard]] const std::vector<std::uint64_t>& repetition_keys() const noexcept {
        return keys_;
    }
    /// The plies after which the current position stood (9.2), including now; 0 = start.
    [[nodiscard]] std::vector<int> occurrences() const;
    /// How many times the current position has appeared (1 the first time).
    [[nodiscard]] int repetition_count() const { return static_cast<int>(occurrences().size()); }

    /// Plays the legal move m. Errors: "illegal move" (m not legal here), "the game is over".
    /// Returns the outcome after the move: checkmate, stalemate, the profile's automatic
    /// draws (9.6; mate prevails on the 75th move when the profile says so), a dead position.
    Expected<Outcome> play(Move m);
    /// play() for a line that follows a board (the reconstruction, the daemon's record, the
    /// announcements): an outcome a rule gave (an arbiter's FEN of a dead position, a 9.6
    /// draw the board played on past) does not stop it; the outcome after m is evaluated
    /// afresh. Errors: "illegal move".
    Expected<Outcome> play_on(Move m);
    /// play() for a move in UCI ("e2e4", "e7e8q", "e1g1").
    Expected<Outcome> play_uci(std::string_view uci);

    /// The outcome so far (Result::Ongoing while the game goes on).
    [[nodiscard]] const Outcome& outcome() const noexcept { return outcome_; }
    /// Ends the game by command: resignation, agreement, flag fall, the arbiter (who always
    /// prevails, 8.7). Overrides an earlier outcome. Checking the edition's conditions (e.g.
    /// [23] 5.1.2, 6.9 "cannot mate") is the caller's; the profile says which apply.
    void end(Outcome o) { outcome_ = std::move(o); }

    /// 9.2: is the current position (announced = Move::none()) or the position after the
    /// announced legal move there for at least the profile's claim count? An announced move
    /// that is not legal makes the claim invalid.
    [[nodiscard]] ClaimVerdict claim_threefold(Move announced = Move::none()) const;
    /// 9.3: have the last N moves of each side (profile: 50), now or after the announced
    /// move, been made without a capture or pawn move? Counts moves played; whether they were
    /// completed ([23] 9.3.2) is the caller's knowledge.
    [[nodiscard]] ClaimVerdict claim_fifty_moves(Move announced = Move::none()) const;
    /// The claims the player on move could make now or by announcing one of his legal moves
    /// (for the arbiter-only `draw_claimable` alert).
    struct Claimable {
        bool threefold_now = false;
        bool fifty_moves_now = false;
        std::vector<Move> threefold_moves;   ///< announcing one of these makes 9.2 valid
        std::vector<Move> fifty_moves_moves; ///< announcing one of these makes 9.3 valid
        [[nodiscard]] bool any() const noexcept {
            return threefold_now || fifty_moves_now || !threefold_moves.empty() ||
                   !fifty_moves_moves.empty();
        }
    };
    [[nodiscard]] Claimable claimable_draws() const;

    /// Takes moves back until `ply` moves remain (the arbiter's correction, a takeback, the
    /// position before an illegal move). The outcome is recomputed for that position (an
    /// outcome set by end() is dropped). Returns false, changing nothing, if ply is not in
    /// 0..ply().
    bool take_back_to(int ply);

    /// Sets the dead-position test (5.2.2) used after every move; by default
    /// dead_position_by_winnability. Empty = never.
    void set_dead_position_test(DeadPositionTest test);

  private:
    [[nodiscard]] std::uint64_t compute_key(const Position& p) const;
    [[nodiscard]] Outcome evaluate() const;
    int count_key(const std::vector<std::uint64_t>& keys, int upto, int halfmove_clock,
                  std::vector<int>* plies) const;

    Profile profile_;
    Position start_;
    Position pos_;
    std::vector<Move> moves_;
    std::vector<std::uint64_t> keys_; // keys_[i] = repetition key after i plies
    Outcome outcome_;
    DeadPositionTest dead_test_;
};

} // namespace eboard
