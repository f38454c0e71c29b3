// bench_winnable: winnability throughput over the CHA ground truth
// (data/deadpos/chasolver_positions.txt, 3,414 positions, then the sample of CHA's real-game
// vectors, data/deadpos/chasolver_lichess_sample.txt, 3,045), in quick and full mode,
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
// loaded and an idle machine. Targets (issue 25, bench/target.hpp): quick >= 700,000 positions
// per CPU second in process (per core) with no more '?' side answers than the 4,970 before it
// (chasolver_positions.txt only); full: no position over 1 s CPU and no '?' at all; exit 1 if
// one is missed or an answer is unsound (CPU time, since wall time on a shared machine
// measures the load). Full mode runs in process only, line by line (about 16 s of CPU).
// Last, CHA's published figures (its README) for comparison.
//   bench_winnable [--quick] [FILE...]     --quick: skip full mode; FILE: instead of the two
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
    double total_wall = 0, total_cpu = 0;
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
        t.total_wall += wall;
        t.total_cpu += cpu;
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

/// Side answers left '?' in quick mode before issue 25 (docs/winnability.md): the most quick
/// mode may leave now (issue 25: "at least as many sides decided as today").
constexpr int kQuickUndecidedBefore = 4970;

/// Prints one mode's figures and checks its targets (issue 25); the number of unsound answers.
/// Quick mode: in process `rounds` times and through the tool `tool_rounds` times; full mode:
/// line by line only (its rate is the line-by-line total). `quick_undecided`: the most '?'
/// quick mode may leave on this file, or -1 for no such target.
int report(const char* name, WinnableMode mode, const std::vector<Entry>& all, int rounds,
           int tool_rounds, const std::string& tool, int quick_undecided) {
    const bool quick = mode == WinnableMode::Quick;
    const double perft = perft_nodes_per_second();
    const Tally t = check_line_by_line(all, mode);
    const double n = static_cast<double>(all.size());
    const Rate in = quick ? in_process(all, mode, rounds) : Rate{n / t.total_wall, n / t.total_cpu};
    ToolRun startup;
    const auto [via, via_net] = quick && access(tool.c_str(), X_OK) == 0
                                    ? through_tool(tool, all, mode, tool_rounds, startup)
                                    : std::pair<Rate, Rate>{};
    const double perft_after = perft_nodes_per_second();
    const double yard = (perft + perft_after) / 2 / 1e6;  // M perft nodes/s around the runs
    std::printf("%s mode\n", name);
    std::printf("  in-process  %9.0f positions/s wall %9.0f per CPU s   = %7.1f per M perft "
                "nodes/s (CPU: the thread's CPU clock)%s\n",
                in.wall, in.cpu, in.cpu / yard, quick ? "" : "   (line by line)");
    if (via.wall > 0) {
        std::printf("  the tool    %9.0f positions/s wall %9.0f per CPU s   = %7.1f per M perft "
                    "nodes/s (CPU)   (%s --batch, %d x the file)\n",
                    via.wall, via.cpu, via.cpu / yard, tool.c_str(), tool_rounds);
        std::printf("  the tool    %9.0f positions/s wall %9.0f per CPU s   = %7.1f per M perft "
                    "nodes/s (CPU)   without its start-up (%.0f ms wall, %.0f ms CPU)\n",
                    via_net.wall, via_net.cpu, via_net.cpu / yard, startup.wall * 1e3,
                    startup.cpu * 1e3);
    } else if (quick) {
        std::printf("  the tool    not run (%s missing or failed)\n", tool.c_str());
    }
    std::printf("  worst single position %.3f ms wall, %.3f ms CPU: %s\n", t.worst_wall * 1e3,
                t.worst_cpu * 1e3, t.worst_fen.c_str());
    std::printf("  undetermined %d of %zu side answers, unsound %d, wrong wins %d, refused %d\n",
                t.undetermined, 2 * (all.size() - static_cast<std::size_t>(t.refused)), t.unsound,
                t.wrong_win, t.refused);
    std::printf("  yardstick: our perft %.1fM nodes/s (before %.1fM, after %.1fM)\n", yard,
                perft / 1e6, perft_after / 1e6);
    using eboard::bench::Bound;
    using eboard::bench::check_target;
    const std::string prefix = std::string("winnable ") + name + ": ";
    if (quick) {
        // Per CPU second in process: per core, what the daemon's call costs; wall time on a
        // shared machine measures the load, not the code.
        check_target((prefix + "positions per CPU s in process").c_str(), in.cpu, Bound::AtLeast,
                     700000, "positions/s", "issue 25");
        if (quick_undecided >= 0)
            check_target((prefix + "undetermined side answers").c_str(), t.undetermined,
                         Bound::AtMost, quick_undecided, "", "issue 25: no fewer decided");
    } else {
        check_target((prefix + "undetermined side answers").c_str(), t.undetermined,
                     Bound::AtMost, 0, "", "issue 25");
    }
    check_target((prefix + "worst single position (CPU; wall printed above)").c_str(),
                 t.worst_cpu * 1e3, Bound::AtMost, 1000, "ms", "issue 25");
    if (t.unsound > 0) std::printf("  UNSOUND answers: %d (must be 0, issue 25)\n", t.unsound);
    return t.unsound;
}

