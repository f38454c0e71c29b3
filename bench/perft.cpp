// bench_perft: perft nodes/s of the rules core next to Debian's stockfish (`go perft`) on the
// same positions in the same run (issue 2: target >= 0.5x, goal 1.0x). Both count the last
// ply in bulk.
//   bench_perft                 start position depth 6 and Kiwipete depth 5
//   bench_perft --all [--max-nodes N]
//                               every listed depth of every file in data/perft
//                               (only counts <= N if given), reports mismatches; exit 1 if any
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/target.hpp"
#include "bench/uci_engine.hpp"
#include "rules/perft_suite.hpp"
#include "rules/position.hpp"

using namespace eboard;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Line {
    const char* name;
    const char* fen;
    int depth;
};

int head_to_head() {
    const Line lines[] = {
        {"startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
        {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    };
    const std::string sf_path = bench::find_stockfish();
    auto sf = sf_path.empty() ? std::nullopt : bench::UciEngine::start(sf_path);
    if (sf) {
        sf->send("uci");
        sf->wait_for("uciok");
    } else {
        std::printf("stockfish not found (install Debian's stockfish): no ratio\n");
    }
    bool mismatch = false;
    std::printf("%-9s %5s %12s %10s %12s %10s %8s\n", "position", "depth", "nodes", "eboard/s",
                "stockfish", "sf/s", "ratio");
    for (const Line& l : lines) {
        Position pos = std::move(Position::from_fen(l.fen).value());
        (void)perft(pos, 2); // warm the tables
        const auto t0 = Clock::now();
        const std::uint64_t nodes = perft(pos, l.depth);
        const double ours = static_cast<double>(nodes) / seconds_since(t0);
        double theirs = 0;
        std::uint64_t sf_nodes = 0;
        if (sf) {
            sf->perft(l.fen, 1, false); // position set up, engine warm
            sf->send("position fen " + std::string(l.fen));
            sf->sync();
            const auto t1 = Clock::now();
            sf->send("go perft " + std::to_string(l.depth));
            if (auto done = sf->wait_for("Nodes searched: ")) {
                const double s = seconds_since(t1);
                sf_nodes = std::strtoull(done->c_str() + 16, nullptr, 10);
                theirs = static_cast<double>(sf_nodes) / s;
            }
        }
        std::printf("%-9s %5d %12llu %8.1fM %12llu %8.1fM %8.2f%s\n", l.name, l.depth,
                    static_cast<unsigned long long>(nodes), ours / 1e6,
                    static_cast<unsigned long long>(sf_nodes), theirs / 1e6,
                    theirs > 0 ? ours / theirs : 0.0,
                    sf && sf_nodes != nodes ? "  NODE COUNT MISMATCH" : "");
        if (sf && sf_nodes != nodes) mismatch = true;
        const std::string figure = std::string("perft ") + l.name + " depth " +
                                   std::to_string(l.depth) + " nodes/s, ours / stockfish";
        if (theirs > 0)
            bench::check_target(figure.c_str(), ours / theirs, bench::Bound::AtLeast, 0.5, "x",
                                "issue 2");
        else
            bench::target_not_measured(figure.c_str(), "no stockfish run", "issue 2");
    }
    return bench::target_exit_status(mismatch ? 1 : 0);
}

int all_files(std::uint64_t max_nodes) {
    const struct {
        const char* name;
        bool chess960;
    } files[] = {{"classic6.perft", false}, {"perftsuite.epd", false}, {"tricky.perft", false},
                 {"chess960.perft", true},  {"random.perft", false}};
    std::uint64_t total = 0;
    int checked = 0;
    int mismatches = 0;
    int skipped = 0;
    const auto t0 = Clock::now();
    for (const auto& f : files) {
        const std::string path = std::string(EBOARD_REPO_DATA) + "/perft/" + f.name;
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        auto cases = parse_perft_suite(ss.str());
        if (!in || !cases) {
            std::printf("%s: cannot read\n", path.c_str());
            return 2;
        }
        for (const auto& c : *cases) {
            auto pos = Position::from_fen(c.fen, f.chess960);
            if (!pos && !f.chess960) pos = Position::from_fen(c.fen, true); // X-FEN cases
            if (!pos) {
                std::printf("%s:%d %s: %s\n", f.name, c.line, c.fen.c_str(),
                            pos.error().message.c_str());
                ++mismatches;
                continue;
            }
            for (const auto& [depth, expected] : c.counts) {
                if (max_nodes && expected > max_nodes) {
                    ++skipped;
                    continue;
                }
                const std::uint64_t got = perft(*pos, depth);
                total += got;
                ++checked;
                if (got != expected) {
                    ++mismatches;
                    std::printf("MISMATCH %s:%d %s depth %d: %llu, expected %llu\n", f.name,
                                c.line, c.fen.c_str(), depth, static_cast<unsigned long long>(got),
                                static_cast<unsigned long long>(expected));
                }
            }
        }
        std::printf("%s done (%d checks so far, %.0f s)\n", f.name, checked, seconds_since(t0));
        std::fflush(stdout);
    }
    const double s = seconds_since(t0);
    std::printf("%d counts checked, %d mismatches, %d skipped (> %llu nodes); %llu nodes in "
                "%.1f s = %.1fM nodes/s\n",
                checked, mismatches, skipped, static_cast<unsigned long long>(max_nodes),
                static_cast<unsigned long long>(total), s, static_cast<double>(total) / s / 1e6);
    return mismatches ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) try {
    bool all = false;
    std::uint64_t max_nodes = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--all") {
            all = true;
        } else if (a == "--max-nodes" && i + 1 < argc) {
            max_nodes = std::strtoull(argv[++i], nullptr, 10);
        } else {
            std::fprintf(stderr, "usage: bench_perft [--all [--max-nodes N]]\n");
            return 2;
        }
    }
    return all ? all_files(max_nodes) : head_to_head();
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_perft: %s\n", e.what());
    return 2;
}
