// Winnability throughput over the CHA ground truth (../shared/data/deadpos/
// chasolver_positions.txt, 3,414 positions): positions/s in quick and full mode (both sides per
// position, FEN parsing included, as eboard-winnable --batch does), the worst single-position
// time, and how many side answers stay undetermined or are unsound. Targets (issue 8): quick
// >= 200,000 positions/s; full >= 3,000 positions/s with no position over 1 s.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "rules/position.hpp"
#include "rules/winnable.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Entry {
    std::string label;
    std::string fen;
};

struct Result {
    double seconds = 0;
    double cpu_seconds = 0;
    double worst = 0;
    std::string worst_fen;
    int undetermined = 0;
    int unsound = 0;
    int wrong_win = 0;
    std::size_t positions = 0;
};

Result run(const std::vector<Entry>& all, eboard::WinnableMode mode, int rounds) {
    Result r;
    const auto start = Clock::now();
    const std::clock_t cpu_start = std::clock();
    for (int round = 0; round < rounds; ++round) {
        for (const Entry& e : all) {
            const auto t0 = Clock::now();
            auto parsed = eboard::Position::from_fen(e.fen);
            if (!parsed) continue;
            const std::string got = eboard::winnability_label(parsed.value(), mode);
            const std::chrono::duration<double> dt = Clock::now() - t0;
            ++r.positions;
            if (dt.count() > r.worst) {
                r.worst = dt.count();
                r.worst_fen = e.fen;
            }
            if (round != 0) continue;
            for (std::size_t s = 0; s < 2; ++s) {
                if (got[s] == '?') ++r.undetermined;
                else if (got[s] == '-' && e.label[s] != '-') ++r.unsound;
                else if (got[s] != '-' && e.label[s] == '-') ++r.wrong_win;
            }
        }
    }
    const std::chrono::duration<double> total = Clock::now() - start;
    r.seconds = total.count();
    r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return r;
}

void print(const char* name, const Result& r, std::size_t count) {
    // CPU time too: on a shared machine the wall clock also counts other processes.
    std::printf("%-6s %9.0f positions/s wall, %9.0f per CPU second  (%zu positions in %.3f s, "
                "%.3f s CPU)  worst %.3f ms wall\n"
                "       undetermined %d of %zu side answers  unsound %d  wrong wins %d\n",
                name, static_cast<double>(r.positions) / r.seconds,
                static_cast<double>(r.positions) / r.cpu_seconds, r.positions, r.seconds,
                r.cpu_seconds, r.worst * 1000, r.undetermined, 2 * count, r.unsound,
                r.wrong_win);
    std::printf("       worst position: %s\n", r.worst_fen.c_str());
}

} // namespace

int main(int argc, char** argv) {
    // bench_winnable [--quick] [FILE]: --quick skips the (slow) full-mode pass.
    bool quick_only = false;
    std::string path = EBOARD_SHARED_DATA "/deadpos/chasolver_positions.txt";
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
    std::printf("winnability over %zu positions of %s\n", all.size(), path.c_str());
    // Warm up: the first Position builds the attack tables (magics found at start-up).
    (void)eboard::winnability_label(eboard::Position::startpos());
    std::size_t parsable = 0;
    for (const Entry& e : all) if (eboard::Position::from_fen(e.fen).has_value()) ++parsable;
    std::printf("%zu positions read as FEN, %zu refused (impossible material)\n", parsable,
                all.size() - parsable);
    print("quick", run(all, eboard::WinnableMode::Quick, 5), parsable);
    if (!quick_only) print("full", run(all, eboard::WinnableMode::Full, 1), parsable);
    return 0;
}
