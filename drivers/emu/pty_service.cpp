#include "drivers/emu/pty_service.hpp"

#include "drivers/core/session.hpp"

#include <algorithm>
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
    wake();
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
    wake();
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
    close_pty();
}

void PtyService::queue_out(std::vector<std::vector<std::uint8_t>>&& chunks) {
    if (chunks.empty()) return;
    std::mt19937 rng(seed_++);
    for (auto& chunk : chunks) {
        if (fragment_max_ == 0) {
            pending_bytes_ += chunk.size();
            pending_.push_back(std::move(chunk));
            continue;
        }
        std::uniform_int_distribution<std::size_t> d(1, fragment_max_);
        for (std::size_t done = 0; done < chunk.size();) {  // each piece one write()
            const std::size_t n = std::min(chunk.size() - done, d(rng));
            const auto at = chunk.begin() + static_cast<std::ptrdiff_t>(done);
            pending_.emplace_back(at, at + static_cast<std::ptrdiff_t>(n));
            pending_bytes_ += n;
            done += n;
        }
    }
    // Nobody reads (a daemon outage): the line does not keep what nobody listened to.
    while (pending_bytes_ > kMaxPendingBytes && !pending_.empty()) {
        pending_bytes_ -= pending_.front().size();
        pending_.pop_front();
    }
}

void PtyService::write_pending() {
    while (!pending_.empty() && master_ >= 0) {
        auto& piece = pending_.front();
        const ssize_t w = ::write(master_, piece.data(), piece.size());
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) return;  // the pty is full: the next poll waits for POLLOUT
        if (w < 0) {  // nobody listening: replies are lost, as on a real line
            pending_.clear();
            pending_bytes_ = 0;
            return;
        }
        const auto n = static_cast<std::size_t>(w);
        pending_bytes_ -= n;
        if (n == piece.size()) pending_.pop_front();
        else piece.erase(piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(n));
    }
}

bool PtyService::reopen_own_slave() {
    std::string path;
    {
        const std::lock_guard lock(mutex_);
        path = slave_path_;
    }
    const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    const std::lock_guard lock(mutex_);
    if (slave_ >= 0) ::close(slave_);
    slave_ = fd;
    return true;
}

void PtyService::run() {
    std::uint8_t buf[512];
    TimeMs due = 0;       // the model's next timer (kNoTick: none); 0: tick at once
    bool deaf = false;    // the master keeps reporting a hang-up: not polled (see the header)
    bool reopened = false;  // our slave fd was reopened for the hang-up being handled
    while (!stop_) {
        int request = kNone;
        {
            const std::lock_guard lock(mutex_);
            request = plug_;
        }
        if (request == kUnplug) {
            close_pty();
            pending_.clear();
            pending_bytes_ = 0;
        }
        if (request == kReplug) {
            if (master_ < 0) open_pty();
            deaf = reopened = false;
            const std::lock_guard lock(mutex_);
            model_.power_on(steady_now_ms());
            due = 0;
        }
        if (request != kNone) {
            {
                const std::lock_guard lock(mutex_);
                plug_ = kNone;
            }
            changed_.notify_all();
        }
        // Sleep until host bytes, a player action or a plug request (wake()), room for pending
        // replies, or the model's next timer; unplugged, the model gets no time at all.
        int timeout = -1;
        if (master_ >= 0 && due != kNoTick)
            timeout = static_cast<int>(std::clamp<TimeMs>(due - steady_now_ms(), 0, 60'000));
        if (deaf) timeout = timeout < 0 ? 1000 : std::min(timeout, 1000);
        const short events = static_cast<short>(POLLIN | (pending_.empty() ? 0 : POLLOUT));
        pollfd fds[2] = {{wake_, POLLIN, 0}, {master_, events, 0}};
        const int r = ::poll(fds, master_ >= 0 && !deaf ? 2 : 1, timeout);
        ++steps_;
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
        bool hung_up = false;
        if (r > 0 && (p.revents & POLLIN)) {
            const ssize_t n = ::read(master_, buf, sizeof buf);
            if (n > 0) got.assign(buf, buf + n);
            hung_up = n < 0 && errno == EIO;
        }
        hung_up = hung_up || (r > 0 && !(p.revents & POLLIN) && (p.revents & (POLLHUP | POLLERR)));
        if (hung_up) {
            // No slave fd open on the pty any more (ours hung up): reopen ours once; if the
            // hang-up stays, stop polling the master rather than spin on it.
            if (!reopened) reopened = reopen_own_slave();
            else deaf = true;
        } else if (deaf) {
            deaf = false;  // look at the master again in the next step (at most once a second)
        } else {
            reopened = false;
        }
        {
            const std::lock_guard lock(mutex_);
            const TimeMs now = steady_now_ms();
            if (!got.empty()) model_.receive(got, now);
            model_.tick(now);
            queue_out(model_.take_output());
            due = model_.next_tick_ms(now);
        }
        write_pending();
        changed_.notify_all();
    }
}

bool PtyService::wait_until(const std::function<bool()>& pred, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), pred);
}

} // namespace eboard::drivers::emu
