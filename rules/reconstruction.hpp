// Move reconstruction: from lifted and placed pieces and clock presses to touched pieces, moves
// made and completed moves, as an arbiter beside the board would see them (Art. 4.1-4.8, 6.2.1,
// 7.2-7.6 and App. D.2.2-D.2.3 of the FIDE Laws; docs/reconstruction.md).
//
// One Reconstructor per board and game line. Feed it every SensorEvent (base/sensors.hpp) in
// time order; each feed() returns what happened (base/events.hpp). No I/O, no clock:
// time comes only from the events, so a recorded stream always gives the same answers.
//
// How it decides (details in reconstruction.cpp):
// - Square changes and the differences of whole-board reports pass a bounce filter (a square
//   that returns to its state within bounce_ms never happened; this also swallows fast slides
//   over intermediate squares). The changes of one time stamp are one report: committed
//   together (put-backs, then lifts, then placements) and judged once; their lifts are
//   unordered for touch-move (4.3/4.4: an order the board did not see is not held against the
//   player).
// - The board is compared with the placements after every legal move of the side to move
//   (occupancy; identity where the board knows it). A capture needs evidence that the captured
//   piece left its square (it was lifted, or its identity changed directly on a DGT board):
//   on occupancy alone a piece held in the hand looks like a capture otherwise.
// - A match is "made" at once, or after settle_ms when the move might still be growing (a
//   sliding piece that can go further; a pawn's single step that can still be its double
//   step; a king or rook move that may be half a castling; a promotion on an occupancy-only
//   board). The clock press makes it at once and completes it.
// - Everything else waits: the board may show an earlier position (takeback), a start position
//   (new game), the kings-in-the-centre signal, a move out of turn, or nothing explainable
//   (position_mismatch after mismatch_grace_ms; illegal_move when the clock is pressed on it).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/position.hpp"
#include "rules/profile.hpp"
#include "base/events.hpp"
#include "base/sensors.hpp"

