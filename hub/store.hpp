// The hall's store of eboard-hub (docs/hub.md): one SQLite database (WAL, synchronous=FULL) in
// the hub's state directory with the hosts, boards, games, moves with their clock times, alerts
// and results that the hall's hosts published over MQTT (interfaces.md, "The tournament hall"),
// and the queue of the lichess push.
//
// Group commit (docs/hall.md, "Group commit"): stage() applies one MQTT message inside the open
// transaction (a batch), commit() commits the batch with synchronous=FULL; the hub commits every
// ~100 ms, at 1,000 staged messages, and at once when a message must be durable before its
// acknowledgement (must_commit(), below). Readers (games(), load(), ...) have a connection of
// their own and see only what is committed: the broadcast never shows a move that a crash could
// take back. ingest() is stage() and commit() in one.
//
// Why acknowledging a staged message is safe, and when it is not. libmosquitto sends a QoS 1
// PUBACK when the message callback returns (mqtt/client.hpp), and the broker then forgets the
// message; a kill -9 of the hub loses the open batch:
// - a message that names its outbox row (eboardd --mqtt-confirm) is kept by its host until the
//   hub's `received` mark covers it, and the mark is published only for rows committed (the hub
//   publishes after commit() returns): a staged row lost in a crash is not covered and the host
//   sends it again (in order, from its first uncovered row). Such messages are acknowledged
//   before their commit;
// - a message without a row (a host without --mqtt-confirm, a host's status) has no one to send
//   it again: must_commit() turns true and the hub commits before the callback returns, that
//   is before its PUBACK, as every message was committed before;
// - a row that starts a host's mark (the first row of a host, or of another outbox) is committed
//   before its PUBACK too: lost in a crash, the mark would start at a later row after the
//   restart and cover rows that were never committed.
// De-duplication (the contract: by host, board, game, ply, status): a MOVE whose (game, ply,
// status) is stored with the same move is a duplicate; a MOVE at a stored ply with another move
// replaces the line from that ply (a made move replaced before completion; the notes on events
// in docs/client-api.md); a `made` resend of a move stored as completed is a duplicate. ALERTs
// are duplicates when the same payload was stored for the board; GAME and RESULT when they change
// nothing; BOARD when its state and driver are those stored and it carries no `battery` (not
// stored: a battery report always goes on to the console). TOUCH is not kept (a broadcast does not show it). A message whose payload names its
// outbox row (eboardd --mqtt-confirm) at or below the host's `received` mark is a duplicate as a
// whole, whatever its class: every row up to the mark is committed (daemon::next_mark()).
//
// Thread-safe: the writer's members lock the writing connection, the readers' their own.
#pragma once

#include "base/expected.hpp"
#include "daemon/hall_topics.hpp"
#include "daemon/stored_game.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace eboard::hub {

/// The label that starts the message of every error of the store itself (SQLite failing: a
/// full disk, an I/O error), followed by ": ". A message the store refuses (not the contract's)
/// gives an error without it.
inline constexpr std::string_view kStoreErrorLabel = "hub store";
/// True if `e` is the store's own failure (its message starts with kStoreErrorLabel), not a
/// message the store refused.
[[nodiscard]] bool is_store_failure(const Error& e);

/// What one message did to the store (staged: committed with the batch).
struct Ingested {
    bool changed = false;   ///< the hall's games or boards changed (a PGN or an index may differ)
    bool duplicate = false; ///< the store held it already (a resend)
    std::string host;
    std::string board;      ///< empty for a host's status
    std::string game;       ///< the event's game, empty when none
    /// The host's `received` mark after this message when it moved (eboardd --mqtt-confirm: the
    /// payload named its outbox row) or when the message was a resend of a covered row, for
    /// the hub to publish (docs/hall.md, "End-to-end confirmation").
    std::optional<daemon::ReceivedMark> received;
};

/// One game as the hub knows it. `seq` orders games as the hub first saw them.
struct GameRow {
    std::int64_t seq = 0;
    std::string host;
    std::string board;
    std::string game;
    std::string date; ///< "YYYY.MM.DD" (UTC) of the day the hub saw the game start
    bool ended = false;
    std::string result = "*";
    bool confirmed = false;
    int plies = 0;     ///< the number of moves stored
    std::string fen;   ///< the position after the last stored move (the start when none)

    /// `<host>/<board>`, the pairings' `source`.
    [[nodiscard]] std::string source() const { return host + "/" + board; }
};

