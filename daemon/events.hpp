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
/// 4 = ERROR `too_many_clients` (on connect); ALERT `store_failed`.
/// 5 = ALERT `winnability` (`undecided`, for `flag`).
/// 6 = RESULT and OK (RESULT, PENALTY requests) `winnability` (`undecided`: a resignation or a
///     win claim that stands on an undecided full-mode answer).
/// 7 = BOARD `battery` ({"percent","charging"}: the board's battery as it reports it; issue 21).
inline constexpr int kProtoMajor = 1;
inline constexpr int kProtoMinor = 7;

struct VersionEvent {
    std::string release;
};

/// A board's battery as the board reports it (docs/client-api.md, BOARD `battery`, proto_minor 7):
/// DGT BATTERY_STATUS (dgt.md 4.1), the Chessnut battery report (chessnut.md 6).
struct Battery {
    int percent = 0;       ///< charge left, 0..100
    bool charging = false; ///< on its charger
    bool operator==(const Battery&) const = default;
};

/// {"percent","charging"}: the BOARD field, also in BOARDS and the hall's board state.
[[nodiscard]] nlohmann::ordered_json battery_json(const Battery& battery);

/// A board appears (`connected`) or goes (`disconnected`), or a connected board's battery
/// changed (`battery`: the whole percent or charging; absent where the board reports none).
struct BoardEvent {
    std::string board;
    bool connected = true;
    std::string driver;
    std::optional<Battery> battery = std::nullopt;
};

/// A game starts or ends (docs/client-api.md), or is taken back (our additive `takeback`: the moves
/// after `ply` are gone; docs/client-api.md): base/events.hpp's GAME on `board` in `game`. In
/// JSON `t_ms`, `rotated` and `chess960_number` are not written.
struct GameEvent : eboard::GameEvent {
    std::string board;
    std::string game;
    /// GAME `kind` on `board` in `game` with `fen` (and `ply` for a takeback).
    static GameEvent of(std::string board, std::string game, Kind kind, std::string fen,
                        std::optional<int> ply = std::nullopt) {
        GameEvent e;
        e.kind = kind;
        e.fen = std::move(fen);
        e.ply = ply;
        e.board = std::move(board);
        e.game = std::move(game);
        return e;
    }
};

/// A piece lifted or placed (Art. 4.3; Appendix D.2.2): the reconstruction's TOUCH
/// (base/events.hpp) on `board` in `game`. In JSON `square` is a name ("e4") and `piece` the FEN
/// letter when known; `t_ms` is not written.
struct TouchEvent : eboard::TouchEvent {
    std::string board;
    std::string game;
};

/// A move made (Art. 4.7) or completed (Art. 6.2.1): base/events.hpp's MOVE (`ply` 1 = White's
/// first move of a standard game; `fen` after the move) on `board` in `game`, with its SAN. In
/// JSON `status` is "made" or "completed" (how it was completed is not written: read back it
/// is Completion::Recorded); `t_ms`, `move`, `promotion_assumed` and `replaces` are not written.
struct MoveEvent : eboard::MoveEvent {
    std::string board;
    std::string game;
    std::string san;
    /// MOVE at `ply` on `board` in `game`: made, or `completed` (how not said: Recorded).
    static MoveEvent of(std::string board, std::string game, int ply, std::string san, std::string uci,
                        std::string fen, bool completed, std::optional<MoveClock> clock) {
        MoveEvent m;
        m.ply = ply;
        m.uci = std::move(uci);
        m.fen = std::move(fen);
        m.completed = completed ? Completion::Recorded : Completion::None;
        m.clock = clock;
        m.board = std::move(board);
        m.game = std::move(game);
        m.san = std::move(san);
        return m;
    }
};

/// An arbiter matter: base/events.hpp's ALERT on `board` in `game` (empty when no game is tied
/// to it, e.g. board_disconnected at rest), with what the daemon adds. In JSON `kind` is its
/// docs/client-api.md spelling, `player` "white"/"black", `squares` square names; `t_ms` and
/// `cleared` are not written (a cleared position_mismatch is not an ALERT).
struct AlertEvent : eboard::AlertEvent {
    std::string board;
    std::string game;
    /// flag: the ruling of Art. 6.9 [23] (6.10 [05], club Art. 3) as a result, "1-0", "0-1",
    /// "1/2-1/2" (empty: none, e.g. the period's quota was completed).
    std::string result;
    /// flag: "undecided" when the full winnability search (rules/winnable.hpp) could prove
    /// neither way whether the opponent can checkmate, on which the ruling depends (6.9); then
    /// `result` counts him as able to (a win), and the arbiter decides. Empty otherwise.
    std::string winnability;
    /// illegal_move, position_mismatch: the game's position the board should show (FEN).
    std::string fen;
};

/// The game's result (base/events.hpp; termination e.g. "checkmate", "stalemate",
/// "resignation", "flag") on `board` in `game`; `confirmed` per Art. 8.7. In JSON `t_ms` and
/// `article` are not written.
struct ResultEvent : eboard::ResultEvent {
    std::string board;
    std::string game;
    /// "undecided" when the result stands only because the full winnability mode
    /// (rules/winnable.hpp) could prove neither way whether the winner can checkmate, on which
    /// the Laws make it depend: a resignation ([23] 5.1.2), a win claim after illegal moves
    /// ([05] C3); the arbiter decides. Empty otherwise (and left out of the JSON).
    std::string winnability;
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
