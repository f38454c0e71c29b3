// PtyService: serves a wire-level board model (a pure state machine: host bytes and the time
// in, reply chunks out) on a pseudo-terminal with one service thread. DgtEmulator and
// MillenniumEmulator are thin front ends on it.
//
// Threading: the constructor opens a pty and starts the thread, which polls the pty master
// (every <= 5 ms, or at once after wake()), hands host bytes and the time to the model and
// writes the replies, optionally in random fragments. The model is guarded by mutex(): lock it
// around every access from another thread, then call wake() so a player action is reported at
// once. wait_until() waits on a condition checked after every service step (no sleeps).
//
// The service keeps its own fd on the slave open, so the master never sees the POLLHUP that a
// pty reports before its slave is first opened (testing-without-hardware.md 2.1).
//
// Unplugging: device_path() is a symlink to the current slave (like a udev by-id link) that
// survives unplug()/replug(): unplug() closes the pty (the client reads EOF/EIO, as on a USB
// unplug) and removes the links, replug() opens a new pty, points the links at it and powers
// the model up again. add_link() adds more such links (e.g. the device node of a umockdev
// testbed, so the libserialport path reaches the same emulator).
#pragma once

#include "drivers/core/events.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace eboard::drivers::emu {

/// Reply chunks of a model: each is written as one piece unless fragmentation is on.
using Chunks = std::vector<std::vector<std::uint8_t>>;

/// What the service needs from a model; all are called with mutex() held.
struct WireModel {
    std::function<void(std::span<const std::uint8_t> host_bytes, Millis now)> receive;
    std::function<void(Millis now)> tick;
    std::function<Chunks()> take_output;
    std::function<void(Millis now)> power_on; ///< after replug(): back to the power-up state
};

class PtyService {
  public:
    /// Opens the pty and starts serving. Throws std::runtime_error if no pty can be opened.
    /// fragment_max > 0: replies are written in random pieces of 1..fragment_max bytes.
    PtyService(WireModel model, std::size_t fragment_max, unsigned seed);
    ~PtyService();
    PtyService(const PtyService&) = delete;
    PtyService& operator=(const PtyService&) = delete;

    /// "/dev/pts/N" of the current pty (changes on replug()).
    [[nodiscard]] std::string slave_path() const;
    /// A symlink to the current slave that stays valid across unplug()/replug().
    [[nodiscard]] const std::string& device_path() const { return link_; }
    /// Makes `path` one more symlink to the current slave (replaced if it exists).
    void add_link(const std::string& path);

    /// Guards the model.
    [[nodiscard]] std::mutex& mutex() const { return mutex_; }
    /// Lets the thread serve a player action at once.
    void wake();
    /// Waits until `pred()` (called with mutex() held) holds or `timeout_ms` passed.
    bool wait_until(const std::function<bool()>& pred, int timeout_ms);

    /// The board is unplugged: the pty closes, the links go, the model gets no time.
    void unplug();
    /// Plugged in again: a new pty behind the same links; the model powers up.
    void replug();
    /// True between unplug() and replug().
    [[nodiscard]] bool unplugged() const;
    /// Stops the thread and closes the pty for good (the client sees the device vanish).
    void stop();

  private:
    void run();
    void open_pty();
    void close_pty();
    void write_out(const Chunks& chunks);

    WireModel model_;
    std::size_t fragment_max_;
    unsigned seed_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    int master_ = -1, slave_ = -1, wake_ = -1; // master_/slave_: the service thread's
    int plug_ = 0;                             // pending unplug/replug request (mutex_)
    std::string slave_path_, dir_, link_;
    std::vector<std::string> links_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace eboard::drivers::emu
