// bench_winnable: winnability throughput over the CHA ground truth
// (data/deadpos/chasolver_positions.txt, 3,414 positions), in quick and full mode,
// measured two ways:
//   in-process  the very function behind each line of `eboard-winnable --batch`
//               (winnability_label_of_fen: FEN read as FenMaterial::Composed, both labels), once
//               per line in a loop, and once more line by line for the worst single position;
//   the tool    build/bin/eboard-winnable --batch [--full] fed the file's FENs on stdin
//               (quick: the file 20 times over, so the start-up of a few ms does not dominate),
//               wall clock and the child's CPU time.
// Next to them, measured in the same run as the yardstick of machine speed: the perft nodes/s
// of our rules core (start position depth 5) and, if Debian's stockfish is installed, its
// `go perft` nodes/s. A ratio positions/s per million perft nodes/s stays comparable between a
// loaded and an idle machine. Targets (issue 8): quick >= 200,000 positions/s, full >= 3,000
// positions/s, no position over 1 s; checked (bench/target.hpp) on the tool's positions per CPU
// second after its start-up and on the worst position's CPU time, since wall time on a shared
// machine measures the load; exit 1 if one is missed or an answer is unsound.
//   bench_winnable [--quick] [FILE]     --quick: skip full mode
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <ctime>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "bench/target.hpp"
#include "bench/uci_engine.hpp"
#include "rules/position.hpp"
#include "rules/winnable.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using eboard::WinnableMode;

struct Entry {
    std::string label;
    std::string fen;
};

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double children_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    const auto s = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return s(u.ru_utime) + s(u.ru_stime);
}

/// The yardstick: perft nodes/s of our rules core, start position depth 5 (4,865,609 nodes).
double perft_nodes_per_second() {
    eboard::Position pos = eboard::Position::startpos();
    const auto t0 = Clock::now();
    const std::uint64_t nodes = eboard::perft(pos, 5);
    return static_cast<double>(nodes) / seconds_since(t0);
}

/// Stockfish's `go perft 5` nodes/s from the start position, 0 if stockfish is not installed.
double stockfish_nodes_per_second() {
    const std::string path = eboard::bench::find_stockfish();
    if (path.empty()) return 0;
    auto sf = eboard::bench::UciEngine::start(path);
    if (!sf) return 0;
    sf->send("uci");
    sf->wait_for("uciok");
    sf->perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, false);  // warm
    sf->send("position startpos");
    sf->sync();
    const auto t0 = Clock::now();
    sf->send("go perft 5");
    auto done = sf->wait_for("Nodes searched: ");
    if (!done) return 0;
    return static_cast<double>(std::strtoull(done->c_str() + 16, nullptr, 10)) / seconds_since(t0);
}

struct Tally {
    int undetermined = 0, unsound = 0, wrong_win = 0, refused = 0;
    double worst_wall = 0, worst_cpu = 0;
    std::string worst_fen;
};

/// Every line once, timed one by one: answers checked against the ground truth, worst time.
Tally check_line_by_line(const std::vector<Entry>& all, WinnableMode mode) {
    Tally t;
    for (const Entry& e : all) {
        const auto w0 = Clock::now();
        const double c0 = thread_cpu_seconds();
        const auto got = eboard::winnability_label_of_fen(e.fen, false, mode);
        const double cpu = thread_cpu_seconds() - c0;
        const double wall = seconds_since(w0);
        if (wall > t.worst_wall) {
            t.worst_wall = wall;
            t.worst_fen = e.fen;
        }
        t.worst_cpu = std::max(t.worst_cpu, cpu);
        if (!got) {
            ++t.refused;
            continue;
        }
        for (std::size_t s = 0; s < 2; ++s) {
            const char g = got.value()[s];
            if (g == '?') ++t.undetermined;
            else if (g == '-' && e.label[s] != '-') ++t.unsound;
            else if (g != '-' && e.label[s] == '-') ++t.wrong_win;
        }
    }
    return t;
}

struct Rate {
    double wall = 0, cpu = 0;  // positions per second
};

