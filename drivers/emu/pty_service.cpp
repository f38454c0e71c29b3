#include "drivers/emu/pty_service.hpp"

#include "drivers/core/session.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <random>
#include <stdexcept>
#include <sys/eventfd.h>
#include <termios.h>
#include <unistd.h>

namespace eboard::drivers::emu {

namespace {

enum PlugRequest : int { kNone = 0, kUnplug = 1, kReplug = 2 };

/// Points `link` at `target` atomically (a client opening it never finds it missing).
void point_link(const std::string& link, const std::string& target) {
    const std::string tmp = link + ".new";
    ::unlink(tmp.c_str());
    if (::symlink(target.c_str(), tmp.c_str()) == 0) (void)::rename(tmp.c_str(), link.c_str());
}

} // namespace

PtyService::PtyService(WireModel& model, std::size_t fragment_max, unsigned seed)
    : model_(model), fragment_max_(fragment_max), seed_(seed) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/eboard-emu-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = templ;
    link_ = dir_ + "/tty";
    links_.push_back(link_);
    open_pty();
    wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([this] { run(); });
}

PtyService::~PtyService() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    close_pty();
    if (wake_ >= 0) ::close(wake_);
    ::rmdir(dir_.c_str());
}

void PtyService::open_pty() {
    char name[128] = {};
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, name, nullptr, nullptr) != 0) throw std::runtime_error("openpty failed");
    // Raw at once: with the default ECHO the emulator's own replies would come back to it as
    // host input until the client configured the line.
    termios t{};
    ::tcgetattr(slave, &t);
    ::cfmakeraw(&t);
    ::tcsetattr(slave, TCSANOW, &t);
    ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
    ::fcntl(master, F_SETFD, FD_CLOEXEC);
    ::fcntl(slave, F_SETFD, FD_CLOEXEC);
    const std::lock_guard lock(mutex_);
    master_ = master;
    slave_ = slave;
    slave_path_ = name;
    for (const auto& l : links_) point_link(l, slave_path_);
}

void PtyService::close_pty() {
    const std::lock_guard lock(mutex_);
    for (const auto& l : links_) ::unlink(l.c_str());
    if (master_ >= 0) ::close(master_);
    // Our own slave fd would keep the line "up" for nobody; close it too.
    if (slave_ >= 0) ::close(slave_);
    master_ = slave_ = -1;
}

std::string PtyService::slave_path() const {
    const std::lock_guard lock(mutex_);
    return slave_path_;
}

void PtyService::add_link(const std::string& path) {
    const std::lock_guard lock(mutex_);
    links_.push_back(path);
    if (master_ >= 0) point_link(path, slave_path_);
}

bool PtyService::unplugged() const {
    const std::lock_guard lock(mutex_);
    return master_ < 0;
}

// Only the service thread opens and closes the pty while it runs (no fd is closed under its
// poll()); these ask it to and wait until it did.
void PtyService::unplug() { request_plug(kUnplug); }
void PtyService::replug() { request_plug(kReplug); }

void PtyService::request_plug(int request) {
    if (stop_) return;
    std::unique_lock lock(mutex_);
    plug_ = request;
    lock.unlock();
    wake();
    lock.lock();
    changed_.wait(lock, [this] { return plug_ == kNone || stop_; });
}

void PtyService::wake() {
    const std::uint64_t one = 1;
    if (wake_ >= 0) (void)!::write(wake_, &one, sizeof one);
}

void PtyService::disconnect() {
    stop_ = true;
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
    close_pty();
}

void PtyService::write_out(const std::vector<std::vector<std::uint8_t>>& chunks) {
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
        int request = kNone;
        {
            const std::lock_guard lock(mutex_);
            request = plug_;
        }
        if (request == kUnplug) close_pty();
        if (request == kReplug) {
            if (master_ < 0) open_pty();
            const std::lock_guard lock(mutex_);
            model_.power_on(steady_now_ms());
        }
        if (request != kNone) {
            {
                const std::lock_guard lock(mutex_);
                plug_ = kNone;
            }
            changed_.notify_all();
        }
        // Wake on host bytes, on a player action (wake()), or after 5 ms for the timers.
        pollfd fds[2] = {{wake_, POLLIN, 0}, {master_, POLLIN, 0}};
        const int r = ::poll(fds, master_ >= 0 ? 2 : 1, 5);
        const pollfd& p = fds[1];
        if (r > 0 && (fds[0].revents & POLLIN)) {
            std::uint64_t n = 0;
            (void)!::read(wake_, &n, sizeof n);
        }
        if (master_ < 0) {  // unplugged: no power, no time for the model
            changed_.notify_all();
            continue;
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
        write_out(out);
        changed_.notify_all();
    }
}

bool PtyService::wait_until(const std::function<bool()>& pred, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), pred);
}

} // namespace eboard::drivers::emu
