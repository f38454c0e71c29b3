// Test helpers for the Certabo and Sentio drivers (the line protocol family): the driver in a
// DeviceSession on LineEmulator's pty, and whole games played through a Loopback (emulator
// model and driver byte for byte on simulated time).
#pragma once

#include "base/placement.hpp"
#include "game_sweep.hpp"
#include "harness.hpp"
#include "pgn_moves.hpp"

#include "drivers/certabo/driver.hpp"
#include "drivers/emu/line_emulator.hpp"
#include "drivers/sentio/driver.hpp"
#include "drivers/sentio/protocol.hpp"

#include <map>

namespace eboard::drivers::test {

/// A line-board driver `D` in a DeviceSession on the emulator's pty.
template <typename D>
struct LineHarness : SessionHarness {
    std::unique_ptr<emu::LineEmulator> emu;
    D* driver = nullptr;

    LineHarness(const emu::LineEmulatorOptions& eo, std::unique_ptr<D> d)
        : emu(std::make_unique<emu::LineEmulator>(eo)) {
        // cppcheck-suppress danglingLifetime ; the driver lives on the heap, owned by the session
        driver = d.get();
        open(emu->pty_slave_path(), std::move(d));
    }
    /// The first board arrived.
    bool ready() {
        return pump_until([&] { return !all<BoardSnapshot>().empty(); });
    }
};

/// What the board shows of `b`: the pieces (Certabo), or who stands where (Sentio).
inline BoardReading seen(const BoardReading& b, emu::LineBoardKind kind) {
    return kind == emu::LineBoardKind::Sentio ? sentio::board_of(b.occupancy()) : b;
}

/// More pieces of one kind than a set holds (8 pawns, 2 knights/bishops/rooks, 1 king, 2
/// queens with the spare one): a player would take pieces from a second set.
inline bool needs_second_set(const std::vector<BoardReading>& boards) {
    for (const BoardReading& b : boards) {
        std::map<Piece, int> n;
        for (int i = 0; i < 64; ++i) ++n[b.at(Square(i)).piece];
        for (const auto& [p, count] : n) {
            if (p == Piece::None) continue;
            const PieceType t = type_of(p);
            const int max = t == PieceType::Pawn ? 8 : t == PieceType::King ? 1 : 2;
            if (count > max) return true;
        }
    }
    return false;
}

/// Plays game `g` through a Loopback with one frame every `eo.frame_period_ms` simulated ms.
/// A Certabo driver first calibrates from the start position with both spare queens (or, for
/// a game that needs a second set, loads the emulator's full calibration like
/// certabo-lichess --addpiece); then the game's start is set up and every move played by hand.
/// After each move the driver's board must become what the emulator holds within 8 frames.
/// Returns the number of moves matched.
inline int play_game_loopback(const PgnGame& g, emu::LineEmulatorOptions eo) {
    const std::vector<BoardReading> boards = game_boards(g);
    REQUIRE(boards.size() == g.san.size() + 1);
    const bool certabo = eo.kind == emu::LineBoardKind::Certabo;
    const bool second_set = certabo && needs_second_set(boards);
    if (second_set) eo.extra_sets = 1;
    const TimeMs period = eo.frame_period_ms;
    emu::LineBoardEmu board(eo);
    std::unique_ptr<line::LineDriver> driver;
    certabo::CertaboDriver* cd = nullptr;
    if (certabo) {
        certabo::CertaboOptions co;
        co.line.rotated = eo.rotated;
        if (second_set) co.calibration = board.full_calibration();
        auto d = std::make_unique<certabo::CertaboDriver>(co);
        cd = d.get();
        driver = std::move(d);
        if (!second_set) board.set_calibration_position();
    } else {
        line::LineOptions lo = sentio::SentioDriver::defaults();
        lo.rotated = eo.rotated;
        driver = std::make_unique<sentio::SentioDriver>(lo);
    }
    Loopback loop(board, *driver);
    if (cd) REQUIRE(loop.run_until([&] { return cd->calibrated(); }, 40 * period, period));
    board.set_position(boards[0]);
    const auto converged = [&](const BoardReading& want) {
        return loop.run_until([&] { return driver->board() == seen(want, eo.kind); }, 8 * period, period);
    };
    REQUIRE(converged(boards[0]));
    int matched = 0;
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << g.san[i - 1]);
        play_on_board(board, boards[i - 1], boards[i]);
        CHECK(board.position() == boards[i]);
        const bool ok = converged(boards[i]);
        CHECK(write_placement(driver->board()) == write_placement(seen(boards[i], eo.kind)));
        if (!ok) break;
        ++matched;
    }
    return matched;
}

/// Every game of data/games (sweep_shared_games: every file, both orientations)
/// through play_game_loopback, one frame every 10 simulated ms; each game must be matched to
/// its last move.
inline SweepCount play_all_games(emu::LineBoardKind kind) {
    return sweep_shared_games([kind](const PgnGame& g, bool rotated) {
        emu::LineEmulatorOptions eo;
        eo.kind = kind;
        eo.rotated = rotated;
        eo.frame_period_ms = 10;
        CHECK(play_game_loopback(g, eo) == static_cast<int>(g.san.size()));
    });
}

} // namespace eboard::drivers::test
