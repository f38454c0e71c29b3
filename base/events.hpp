// The events of a game, defined once: the output of move reconstruction (rules/reconstruction.hpp),
// what an arbiter standing beside the board would note, and the base of the daemon's JSON events
// (daemon/events.hpp), which extend each with what the daemon adds (board, game id, SAN, ...).
// Names follow the events of docs/client-api.md (TOUCH, MOVE made/completed, ALERT, GAME,
// RESULT). Squares a1=0 .. h8=63 in game orientation (already rotated when the board stands
// reversed); times TimeMs (base/sensors.hpp), clock readings in milliseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "base/sensors.hpp"
#include "base/types.hpp"

namespace eboard {

/// A piece lifted or placed (Art. 4.3 touch evidence; App. D.2.2 on a tactile board).
/// Only lifts and placements that outlast the bounce filter are reported.
struct TouchEvent {
    TimeMs t_ms = 0;
    Square square;
    bool lift = true;          ///< true: lifted (square emptied); false: placed
    Piece piece = Piece::None; ///< when known: the game's piece for a lift, the board's for a place
};

/// How a move came to be completed (Art. 6.2.1).
enum class Completion : std::uint8_t {
    None,          ///< status "made"
    Clock,         ///< the player pressed the clock
    GameEnd,       ///< the move ended the game (5.1.1, 5.2.1, 5.2.2, 9.6)
    NextMove,      ///< [23] 6.2.1: the player made his next move before pressing
    OpponentMove,  ///< --clock none: the opponent's next move was made
    Recorded,      ///< completed, read back from a record that does not say how (JSON status)
};

/// What the clock showed, in milliseconds (Art. 6.10.1: the clock is authoritative).
struct MoveClock {
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
    bool operator==(const MoveClock&) const = default;
};

/// A move made (Art. 4.7) or completed (Art. 6.2.1). `ply` counts from 1 at the game's start
/// position; `fen` is the position after the move.
struct MoveEvent {
    TimeMs t_ms = 0;
    int ply = 0;
    Move move;
    std::string uci;
    std::string fen;
    Completion completed = Completion::None;  ///< None = status "made"
    /// Occupancy-only board, promotion piece neither seen nor chosen: a queen is recorded
    /// (Art. 4.7.3 of the FIDE Laws 2023 cannot be seen: docs/reconstruction.md).
    bool promotion_assumed = false;
    /// This made move replaces the move made earlier for the same ply (the piece moved on before
    /// the clock was pressed; a slide that paused; a promotion piece chosen later).
    bool replaces = false;
    /// What the clock showed at completion (status completed only; unset without a clock).
    std::optional<MoveClock> clock;

