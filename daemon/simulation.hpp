// `eboardd --simulate [PGN]`: an emulated DGT board with its DGT3000 clock (drivers/emu) on
// an in-process pseudo-terminal, read by the real DGT driver like any board, and a simulated
// player who replays a real game on it with human handling (rules/handling.hpp: orders of
// lifts and placements, slides, bounces, j'adoube) at human pace, or `--speed` times faster.
// Default game: Deep Blue - Kasparov, New York 1997, game 6 (embedded).
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "daemon/config.hpp"
#include "daemon/events.hpp"
#include "base/expected.hpp"
#include "rules/pgn.hpp"
#include "rules/position.hpp"

namespace eboard::drivers::emu {
class DgtEmulator;
}

namespace eboard::daemon {

/// The embedded default game (PGN text).
[[nodiscard]] const std::string& embedded_simulation_pgn();

class Simulation {
  public:
    /// Reads the game (`pgn_path` empty: the embedded one) and opens the emulated board.
    /// Errors: unreadable file, no game in it, a move that is not legal. `clock` false
    /// (--clock none): the daemon completes a move only when the next one is made, so the
    /// player goes on once his move is made.
    [[nodiscard]] static Expected<std::unique_ptr<Simulation>> open(const std::string& pgn_path,
                                                                    double speed, bool clock = true);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    /// The board's configuration: "dgt:" + the pty, named "simulated", PGN tags of the game.
    [[nodiscard]] BoardConfig board() const;
    /// The game's TimeControl tag, "" if none.
    [[nodiscard]] std::string time_control() const;

    /// The daemon took up the board's unfinished game (a restart, after a crash or kill -9),
    /// which stands in `at` after `plies` plies: if that is the source game so far, the pieces
    /// are set where it left them (as on a real board that stayed on the table) and the player
    /// goes on from there once the board is connected, first pressing the clock for the last
    /// move if it was made and not `last_completed` (the kill came before his press); otherwise
    /// (another game) nothing changes and the daemon sees a new game set up. Before start().
    /// Returns whether resumed.
    bool resume(const Position& at, int plies, bool last_completed);

    /// Called (on the loop's thread) for every event the daemon recorded. The player starts
    /// once the game has started, and waits for each of its moves to be completed.
    void observe(const Event& event);

    /// Starts the player thread. `finish` is called from it once the game's last move is
    /// completed (or it gave up), with the result of the source game.
    void start(std::function<void(const std::string& result)> finish);

    /// Stops the player (idempotent).
    void stop();

  private:
    Simulation(eboard::GameRecord game, double speed, bool clock);
    void play();
    bool wait_for(const std::function<bool()>& pred, int timeout_ms);

    eboard::GameRecord game_;
    double speed_;
    bool clock_;
    std::unique_ptr<drivers::emu::DgtEmulator> emulator_;
    std::function<void(const std::string&)> finish_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool started_ = false;
    int from_ply_ = 0;       ///< resume(): the ply the player goes on from
    bool press_first_ = false; ///< resume(): the last move waits for its clock press
    bool connected_ = false; ///< the board is connected (a resumed game has no GAME start)
    bool ended_ = false;
    bool stop_ = false;
    int completed_ply_ = 0;
    int made_ply_ = 0;
};

} // namespace eboard::daemon
