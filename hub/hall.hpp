// The hall as the broadcast sees it (docs/hub.md): the games of the store placed in rounds and on
// board numbers by the pairings (hub/pairings.hpp), and the DGT LiveChess layout that broadcasters
// poll: /live/round-N/games.pgn, /live/round-N/game-M.pgn, /live/round-N/index.json and
// /live/games.pgn (interfaces.md, "The tournament hall").
//
// The PGN is eboardd's (daemon/pgn_export.hpp: the one PGN writer) with the hall's tags:
// Event, Site, Round "N.M", White/Black and WhiteFideId/BlackFideId from the pairings, GameId
// `<host>/<game>`. An illegal move that stood (A.5.2) has no MOVE event (its next MOVE's fen is
// the position after both); the hub finds it where a MOVE does not follow from the position
// before it, and the game continues in a second record as eboardd's own file does.
#pragma once

#include "daemon/stored_game.hpp"
#include "hub/pairings.hpp"
#include "hub/store.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace eboard::hub {

/// Board `board` of round `round`: who plays on which source, and the game if it started.
struct RoundGame {
    int round = 0;
    int board = 0;
    Pairing pairing; ///< names and FIDE ids (empty without pairings)
    std::optional<GameRow> game;
};

/// An HTTP answer of the /live/ layout.
struct LiveAnswer {
    int status = 200;          ///< 200 or 404
    std::string content_type;  ///< "application/x-chess-pgn", "application/json", "text/plain"
    std::string body;
};

/// Finds where an illegal move stood ([23] A.5.2) in `game` (a MOVE that does not follow from
/// the position before it) and inserts it as a RecordedMove with `illegal_stands` (its squares
/// as SAN "e2-e5", its position as `fen`), so that eboardd's PGN export writes the continuation
/// record. When no single displacement of a piece explains the next move, that move itself
/// starts the continuation (named in a comment).
void insert_stood_moves(daemon::StoredGame& game);

class Hall {
  public:
    /// `event`, `site`: the PGN tags (empty: "?").
    Hall(HallStore& store, std::string event, std::string site);

    /// Replaces the pairings (SIGHUP). Thread-safe.
    void set_pairings(Pairings pairings);
    /// Every board of round `round` in board order; empty when the round has none.
    [[nodiscard]] std::vector<RoundGame> round(int round) const;
    /// The round played now: the highest one with a game that started (1 when none did, or the
    /// first round of the pairings).
    [[nodiscard]] int current_round() const;
    /// The round whose game is `game` of `host`, if it has one.
    [[nodiscard]] std::optional<int> round_of(const std::string& host, const std::string& game) const;

    /// The PGN of one game (records joined by an empty line).
    [[nodiscard]] std::string game_pgn(const RoundGame& game) const;
    /// The round's games.pgn: every game that started, in board order, each followed by an
    /// empty line; games [first, first + count) of them only.
    [[nodiscard]] std::string round_pgn(int round, std::size_t first = 0, std::size_t count = SIZE_MAX) const;
    /// The number of games that started in round `round`.
    [[nodiscard]] std::size_t game_count(int round) const;
    /// index.json of the round: {"round", "games": [{"board", "source", "white", "black",
    /// "white_fide_id", "black_fide_id", "game", "state" (not_started/live/finished), "result",
    /// "plies", "fen"}]} (fields without a value left out).
    [[nodiscard]] std::string index_json(int round) const;

    /// Every board of every round, in round and board order (tournament_trf.hpp).
    [[nodiscard]] std::vector<RoundGame> games() const { return assign(); }
    /// The Event and Site tags as given ("" when not).
    [[nodiscard]] const std::string& event() const { return event_; }
    [[nodiscard]] const std::string& site() const { return site_; }

    /// The answer for an HTTP GET of `target` (a path, a query ignored).
    [[nodiscard]] LiveAnswer answer(const std::string& target) const;

  private:
    [[nodiscard]] std::vector<RoundGame> assign() const;

    HallStore& store_;
    std::string event_;
    std::string site_;
    mutable std::mutex mutex_; // guards pairings_
    std::shared_ptr<const Pairings> pairings_;
};

} // namespace eboard::hub