    /// Status "completed" (Art. 6.2.1) rather than "made" (4.7).
    [[nodiscard]] bool is_completed() const noexcept { return completed != Completion::None; }
};

/// The ALERT kinds of docs/client-api.md. The reconstruction raises the first six; the daemon
/// the last three.
enum class AlertKind : std::uint8_t {
    IllegalMove,       ///< article 7.5.1 (7.5.2, 7.5.3; per profile); count, penalty
    TouchMove,         ///< 4.3 / 4.4
    PositionMismatch,  ///< pieces not where the game says; squares
    Flag,              ///< 6.9
    DrawClaimable,     ///< 9.2 / 9.3 (arbiter channel only, [23] 11.12)
    DeadPosition,      ///< 5.2.2
    BothBoardsDiffer,  ///< the two boards of a game for a visually impaired player (App. D)
    BoardDisconnected, ///< a board's link went down during a game
    StoreFailed,       ///< the store cannot record: the board's events wait (announced only)
};

/// docs/client-api.md spelling: "illegal_move", "touch_move", ...
[[nodiscard]] const char* to_string(AlertKind k) noexcept;
/// The AlertKind of its docs/client-api.md spelling; unset for anything else.
[[nodiscard]] std::optional<AlertKind> alert_kind_from_string(std::string_view s) noexcept;

/// An arbiter matter. Fields without meaning for a kind stay at their defaults.
struct AlertEvent {
    TimeMs t_ms = 0;
    AlertKind kind = AlertKind::IllegalMove;
    std::string article;       ///< e.g. "7.5.1", "4.3", "6.9"
    std::string text;          ///< one sentence for people
    std::optional<int> ply;    ///< the ply the alert is tied to
    std::optional<Color> player;  ///< the player concerned (offender, flag owner)
    /// illegal_move: the player's completed illegal moves so far; draw_claimable: how many
    /// times the position has appeared.
    std::optional<int> count;
    std::string penalty;       ///< illegal_move: what the profile prescribes ("+2min", "loss", ...)
    Bitboard squares = 0;      ///< position_mismatch / illegal_move: squares that differ
    bool cleared = false;      ///< position_mismatch: the board matches the game again
    /// illegal_move, position_mismatch: the board shows an earlier position of this game, the
    /// one after ply `earlier_ply` (0 = the start position): set back by hand, or an illegal
    /// move that recreates it. Never a takeback on the board's word alone
    /// (ReconRules::players_take_back); the arbiter decides (TAKEBACK).
    std::optional<int> earlier_ply;
    std::string earlier_fen;   ///< the FEN of that earlier position (empty when none)
};

/// A game starts (a start position set up) or ends, or is taken back (the daemon's GAME
/// `takeback`: the moves after `ply` are gone; the reconstruction reports its own takebacks as
/// TakebackEvent).
struct GameEvent {
    enum class Kind : std::uint8_t { Start, End, Takeback };
    TimeMs t_ms = 0;
    Kind kind = Kind::Start;
    std::string fen;            ///< the start position, the final one, or the one after `ply`
    std::optional<int> ply;     ///< Takeback: the ply the game is back at (0 = the start)
    bool rotated = false;       ///< the board stands reversed (Black at its a1 side)
    int chess960_number = -1;   ///< Scharnagl number when the start is a Chess960 array
};

/// The game's result (docs/client-api.md RESULT): at once when a rule ends the game, or on a
/// command. The reconstruction never confirms one (Art. 8.7).
struct ResultEvent {
    TimeMs t_ms = 0;
    std::string result;       ///< "1-0", "0-1", "1/2-1/2"
    /// The RESULT event's vocabulary (rules/game.hpp to_string(Termination)): "checkmate",
    /// "stalemate", "dead_position", "fivefold_repetition", "seventy_five_moves"; the DGT
    /// kings-in-the-centre signal gives "resignation" (decisive) or "agreement" (a draw).
    std::string termination;
    std::string article;      ///< "5.1.1", "5.2.1", "5.2.2", "9.6.1", "9.6.2"; empty for a signal
    bool confirmed = false;   ///< Art. 8.7: the players or the arbiter confirmed it (a command)
};

/// The board was set back to an earlier position of this game (a takeback, or the arbiter's
/// correction; Art. 7.5/7.6): the game continues after `ply` (0 = the start position). Not a
/// variation: the moves after `ply` are gone.
struct TakebackEvent {
    TimeMs t_ms = 0;
    int ply = 0;
    std::string fen;
};

/// An illegal move that was not put right before the opponent's next move stands ([23] A.5.2,
/// [05] B6/C3, club Art. 6, per profile): the game continues from the board. `ply` is the
/// illegal move's ply, `from`/`to` where the piece went, `fen` the position after it (the
/// opponent to move). The PGN records it as a comment and continues with SetUp/FEN.
struct IllegalMoveStands {
    TimeMs t_ms = 0;
    int ply = 0;
    Square from;
    Square to;
    std::string fen;
};

/// Every output of the reconstructor.
using ReconEvent = std::variant<TouchEvent, MoveEvent, AlertEvent, GameEvent, ResultEvent,
                                TakebackEvent, IllegalMoveStands>;

} // namespace eboard
