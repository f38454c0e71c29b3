// bench_reconstruction: move reconstruction (rules/reconstruction.hpp) on human-handled games
// (rules/handling.hpp) of ../shared/data/games (issue 3):
// - events/s through the reconstructor (all inputs, and board/clock inputs without ticks);
// - latency from the clock-press input to the completed-move event, in process (p50/p99/max);
// - memory per game (Reconstructor::memory_bytes at the end of each game; target <= 64 KiB);
// - correctness on the way: every game must come out exactly (mismatches are counted).
//   bench_reconstruction            every 5th game of lichess-db-sample.pgn + the other files
//   bench_reconstruction --all      every game of every file
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "tests/rules/recon_support.hpp"

using namespace eboard;
using namespace eboard::test;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
    const char* files[] = {"anastasian-lewis.pgn",        "carlsen-grischuk-linares.pgn",
                           "cutechess-fischerrandom.pgn", "kasparov-deep-blue-1997.pgn",
                           "lichess-db-sample.pgn",       "molinari-bordais-1979.pgn",
                           "nepomniachtchi-liren-game1.pgn", "ushenina-girya-2013.pgn"};
    std::vector<double> press_ns;
    double feed_s = 0;
    std::uint64_t events = 0, board_events = 0, games = 0, wrong = 0, plies = 0;
    std::size_t mem_max = 0, mem_sum = 0;
    for (const char* f : files) {
        auto list = read_pgn_file(std::string(EBOARD_SHARED_DATA) + "/games/" + f);
        std::size_t step = (!all && std::strcmp(f, "lichess-db-sample.pgn") == 0) ? 5 : 1;
        for (std::size_t gi = 0; gi < list.size(); gi += step) {
            const PgnGame& g = list[gi];
            const std::vector<Move>& moves = g.moves;
            Position start = g.start();
            for (int variant = 0; variant < 2; ++variant) {
                HandlingOptions o;
                o.seed = gi * 2 + static_cast<std::uint64_t>(variant) + 1;
                o.identity = variant == 1;
                o.dgt_scan = variant == 1;
                std::vector<SensorEvent> evs = handle_game(start, moves, o);
                ReconConfig cfg;
                if (g.chess960)
                    for (int n = 0; n < 960; ++n)
                        if (Position::chess960_start(n).fen() == start.fen()) cfg.chess960_number = n;
                Reconstructor rec(cfg);
                if (start.fen() != Position::startpos().fen() && cfg.chess960_number < 0)
                    (void)rec.start_game(start, 0);
                auto t0 = Clock::now();
                for (const SensorEvent& e : evs) {
                    bool press = std::holds_alternative<LeverPressed>(e);
                    auto a = press ? Clock::now() : Clock::time_point{};
                    const auto& out = rec.feed(e);
                    if (press) {
                        auto ns = std::chrono::duration<double, std::nano>(Clock::now() - a).count();
                        for (const ReconEvent& x : out)
                            if (const auto* m = std::get_if<MoveEvent>(&x))
                                if (m->completed == Completion::Clock) {
                                    press_ns.push_back(ns);
                                    break;
                                }
                    }
                }
                feed_s += std::chrono::duration<double>(Clock::now() - t0).count();
                events += evs.size();
                for (const SensorEvent& e : evs) board_events += std::holds_alternative<Tick>(e) ? 0u : 1u;
                ++games;
                plies += moves.size();
                if (rec.plies_completed() != static_cast<int>(moves.size())) ++wrong;
                std::size_t mem = rec.memory_bytes();
                mem_max = std::max(mem_max, mem);
                mem_sum += mem;
            }
        }
    }
    std::sort(press_ns.begin(), press_ns.end());
    auto pct = [&](double q) {
        return press_ns.empty() ? 0.0 : press_ns[static_cast<std::size_t>(q * static_cast<double>(press_ns.size() - 1))];
    };
    std::printf("games %llu (occupancy and identity handling), plies %llu, not exact %llu\n",
                static_cast<unsigned long long>(games), static_cast<unsigned long long>(plies),
                static_cast<unsigned long long>(wrong));
    std::printf("events %llu (%llu board/clock, the rest ticks) in %.3f s: %.0f events/s, %.0f board/clock events/s\n",
                static_cast<unsigned long long>(events), static_cast<unsigned long long>(board_events),
                feed_s, static_cast<double>(events) / feed_s, static_cast<double>(board_events) / feed_s);
    std::printf("press -> completed move: n %zu, p50 %.1f us, p99 %.1f us, max %.1f us (target p99 <= 1000 us)\n",
                press_ns.size(), pct(0.5) / 1000, pct(0.99) / 1000,
                press_ns.empty() ? 0.0 : press_ns.back() / 1000);
    std::printf("memory per game: max %.1f KiB, mean %.1f KiB (target <= 64 KiB)\n",
                static_cast<double>(mem_max) / 1024,
                games ? static_cast<double>(mem_sum) / static_cast<double>(games) / 1024 : 0.0);
    return wrong == 0 ? 0 : 1;
}
