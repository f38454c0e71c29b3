// DgtEmulator: the emulated DGT board + clock (DgtBoardEmu) served on a pseudo-terminal, for
// eboard-emu, the tests and `eboardd --simulate`.
//
// Threading: the constructor opens a pty and starts one service thread that polls the pty
// master (every <= 5 ms), feeds host bytes to the board model, runs its timers and writes the
// replies. Every public method is thread-safe (one mutex around the model). Open
// pty_slave_path() with any termios client (e.g. the "dgt" driver on that path).
//
// The emulator keeps its own fd on the slave open, so the master never sees the POLLHUP that
// a pty reports before its slave is first opened (testing-without-hardware.md 2.1); the loop
// also tolerates EIO/POLLHUP by retrying. disconnect() closes the master: the client then reads
// EOF/EIO, as on a USB unplug.
#pragma once

#include "drivers/emu/board_emu.hpp"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace eboard::drivers::emu {

class DgtEmulator {
  public:
    /// Opens the pty and starts serving. Throws std::runtime_error if no pty can be opened.
    explicit DgtEmulator(DgtEmulatorOptions options = {});
    ~DgtEmulator();
    DgtEmulator(const DgtEmulator&) = delete;
    DgtEmulator& operator=(const DgtEmulator&) = delete;

    /// "/dev/pts/N": the device path a driver opens.
    [[nodiscard]] const std::string& pty_slave_path() const { return slave_path_; }

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

  private:
    void run();
    void wake();  // lets the service thread report a player action at once
    void write_out(std::vector<std::vector<std::uint8_t>> chunks);

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    DgtBoardEmu model_;
    std::size_t fragment_max_;
    unsigned seed_;
    int master_ = -1, slave_ = -1, wake_ = -1;
    std::string slave_path_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace eboard::drivers::emu
