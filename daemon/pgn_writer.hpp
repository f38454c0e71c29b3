// PgnWriter: the PGN files written on a thread of their own, so that the event loop never waits
// for a PGN file's two fsyncs (the file, then its directory: atomic_file.hpp). The loop hands
// over the whole text of a game's PGN; the writer replaces the file atomically. Only the
// newest text of a game counts: a text handed over while an older one of the same game still
// waits replaces it (the PGN is a view of the store, issue 5: "rewritten atomically after each
// made and completed move"; a newer text holds everything the older one did).
//
// After each round (every file that waited, then one directory sync for all) the writer
// reports which (game, generation) it wrote; a failed write is logged and not reported, so
// that the game's note in the store (Store::mark_pgn_pending) stays and the file is written
// again when the daemon starts (Recorder::repair_pgn_files).
//
// Threading: write(), drain() and the destructor from the loop's thread; `on_written` is
// called on the writer's thread (post it to the loop).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace eboard::daemon {

class PgnWriter {
  public:
    /// (game id, generation) of each file written in a round.
    using Written = std::function<void(std::vector<std::pair<std::string, std::uint64_t>>)>;

    /// Files go to `<dir>/<game>.pgn` (the directory is created when missing).
    PgnWriter(std::string dir, Written on_written);
    /// Writes what still waits, then stops the thread.
    ~PgnWriter();
    PgnWriter(const PgnWriter&) = delete;
    PgnWriter& operator=(const PgnWriter&) = delete;

    /// Queues the PGN `text` of `game`, tagged with `generation` (reported back once written).
    void write(const std::string& game, std::string text, std::uint64_t generation);
    /// Waits until every text queued so far is written (or failed and logged). Returns the
    /// games whose newest text could not be written (their store notes must stay).
    std::set<std::string> drain();

  private:
    struct Pending {
        std::string text;
        std::uint64_t generation = 0;
    };
    void run();

    std::string dir_;
    Written on_written_;
    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::map<std::string, Pending> pending_;
    std::set<std::string> failed_; ///< games whose last write failed
    bool busy_ = false; ///< a round is being written
    bool stop_ = false;
    std::thread thread_;
};

} // namespace eboard::daemon
