// PtyService: serves any wire-level device model (a pure state machine: host bytes and the
// time in, reply chunks out) on a pseudo-terminal, for eboard-emu, the tests and
// `eboardd --simulate`. Every board emulator (DGT, Certabo/Sentio, ...) is a WireModel run by
// one of these.
//
// Threading: the constructor opens a pty and starts one service thread that sleeps until host
// bytes arrive, a player action wakes it (act()), the pty can take pending replies, or the
// model's next timer is due (WireModel::next_tick_ms) -- never on a fixed tick, so an idle
// board costs no wake-ups, with or without a client. Each wake-up is one service step: host
// bytes to the model, its timers run, the replies queued and written. The model is only
// touched under the service's mutex: use act() for player actions (it wakes the thread so the
// reply goes out at once) and inspect() for reads.
//
// The service keeps its own fd on the slave open, so the master never sees the POLLHUP that a
// pty reports before its slave is first opened (Linux pty(7)). Should the
// master report POLLHUP/EIO anyway (our slave fd hung up), the service reopens its slave fd; if
// that does not clear it, it stops listening to the master and looks again at most once a
// second, instead of spinning. Replies the client does not read wait in a bounded queue
// (POLLOUT); beyond kMaxPendingBytes the oldest are lost, as on a real line with nobody
// listening. disconnect() closes the master: the client then reads EOF/EIO, as on a USB unplug.
//
// Unplug and replug: device_path() is a symlink to the current slave (like a udev by-id link)
// that survives unplug()/replug(). unplug() closes the pty (the client reads EOF/EIO) and
// removes the links; the model gets no time. replug() opens a new pty behind the same links
// and powers the model up (WireModel::power_on). add_link() adds more such links, e.g. the
// device node of a umockdev testbed, so the libserialport path reaches the same emulator.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/events.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace eboard::drivers::emu {

/// A device at the wire level, as a pure state machine (no I/O, time passed in, ms).
class WireModel {
  public:
    virtual ~WireModel() = default;
    /// Bytes the host wrote, at time `now`.
    virtual void receive(std::span<const std::uint8_t> bytes, TimeMs now) = 0;
    /// Runs the device's timers up to `now`.
    virtual void tick(TimeMs now) = 0;
    /// Reply chunks produced so far (each written with one write, unless fragmented); clears them.
    [[nodiscard]] virtual std::vector<std::vector<std::uint8_t>> take_output() = 0;
    /// When tick() must run next (ms, the clock of `now`), asked after every service step
    /// (receive, tick, player actions): the earliest timer the device has armed (a scan with a
    /// change to report, a late reply, a periodic report), kNoTick when nothing happens before
    /// the next host bytes or player action. PtyService sleeps until then. Default: now + 5, a
    /// model polled every 5 ms.
    [[nodiscard]] virtual TimeMs next_tick_ms(TimeMs now) const { return now + 5; }
    /// Power returns after an unplug (PtyService::replug): back to the power-up state; the
    /// pieces stay where they are. Default: nothing to reset.
    virtual void power_on(TimeMs now) { (void)now; }
};

class PtyService {
  public:
    /// Opens the pty and starts serving `model` (which must outlive the service). With
    /// `fragment_max` > 0 replies are written in pieces of 1..fragment_max bytes (seeded).
    /// Throws std::runtime_error if no pty can be opened.
    PtyService(WireModel& model, std::size_t fragment_max = 0, unsigned seed = 1);
    ~PtyService();
    PtyService(const PtyService&) = delete;
    PtyService& operator=(const PtyService&) = delete;

    /// "/dev/pts/N" of the current pty (a new one after replug()).
    [[nodiscard]] std::string slave_path() const;
    /// A symlink to the current slave that stays valid across unplug()/replug().
    [[nodiscard]] const std::string& device_path() const { return link_; }
    /// Makes `path` one more symlink to the current slave (replaced if it exists).
    void add_link(const std::string& path);

    /// Runs `f` under the model lock, then wakes the service thread (a player action).
    template <typename F>
    void act(F&& f) {
        {
            const std::lock_guard lock(mutex_);
            f();
        }
        wake();
    }
    /// Runs `f` under the model lock and returns its result (a read).
    template <typename F>
    auto inspect(F&& f) const {
        const std::lock_guard lock(mutex_);
        return f();
    }
    /// Waits until `pred()` (called under the lock, after every service step) holds or
    /// `timeout_ms` passed; returns whether it holds. For tests: no sleeps, a condition.
    bool wait_until(const std::function<bool()>& pred, int timeout_ms);

    /// Closes the pty master (the client sees the device vanish) and stops the thread.
    void disconnect();
    /// The cable is pulled: the pty closes, the links go, the model gets no time. Returns when
    /// done (the service thread does it).
    void unplug();
    /// Plugged in again: a new pty behind the same links; the model powers up.
    void replug();
    /// True between unplug() and replug().
    [[nodiscard]] bool unplugged() const;
    /// Service steps (wake-ups of the service thread) so far: for tests and benchmarks that
    /// check an idle device costs nothing.
    [[nodiscard]] std::uint64_t service_steps() const { return steps_; }

    /// Replies queued beyond this (bytes) while the client reads nothing drop the oldest.
    static constexpr std::size_t kMaxPendingBytes = 64 * 1024;

  private:
    void run();
    void wake();
    void queue_out(std::vector<std::vector<std::uint8_t>>&& chunks);
    void write_pending();
    [[nodiscard]] bool reopen_own_slave();
    void open_pty();
    void close_pty();
    void request_plug(int request);

    WireModel& model_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t fragment_max_;
    unsigned seed_;
    int master_ = -1, slave_ = -1, wake_ = -1;  // master_/slave_: the service thread's
    int plug_ = 0;                               // pending unplug/replug (under mutex_)
    std::string slave_path_, dir_, link_;        // slave_path_, links_: under mutex_
    std::vector<std::string> links_;
    std::deque<std::vector<std::uint8_t>> pending_;  // replies not written yet (service thread)
    std::size_t pending_bytes_ = 0;
    std::atomic<std::uint64_t> steps_{0};
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace eboard::drivers::emu