namespace eboard {

/// Can `side` still checkmate? Cannot only when proven (Art. 5.2.2, 6.9, 7.5.5).
enum class MateAbility : std::uint8_t { Can, Cannot, Unknown };

/// The built-in fide-2023 profile (standard play), parsed once: the default of ReconRules.
[[nodiscard]] const Profile& default_recon_profile();

/// What the rules profile (rules/profile.hpp) decides for reconstruction. Defaults: FIDE 2023
/// standard play. Build from a Profile with recon_rules_from_profile() (recon_profile.hpp).
struct ReconRules {
    /// The profile itself: the game line (rules/game.hpp Game) takes from it the "same
    /// position" of 9.2 (repetition.castling), the claimable draws (9.2, 9.3) and the automatic
    /// ends with their articles (5.1.1, 5.2.1, [23] 9.6 with mate prevailing, 5.2.2).
    Profile profile = default_recon_profile();
    /// Penalty text of the player's 1st, 2nd, ... completed illegal move; the last repeats.
    /// Empty = no penalty ([01] standard play). [23] 7.5.5: +2min, then loss.
    std::vector<std::string> illegal_ladder{"+2min", "loss"};
    /// The same in a quickplay finish (ReconConfig::quickplay_finish): [01] 10.3 +2min, +2min,
    /// loss where standard play has none; the other editions repeat illegal_ladder. When
    /// illegal_ladder is empty, the rung is the player's count of illegal moves in the
    /// quickplay finish, else his count in the whole game.
    std::vector<std::string> illegal_ladder_quickplay{"+2min", "loss"};
    /// A "loss" (or a "win-claim", [05] C3) becomes "draw" when the opponent cannot mate
    /// ([23] 7.5.5).
    bool loss_draw_if_cannot_mate = true;
    /// [23] 7.5.3: pressing the clock without moving is an illegal move (else only ignored).
    bool press_without_move_illegal = true;
    /// [23] 7.5.2: a pawn left on the last rank at the press becomes a queen (an illegal move
    /// that stands as =Q); otherwise the move is redone.
    bool unpromoted_pawn_becomes_queen = true;
    /// [23] A.5.2, [05] B6/C3, club Art. 6: an illegal move not restored before the opponent's
    /// next move stands; the game continues from the board.
    bool illegal_stands_if_unclaimed = false;
    /// [23] 6.2.1: a move is completed when the player makes his next move.
    bool next_move_completes = true;
    /// Profile `game.players-take-back`: a board set back by one ply to the position before
    /// the last move is the players' takeback (TakebackEvent). False (every FIDE edition): the
    /// board alone never deletes a completed move; an earlier position of the game on the board
    /// is alerted (illegal_move at a press, position_mismatch otherwise) with
    /// AlertEvent::earlier_ply naming it, and only the arbiter's command takes moves back.
    /// The last move, made and not yet completed (Art. 4.7, 6.2.1), is taken back either way;
    /// the board alone never takes back more than one ply.
    bool players_take_back = false;
    /// A flag fall is a draw when the opponent cannot mate ([01] 6.9, [05] 6.10, [23] 6.9).
    bool flag_draw_if_cannot_mate = true;
    std::string article_illegal = "7.5.1";
    std::string article_illegal_quickplay = "7.5.1";  ///< [01] 10.3
    /// position_mismatch outside an illegal-move episode: displaced pieces ([01]/[05] 7.3,
    /// [23] 7.4).
    std::string article_displaced = "7.4";
    std::string article_press_without_move = "7.5.3";
    std::string article_unpromoted_pawn = "7.5.2";
    std::string article_flag = "6.9";
    std::string article_dead = "5.2.2";
    /// dead_position alert (Art. 5.2.2: end a game for a dead position only when proven, else
    /// alert the arbiter; docs/reconstruction.md): with every pawn blocked by an opposing pawn, after this
    /// many moves by each player without a capture or pawn move, a position the quick check
    /// cannot settle is examined in depth (ReconConfig::can_mate_deep) once per pawn structure
    /// and material: proven dead ends the game (5.2.2), undecided raises dead_position. 0 = never.
    int dead_suspect_moves = 10;
};

/// Settings of one reconstructor (command-line options and board properties).
struct ReconConfig {
    /// --clock board|none. Without a clock a move is completed when the opponent's next move is
    /// made or when it ends the game (eboardd(8) `--clock none`, Art. 6.2.1).
    bool clock = true;
    /// --illegal-feedback immediate: alert an illegal move when it is made (the board settles on
    /// it) instead of when it is completed. Not the FIDE profiles' default (eboardd(8); Art. 7.5.1).
    bool illegal_immediate = false;
    /// --mismatch-grace: how long the board may show an unexplained position before
    /// position_mismatch (default 5 s; reaching for a promotion piece takes time).
    TimeMs mismatch_grace_ms = 5000;
    /// A square that returns to its previous state within this time never changed (bounce,
    /// a piece sliding over a square).
    TimeMs bounce_ms = 40;
    /// How long a move that might still grow (slide, a pawn's single step, half castling,
    /// promotion on an occupancy-only board) must stand before it counts as made.
    TimeMs settle_ms = 300;
    /// After a press the board may lag (a DGT board scans in 200-250 ms): how long to wait for
    /// it to show a move before the press is judged (7.5.1 / 7.5.3).
    TimeMs press_grace_ms = 700;
    /// Lifts closer than this are unordered: the own piece counts as touched first (Art. 4.3).
    TimeMs simultaneous_ms = 60;
    /// The visually impaired player's board (App. D.2.2-D.2.3): pieces sit in holes, nothing
    /// slides; a piece put into another hole makes the move at once.
    bool tactile = false;
    /// The Chess960 start array (Scharnagl number) to assume on an occupancy-only board, which
    /// cannot tell the arrays apart; -1 = the standard position.
    int chess960_number = -1;
    /// The board's orientation when known (configured or persisted per board serial); when
    /// unset, it is taken from the start position, and on occupancy-only boards (whose start
    /// occupancy is symmetric) from the first move.
    std::optional<bool> rotated;
    /// The game is in a quickplay finish (the final period without increment: [01]/[05]
    /// Art. 10, [23] Guidelines III): illegal moves take ReconRules::illegal_ladder_quickplay.
    /// The caller knows the time control: it sets this when the whole game is one, or calls
    /// Reconstructor::set_quickplay_finish when the last period starts.
    bool quickplay_finish = false;
    ReconRules rules;
    /// Winnability override; when unset, rules/winnable.hpp can_checkmate (quick mode): a
    /// side counts as unable to mate only when that is proven.
    std::function<MateAbility(const Position&, Color)> can_mate;
    /// The in-depth winnability test of a position suspected dead (ReconRules::
    /// dead_suspect_moves); when unset, rules/winnable.hpp can_checkmate in full mode (up to
    /// about 0.5 s per side, run at most once per locked pawn structure and material).
    std::function<MateAbility(const Position&, Color)> can_mate_deep;
};

/// The per-board, per-game state machine. Not thread-safe; cheap to construct.
class Reconstructor {
  public:
    explicit Reconstructor(ReconConfig cfg = {});
    Reconstructor(const Reconstructor&) = delete;
    Reconstructor& operator=(const Reconstructor&) = delete;
    Reconstructor(Reconstructor&&) noexcept;
    Reconstructor& operator=(Reconstructor&&) noexcept;
    ~Reconstructor();

