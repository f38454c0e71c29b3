// The built-in emulated boards of one eboardd: `--board emu-KIND[:PGN]` (emu_board.hpp: the
// wire-level emulator read by the real driver, and the player who replays the PGN on it) and
// `--simulate` (simulation.hpp). Part of the emulators library (eboard_emulators), which the
// daemon's core library does not link: a board's session and link know nothing of it, the
// emulator only replaces what the link opens.
//
// Contract: on the event loop's thread. For each emulated board: prepare() when it is
// configured or attached (before its session: the PGN's time control goes into its
// configuration), open() once its game is taken up (the pieces stand where that game is),
// start() with its link. An emulator outlives its board's DETACH (stop_player()); the players
// and the simulation are stopped before the boards at exit.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "daemon/config.hpp"
#include "drivers/core/registry.hpp"
#include "base/expected.hpp"

namespace eboard::daemon {

class BoardRegistry;
struct BoardRecord;
class EmuBoard;
class EmuPlayer;
class Recorder;
class Simulation;

class EmulatedBoards {
  public:
    /// The options a board's driver opens with (the daemon's: learnt and configured).
    using OptionsFn = std::function<drivers::DriverOptions(const BoardRecord&)>;

    /// `speed`: how many times faster than human pace the players go (`--speed`).
    explicit EmulatedBoards(double speed);
    ~EmulatedBoards();
    EmulatedBoards(const EmulatedBoards&) = delete;
    EmulatedBoards& operator=(const EmulatedBoards&) = delete;

    /// `--simulate`: opens the emulated DGT board and its player; its board goes first into
    /// `config.boards` ("simulated"). A fresh state directory unless one is given, so that every
    /// demo starts a new game; the PGN files in it unless `--pgn-dir` says otherwise.
    [[nodiscard]] Expected<bool> open_simulation(Config& config);
    /// The simulation, or nullptr without `--simulate`.
    [[nodiscard]] Simulation* simulation() { return simulation_.get(); }

    /// An `emu-KIND[:PGN]` board (anything else: nothing to do): its player reads the PGN, whose
    /// time control `board` takes unless it has one (`config`: the global one). Errors name the
    /// board: an unknown kind, a PGN that does not read.
    [[nodiscard]] Expected<bool> prepare(BoardConfig& board, const Config& config);
    /// Whether `name` was prepared last and is not open yet (ATTACH of an emu- board).
    [[nodiscard]] bool awaits_open(const std::string& name) const;
    /// Opens the emulators of every prepared board that is in `boards`.
    [[nodiscard]] Expected<bool> open_all(BoardRegistry& boards, Recorder& recorder, const OptionsFn& options);
    /// Opens the emulator of `board`, showing its game (a resumed game), else the PGN's start,
    /// else the standard start position; its link reads it from now on. An error forgets it.
    [[nodiscard]] Expected<bool> open(BoardRecord& board, Recorder& recorder, const OptionsFn& options);
    /// Starts the player of `board`, if it has one (after its link started; a board attached
    /// again: its latest emulator's).
    void start(const BoardRecord& board);
    /// start() for every board of `boards`.
    void start_all(const BoardRegistry& boards);
    /// Stops the player of the board `name` (DETACH: the emulator stays).
    void stop_player(const std::string& name);
    /// Stops every player (the daemon stops; idempotent).
    void stop_players();
    /// Stops the simulation and every player (at exit; idempotent).
    void stop();

  private:
    struct Emulated;
    [[nodiscard]] Expected<bool> open(Emulated& e, BoardRecord& board, Recorder& recorder, const OptionsFn& options);
    void start(Emulated& e, const BoardRecord& board);

    double speed_;
    std::vector<std::unique_ptr<Emulated>> emulated_;
    std::unique_ptr<Simulation> simulation_;
};

} // namespace eboard::daemon