/// CHA's published figures, for comparison (not measured here: CHA is not installed).
void print_cha_figures() {
    std::printf(
        "CHA 2 as published (miguel-ambrona/D3-Chess README, \"Full vs Quick version of CHA\":\n"
        "  lichess timeouts of August 2021, 29,350,661 positions, i9-9900X 3.5 GHz):\n"
        "  full  340 us a position on average,  3,060 positions/s, worst 248 ms, every "
        "unwinnable one found\n"
        "  quick   3 us a position on average, 250,000+ positions/s, worst 463 us, every "
        "unwinnable one found\n"
        "  issue 25 quotes chasolver (CHA's Rust successor) at about 700,000 positions/s in "
        "quick mode,\n  and its full mode deciding every position of chasolver_positions.txt (not reproduced "
        "here)\n");
}

/// The positions of a ground-truth file ("LL FEN" lines, '#' comments); empty if unreadable.
std::vector<Entry> read_entries(const std::string& path) {
    std::ifstream in(path);
    std::vector<Entry> all;
    std::string line;
    while (std::getline(in, line))
        if (line.size() > 3 && line[0] != '#') all.push_back({line.substr(0, 2), line.substr(3)});
    return all;
}

} // namespace

int main(int argc, char** argv) try {
    const std::string positions = EBOARD_REPO_DATA "/deadpos/chasolver_positions.txt";
    bool quick_only = false;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--quick") quick_only = true;
        else paths.emplace_back(argv[i]);
    }
    if (paths.empty()) paths = {positions, EBOARD_REPO_DATA "/deadpos/chasolver_lichess_sample.txt"};
    const std::string tool = tool_path();
    // Warm up: the first Position builds the attack tables (magics found at start-up).
    (void)eboard::winnability_label(eboard::Position::startpos());
    int unsound = 0;
    for (const std::string& path : paths) {
        const std::vector<Entry> all = read_entries(path);
        if (all.empty()) {
            std::fprintf(stderr, "bench_winnable: no positions in %s\n", path.c_str());
            return 1;
        }
        std::printf("winnability over %zu positions of %s\n", all.size(), path.c_str());
        double load[3] = {0, 0, 0};
        if (getloadavg(load, 3) > 0)
            std::printf("machine: %ld CPUs online, load average %.2f %.2f %.2f\n",
                        sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
        const int quick_undecided = path == positions ? kQuickUndecidedBefore : -1;
        // 40 rounds: about 0.2 s of CPU, so that the rate of a loaded machine is not one time slice.
        unsound += report("quick", WinnableMode::Quick, all, 40, 20, tool, quick_undecided);
        if (!quick_only) unsound += report("full", WinnableMode::Full, all, 0, 0, tool, -1);
    }
    print_cha_figures();
    const double sf = stockfish_nodes_per_second();
    if (sf > 0) std::printf("stockfish perft %.1fM nodes/s (start position depth 5)\n", sf / 1e6);
    else std::printf("stockfish not installed: no second yardstick\n");
    return eboard::bench::target_exit_status(unsound > 0 ? 1 : 0);
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_winnable: %s\n", e.what());
    return 2;
}