/// In-process throughput: every line `rounds` times, no per-line clock.
Rate in_process(const std::vector<Entry>& all, WinnableMode mode, int rounds) {
    const auto w0 = Clock::now();
    const double c0 = thread_cpu_seconds();
    std::size_t answered = 0;
    for (int r = 0; r < rounds; ++r)
        for (const Entry& e : all)
            if (eboard::winnability_label_of_fen(e.fen, false, mode).has_value()) ++answered;
    const double n = static_cast<double>(all.size()) * rounds;
    if (answered != all.size() * static_cast<std::size_t>(rounds)) std::printf("  (some refused)\n");
    return {n / seconds_since(w0), n / (thread_cpu_seconds() - c0)};
}

struct ToolRun {
    double wall = 0, cpu = 0;  // seconds
    std::size_t lines = 0;
};

/// Runs `tool` --batch [--full] on the file `input`: wall and child CPU seconds, lines out.
ToolRun run_tool(const std::string& tool, const std::string& input, WinnableMode mode) {
    const std::string cmd = tool + " --batch" + (mode == WinnableMode::Full ? " --full" : "") +
                            " < " + input + " 2>/dev/null";
    const double c0 = children_cpu_seconds();
    const auto w0 = Clock::now();
    FILE* p = popen(cmd.c_str(), "r"); // NOLINT(cert-env33-c): the tool, as a shell runs it
    ToolRun r;
    if (p != nullptr) {
        char buf[64];
        while (std::fgets(buf, sizeof buf, p) != nullptr) ++r.lines;
        pclose(p);
    }
    r.wall = seconds_since(w0);
    r.cpu = children_cpu_seconds() - c0;
    return r;
}

/// The tool over the FENs `rounds` times: positions/s with its start-up (the attack tables
/// are built on its first FEN, see rules/bitboard.hpp) and, after `startup` (a run on one
/// trivial line), without. {} if it fails.
std::pair<Rate, Rate> through_tool(const std::string& tool, const std::vector<Entry>& all,
                                   WinnableMode mode, int rounds, ToolRun& startup) {
    const std::string input = "/tmp/bench_winnable_" + std::to_string(getpid()) + ".txt";
    {
        std::ofstream f(input);  // one trivial line: the tables are built on the first FEN
        f << "7k/8/8/8/8/8/8/K7 w - - 0 1\n";
    }
    startup = run_tool(tool, input, mode);
    {
        std::ofstream f(input);
        for (int r = 0; r < rounds; ++r)
            for (const Entry& e : all) f << e.fen << '\n';
    }
    const ToolRun run = run_tool(tool, input, mode);
    std::remove(input.c_str());
    const double n = static_cast<double>(all.size()) * rounds;
    if (run.lines != all.size() * static_cast<std::size_t>(rounds)) return {};
    return {Rate{n / run.wall, n / run.cpu},
            Rate{n / (run.wall - startup.wall), n / (run.cpu - startup.cpu)}};
}

/// build/bin/eboard-winnable: CMake builds it with this bench and passes its directory.
std::string tool_path() { return std::string(EBOARD_BIN_DIR) + "/eboard-winnable"; }

