// The simulated player of an `emu-KIND:PGN` board (emu_board.hpp): replays the game of the PGN
// file on the emulated board with human handling (rules/handling.hpp) at human pace divided
// by `--speed`, each move after the daemon announced the previous one (completed when the
// board has a clock, else made). A resumed game goes on from where the store has it, if its
// moves are the PGN's first moves; otherwise the player does nothing. Once the PGN's moves are
// played the player stops; the result is the arbiter's (eboardctl result).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "daemon/emu_board.hpp"
#include "daemon/events.hpp"
#include "base/expected.hpp"
#include "rules/pgn.hpp"

namespace eboard::daemon {

class EmuPlayer {
  public:
    /// The largest game file read (a PGN database's first game is taken).
    static constexpr std::size_t kMaxGameFileBytes = 4 << 20;
    /// Reads the first game of `pgn_path`: a regular file of at most kMaxGameFileBytes, read
    /// without waiting (read_small_file). Errors: unreadable, not a regular file, too large, no
    /// game, an illegal move; they name the line and column, never quote the file.
    [[nodiscard]] static Expected<std::unique_ptr<EmuPlayer>> open(const std::string& pgn_path, double speed);
    ~EmuPlayer();
    EmuPlayer(const EmuPlayer&) = delete;
    EmuPlayer& operator=(const EmuPlayer&) = delete;

    /// The game's start position.
    [[nodiscard]] const Position& start_position() const { return start_; }
    /// The TimeControl tag, "" if none.
    [[nodiscard]] std::string time_control() const;
    /// Whether the game, after its first `plies` plies, stands in `pos` (a resumed game that
    /// is this game so far).
    [[nodiscard]] bool passes_through(const Position& pos, int plies) const;

    /// Starts playing on `board` from ply `from_ply` (the board shows the position after it);
    /// `resumed`: the daemon already has the game, so the player waits for the board to be
    /// connected instead of for a GAME start.
    void start(EmuBoard& board, int from_ply, bool resumed);
    /// Called (on the loop's thread) with every event of this board.
    void observe(const Event& event);
    /// Stops the player (idempotent).
    void stop();

  private:
    EmuPlayer(GameRecord game, Position start, double speed);
    void play(EmuBoard& board, int from_ply, bool clock);
    bool wait_for(const std::function<bool()>& pred, int timeout_ms);

    GameRecord game_;
    Position start_;
    double speed_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool ready_ = false;  ///< the game started, or the board of a resumed game is connected
    bool resumed_ = false;
    bool ended_ = false;
    bool stop_ = false;
    int made_ply_ = 0, completed_ply_ = 0;
};

} // namespace eboard::daemon
