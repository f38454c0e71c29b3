// The events eboardd reports (docs/client-api.md, "Events"): one JSON object per line, each
// with a `class`. Fields without a value are left out, never written as null. The first line
// of every stream is a VERSION object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/events.hpp"
#include "base/expected.hpp"

namespace eboard::daemon {

/// Protocol version of the JSON lines (docs/client-api.md: proto_major 1). proto_minor grows with
/// additive changes (new optional fields, new request classes; docs/client-api.md lists them):
/// 1 = GAME `takeback`; ALERT `player`, `result` (flag) and `fen` (illegal move, mismatch).
/// 2 = the INFO request (Appendix D.2.10.4: information on request).
/// 3 = every ERROR reply has a `code` (commands.hpp ErrorCode).
inline constexpr int kProtoMajor = 1;
inline constexpr int kProtoMinor = 3;

/// What the clock showed, in milliseconds (Art. 6.10.1: the clock is authoritative).
struct MoveClock {
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
    bool operator==(const MoveClock&) const = default;
};

struct VersionEvent {
    std::string release;
};

/// A board appears (`connected`) or goes (`disconnected`).
struct BoardEvent {
    std::string board;
    bool connected = true;
    std::string driver;
};

/// A game starts or ends (docs/client-api.md), or is taken back (our additive `takeback`: the moves
/// after `ply` are gone; docs/client-api.md). `fen` is the start position, the final one, or
/// the position after `ply`.
struct GameEvent {
    enum class Kind : std::uint8_t { Start, End, Takeback };
    std::string board;
    std::string game;
    Kind kind = Kind::Start;
    std::string fen;
    std::optional<int> ply; ///< Takeback: the ply the game is back at (0 = the start position)
};

/// A piece lifted or placed (Art. 4.3; Appendix D.2.2): the reconstruction's TOUCH
/// (base/events.hpp) on `board` in `game`. In JSON `square` is a name ("e4") and `piece` the FEN
/// letter when known; `t_ms` is not written.
struct TouchEvent : eboard::TouchEvent {
    std::string board;
    std::string game;
};

/// A move made (Art. 4.7) or completed (Art. 6.2.1).
struct MoveEvent {
    std::string board;
    std::string game;
    int ply = 0; ///< 1 = White's first move of a standard game
    std::string san;
    std::string uci;
    std::string fen; ///< the position after the move
    bool completed = false;
    std::optional<MoveClock> clock;
};

/// An arbiter matter. `kind` is one of the ALERT kinds of docs/client-api.md (illegal_move,
/// touch_move, position_mismatch, flag, draw_claimable, dead_position, both_boards_differ,
/// board_disconnected).
struct AlertEvent {
    std::string board;
    std::string game; ///< empty when no game is tied to it (e.g. board_disconnected at rest)
    std::string kind;
    std::string article; ///< e.g. "7.5.1"
    std::string text;
    std::optional<int> ply;
    std::string player; ///< "white"/"black": the offender, the flag's owner ("" = none)
    std::optional<int> count;             ///< illegal_move: the player's completed illegal moves
    std::optional<std::string> penalty;   ///< illegal_move: "+2min", "loss", ...
    std::vector<std::string> squares;     ///< position_mismatch: the squares that differ
    /// flag: the ruling of Art. 6.9 [23] (6.10 [05], club Art. 3) as a result, "1-0", "0-1",
    /// "1/2-1/2" (empty: none, e.g. the period's quota was completed).
    std::string result;
    /// illegal_move, position_mismatch: the game's position the board should show (FEN).
    std::string fen;
    /// illegal_move, position_mismatch: the board shows the game's earlier position after this
    /// ply (0 = the start), whose FEN is `earlier_fen`; only the arbiter takes moves back.
    std::optional<int> earlier_ply;
    std::string earlier_fen;
};

/// The game's result (base/events.hpp; termination e.g. "checkmate", "stalemate",
/// "resignation", "flag") on `board` in `game`; `confirmed` per Art. 8.7. In JSON `t_ms` and
/// `article` are not written.
struct ResultEvent : eboard::ResultEvent {
    std::string board;
    std::string game;
};

using Event = std::variant<VersionEvent, BoardEvent, GameEvent, TouchEvent, MoveEvent,
                           AlertEvent, ResultEvent>;

/// The JSON object of an event, with the field names of docs/client-api.md, `class` first.
[[nodiscard]] nlohmann::ordered_json to_json(const Event& event);

/// The compact JSON text of an event followed by '\n'.
[[nodiscard]] std::string to_line(const Event& event);

/// The inverse of to_json, for the store's replay and clients. Errors name the field.
[[nodiscard]] Expected<Event> event_from_json(const nlohmann::ordered_json& object);

/// The class name ("MOVE", ...).
[[nodiscard]] const char* event_class(const Event& event);

/// The board / game an event belongs to ("" for VERSION, or no game).
[[nodiscard]] const std::string& event_board(const Event& event);
[[nodiscard]] const std::string& event_game(const Event& event);

/// The VERSION object of this build.
[[nodiscard]] VersionEvent version_event();

} // namespace eboard::daemon
