// Child processes for the tests that start real binaries (eboardd, eboardctl): a temporary
// directory, readiness as systemd sees it ($NOTIFY_SOCKET, sd_notify(3)), a child with its
// stdout read line by line, and a JSON-lines client of the client API socket. Every wait has a
// deadline (a hung daemon fails the test instead of hanging it); nothing sleeps. Header-only.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace eboard::test {

/// A fresh directory under /tmp, removed with everything in it at the end of the scope.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const char* prefix = "eboardd-test") {
        std::string tmpl = std::string("/tmp/") + prefix + "-XXXXXX";
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

/// Reads '\n'-terminated lines from a descriptor it does not own, each within a deadline.
class TimedLineReader {
  public:
    explicit TimedLineReader(int fd = -1) : fd_(fd) {}
    /// The next line without '\n'; nullopt at EOF, on an error or after `timeout_ms`.
    std::optional<std::string> line(int timeout_ms = 20000) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            const auto nl = buf_.find('\n');
            if (nl != std::string::npos) {
                std::string l = buf_.substr(0, nl);
                buf_.erase(0, nl + 1);
                return l;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            pollfd p{fd_, POLLIN, 0};
            const int r = ::poll(&p, 1, static_cast<int>(left.count()));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return std::nullopt;
            char c[4096];
            const ssize_t n = ::read(fd_, c, sizeof c);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return std::nullopt;
            buf_.append(c, static_cast<std::size_t>(n));
        }
    }

  private:
    int fd_;
    std::string buf_;
};

/// A datagram socket that stands in for systemd's $NOTIFY_SOCKET. A thread reads every
/// datagram as it comes, as systemd does: an unread notify socket fills up (net.unix.
/// max_dgram_qlen) and then blocks the sender's sd_notify().
class NotifySocket {
  public:
    explicit NotifySocket(std::string path) : path_(std::move(path)) {
        fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path_.c_str(), sizeof a.sun_path - 1);
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error("cannot bind " + path_);
        thread_ = std::thread([this] { run(); });
    }
    ~NotifySocket() {
        stop_ = true;
        thread_.join();
        ::close(fd_);
    }
    NotifySocket(const NotifySocket&) = delete;
    NotifySocket& operator=(const NotifySocket&) = delete;
    [[nodiscard]] const std::string& path() const { return path_; }
    /// The next datagram not yet taken ("READY=1\nSTATUS=..."); nullopt after `timeout_ms`.
    std::optional<std::string> receive(int timeout_ms = 20000) {
        std::unique_lock lock(mutex_);
        if (!cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return next_ < got_.size(); }))
            return std::nullopt;
        return got_[next_++];
    }
    /// Takes datagrams until one contains `what` (e.g. "READY=1"); false after `timeout_ms`.
    bool wait_for(const std::string& what, int timeout_ms = 20000) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            auto m = receive(static_cast<int>(left.count()));
            if (!m) return false;
            if (m->find(what) != std::string::npos) return true;
        }
    }

  private:
    void run() {
        while (!stop_) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0) continue;
            char msg[1024] = {};
            const ssize_t n = ::recv(fd_, msg, sizeof msg - 1, 0);
            if (n <= 0) continue;
            {
                std::lock_guard lock(mutex_);
                got_.emplace_back(msg, static_cast<std::size_t>(n));
            }
            cv_.notify_all();
        }
    }

    std::string path_;
    int fd_ = -1;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<std::string> got_;
    std::size_t next_ = 0;
    std::thread thread_;
};

/// A child process of `binary` with `args`; its stdout is a pipe read line by line, its stderr
/// goes to `stderr_path` (default /dev/null); `env` adds environment variables. Killed
/// (SIGKILL) if still running at the end.
class Process {
  public:
    Process(const std::string& binary, std::vector<std::string> args, const std::string& notify_socket = "",
            const std::string& stderr_path = "/dev/null",
            const std::vector<std::pair<std::string, std::string>>& env = {}) {
        int p[2];
        if (::pipe2(p, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
        pid_ = ::fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            ::dup2(p[1], STDOUT_FILENO);
            if (!notify_socket.empty()) ::setenv("NOTIFY_SOCKET", notify_socket.c_str(), 1);
            else ::unsetenv("NOTIFY_SOCKET");
            for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
            const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (err >= 0) ::dup2(err, STDERR_FILENO);
            std::vector<char*> argv;
            std::string bin = binary;
            argv.push_back(bin.data());
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(bin.c_str(), argv.data());
            ::_exit(127);
        }
        ::close(p[1]);
        out_ = p[0];
        reader_ = TimedLineReader(out_);
    }
    ~Process() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_);
    }
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    [[nodiscard]] pid_t pid() const { return pid_; }
    /// The next stdout line; nullopt at EOF or after `timeout_ms`.
    std::optional<std::string> line(int timeout_ms = 20000) { return reader_.line(timeout_ms); }
    void signal(int signo) const { ::kill(pid_, signo); }
    /// Waits for the exit: the exit status, or 128 + the signal that ended it.
    int wait_exit() {
        int status = 0;
        if (::waitpid(pid_, &status, 0) != pid_) return -1;
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

  private:
    pid_t pid_ = -1;
    int out_ = -1;
    TimedLineReader reader_;
};

/// A connection to a Unix stream socket, lines both ways (the client API).
class LineSocket {
  public:
    explicit LineSocket(const std::string& path) {
        fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
        if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error("cannot connect to " + path);
        reader_ = TimedLineReader(fd_);
    }
    ~LineSocket() { ::close(fd_); }
    LineSocket(const LineSocket&) = delete;
    LineSocket& operator=(const LineSocket&) = delete;
    [[nodiscard]] int fd() const { return fd_; }
    bool send(const std::string& line) {
        std::size_t done = 0;
        while (done < line.size()) {
            const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }
    std::optional<std::string> line(int timeout_ms = 20000) { return reader_.line(timeout_ms); }

  private:
    int fd_ = -1;
    TimedLineReader reader_;
};

/// Runs `command` with /bin/sh; its stdout and exit status.
struct CommandResult {
    std::string out;
    int status = -1;
};
inline CommandResult run_command(const std::string& command) {
    CommandResult r;
    FILE* p = ::popen(command.c_str(), "r"); // NOLINT(cert-env33-c): a shell command by design
    if (!p) return r;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) r.out += buf;
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

} // namespace eboard::test
