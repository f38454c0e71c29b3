// A UCI engine (Debian's stockfish) as a child process, for benchmarks and cross-check tests:
// send lines to its stdin, read lines from its stdout. Header-only, POSIX (fork/exec/pipe).
#pragma once

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace eboard::bench {

/// Path of the stockfish binary: $EBOARD_STOCKFISH, /usr/games/stockfish (Debian), or any
/// `stockfish` on PATH; "" if there is none.
inline std::string find_stockfish() {
    if (const char* env = std::getenv("EBOARD_STOCKFISH"); env && *env)
        return access(env, X_OK) == 0 ? env : "";
    std::vector<std::string> dirs{"/usr/games", "/usr/bin", "/usr/local/bin"};
    if (const char* path = std::getenv("PATH")) {
        std::string_view p = path;
        while (!p.empty()) {
            const auto colon = p.find(':');
            dirs.emplace_back(p.substr(0, colon));
            p = colon == std::string_view::npos ? std::string_view{} : p.substr(colon + 1);
        }
    }
    for (const auto& d : dirs) {
        std::string f = d + "/stockfish";
        if (access(f.c_str(), X_OK) == 0) return f;
    }
    return "";
}

class UciEngine {
  public:
    /// Starts the engine; nullopt if it cannot be started.
    static std::optional<UciEngine> start(const std::string& path) {
        std::signal(SIGPIPE, SIG_IGN); // a dead engine must not kill the caller
        int to_child[2];
        int from_child[2];
        if (pipe(to_child) != 0) return std::nullopt;
        if (pipe(from_child) != 0) {
            close(to_child[0]);
            close(to_child[1]);
            return std::nullopt;
        }
        const pid_t pid = fork();
        if (pid < 0) return std::nullopt;
        if (pid == 0) {
            dup2(to_child[0], 0);
            dup2(from_child[1], 1);
            close(to_child[1]);
            close(from_child[0]);
            execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        close(to_child[0]);
        close(from_child[1]);
        UciEngine e;
        e.pid_ = pid;
        e.in_ = to_child[1];
        e.out_ = from_child[0];
        return e;
    }

    UciEngine(UciEngine&& o) noexcept
        : pid_(std::exchange(o.pid_, -1)), in_(std::exchange(o.in_, -1)),
          out_(std::exchange(o.out_, -1)), buf_(std::move(o.buf_)) {}
    UciEngine& operator=(UciEngine&&) = delete;
    UciEngine(const UciEngine&) = delete;
    UciEngine& operator=(const UciEngine&) = delete;
    ~UciEngine() {
        if (pid_ < 0) return;
        send("quit");
        close(in_);
        close(out_);
        int status = 0;
        waitpid(pid_, &status, 0);
    }

    /// Writes one command line; false if the engine is gone.
    bool send(std::string_view line) {
        std::string s(line);
        s += '\n';
        std::size_t done = 0;
        while (done < s.size()) {
            const ssize_t n = write(in_, s.data() + done, s.size() - done);
            if (n <= 0) return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

    /// Reads one line (without the newline); nullopt at end of output.
    std::optional<std::string> read_line() {
        for (;;) {
            const auto nl = buf_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buf_.substr(0, nl);
                buf_.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return line;
            }
            char chunk[4096];
            const ssize_t n = read(out_, chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            buf_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    /// Reads until a line starting with `prefix`; returns it, or nullopt at end of output.
    std::optional<std::string> wait_for(std::string_view prefix) {
        while (auto line = read_line())
            if (line->rfind(prefix, 0) == 0) return line;
        return std::nullopt;
    }

    /// Sends isready and waits for readyok.
    bool sync() { return send("isready") && wait_for("readyok").has_value(); }

    /// `go perft depth` on `fen`: the per-move counts ("e2e4", n) and the total.
    struct PerftResult {
        std::vector<std::pair<std::string, std::uint64_t>> divide;
        std::uint64_t nodes = 0;
        bool ok = false;
    };
    PerftResult perft(const std::string& fen, int depth, bool chess960) {
        PerftResult r;
        send(std::string("setoption name UCI_Chess960 value ") + (chess960 ? "true" : "false"));
        send("position fen " + fen);
        if (!sync()) return r;
        send("go perft " + std::to_string(depth));
        while (auto line = read_line()) {
            if (line->rfind("Nodes searched: ", 0) == 0) {
                r.nodes = std::strtoull(line->c_str() + 16, nullptr, 10);
                r.ok = true;
                return r;
            }
            const auto colon = line->find(": ");
            if (colon != std::string::npos && colon >= 4 && colon <= 5)
                r.divide.emplace_back(line->substr(0, colon),
                                      std::strtoull(line->c_str() + colon + 2, nullptr, 10));
        }
        return r;
    }

  private:
    UciEngine() = default;
    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
    std::string buf_;
};

} // namespace eboard::bench