/// A round waiting to be pushed (the durable queue of the lichess push).
struct PushItem {
    int round = 0;
    std::int64_t generation = 0; ///< grows with every change of the round
    std::int64_t due_ms = 0;     ///< not before (ms since the epoch)
    int attempts = 0;            ///< failed tries since the last success
};

class HallStore {
  public:
    /// Opens (creating) `<state_dir>/eboard-hub.db`. Errors name the file and SQLite's reason.
    static Expected<std::unique_ptr<HallStore>> open(const std::filesystem::path& state_dir);
    ~HallStore();
    HallStore(const HallStore&) = delete;
    HallStore& operator=(const HallStore&) = delete;

    /// Records the message `payload` received on `topic` (`eboard/v1/<host>/<board>/<class>`,
    /// `.../state`, `eboard/v1/<host>/status`) at `now_ms`, committed when it returns: stage()
    /// and commit(). A payload that is not the contract's (bad JSON, an unknown class) is an
    /// Error and changes nothing; a failed commit is an Error too.
    Expected<Ingested> ingest(std::string_view topic, std::string_view payload, std::int64_t now_ms);
    /// Applies the message as ingest() does inside the open batch (beginning one); readers see
    /// it after commit(). A message that is not the contract's is an Error and is undone alone
    /// (its row still moves the host's mark); an Error of the store's own
    /// (is_store_failure) is the store's (the batch is then left to a crash: not committed).
    Expected<Ingested> stage(std::string_view topic, std::string_view payload, std::int64_t now_ms);
    /// Commits the open batch: true when one was committed, false when none was open. An Error
    /// (the disk failed): the batch is rolled back, as a crash would lose it.
    Expected<bool> commit();
    /// The number of messages staged in the open batch (0 when none is open).
    [[nodiscard]] std::size_t staged() const;
    /// Whether the open batch holds a message that must be committed before it is acknowledged
    /// (the header: no outbox row, or a row that starts a host's mark).
    [[nodiscard]] bool must_commit() const;

    /// Every game, in the order the hub first saw them.
    [[nodiscard]] std::vector<GameRow> games() const;
    /// Every board `<host>/<board>` that published anything, sorted by name.
    [[nodiscard]] std::vector<std::string> sources() const;
    /// The game `game` of `host` as eboardd's PGN export takes it (tags left empty); nullopt
    /// when unknown.
    [[nodiscard]] std::optional<daemon::StoredGame> load(const std::string& host, const std::string& game) const;
    /// The number of messages found to be duplicates since the store was created.
    [[nodiscard]] std::int64_t duplicates() const;
    /// The number of ALERTs stored for `<host>/<board>`.
    [[nodiscard]] int alert_count(const std::string& host, const std::string& board) const;
    /// Every host's `received` mark: the outbox row up to which every row of the host is
    /// committed here (published again after each connection to the broker).
    [[nodiscard]] std::vector<daemon::ReceivedMark> received_marks() const;
    /// A host's last status ("online", "offline"; "" when none was received).
    [[nodiscard]] std::string host_status(const std::string& host) const;

    /// Notes that `round` changed: queued (or its generation raised), due not before `due_ms`
    /// (an earlier due time of a waiting item stays).
    Expected<bool> push_mark(int round, std::int64_t due_ms);
    /// The waiting round due first, if any.
    [[nodiscard]] std::optional<PushItem> push_next() const;
    /// The push of `item` succeeded (or was refused for good): it leaves the queue unless the
    /// round changed meanwhile (then it waits again, due at `next_due_ms`).
    Expected<bool> push_done(const PushItem& item, std::int64_t next_due_ms);
    /// The push of `item` failed: tried again at `due_ms`, attempts + 1.
    Expected<bool> push_failed(const PushItem& item, std::int64_t due_ms);

  private:
    HallStore(sqlite3* db, sqlite3* reader) : db_(db), rd_(reader) {}
    Expected<bool> exec(const char* sql) const;
    [[nodiscard]] std::optional<daemon::ReceivedMark> received_mark(const std::string& host) const;
    Expected<bool> set_received(const daemon::ReceivedMark& mark);
    Expected<Ingested> apply(std::string_view topic, std::string_view payload, std::int64_t now_ms);

    mutable std::mutex mutex_; // guards db_ and the batch
    sqlite3* db_ = nullptr;    // the writer: the batch, the push queue
    bool open_ = false;        // a batch is open (BEGIN IMMEDIATE done)
    std::size_t staged_ = 0;   // messages in it
    bool commit_now_ = false;  // must_commit()
    mutable std::mutex read_mutex_; // guards rd_
    sqlite3* rd_ = nullptr;         // the readers: what is committed
};

} // namespace eboard::hub