    /// Feeds one input (time stamps must not go backwards; an earlier one is treated as equal
    /// to the last). Returns what happened, valid until the next call.
    const std::vector<ReconEvent>& feed(const SensorEvent& e);

    /// Starts a game from an arbiter's position (a FEN already validated by Position::from_fen)
    /// instead of waiting for a start position on the board. The board must then show it.
    const std::vector<ReconEvent>& start_game(const Position& pos, TimeMs t_ms);

    /// Takes up a game already recorded (a restarted daemon, an arbiter's take-back, a board
    /// attached again) so that the board is checked against it. `pos` is the game's position:
    /// the moves it remembers (make_move's undo stack, e.g. since the start position) are
    /// replayed into the game line without events, so that repetitions (9.2) and the 9.3 count
    /// include the positions before the resumption, and plies count from the position `pos`
    /// started from (plies_made() == pos.history_size()). With `last_uncompleted`, its last
    /// move (pos.last_move()) was made (Art. 4.7) but not completed (6.2.1): it is made again,
    /// so that the press completes it, and returns no event (it was announced when it was
    /// made); every earlier move counts as completed. Until it has seen the board, the reconstruction takes the
    /// game's position as the board's last reading, so that its first full reading shows the
    /// same position (the game resumes), one legal move of it (made, a capture included), or
    /// anything else (position_mismatch after the grace).
    const std::vector<ReconEvent>& resume_game(const Position& pos, bool last_uncompleted, TimeMs t_ms);

    /// The clock's lever as first read after the clock was out of sight (the daemon started,
    /// the board came back): `by` pressed it last (his side is down, dgt.md 13). A press made
    /// while nobody listened is only in this position. When `by` has a move made and not
    /// completed, or the board shows his move waiting to settle, it counts as his press and
    /// completes the move (Art. 6.2.1); otherwise it says nothing (his side has been down since
    /// his previous press, or since the clock was set up) and nothing happens. The caller
    /// leaves out a lever that may be down since an illegal move already judged at this turn
    /// (7.5.1: the move that follows it is completed by the next move, not by that press).
    const std::vector<ReconEvent>& lever_seen(Color by, TimeMs t_ms);

    /// Promotion choice by command (or by clock button, see promotion_for_button): the piece
    /// for the next promotion of the side to move on an occupancy-only board. Art. 4.4.4: the
    /// choice is final once the new piece has touched the square, so a choice is refused (false)
    /// when the promoted piece already stands there; it is accepted while the square is empty,
    /// and then replaces an assumed queen of a made, uncompleted promotion.
    bool choose_promotion(PieceType type, TimeMs t_ms);
    /// The clock buttons 0..4 (left to right) as promotion choices: queen, rook, bishop,
    /// knight, queen. Used by feed(ClockButton) while a pawn of the side to move can promote.
    [[nodiscard]] static PieceType promotion_for_button(int button) noexcept;
    /// Chess960 (Guidelines II): the player announced castling, so a king or rook move that
    /// is also a castling move on the board counts as castling.
    void declare_castling() noexcept;
    /// The quickplay finish starts (true) or the game is not in one (false): from now on
    /// illegal moves are judged with ReconRules::illegal_ladder_quickplay and
    /// article_illegal_quickplay ([01] 10.3). Counts of earlier illegal moves are kept.
    void set_quickplay_finish(bool on) noexcept;

    /// True while a game is in progress (started, no result yet).
    [[nodiscard]] bool in_game() const noexcept;
    /// The position after the last made move (the start position before any); only
    /// meaningful once a game has started.
    [[nodiscard]] const Position& position() const noexcept;
    /// Plies made and plies completed in this game, counted from its start position (or the
    /// position resume_game's `pos` started from).
    [[nodiscard]] int plies_made() const noexcept;
    [[nodiscard]] int plies_completed() const noexcept;
    /// True when the board stands reversed.
    [[nodiscard]] bool rotated() const noexcept;
    /// The player's completed illegal moves in this game.
    [[nodiscard]] int illegal_count(Color c) const noexcept;
    /// Restores the player's count of completed illegal moves after start_game() (a daemon
    /// that resumes a game, or an arbiter's take-back: the 7.5.5 ladder goes on from it).
    void set_illegal_count(Color c, int count) noexcept;
    /// The earliest time (ms, the events' clock) at which feeding a Tick would change
    /// something: a square change leaving the bounce filter, a candidate move settling, the
    /// settled-board checks, the press grace, the position_mismatch grace. nullopt when no
    /// timer runs: nothing happens before the next input. A caller that feeds a Tick at (or
    /// after) each such time gets the same events as one that ticks every millisecond.
    [[nodiscard]] std::optional<TimeMs> next_deadline() const noexcept;
    /// Bytes used by this reconstructor, its game record included (for the memory budget).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

} // namespace eboard
