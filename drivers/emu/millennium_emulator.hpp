// MillenniumEmulator: the emulated Millennium ChessLink board (MillenniumBoardEmu) served on a
// pseudo-terminal (PtyService), for eboard-emu and the tests. Every public method is
// thread-safe. Open pty_slave_path(), or device_path() (a link that survives unplug() and
// replug()), with the "millennium" driver.
#pragma once

#include "drivers/emu/millennium_emu.hpp"
#include "drivers/emu/pty_service.hpp"

#include <functional>
#include <string>

namespace eboard::drivers::emu {

class MillenniumEmulator {
  public:
    /// Opens the pty and starts serving. Throws std::runtime_error if no pty can be opened.
    explicit MillenniumEmulator(const MillenniumEmulatorOptions& options = {});
    MillenniumEmulator(const MillenniumEmulator&) = delete;
    MillenniumEmulator& operator=(const MillenniumEmulator&) = delete;

    /// "/dev/pts/N" (a new one after replug()).
    [[nodiscard]] std::string pty_slave_path() const { return pty_.slave_path(); }
    /// A symlink to the current pty that stays valid across unplug()/replug().
    [[nodiscard]] const std::string& device_path() const { return pty_.device_path(); }
    /// The service (more links, e.g. a umockdev device node).
    [[nodiscard]] PtyService& service() { return pty_; }

    // The simulated player; squares in game numbering (a1=0 .. h8=63).
    void lift(Square s);
    void place(Square s, Piece p);
    void set_position(const BoardReading& b);
    /// Lift `from`, (lift the victim on `to`,) place the piece on `to`: one plain move by hand.
    void move(Square from, Square to);
    /// The next status report stops after `keep` bytes (see MillenniumBoardEmu).
    void cut_next_report(std::size_t keep);

    [[nodiscard]] BoardReading position() const;
    /// A copy of the model (E2ROM, LEDs, counters, commands received).
    [[nodiscard]] MillenniumBoardEmu snapshot() const;
    /// Waits until `pred(model)` holds (checked after every service step) or `timeout_ms` passed.
    bool wait_until(const std::function<bool(const MillenniumBoardEmu&)>& pred, int timeout_ms);

    /// The USB cable is pulled: the pty closes, the board has no power.
    void unplug() { pty_.unplug(); }
    /// Plugged in again behind device_path(): LEDs off, reports start again, E2ROM kept.
    void replug() { pty_.replug(); }
    /// Closes the pty for good (the client sees the device vanish).
    void disconnect() { pty_.disconnect(); }

  private:
    MillenniumBoardEmu model_;  // before pty_: the service thread uses it
    PtyService pty_;
};

} // namespace eboard::drivers::emu
