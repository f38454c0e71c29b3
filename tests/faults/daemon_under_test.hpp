// eboardd as the fault tests need it: a process that may be killed with SIGKILL and started
// again on the same state, whose events (`--events -`) of every run are kept in one list, and
// simulated players for the tests that restart the daemon at a chosen moment: they stop
// touching the boards while it restarts (a "stop the world" lock, between their moves). The
// kill -9 sweep (kill9_test.cpp) has players of its own that never stop. Waits are conditions
// with deadlines, never sleeps.
#pragma once

#include <catch2/catch.hpp>

#include <condition_variable>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/daemon/harness.hpp"
#include "tests/support/process.hpp"

namespace eboard::test {

/// The eboardd process, restartable; the events of all its runs in one list.
class DaemonUnderTest {
  public:
    DaemonUnderTest(std::vector<std::string> args, std::filesystem::path dir)
        : args_(std::move(args)), dir_(std::move(dir)) {}
    ~DaemonUnderTest() { stop_reader(); }
    DaemonUnderTest(const DaemonUnderTest&) = delete;
    DaemonUnderTest& operator=(const DaemonUnderTest&) = delete;

    /// Starts a run and waits for READY=1 on $NOTIFY_SOCKET. False if it did not come.
    bool start() {
        stop_reader();
        process_.reset();
        ++runs_;
        NotifySocket notify((dir_ / ("notify" + std::to_string(runs_))).string());
        process_ = std::make_unique<Process>(eboardd_bin(), args_, notify.path(), stderr_path());
        reading_ = true;
        reader_ = std::thread([this] { read(); });
        return notify.wait_for("READY=1", 60000);
    }
    /// SIGKILL, then waits for the process to be gone; its events stay.
    void kill9() {
        process_->signal(SIGKILL);
        const int status = process_->wait_exit();
        CHECK(status == 128 + SIGKILL);
        stop_reader();
    }
    /// SIGTERM (the graceful exit of eboardd(8), SIGNALS); its exit status.
    int terminate() {
        process_->signal(SIGTERM);
        const int status = process_->wait_exit();
        stop_reader();
        return status;
    }
    [[nodiscard]] Process& process() { return *process_; }
    /// Resident memory of the running process (VmRSS), KiB; -1 if unknown.
    [[nodiscard]] long rss_kib() const {
        std::ifstream status("/proc/" + std::to_string(process_->pid()) + "/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
        return -1;
    }
    [[nodiscard]] int runs() const { return runs_; }
    [[nodiscard]] std::string stderr_path() const { return (dir_ / "stderr").string(); }

    /// Waits until `pred(all events so far)` holds.
    bool wait(const std::function<bool(const std::vector<ojson>&)>& pred, int timeout_ms = 30000) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return pred(events_); });
    }
    /// Whether an event of `cls` on `board` that `match` accepts was seen, waiting up to
    /// `timeout_ms` for it.
    bool seen(const std::string& cls, const std::string& board, const std::function<bool(const ojson&)>& match,
              int timeout_ms = 30000) {
        return wait(
            [&](const std::vector<ojson>& all) {
                for (const auto& e : all)
                    if (e.value("class", "") == cls && e.value("board", "") == board && match(e)) return true;
                return false;
            },
            timeout_ms);
    }
    /// Every event so far, of every run.
    std::vector<ojson> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }

  private:
    void read() {
        for (;;) {
            {
                std::lock_guard lock(mutex_);
                if (!reading_) return;
            }
            auto l = process_->line(100);
            if (!l) continue;
            ojson j = ojson::parse(*l, nullptr, false);
            std::lock_guard lock(mutex_);
            if (j.is_object()) events_.push_back(std::move(j));
            changed_.notify_all();
        }
    }
    void stop_reader() {
        {
            std::lock_guard lock(mutex_);
            reading_ = false;
        }
        if (reader_.joinable()) reader_.join();
    }

    std::vector<std::string> args_;
    std::filesystem::path dir_;
    std::unique_ptr<Process> process_;
    int runs_ = 0;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<ojson> events_;
    bool reading_ = false;
    std::thread reader_;
};

/// Players are "in" while they touch a board (see play()); a restart stops the world: new
/// moves wait, and it waits until no player is in. Writer-first, so that a restart comes at
/// the random moment asked for even while the players keep playing.
class WorldLock {
  public:
    void enter() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !stopping_; });
        ++in_;
    }
    void leave() {
        std::lock_guard lock(mutex_);
        --in_;
        changed_.notify_all();
    }
    /// Waits until every player is out; new ones wait until resume().
    void stop() {
        std::unique_lock lock(mutex_);
        stopping_ = true;
        changed_.wait(lock, [this] { return in_ == 0; });
    }
    void resume() {
        std::lock_guard lock(mutex_);
        stopping_ = false;
        changed_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int in_ = 0;
    bool stopping_ = false;
};

/// Plays plies [from, to] of `board`'s game (1-based; to = -1: to the end): each move by the
/// simulated player, then waits for the daemon's completed MOVE of that ply (from any run);
/// the world stops (restarts happen) only between his moves, once the last one was announced
/// completed. False if a ply was not completed within `timeout_ms`.
inline bool play(EmulatedBoard& board, DaemonUnderTest& daemon, WorldLock& world, int from = 1, int to = -1,
                 int timeout_ms = 60000) {
    const auto& moves = board.game().moves;
    if (to < 0) to = static_cast<int>(moves.size());
    for (int ply = from; ply <= to; ++ply) {
        world.enter();
        const bool ok = board.player().play(moves[static_cast<std::size_t>(ply - 1)].move,
                                            [](std::chrono::microseconds d) {
                                                std::this_thread::sleep_for(d); // the player's handling time
                                                return true;
                                            });
        if (!ok) {
            world.leave();
            return false;
        }
        if (!daemon.seen("MOVE", board.name(), [ply](const ojson& e) {
                return e.value("ply", 0) == ply && e.value("status", "") == "completed";
            }, timeout_ms)) {
            std::string last;
            for (const auto& e : daemon.events())
                if (e.value("board", "") == board.name()) last = e.dump();
            // Printed, not UNSCOPED_INFO: players run on threads of their own (Catch2 is not
            // thread-safe).
            std::fprintf(stderr, "board %s: ply %d was not completed; its last event: %s\n", board.name().c_str(),
                         ply, last.c_str());
            world.leave();
            return false;
        }
        world.leave();
    }
    return true;
}

/// Writes `dir`/eboardd.conf: the PGN directory, White on the left, and these boards; returns
/// the arguments that start eboardd on it (state in `dir`/state, events on stdout) + `extra`.
inline std::vector<std::string> daemon_args(const std::filesystem::path& dir,
                                            const std::vector<std::pair<std::string, std::string>>& boards,
                                            std::vector<std::string> extra = {}) {
    {
        std::ofstream conf(dir / "eboardd.conf");
        conf << "pgn-dir = " << (dir / "pgn").string() << "\nwhite-side = left\n";
        for (const auto& [name, uri] : boards) conf << "[board." << name << "]\nuri = " << uri << "\n";
    }
    std::vector<std::string> args{"--config", (dir / "eboardd.conf").string(), "--state-dir", (dir / "state").string(),
                                  "--events", "-"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

/// A number from the environment (the size of a sweep), else `fallback`.
inline int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? static_cast<int>(std::strtol(v, nullptr, 10)) : fallback;
}

} // namespace eboard::test
