// A serial line with faults on demand, between eboardd and a board emulator on a pty (the
// cable, as the fault tests need it): eboardd opens host_path(), a pty of the line's own; a
// thread forwards every byte both ways between it and the emulator's pty, and on request
// - floods the host with garbage as fast as it reads, holding the board's output back until
//   the flood stops (so the next valid message after the garbage is the board's own), or
// - cuts the line in the middle of a message: forwards only the first bytes of the board's
//   next message that starts with a given byte, then hangs up (the host reads EOF/EIO, as on
//   a USB unplug).
// Waits are conditions with deadlines, never sleeps. Header-only, Linux ptys (openpty).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace eboard::test {

class FaultyLine {
  public:
    /// Opens a pty for the host and the emulator's tty `board_tty` (e.g. its pty slave).
    explicit FaultyLine(const std::string& board_tty, std::uint64_t seed = 1) : random_(seed) {
        char name[256] = {};
        if (::openpty(&master_, &slave_, name, nullptr, nullptr) != 0) throw std::runtime_error("openpty");
        host_path_ = name;
        // Not inherited by eboardd: a copy of the master in the daemon would keep the line up.
        ::fcntl(master_, F_SETFD, FD_CLOEXEC);
        ::fcntl(slave_, F_SETFD, FD_CLOEXEC);
        raw(slave_);
        ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
        board_ = ::open(board_tty.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (board_ < 0) throw std::runtime_error("cannot open " + board_tty);
        raw(board_);
        thread_ = std::thread([this] { run(); });
    }
    ~FaultyLine() {
        stop_ = true;
        thread_.join();
        if (master_ >= 0) ::close(master_);
        ::close(slave_);
        ::close(board_);
    }
    FaultyLine(const FaultyLine&) = delete;
    FaultyLine& operator=(const FaultyLine&) = delete;

    /// The tty eboardd opens ("/dev/pts/N").
    [[nodiscard]] const std::string& host_path() const { return host_path_; }

    /// Starts or stops the flood of garbage. The garbage never contains 0x00, so no valid DGT
    /// message can appear in it by chance (every message shorter than 128 bytes has 0x00 as
    /// the high byte of its size, dgt.md 3); everything else, headers included, does.
    void flood(bool on) {
        std::lock_guard lock(mutex_);
        flooding_ = on;
    }
    /// Garbage bytes the host has taken so far.
    [[nodiscard]] std::uint64_t flooded_bytes() const { return flooded_; }

    /// Forwards only `keep` bytes of the board's next message that starts with `header`, then
    /// hangs up.
    void cut_next(std::uint8_t header, std::size_t keep) {
        std::lock_guard lock(mutex_);
        cut_header_ = header;
        cut_keep_ = keep;
        cutting_ = true;
    }
    /// Waits until `pred()` (called under the line's lock after every step) holds.
    template <typename Pred>
    bool wait(Pred pred, int timeout_ms) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), pred);
    }
    /// Waits until the line was cut.
    bool wait_cut(int timeout_ms) { return wait([this] { return hung_up_; }, timeout_ms); }
    /// Waits until `bytes` of garbage went to the host.
    bool wait_flooded(std::uint64_t bytes, int timeout_ms) {
        return wait([this, bytes] { return flooded_ >= bytes; }, timeout_ms);
    }

  private:
    static void raw(int fd) {
        termios t{};
        if (::tcgetattr(fd, &t) == 0) {
            ::cfmakeraw(&t);
            ::tcsetattr(fd, TCSANOW, &t);
        }
    }

    // Writes what it can of `buf` to the host; drops what was written.
    void to_host(std::vector<std::uint8_t>& buf) {
        if (buf.empty() || master_ < 0) return;
        const ssize_t n = ::write(master_, buf.data(), buf.size());
        if (n > 0) buf.erase(buf.begin(), buf.begin() + n);
    }

    // Forwards what comes before the message to cut; once `cut_keep_` bytes of it are there,
    // writes them and hangs up.
    void cut(std::vector<std::uint8_t>& held) {
        std::size_t i = 0;
        while (i < held.size() && held[i] != cut_header_) ++i;
        if (i == held.size() || i + cut_keep_ > held.size()) { // not there yet: forward the rest
            std::vector<std::uint8_t> before(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(i));
            held.erase(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(i));
            ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) & ~O_NONBLOCK);
            (void)!::write(master_, before.data(), before.size());
            ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
            return;
        }
        ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) & ~O_NONBLOCK);
        (void)!::write(master_, held.data(), i + cut_keep_);
        ::tcdrain(master_);
        ::close(master_);
        master_ = -1;
        hung_up_ = true;
        held.clear();
    }

    void run() {
        std::vector<std::uint8_t> held; // board -> host, not yet written
        std::vector<std::uint8_t> garbage(4096);
        std::uniform_int_distribution<int> byte(1, 255);
        std::uint8_t buf[4096];
        while (!stop_) {
            pollfd p[2] = {{board_, POLLIN, 0}, {master_, POLLIN, 0}};
            const bool want_out = !held.empty() || flooding_;
            if (want_out && master_ >= 0) p[1].events |= POLLOUT;
            ::poll(p, master_ >= 0 ? 2 : 1, 5);
            std::lock_guard lock(mutex_);
            if (p[0].revents & POLLIN) {
                const ssize_t n = ::read(board_, buf, sizeof buf);
                if (n > 0) held.insert(held.end(), buf, buf + n);
            }
            if (master_ >= 0 && (p[1].revents & POLLIN)) { // host -> board, unchanged
                const ssize_t n = ::read(master_, buf, sizeof buf);
                if (n > 0) (void)!::write(board_, buf, static_cast<std::size_t>(n));
            }
            if (master_ >= 0 && cutting_) cut(held);
            if (master_ >= 0 && flooding_) {
                for (auto& b : garbage) b = static_cast<std::uint8_t>(byte(random_));
                const ssize_t n = ::write(master_, garbage.data(), garbage.size());
                if (n > 0) flooded_ += static_cast<std::uint64_t>(n);
            } else if (master_ >= 0 && !cutting_) {
                to_host(held);
            }
            if (master_ < 0) held.clear(); // the cable is cut: the board talks to nobody
            changed_.notify_all();
        }
    }

    int master_ = -1, slave_ = -1, board_ = -1;
    std::string host_path_;
    std::mt19937_64 random_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool flooding_ = false;
    bool cutting_ = false;
    bool hung_up_ = false;
    std::uint8_t cut_header_ = 0;
    std::size_t cut_keep_ = 0;
    std::atomic<std::uint64_t> flooded_{0};
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace eboard::test
