// Where every event goes, in this order: the store (durable), the announcements (the --events
// stream, the socket's watchers, the console of --simulate, and any other sink: speech, ...),
// then the games' PGN files (rewritten atomically on MOVE, RESULT and GAME events). An event
// the store could not record is not announced: a completed move is durable before it is
// announced anywhere. The PGN file is a view of the store and follows the announcement.
//
// Group commit: what is published while the event loop runs its handlers is queued, and one
// flush (posted to the loop) records the whole queue in one transaction with one fsync, then
// announces the events in order, then hands each touched game's PGN text to the PgnWriter
// (pgn_writer.hpp), whose thread replaces the files and syncs the PGN directory, so that the
// loop never waits for those fsyncs. Many boards therefore share one fsync. A queue of TOUCH
// events only is committed without waiting for the disk (it is on disk with the next durable
// commit).
//
// PGN files after a crash: the transaction that changes a game also notes it in the store
// (Store::mark_pgn_pending); the note goes (with a later commit) once the writer reported the
// file written with everything committed so far. When the daemon starts, every noted game's
// file is written again from the store (repair_pgn_files), so a kill -9 between the commit and
// the file's rename leaves no PGN behind the store. Without an io_context (tests, benchmarks)
// the files are written at once, after the announcements, on the caller's thread.
//
// A batch the store cannot commit (a full disk, a file system remounted read-only) is not
// dropped: it goes back to the front of the queue, one error line says so, and it is tried
// again every kRetryMs and with the next flush; nothing after it is announced meanwhile (the
// order of events is kept). When a commit works again, one line says so.
//
// One exception to "recorded, then announced": a sink added with Delivery::OnPublish (the
// speech of Appendix D) hears every event as it is published, before the store. It exists for
// the move made: [23] D.2.3 counts the announcement as part of making the move, and D.2.4 lets
// the opponent's clock start only after it, so the visually impaired player must hear it at
// once, not after an fsync. A move made is not a completed move (Art. 4.7 vs 6.2.1): until the
// clock is pressed the board, not the store, is its evidence, and after a crash the board still
// shows it. Such a sink must never announce a completed move (the speech sink says moves made,
// alerts and answers; completed moves only give it the clock times); an event the store then
// fails to record has been heard by it all the same (logged by the flush).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "daemon/events.hpp"
#include "daemon/pgn_writer.hpp"
#include "daemon/store.hpp"

namespace eboard::daemon {

class Recorder {
  public:
    /// Gets the event and its JSON line (ending in '\n').
    using Sink = std::function<void(const Event&, const std::string& line)>;
    /// A write of the store done in order with the events (a note, an illegal move that stood).
    using Operation = std::function<Expected<bool>(Store&)>;

    /// How often a batch the store refused is tried again (ms).
    static constexpr int kRetryMs = 1000;
    /// At exit, how long a failing store is tried again (ms): inside systemd's
    /// TimeoutStopSec=10s with the boards' exit and the clients' drain.
    static constexpr int kExitRetryMs = 5000;
    /// At exit, the pause between two tries (ms).
    static constexpr int kExitRetryPauseMs = 250;

    /// `pgn_dir` empty: no PGN files. `io` null: every publish() is flushed at once (and a
    /// refused batch is tried again with the next one).
    Recorder(Store& store, std::string pgn_dir, boost::asio::io_context* io = nullptr);
    /// Writes the PGN files still waiting (see finish()).
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    /// When a sink hears of an event.
    enum class Delivery : std::uint8_t {
        Recorded,  ///< after the store and the PGN (every announcement: events, socket, console)
        OnPublish, ///< at publish(), before the store (speech of moves made, D.2.3; see above)
    };

    /// Adds an announcement sink (events file, socket, console, speech).
    void add_sink(Sink sink, Delivery delivery = Delivery::Recorded);

    /// A write made for every event in the transaction that records it (the MQTT outbox,
    /// hall_publisher.hpp): what it writes is durable exactly when the event is. It may run
    /// again for the same event when a refused batch is tried again.
    using Outbox = std::function<Expected<bool>(Store&, const Event&, const std::string& line)>;
    /// Sets the outbox write (one; empty: none).
    void set_outbox(Outbox outbox) { outbox_ = std::move(outbox); }

