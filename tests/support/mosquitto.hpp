// A real MQTT broker for the tests of the tournament hall: Debian's mosquitto (2.0), started on a
// free loopback port with its own configuration and persistence directory, ready when its log
// says "running" (it logs that after its listener is open; the log goes to stderr, which is not
// buffered, and stderr goes into the stdout pipe the test reads), and restartable on the same port
// and persistence (kill -9 and restart: the hall's fault tests). Header-only; nothing sleeps.
// Once it runs, a thread of the broker reads its log to the end, so that mosquitto never blocks
// writing to a full pipe (it would stop answering its clients).
#pragma once

#include "process.hpp"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <atomic>
#include <thread>

namespace eboard::test {

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice for port 0). Another
/// program may take it before the caller binds it; the tests' own processes are the only users
/// of loopback here.
inline int free_loopback_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
        if (fd >= 0) ::close(fd);
        throw std::runtime_error("no free loopback port");
    }
    ::close(fd);
    return ntohs(a.sin_port);
}

/// The mosquitto binary (Debian's package `mosquitto`), or "" where it is not installed.
inline std::string mosquitto_binary() {
    for (const char* p : {"/usr/sbin/mosquitto", "/usr/bin/mosquitto"})
        if (::access(p, X_OK) == 0) return p;
    return "";
}

/// extra_config for a broker that saves its persistence only at a clean stop: a kill -9 loses
/// everything it acknowledged and every session (the worst case of a broker crash).
inline const char* const kBrokerThatForgets = "autosave_on_changes false\nautosave_interval 0\n";

/// A mosquitto broker on 127.0.0.1:port() with persistence in its own directory. Anonymous
/// clients are allowed (loopback only). `extra_config` lines are appended to the generated
/// mosquitto.conf (e.g. "max_queued_messages 100000").
class MosquittoBroker {
  public:
    explicit MosquittoBroker(std::string extra_config = "")
        : dir_("eboard-mqtt"), port_(free_loopback_port()), extra_(std::move(extra_config)) {
        if (mosquitto_binary().empty()) throw std::runtime_error("mosquitto is not installed (scripts/deps)");
        start();
    }
    MosquittoBroker(const MosquittoBroker&) = delete;
    MosquittoBroker& operator=(const MosquittoBroker&) = delete;

    [[nodiscard]] int port() const { return port_; }
    /// `mqtt://127.0.0.1:PORT`, the URL eboardd and eboard-hub take.
    [[nodiscard]] std::string url() const { return "mqtt://127.0.0.1:" + std::to_string(port_); }
    [[nodiscard]] const std::filesystem::path& dir() const { return dir_.path; }
    [[nodiscard]] pid_t pid() const { return process_ ? process_->pid() : -1; }

    /// Starts the broker (again) on the same port and persistence; returns once it listens.
    void start() {
        stop_draining();
        write_config();
        process_ = std::make_unique<Process>(mosquitto_binary(), std::vector<std::string>{"-c", config_path()},
                                             "", "/dev/stdout");
        for (;;) {
            auto l = process_->line(20000);
            if (!l) throw std::runtime_error("mosquitto did not start on port " + std::to_string(port_));
            if (l->find(" running") != std::string::npos) break;
        }
        draining_ = true;
        drain_ = std::thread([this, p = process_.get()] {
            while (draining_) (void)p->line(100);
        });
    }
    ~MosquittoBroker() { stop_draining(); }
    /// SIGKILL, as a crash: what it had persisted survives (it saves after every change:
    /// autosave_on_changes with an interval of 1).
    void kill9() {
        if (!process_) return;
        process_->signal(SIGKILL);
        process_->wait_exit();
        stop_draining();
        process_.reset();
    }
    /// SIGTERM, a clean stop (mosquitto saves its persistence file).
    void stop() {
        if (!process_) return;
        process_->signal(SIGTERM);
        process_->wait_exit();
        stop_draining();
        process_.reset();
    }

  private:
    void stop_draining() {
        draining_ = false;
        if (drain_.joinable()) drain_.join();
    }
    [[nodiscard]] std::string config_path() const { return (dir_.path / "mosquitto.conf").string(); }
    void write_config() const {
        std::ofstream c(config_path(), std::ios::trunc);
        // Started as root, mosquitto would switch to the user "mosquitto", which cannot write
        // the persistence directory: it stays the user who runs the test.
        const passwd* me = ::getpwuid(::geteuid());
        if (me) c << "user " << me->pw_name << "\n";
        c << "listener " << port_ << " 127.0.0.1\n"
          << "allow_anonymous true\n"
          << "persistence true\n"
          << "persistence_location " << dir_.path.string() << "/\n"
          << "autosave_interval 1\n"
          << "autosave_on_changes true\n"
          << "log_dest stderr\n"
          << "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
          << extra_ << "\n";
    }

    TempDir dir_;
    int port_;
    std::string extra_;
    std::unique_ptr<Process> process_;
    std::atomic<bool> draining_{false};
    std::thread drain_; // reads the log while it runs
};

} // namespace eboard::test
