// Where every event goes, in this order: the store (durable, one transaction), the game's
// PGN file (rewritten atomically on MOVE, RESULT and GAME events), then the announcements:
// the --events stream, the socket's watchers, the console of --simulate. An event the store
// could not record is not announced (a completed move is durable before it is announced).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "daemon/events.hpp"
#include "daemon/store.hpp"

namespace eboard::daemon {

class Recorder {
  public:
    /// Gets the event and its JSON line (ending in '\n').
    using Sink = std::function<void(const Event&, const std::string& line)>;

    /// `pgn_dir` empty: no PGN files.
    Recorder(Store& store, std::string pgn_dir);

    /// Adds an announcement sink (events file, socket, console).
    void add_sink(Sink sink);

    /// Records, then announces. False (and an error logged) when the store failed: the event
    /// was not announced. `time_ms` is the wall-clock time of the event (ms since the epoch).
    bool publish(const Event& event, std::int64_t time_ms);

    /// Announces without recording (VERSION lines, replies): sinks only.
    void announce(const Event& event);

    /// Rewrites the PGN file of `game` from the store. False (logged) on failure.
    bool write_pgn(const std::string& game);

    /// `<pgn-dir>/<game>.pgn`, or "" without --pgn-dir.
    [[nodiscard]] std::string pgn_path(const std::string& game) const;

    [[nodiscard]] Store& store() { return store_; }

  private:
    Store& store_;
    std::string pgn_dir_;
    std::vector<Sink> sinks_;
};

/// Milliseconds since the Unix epoch, now.
[[nodiscard]] std::int64_t wall_clock_ms();

} // namespace eboard::daemon
