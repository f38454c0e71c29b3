// The LiveChess eBoards API (`--livechess-api ADDR:PORT`; the contract is "The LiveChess
// eBoards API" of the interfaces document, docs/livechess.md for users): the JSON-over-WebSocket
// API of DGT LiveChess 2 at ws://ADDR:PORT/api/v1.0, and GET /api/v1.0/eboards, so that
// programs written for LiveChess (lichess.org's DGT page, browser extensions) follow every
// board eboardd reads. The web server is web/ (Boost.Beast on the daemon's loop).
//
// Calls: `eboards` (the boards, registry order), `subscribe` (feed `eboardevent` of one board),
// `unsubscribe`, `call` with method `setup` (the feed's move list starts from a FEN) and `flip`
// (the client says the board stands turned round: the feed's `board` follows). Errors:
// {"response":"error","id":N,"param":{"message":...}}, the connection stays open.
//
// A feed follows its board's game (BoardSession, GameTracker): `start` is the FEN its list
// starts from and `san` every move made since (made, not only completed), one new move per
// message. The list only grows while the game goes on: a new game, a take-back or a corrected
// move starts a new list (a new `start`: the new game's start, else the last position both
// lists share). After a `setup` the list starts once the game reaches that position (at once
// when it is the current one). Messages go out on every change of the board (sensors, moves,
// connection, orientation, battery) or the clock, coalesced per turn of the loop, never two
// equal ones in a row.
#pragma once

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.hpp"
#include "daemon/board_registry.hpp"
#include "daemon/commands.hpp"
#include "daemon/recorder.hpp"
#include "web/server.hpp"

namespace eboard::daemon {

/// What a feed sends, without the times (two messages that differ only in their times are
/// the same message).
struct LiveChessFeedState {
    std::string serialnr;
    bool flipped = false;
    std::string board;              ///< placement field as the sensors see it
    std::optional<ojson> clock;     ///< {"white","black","run"} (no "time"); none = null
    std::string start;              ///< FEN the move list starts from
    std::vector<std::string> san;   ///< moves made since `start`
    bool match = false;             ///< the board shows the position the moves reach
    bool operator==(const LiveChessFeedState&) const = default;
};

/// Where a feed's move list stands in its board's game: the game and the ply (of the game's
/// record, GameTracker) its `start` is the position after. Empty while the feed waits for a
/// set-up position the game has not reached.
struct LiveChessAnchor {
    std::string game;
    int ply = 0;
};

/// One feed's follow-up of its board's game (pure: unit-tested without a server).
class LiveChessFollower {
  public:
    /// `setup` FEN asked for (call/setup), when the game was at `game`/`ply`.
    void setup(std::string fen, const std::string& game, int ply);
    /// `start` and `san` for the game as it stands (none: no game on the board), the list
    /// grown or started anew as the header says. `fen_after_san` gets the FEN the list reaches.
    void follow(const GameTracker* game, std::string& start, std::vector<std::string>& san,
                std::string& fen_after_san);

  private:
    std::optional<LiveChessAnchor> anchor_;
    std::string start_;           ///< the FEN the list starts from
    std::string setup_fen_;       ///< a setup waiting for the game to reach it; "" = none
    std::string setup_game_;      ///< the game at the setup
    int setup_ply_ = 0;           ///< its ply at the setup
    std::vector<std::string> sent_; ///< the list as last given out
};

/// The API's server: one per daemon, on the daemon's loop.
class LiveChessApi {
  public:
    /// Serves the boards of `boards` (read on the loop's thread only).
    LiveChessApi(boost::asio::io_context& io, const BoardRegistry& boards);
    ~LiveChessApi();
    LiveChessApi(const LiveChessApi&) = delete;
    LiveChessApi& operator=(const LiveChessApi&) = delete;
    LiveChessApi(LiveChessApi&&) = delete;
    LiveChessApi& operator=(LiveChessApi&&) = delete;

    /// `--livechess-api ADDR:PORT`: the API on that address, told of every recorded event of
    /// a board (a sink of `recorder`). Errors name the option: a bad address, cannot bind.
    [[nodiscard]] static Expected<std::unique_ptr<LiveChessApi>> open(boost::asio::io_context& io,
                                                                      const BoardRegistry& boards,
                                                                      Recorder& recorder,
                                                                      const std::string& address);
    /// Listens on `address` (web::parse_listen_address). Errors: cannot bind, with the reason.
    [[nodiscard]] Expected<bool> listen(const web::ListenAddress& address);
    /// The bound port.
    [[nodiscard]] std::uint16_t port() const { return server_.port(); }
    /// Something of board `name` changed (its game, sensors, clock, connection): its feeds
    /// are brought up to date once this turn of the loop is over.
    void board_changed(const std::string& name);
    /// Closes every connection and stops listening.
    void close();

    /// The `eboards` entry of one board.
    [[nodiscard]] static ojson eboard_json(const BoardSession& board);
    /// `serialnr` of a board: its serial number as its driver read it (kept in the store
    /// across restarts), else its configured name.
    [[nodiscard]] static std::string serialnr(const BoardSession& board);

  private:
    struct Feed {
        std::int64_t id = 0;       ///< the client's feed id
        std::string board;         ///< board name
        LiveChessFollower follower;
        std::optional<bool> flip; ///< call/flip: how the client says the board stands
        std::optional<LiveChessFeedState> sent;
    };
    struct Client {
        std::weak_ptr<web::WebSocket> socket;
        std::map<std::int64_t, Feed> feeds; ///< by feed id
    };

    void on_message(const std::shared_ptr<web::WebSocket>& ws, std::string_view text);
    void reply_error(web::WebSocket& ws, const std::optional<std::int64_t>& id, const std::string& message);
    [[nodiscard]] ojson eboards() const;
    [[nodiscard]] const BoardSession* find(const std::string& serialnr) const;
    /// The board named `name` (still open), or nullptr.
    [[nodiscard]] const BoardSession* session(const std::string& name) const;
    /// Sends what changed on `feed` (nothing when nothing did; one message per new move).
    void update(web::WebSocket& ws, Feed& feed);
    void flush();

    boost::asio::io_context& io_;
    const BoardRegistry& boards_;
    web::Server server_;
    std::map<const web::WebSocket*, Client> clients_;
    std::set<std::string> dirty_;
    bool flush_posted_ = false;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace eboard::daemon
