// `--board emu-KIND[:PGN]` (eboardd(8), BOARDS: the built-in emulators): the wire-level
// emulator of drivers/emu, inside eboardd, read by the real driver of KIND exactly as a plugged
// board is, and optionally a simulated player who replays a game on it (EmuPlayer).
//
//   emu-dgt         DgtEmulator (board + DGT3000 clock) on an in-process pty, driver `dgt`
//   emu-certabo     LineEmulator (RFID tags, calibrated from the start position), driver `certabo`
//   emu-sentio      LineEmulator (occupancy only), driver `sentio`
//   emu-millennium  MillenniumEmulator (7O1, XOR block check), driver `millennium`
//   emu-chessnut    ChessnutEmulator (USB HID reports) through an in-process report loopback
//                   instead of libusb (ReportLoopback), driver `chessnut`
//
// The pty boards go through open_device("KIND:/dev/pts/N"): termios transport, framer, driver,
// byte for byte the code a real board runs. The emulator is set up with the position of the
// board's game (a resumed game: the pieces are where the game left them, as on a real board
// that stayed on the table), else the standard start position.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/emu_uri.hpp"
#include "daemon/simulated_player.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/core/session.hpp"
#include "base/expected.hpp"
#include "rules/position.hpp"

namespace eboard::daemon {

/// The times an emulated clock starts with: the first period of the PGN TimeControl `tc_text`,
/// else 90 minutes (ms).
[[nodiscard]] std::int64_t clock_start_ms(const std::string& tc_text);

/// One built-in emulated board. The player's methods are thread-safe.
class EmuBoard {
  public:
    virtual ~EmuBoard() = default;

    /// The emulator KIND, set up showing `shown`; a clock (DGT) shows `clock_ms` on both
    /// sides, stopped. Errors: unknown kind, no pty.
    [[nodiscard]] static Expected<std::unique_ptr<EmuBoard>> create(const std::string& kind,
                                                                    const Position& shown,
                                                                    std::int64_t clock_ms);

    /// The driver session reading this board (not started; reconnection on). Called from the
    /// device thread; `options` go to the driver (persisted settings, board_settings.hpp).
    [[nodiscard]] virtual Expected<std::unique_ptr<drivers::DeviceSession>> open_session(
        drivers::DeviceSession::EventSink sink, const drivers::DriverOptions& options) = 0;

    /// The simulated player's hands on this board (no `press` without a clock).
    [[nodiscard]] virtual SimulatedPlayer::Hands hands() = 0;
    /// Whether the board reports which piece stands where (all but the Sentio).
    [[nodiscard]] virtual bool identity() const { return true; }
    /// Whether a clock is attached (the DGT board's DGT3000).
    [[nodiscard]] virtual bool has_clock() const { return false; }
};

} // namespace eboard::daemon
