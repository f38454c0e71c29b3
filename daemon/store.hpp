// The durable store: one SQLite database `eboardd.db` in the state directory (WAL,
// synchronous=FULL: every commit is on disk before record() returns), holding the games,
// their moves with the clock times, and every event. A completed move is recorded here
// before it is announced anywhere (docs/client-api.md, "Notes on events").
//
// Schema (version 6; PRAGMA user_version; an older file is upgraded when opened):
//   games(seq, id, board, created_ms, start_fen, rules, tags JSON, result, termination,
//         confirmed, ended, white_side)
//   moves(game, ply, san, uci, fen, completed, white_ms, black_ms, stands) -- the current line
//   comments(game, after_ply, text)                                 -- irregularities
//   events(seq, time_ms, board, game, class, json)                  -- everything, in order
//   board_settings(board, key, value)                 -- what a driver learnt (board_settings.hpp)
//   attached_boards(seq, name, uri, device)           -- boards opened by ATTACH, until DETACH
//   pgn_pending(game)                   -- PGN files that may lag the store (recorder.hpp)
//   outbox(seq, topic, payload, retain) -- MQTT messages not acknowledged (hall_publisher.hpp)
//   outbox_id(id) -- one row: the id of this store's outbox seqs
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "daemon/events.hpp"
#include "daemon/stored_game.hpp"
#include "base/expected.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace eboard::daemon {

/// One line of a game listing.
struct GameSummary {
    std::string id;
    std::string board;
    std::string result; ///< "*" while in progress
    int plies = 0;      ///< moves recorded (made or completed)
    bool ended = false;
};

/// A message of the MQTT outbox (hall_publisher.hpp): kept until the broker acknowledged it,
/// sent in `seq` order (seq grows and is never used twice).
struct OutboxMessage {
    std::int64_t seq = 0;
    std::string topic;
    std::string payload;
    bool retain = false;
};

/// A board opened at run time (ATTACH, docs/client-api.md), reopened when eboardd starts
/// again until a DETACH forgets it.
struct AttachedBoard {
    std::string name;
    std::string uri;    ///< as --board takes it
    std::string device; ///< the device node it was attached by (ATTACH `device`), else ""
};

class Store {
  public:
    /// Opens (creating if needed) `<state_dir>/eboardd.db`. Creates the directory too.
    [[nodiscard]] static Expected<std::unique_ptr<Store>> open(const std::filesystem::path& state_dir);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    /// Groups the writes that follow (record, record_note, record_stands, create_game) into one
    /// transaction until commit_batch(): one commit, one fsync for many events (group commit).
    /// `durable` false: synchronous=NORMAL for this commit (with WAL it survives a crash of the
    /// process, and is on disk with the next durable commit; for TOUCH events only).
    [[nodiscard]] Expected<bool> begin_batch(bool durable);
    /// Commits the batch; an error (and nothing recorded) if one of its writes failed.
    [[nodiscard]] Expected<bool> commit_batch();
    /// Drops the batch.
    void rollback_batch();

    /// Creates a game and returns its id, "YYYYMMDD-NNNN" (unique within the directory;
    /// the date is `time_ms`'s UTC day). `tags.date` is filled in if empty.
    [[nodiscard]] Expected<std::string> create_game(const std::string& board,
                                                    const std::string& start_fen, PgnTags tags,
                                                    const std::string& rules, std::int64_t time_ms);

    /// Records one event durably in one transaction: the events row, and what it changes in
    /// games/moves/comments (MOVE: the move at its ply, later plies removed; RESULT: the
    /// result; GAME end: ended; GAME takeback: the moves and comments after its ply
    /// removed; ALERT with a ply of kind illegal_move/flag/dead_position: a comment after
    /// the previous ply).
    [[nodiscard]] Expected<bool> record(const Event& event, std::int64_t time_ms);
    /// The same with the event's line (to_line(event)) already made.
    [[nodiscard]] Expected<bool> record(const Event& event, std::int64_t time_ms, const std::string& line);

    /// Records an illegal move that stood ([23] A.5.2) at `move.ply` in one transaction: an
    /// events row of class "STANDS" and the moves row (later plies removed).
    [[nodiscard]] Expected<bool> record_stands(const std::string& board, const std::string& game,
                                               const RecordedMove& move, std::int64_t time_ms);

    /// What a board's driver learnt (daemon/board_settings.hpp), per board name: set one key.
    [[nodiscard]] Expected<bool> set_board_setting(const std::string& board, const std::string& key,
                                                   const std::string& value);
    /// Every key of a board's settings (empty when none).
    [[nodiscard]] std::map<std::string, std::string> board_settings(const std::string& board);

    /// Remembers a board attached at run time (replacing one of the same name).
    [[nodiscard]] Expected<bool> remember_attached(const AttachedBoard& board);
    /// Forgets the attached board `name` (none: nothing to do).
    [[nodiscard]] Expected<bool> forget_attached(const std::string& name);
    /// The boards attached and not detached, in the order they were attached.
    [[nodiscard]] std::vector<AttachedBoard> attached_boards() const;

