#include "drivers/emu/pty_service.hpp"

#include "drivers/core/session.hpp"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <random>
#include <stdexcept>
#include <sys/eventfd.h>
#include <termios.h>
#include <unistd.h>

namespace eboard::drivers::emu {

PtyService::PtyService(WireModel& model, std::size_t fragment_max, unsigned seed)
    : model_(model), fragment_max_(fragment_max), seed_(seed) {
    char name[128] = {};
    if (::openpty(&master_, &slave_, name, nullptr, nullptr) != 0)
        throw std::runtime_error("openpty failed");
    slave_path_ = name;
    // Raw at once: with the default ECHO the emulator's own replies would come back to it as
    // host input until the client configured the line.
    termios t{};
    ::tcgetattr(slave_, &t);
    ::cfmakeraw(&t);
    ::tcsetattr(slave_, TCSANOW, &t);
    ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
    ::fcntl(master_, F_SETFD, FD_CLOEXEC);
    ::fcntl(slave_, F_SETFD, FD_CLOEXEC);
    wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([this] { run(); });
}

PtyService::~PtyService() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (master_ >= 0) ::close(master_);
    if (slave_ >= 0) ::close(slave_);
    if (wake_ >= 0) ::close(wake_);
}

void PtyService::wake() {
    const std::uint64_t one = 1;
    if (wake_ >= 0) (void)!::write(wake_, &one, sizeof one);
}

void PtyService::disconnect() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (master_ >= 0) ::close(master_);
    master_ = -1;
    // Our own slave fd would keep the line "up" for nobody; close it too.
    if (slave_ >= 0) ::close(slave_);
    slave_ = -1;
}

void PtyService::write_out(std::vector<std::vector<std::uint8_t>> chunks) {
    std::mt19937 rng(seed_++);
    for (const auto& chunk : chunks) {
        std::size_t done = 0;
        while (done < chunk.size()) {
            std::size_t n = chunk.size() - done;
            if (fragment_max_ > 0) {
                std::uniform_int_distribution<std::size_t> d(1, fragment_max_);
                n = std::min(n, d(rng));
            }
            const ssize_t w = ::write(master_, chunk.data() + done, n);
            if (w > 0) {
                done += static_cast<std::size_t>(w);
            } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
                pollfd p{master_, POLLOUT, 0};
                ::poll(&p, 1, 10);
                if (stop_) return;
            } else {
                return;  // nobody listening: replies are lost, as on a real line
            }
        }
    }
}

void PtyService::run() {
    std::uint8_t buf[512];
    while (!stop_) {
        // Wake on host bytes, on a player action (wake()), or after 5 ms for the timers.
        pollfd fds[2] = {{master_, POLLIN, 0}, {wake_, POLLIN, 0}};
        const int r = ::poll(fds, wake_ >= 0 ? 2 : 1, 5);
        const pollfd& p = fds[0];
        if (r > 0 && wake_ >= 0 && (fds[1].revents & POLLIN)) {
            std::uint64_t n = 0;
            (void)!::read(wake_, &n, sizeof n);
        }
        std::vector<std::uint8_t> got;
        if (r > 0 && (p.revents & POLLIN)) {
            const ssize_t n = ::read(master_, buf, sizeof buf);
            if (n > 0) got.assign(buf, buf + n);
        }
        // POLLHUP / EIO without data: no client has the slave open right now; keep going.
        std::vector<std::vector<std::uint8_t>> out;
        {
            const std::lock_guard lock(mutex_);
            const Millis now = steady_now_ms();
            if (!got.empty()) model_.receive(got, now);
            model_.tick(now);
            out = model_.take_output();
        }
        write_out(std::move(out));
        changed_.notify_all();
    }
}

bool PtyService::wait_until(const std::function<bool()>& pred, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), pred);
}

} // namespace eboard::drivers::emu
