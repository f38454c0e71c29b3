// DgtEmulator: the emulated DGT board + clock (DgtBoardEmu) served on a pseudo-terminal, for
// eboard-emu, the tests and `eboardd --simulate`.
//
// Threading: a PtyService (pty_service.hpp) runs one service thread that polls the pty master
// (every <= 5 ms), feeds host bytes to the board model, runs its timers and writes the
// replies. Every public method is thread-safe (one mutex around the model). Open
// pty_slave_path() (or device_path(), which survives unplug/replug) with any termios client
// (e.g. the "dgt" driver on that path). disconnect() closes the master for good: the client
// then reads EOF/EIO, as on a USB unplug; unplug()/replug() do it and come back.
#pragma once

#include "drivers/core/session.hpp"
#include "drivers/emu/board_emu.hpp"
#include "drivers/emu/pty_service.hpp"

#include <functional>
#include <string>

namespace eboard::drivers::emu {

class DgtEmulator {
  public:
    /// Opens the pty and starts serving. Throws std::runtime_error if no pty can be opened.
    explicit DgtEmulator(DgtEmulatorOptions options = {});
    ~DgtEmulator();
    DgtEmulator(const DgtEmulator&) = delete;
    DgtEmulator& operator=(const DgtEmulator&) = delete;

    /// "/dev/pts/N": the device path a driver opens.
    [[nodiscard]] std::string pty_slave_path() const { return service_.slave_path(); }
    /// A symlink to the current pty that stays valid across unplug()/replug().
    [[nodiscard]] const std::string& device_path() const { return service_.device_path(); }
    /// The service (links for a umockdev testbed, unplug/replug).
    [[nodiscard]] PtyService& service() { return service_; }

    // The simulated player; squares in game numbering (a1=0 .. h8=63).
    void lift(Square s);
    void place(Square s, Piece p);
    /// Lift `from`, (lift the victim on `to`,) place the piece on `to`: one plain move by hand.
    void move(Square from, Square to);
    void set_position(const BoardState& b);
    void press_lever(ClockSide side);
    void press_button(int button);
    void set_clock_connected(bool connected);
    void set_drop_acks(int n);

    [[nodiscard]] BoardState position() const;
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
    void disconnect();
    /// The USB cable is pulled: the pty closes, the model gets no power.
    void unplug() { service_.unplug(); }
    /// Plugged in again: a new pty behind device_path(); the board powers up (bus mode).
    void replug() { service_.replug(); }

  private:
    /// Runs `f(model, now)` under the lock, then lets the thread serve it at once.
    template <typename F>
    void act(F&& f) {
        {
            const std::lock_guard lock(service_.mutex());
            f(model_, steady_now_ms());
        }
        service_.wake();
    }

    DgtBoardEmu model_;
    PtyService service_; // last: its thread stops before the model goes
};

} // namespace eboard::drivers::emu
