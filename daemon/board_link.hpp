// The device side of a board: its driver session (drivers/core) read from the event loop and
// its Reconstructor (rules/reconstruction.hpp), whose moves, touches and alerts go to the
// BoardSession. Clock commands of the arbiter (penalty, set clock) go out through it.
#pragma once

#include <cstdint>
#include <future>
#include <string>

#include "base/expected.hpp"

namespace eboard::daemon {

/// What PENALTY applied (docs/client-api.md): `penalty` as the ALERT said ("+2min", "loss",
/// "draw", "win-claim", "declined"), and `winnability` "undecided" where a win claim ([05] C3)
/// stands as a win only because the full winnability mode (rules/winnable.hpp) decided nothing,
/// empty otherwise.
struct PenaltyOutcome {
    std::string penalty;
    std::string winnability;
};

class BoardLink {
  public:
    virtual ~BoardLink() = default;
    /// Opens the device (reconnecting while it is absent) and starts reading.
    virtual void start() = 0;
    /// Closes the device (waits for its thread).
    virtual void stop() = 0;
    /// Closes the device without waiting (on the loop's thread): told to stop, and nothing it
    /// still reports is taken. join() then waits for it, on any thread: a device stuck in a
    /// transfer must not stall the loop (Daemon::detach).
    virtual void request_stop() = 0;
    /// Waits until the device is closed, after request_stop().
    virtual void join() = 0;
    /// Set before start(): the device is opened only once `closed` is ready, the previous link
    /// of the same device (closed by DETACH, its thread still ending) having let it go; waited
    /// for on the device thread, at most a few seconds (then opened anyway), ended by stop().
    virtual void open_after(std::shared_future<void> closed) = 0;
    /// Sets the clock (set-and-run), ms per player. Errors when there is no clock.
    [[nodiscard]] virtual Expected<bool> set_clock(std::int64_t white_ms, std::int64_t black_ms) = 0;
    /// The arbiter applies or declines the penalty of the last illegal move.
    [[nodiscard]] virtual Expected<PenaltyOutcome> penalty(bool apply) = 0;
    /// A new game or a set position: the reconstruction starts from the session's game.
    virtual void restart_game() = 0;
};

} // namespace eboard::daemon
