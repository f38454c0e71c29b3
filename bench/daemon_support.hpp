// What the daemon benchmarks share: eboardd as a child process with emulated DGT boards
// (drivers/emu) behind stable paths, its events read from `--events -` on a thread, the
// process's CPU time and memory from /proc, and percentiles.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

namespace eboard::bench {

using Clock = std::chrono::steady_clock;
using ojson = nlohmann::ordered_json;

/// The eboardd binary next to this benchmark, or $EBOARDD_BIN (to compare two builds).
inline std::string eboardd_bin() {
    const char* other = std::getenv("EBOARDD_BIN");
    return other && *other ? std::string(other) : std::string(EBOARD_BIN_DIR) + "/eboardd";
}

/// Percentile `p` (0..100) of `v` (sorted here), in the unit of v.
inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(std::llround(p / 100.0 * static_cast<double>(v.size() - 1)));
    return v[std::min(i, v.size() - 1)];
}

/// Microseconds of user + system CPU the process `pid` used so far (/proc/PID/stat).
inline double cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(text.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

/// A field of /proc/PID/status in kB (VmRSS, VmHWM) or a count (Threads).
inline long status_field(pid_t pid, const std::string& name) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(name + ":", 0) == 0) return std::stol(line.substr(name.size() + 1));
    return -1;
}

/// Reads eboardd's event lines on a thread and hands each (with its arrival time) to `on_event`.
class EventReader {
  public:
    using Handler = std::function<void(const ojson&, Clock::time_point)>;
    EventReader(test::Process& p, Handler on_event) : p_(p), on_event_(std::move(on_event)) {
        thread_ = std::thread([this] {
            while (!stop_) {
                auto l = p_.line(200);
                if (!l) continue;
                const auto at = Clock::now();
                const ojson j = ojson::parse(*l, nullptr, false);
                if (j.is_object()) on_event_(j, at);
            }
        });
    }
    ~EventReader() {
        stop_ = true;
        thread_.join();
    }
    EventReader(const EventReader&) = delete;
    EventReader& operator=(const EventReader&) = delete;

  private:
    test::Process& p_;
    Handler on_event_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

/// Waits on a condition with a deadline.
class Signal {
  public:
    template <typename F>
    void update(F f) {
        {
            std::lock_guard lock(m_);
            f();
        }
        cv_.notify_all();
    }
    template <typename Pred>
    bool wait(Pred pred, int timeout_ms) {
        std::unique_lock lock(m_);
        return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), pred);
    }

  private:
    std::mutex m_;
    std::condition_variable cv_;
};

} // namespace eboard::bench
