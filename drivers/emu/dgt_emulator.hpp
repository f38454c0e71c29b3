// DgtEmulator: the emulated DGT board + clock (DgtBoardEmu) served on a pseudo-terminal
// (PtyService), for eboard-emu, the tests and `eboardd --simulate`. Every public method is
// thread-safe. Open pty_slave_path() with any termios client (e.g. the "dgt" driver on that
// path); disconnect() makes the device vanish as on a USB unplug.
#pragma once

#include "drivers/emu/board_emu.hpp"
#include "drivers/emu/pty_service.hpp"

#include <functional>
#include <string>

namespace eboard::drivers::emu {

class DgtEmulator {
  public:
    /// Opens the pty and starts serving. Throws std::runtime_error if no pty can be opened.
    explicit DgtEmulator(const DgtEmulatorOptions& options = {});
    DgtEmulator(const DgtEmulator&) = delete;
    DgtEmulator& operator=(const DgtEmulator&) = delete;

    /// "/dev/pts/N": the device path a driver opens (a new one after replug()).
    [[nodiscard]] std::string pty_slave_path() const { return pty_.slave_path(); }
    /// A symlink to the current pty that stays valid across unplug()/replug().
    [[nodiscard]] const std::string& device_path() const { return pty_.device_path(); }
    /// The service (more links, e.g. a umockdev device node).
    [[nodiscard]] PtyService& service() { return pty_; }

    // The simulated player; squares in game numbering (a1=0 .. h8=63).
    void lift(Square s);
    void place(Square s, Piece p);
    /// Lift `from`, (lift the victim on `to`,) place the piece on `to`: one plain move by hand.
    void move(Square from, Square to);
    void set_position(const BoardReading& b);
    void press_lever(ClockSide side);
    void press_button(int button);
    void set_clock_connected(bool connected);
    void set_drop_acks(int n);
    /// The battery the board answers 4c with from now on (none: it does not answer).
    void set_battery(std::optional<int> percent, bool charging = false);

    [[nodiscard]] BoardReading position() const;
    [[nodiscard]] BoardMode mode() const;
    [[nodiscard]] ClockEmuState clock() const;
    [[nodiscard]] int acks_dropped() const;
    /// Error ACKs sent because a clock command arrived while another awaited its ACK.
    [[nodiscard]] int error_acks_sent() const;
    /// Every byte the host wrote so far.
    [[nodiscard]] std::vector<std::uint8_t> received() const;

    /// Waits until `pred(model)` holds (checked after every service step) or `timeout_ms`
    /// passed; returns whether it holds. For tests: no sleeps, a condition.
    bool wait_until(const std::function<bool(const DgtBoardEmu&)>& pred, int timeout_ms);

    /// Closes the pty master (the client sees the device vanish) and stops the thread.
    void disconnect() { pty_.disconnect(); }
    /// The USB cable is pulled: the pty closes, the board has no power.
    void unplug() { pty_.unplug(); }
    /// Plugged in again behind device_path(): the board powers up (bus mode, dgt.md 2).
    void replug() { pty_.replug(); }

  private:
    DgtBoardEmu model_;  // before pty_: the service thread uses it
    PtyService pty_;
};

} // namespace eboard::drivers::emu