    /// Records an arbiter's command or another internal note (class e.g. "COMMAND") in the
    /// events table only.
    [[nodiscard]] Expected<bool> record_note(const std::string& board, const std::string& game,
                                             const std::string& cls, const std::string& json,
                                             std::int64_t time_ms);

    /// Adds a message to the MQTT outbox; in the open batch (the transaction of the event it
    /// tells of) or a transaction of its own.
    [[nodiscard]] Expected<bool> add_outbox(const std::string& topic, std::string_view payload, bool retain);
    /// Adds a message to the outbox whose payload names its own seq: `payload(seq)` is called
    /// with the seq the row gets (above every seq used before). In the open batch or a
    /// transaction of its own; the seq, or the store's error.
    [[nodiscard]] Expected<std::int64_t> add_outbox_numbered(const std::string& topic,
                                                            const std::function<std::string(std::int64_t)>& payload,
                                                            bool retain);
    /// The id of this store's outbox (16 hex digits, made once at random and kept): the seqs
    /// of two stores are told apart by it (docs/hall.md, "End-to-end confirmation").
    [[nodiscard]] Expected<std::string> outbox_id();
    /// Removes the messages up to and including `seq` (what the hub's `received` mark covers),
    /// in a transaction that does not wait for the disk, as remove_outbox(). Not inside a batch.
    [[nodiscard]] Expected<bool> remove_outbox_through(std::int64_t seq);
    /// The outbox's messages after `after` (a seq; 0 = from the first), in order, at most `limit`.
    [[nodiscard]] std::vector<OutboxMessage> outbox_after(std::int64_t after, int limit) const;
    /// Removes the messages the broker acknowledged, in one transaction that does not wait for
    /// the disk (a removal lost in a crash only sends a message again). Not inside a batch.
    [[nodiscard]] Expected<bool> remove_outbox(const std::vector<std::int64_t>& seqs);
    /// How many messages the outbox holds.
    [[nodiscard]] std::int64_t outbox_size() const;

    /// Sets a game's result (Art. 8.7 `confirmed`) without an event; record() of a RESULT
    /// event does the same.
    [[nodiscard]] Expected<bool> set_result(const std::string& game, const std::string& result,
                                            const std::string& termination, bool confirmed);

    /// Notes that the PGN file of `game` may lag the store (written in the transaction that
    /// changes the game, so a crash before the file is rewritten leaves the note; recorder.hpp).
    [[nodiscard]] Expected<bool> mark_pgn_pending(const std::string& game);
    /// The clock side White plays on in `game`, "left" or "right" (`--white-side auto` found it
    /// at the first press, eboardd(8)), kept so that a restarted daemon reads the lever the
    /// same way; "" = not known yet.
    [[nodiscard]] Expected<bool> set_white_side(const std::string& game, const std::string& side);

    /// The PGN file of `game` shows everything the store holds of it: the note goes.
    [[nodiscard]] Expected<bool> clear_pgn_pending(const std::string& game);
    /// The games whose PGN file may lag the store (rewritten when the daemon starts).
    [[nodiscard]] std::vector<std::string> pgn_pending() const;

    /// The whole game, moves in ply order.
    [[nodiscard]] Expected<StoredGame> load(const std::string& id) const;

    /// The games not ended, oldest first (to resume after a restart).
    [[nodiscard]] std::vector<std::string> unfinished_games() const;

    /// Every game, newest first, at most `limit`.
    [[nodiscard]] std::vector<GameSummary> list_games(int limit = 1000) const;

    /// The JSON lines of the events recorded for a game, in order (for tests and replay).
    [[nodiscard]] std::vector<std::string> game_events(const std::string& game) const;

  private:
    explicit Store(sqlite3* db);
    [[nodiscard]] Expected<bool> exec(const char* sql) const;
    // One statement through the statement cache (BEGIN, COMMIT, PRAGMA: not parsed each time).
    [[nodiscard]] Expected<bool> run(const char* sql) const;
    // PRAGMA synchronous FULL or NORMAL, run only when it changes.
    [[nodiscard]] Expected<bool> set_synchronous_full(bool full);
    [[nodiscard]] Expected<bool> migrate();
    // A transaction of one write, unless a batch is open (then part of it).
    [[nodiscard]] Expected<bool> begin();
    [[nodiscard]] Expected<bool> commit();
    void rollback();
    [[nodiscard]] Expected<bool> apply_event(const Event& event);
    sqlite3* db_;
    /// Statements prepared once for the life of the connection, by their SQL (a string
    /// literal): a move's writes and the PGN's reads are not parsed again on every move.
    /// `second`: in use (a nested use of the same SQL gets a statement of its own).
    mutable std::unordered_map<const char*, std::pair<sqlite3_stmt*, bool>> statements_;
    bool batch_ = false;
    bool batch_failed_ = false;
    bool batch_durable_ = true;
    bool synchronous_full_ = true; // open() sets synchronous=FULL
};

} // namespace eboard::daemon