/// Prints one mode's figures and checks its targets (issue 8); the number of unsound answers.
int report(const char* name, WinnableMode mode, const std::vector<Entry>& all, int rounds,
           int tool_rounds, const std::string& tool, double target) {
    const double perft = perft_nodes_per_second();
    const Rate in = in_process(all, mode, rounds);
    ToolRun startup;
    const auto [via, via_net] = access(tool.c_str(), X_OK) == 0
                                    ? through_tool(tool, all, mode, tool_rounds, startup)
                                    : std::pair<Rate, Rate>{};
    const double perft_after = perft_nodes_per_second();
    const double yard = (perft + perft_after) / 2 / 1e6;  // M perft nodes/s around the runs
    const Tally t = check_line_by_line(all, mode);
    std::printf("%s mode (target >= %.0f positions/s)\n", name, target);
    std::printf("  in-process  %9.0f positions/s wall %9.0f per CPU s   = %7.1f per M perft "
                "nodes/s (CPU)\n",
                in.wall, in.cpu, in.cpu / yard);
    if (via.wall > 0) {
        std::printf("  the tool    %9.0f positions/s wall %9.0f per CPU s   = %7.1f per M perft "
                    "nodes/s (CPU)   (%s --batch%s, %d x the file)\n",
                    via.wall, via.cpu, via.cpu / yard, tool.c_str(),
                    mode == WinnableMode::Full ? " --full" : "", tool_rounds);
        std::printf("  the tool    %9.0f positions/s wall %9.0f per CPU s   = %7.1f per M perft "
                    "nodes/s (CPU)   without its start-up (%.0f ms wall, %.0f ms CPU)\n",
                    via_net.wall, via_net.cpu, via_net.cpu / yard, startup.wall * 1e3,
                    startup.cpu * 1e3);
    } else {
        std::printf("  the tool    not run (%s missing or failed)\n", tool.c_str());
    }
    std::printf("  worst single position %.3f ms wall, %.3f ms CPU: %s\n", t.worst_wall * 1e3,
                t.worst_cpu * 1e3, t.worst_fen.c_str());
    std::printf("  undetermined %d of %zu side answers, unsound %d, wrong wins %d, refused %d\n",
                t.undetermined, 2 * (all.size() - static_cast<std::size_t>(t.refused)), t.unsound,
                t.wrong_win, t.refused);
    std::printf("  yardstick: our perft %.1fM nodes/s (before %.1fM, after %.1fM)\n", yard,
                perft / 1e6, perft_after / 1e6);
    // Issue 8 names the tool's --batch rate. Per CPU second of the tool, after its start-up
    // (printed above with it): wall time on a shared machine measures the load, not the tool.
    const std::string rate = std::string("winnable ") + name + ": eboard-winnable --batch" +
                             (mode == WinnableMode::Full ? " --full" : "") +
                             " positions per CPU s (after start-up)";
    if (via_net.cpu > 0)
        eboard::bench::check_target(rate.c_str(), via_net.cpu, eboard::bench::Bound::AtLeast,
                                    target, "positions/s", "issue 8");
    else
        eboard::bench::target_not_measured(rate.c_str(), "the tool did not run", "issue 8");
    const std::string worst =
        std::string("winnable ") + name + ": worst single position (CPU; wall printed above)";
    eboard::bench::check_target(worst.c_str(), t.worst_cpu * 1e3, eboard::bench::Bound::AtMost,
                                1000, "ms", "issue 8");
    if (t.unsound > 0) std::printf("  UNSOUND answers: %d (must be 0, issue 8)\n", t.unsound);
    return t.unsound;
}

} // namespace

int main(int argc, char** argv) try {
    bool quick_only = false;
    std::string path = EBOARD_REPO_DATA "/deadpos/chasolver_positions.txt";
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--quick") quick_only = true;
        else path = argv[i];
    }
    std::ifstream in(path);
    std::vector<Entry> all;
    std::string line;
    while (std::getline(in, line))
        if (line.size() > 3 && line[0] != '#') all.push_back({line.substr(0, 2), line.substr(3)});
    if (all.empty()) {
        std::fprintf(stderr, "bench_winnable: no positions in %s\n", path.c_str());
        return 1;
    }
    const std::string tool = tool_path();
    std::printf("winnability over %zu positions of %s\n", all.size(), path.c_str());
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) > 0)
        std::printf("machine: %ld CPUs online, load average %.2f %.2f %.2f\n",
                    sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
    // Warm up: the first Position builds the attack tables (magics found at start-up).
    (void)eboard::winnability_label(eboard::Position::startpos());
    int unsound = report("quick", WinnableMode::Quick, all, 5, 20, tool, 200000);
    if (!quick_only) unsound += report("full", WinnableMode::Full, all, 1, 1, tool, 3000);
    const double sf = stockfish_nodes_per_second();
    if (sf > 0) std::printf("stockfish perft %.1fM nodes/s (start position depth 5)\n", sf / 1e6);
    else std::printf("stockfish not installed: no second yardstick\n");
    return eboard::bench::target_exit_status(unsound > 0 ? 1 : 0);
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_winnable: %s\n", e.what());
    return 2;
}
