// The state the arbiters' console shows (docs/console.md): every board of a server with its
// current game's moves, clocks and alerts, built from the events as eboardd writes them
// (docs/client-api.md, "Events"; on the hub with `host`). Both servers keep one: eboardd from its
// own events, eboard-hub from what the broker delivers. No I/O, no clock of its own: the caller
// passes the times (`mono_ms`: a monotonic clock in milliseconds; `wall_ms`: milliseconds since
// the epoch, for the alerts' times), so that tests are deterministic.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace eboard::console {

/// A board's clock as last known: the times at `mono_ms`, and the side whose clock runs (the
/// side to move after a completed move; none before the first completed move and after a
/// result).
struct Clock {
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
    std::optional<bool> white_running; // nullopt: stopped
    std::int64_t mono_ms = 0;
};

/// One alert of a game: the ALERT event's fields as the page shows them (`event`), an id unique
/// in the model, the time it arrived and whether it is still open.
struct Alert {
    std::uint64_t id = 0;
    nlohmann::json event;
    std::int64_t wall_ms = 0;
    bool open = true;
};

/// One move of a game as the page lists it.
struct MoveRow {
    int ply = 0;
    std::string san;
    bool completed = false;
    std::optional<std::pair<std::int64_t, std::int64_t>> clock; // white_ms, black_ms
};

/// A battery at or below this percent is low: the page marks it (docs/console.md).
inline constexpr int kLowBatteryPercent = 15;

/// A board's battery as its last BOARD event said (docs/client-api.md, BOARD `battery`).
struct Battery {
    int percent = 0;
    bool charging = false;
};

/// A board as the page shows it.
struct Board {
    std::string id; // "<host>/<board>" on the hub, "<board>" on eboardd
    std::string label;
    std::optional<int> number;
    std::optional<int> round;
    std::string white;
    std::string black;
    bool connected = false;
    std::optional<Battery> battery; // none: unknown, or the board reports none
    std::string game;
    std::string fen;
    std::string result;
    std::vector<MoveRow> moves;
    std::optional<Clock> clock;
    std::vector<Alert> alerts;
};

/// The boards of one server. Not thread-safe: one owner (the server's loop).
class Model {
  public:
    /// `server` is the snapshot's `server` field ("eboardd" or "eboard-hub").
    explicit Model(std::string server) : server_(std::move(server)) {}

    /// Applies one event (an object as on `--events`; a `host` field makes the id
    /// "<host>/<board>"). Returns the id of the board it changed; nullopt for an event the page
    /// does not show (VERSION, TOUCH) or one without `class`/`board`. Unknown fields are
    /// ignored, so a newer eboardd's events are taken.
    std::optional<std::string> apply(const nlohmann::json& event, std::int64_t mono_ms, std::int64_t wall_ms);

    /// The pairings' view of a board (hub): its label, number, round and players. Creates the
    /// board if it is not known yet (a paired board not seen yet shows as disconnected).
    void set_pairing(const std::string& id, std::string label, std::optional<int> number, std::optional<int> round,
                     std::string white, std::string black);

    /// A clock reading of `id` (a live report): the times at `mono_ms` and the running side.
    /// False for an unknown board.
    bool set_clock(const std::string& id, Clock clock);

    /// Closes the open alert `alert_id` of board `id` (an arbiter acknowledged it). False when
    /// there is no such open alert.
    bool acknowledge(const std::string& id, std::uint64_t alert_id);
    /// Closes every open alert of `id` (an arbiter's action on the board was accepted).
    void close_alerts(const std::string& id);

    /// The board `id` as the page takes it (docs/console.md, "a board"), the clock as of
    /// `mono_ms`; null for an unknown board.
    [[nodiscard]] nlohmann::json board_json(const std::string& id, std::int64_t mono_ms) const;
    /// The snapshot: {"server", "logged_in", "boards": [...]} in board order (number, then id).
    [[nodiscard]] nlohmann::json state_json(bool logged_in, std::int64_t mono_ms) const;
    /// The board `id`, or nullptr.
    [[nodiscard]] const Board* board(const std::string& id) const;

  private:
    Board& board_for(const std::string& id);

    std::string server_;
    std::map<std::string, Board> boards_;
    std::uint64_t next_alert_ = 1;
};

} // namespace eboard::console