    /// Queues the event: recorded, then announced, by the next flush. `time_ms` is its
    /// wall-clock time (ms since the epoch).
    void publish(const Event& event, std::int64_t time_ms);

    /// Queues a store write in order with the events; `pgn_game` (if not empty) names a game
    /// whose PGN is rewritten after it.
    void submit(Operation op, std::string pgn_game = {});

    /// Records and announces everything queued now. Call before reading the store.
    void flush();

    /// Announces without recording (VERSION lines, replies): sinks only.
    void announce(const Event& event);
    /// The same with the event's line (to_line(event)) already made.
    void announce(const Event& event, const std::string& line);

    /// Rewrites the PGN file of `game` from the store now (and syncs the directory). False
    /// (logged) on failure.
    bool write_pgn(const std::string& game);

    /// Waits until every PGN file handed to the writer so far is written (a GAMES reply names
    /// the files; a clean exit).
    void sync_pgn_files();

    /// A clean exit: flush(), every PGN file written, and the store's notes of PGN files that
    /// lag it cleared (one commit). A store that refuses the batch is tried again every
    /// kExitRetryPauseMs for up to kExitRetryMs; false if it still refuses: every event not
    /// stored is logged then, one error line each ("not stored: " and its JSON line, so that
    /// it can be recovered from the journal).
    bool finish();

    /// At start-up: writes again, from the store, the PGN file of every game the store notes
    /// as possibly lagging (a crash came between a commit and the file's rename). Returns the
    /// number of files written.
    int repair_pgn_files();

    /// `<pgn-dir>/<game>.pgn`, or "" without --pgn-dir.
    [[nodiscard]] std::string pgn_path(const std::string& game) const;

    /// The store, with everything queued recorded first.
    [[nodiscard]] Store& store() {
        flush();
        return store_;
    }

    /// Flushes so far: commits, and events recorded (for tests and benchmarks).
    [[nodiscard]] std::uint64_t commits() const { return commits_; }

    /// Whether the last commit failed (events wait to be recorded).
    [[nodiscard]] bool failing() const { return failing_; }

  private:
    struct Item {
        std::optional<Event> event;
        std::string line; ///< the event's JSON line (to_line), made once for the store and every sink
        std::int64_t time_ms = 0;
        Operation op;
        std::string pgn_game;
    };
    void schedule();
    // While the store fails: an ALERT store_failed (announced, not recorded) to every board
    // whose events wait and that was not told yet.
    void alert_waiting(const std::vector<Item>& items, const std::string& why);
    // Writes the PGN of `game` (no directory sync; the caller syncs once).
    bool write_pgn_file(const std::string& game);
    // The PGN text of `game` from the store; nullopt (logged) on failure.
    std::optional<std::string> pgn_text(const std::string& game);
    // After a commit that changed `games`: their PGN files are rewritten (writer or at once).
    void rewrite_pgn_files(const std::vector<std::string>& games);
    // The writer wrote these (game, generation) pairs (on the loop's thread).
    void pgn_written(const std::vector<std::pair<std::string, std::uint64_t>>& written);

    Store& store_;
    std::string pgn_dir_;
    boost::asio::io_context* io_;
    std::vector<Sink> sinks_;
    std::vector<Sink> on_publish_;
    Outbox outbox_;
    std::vector<Item> queue_;
    bool scheduled_ = false;
    bool flushing_ = false;
    bool failing_ = false;
    std::set<std::string> alerted_; // boards told (ALERT store_failed) that their events wait
    std::optional<boost::asio::steady_timer> retry_; // with `io`: the next try of a refused batch
    std::uint64_t commits_ = 0;
    std::unique_ptr<PgnWriter> pgn_writer_;                         // with `io` and a PGN dir
    std::uint64_t pgn_generation_ = 0;                              // of the last text handed over
    std::unordered_map<std::string, std::uint64_t> pgn_in_flight_;  // game -> its newest generation
    std::vector<std::string> pgn_done_; // files up to date: their store notes go with the next commit
    // Set false by the destructor: a report of the writer posted to the loop finds it gone.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

/// Milliseconds since the Unix epoch, now.
[[nodiscard]] std::int64_t wall_clock_ms();

} // namespace eboard::daemon
