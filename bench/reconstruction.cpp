// bench_reconstruction: move reconstruction (rules/reconstruction.hpp) on human-handled games
// (rules/handling.hpp) of data/games (issue 3), next to a peer measured in the same
// run on the same events: a trivial baseline that keeps only the occupancy and the squares
// reported since the last press and, at each clock press, matches the occupancy against the
// legal moves and plays the one that fits, a capture only on a reported square (the least
// any reconstruction must do; no touches, no timing, no irregularities, no identity).
// - events/s through each (all inputs, and board/clock inputs without ticks);
// - latency from the clock-press input to the completed-move event, in process (p50/p99/max);
// - memory per game (Reconstructor::memory_bytes at the end of each game; target <= 64 KiB),
//   and the baseline's (its position with the game's undo history);
// - correctness on the way: every game must come out exactly (mismatches are counted).
//   bench_reconstruction            every 5th game of lichess-db-sample.pgn + the other files
//   bench_reconstruction --all      every game of every file
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <cstring>

#include "bench/target.hpp"
#include "tests/rules/recon_support.hpp"

using namespace eboard;
using namespace eboard::test;
using Clock = std::chrono::steady_clock;

namespace {

/// The peer: occupancy only, moves only at a press, the output a completed move's uci and fen.
class Baseline {
  public:
    explicit Baseline(const Position& start) : pos_(start.copy()), occ_(start.occupied()) {}
    /// Returns true when a completed move came out of this input.
    bool feed(const SensorEvent& e, bool rotated) {
        auto set = [&](Square s, bool on) {
            if (rotated) s = s.rotate();
            Bitboard b = Bitboard{1} << s.index();
            occ_ = on ? (occ_ | b) : (occ_ & ~b);
            reported_ |= b;
        };
        if (const auto* c = std::get_if<SquareChange>(&e)) {
            set(c->square, c->reading.occupied);
        } else if (const auto* b = std::get_if<BoardSnapshot>(&e)) {
            occ_ = 0;
            for (int s = 0; s < 64; ++s)
                if (b->board[static_cast<std::size_t>(s)].occupied) set(Square(s), true);
        } else if (std::holds_alternative<LeverPressed>(e)) {
            Bitboard reported = reported_;
            reported_ = 0;
            for (Move m : pos_.legal_moves()) {
                if (m.kind() == Move::Kind::Promotion && m.promotion_type() != PieceType::Queen) continue;
                // Every capture by one piece leaves the same occupancy: the victim's square was reported.
                if (pos_.piece_on(m.to()) != Piece::None && !m.is_castling() &&
                    !(reported & (Bitboard{1} << m.to().index())))
                    continue;
                pos_.make_move(m);
                if (pos_.occupied() == occ_) {
                    uci_ = to_uci(pos_, m);
                    fen_ = pos_.fen();
                    ++plies_;
                    return true;
                }
                pos_.unmake_move();
            }
        }
        return false;
    }
    [[nodiscard]] int plies() const noexcept { return plies_; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return sizeof(*this) + (pos_.history_size() + 1) * 64 + uci_.capacity() + fen_.capacity();
    }

  private:
    Position pos_;
    Bitboard occ_ = 0;
    Bitboard reported_ = 0;
    std::string uci_, fen_;
    int plies_ = 0;
};

struct Figures {
    std::vector<double> press_ns;
    double feed_s = 0;
    std::size_t mem_max = 0, mem_sum = 0;
    std::uint64_t wrong = 0;

    [[nodiscard]] double pct(double q) {
        if (press_ns.empty()) return 0;
        std::sort(press_ns.begin(), press_ns.end());
        return press_ns[static_cast<std::size_t>(q * static_cast<double>(press_ns.size() - 1))];
    }
};

} // namespace

int main(int argc, char** argv) try {
    bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
    const char* files[] = {"anastasian-lewis.pgn",        "carlsen-grischuk-linares.pgn",
                           "cutechess-fischerrandom.pgn", "kasparov-deep-blue-1997.pgn",
                           "lichess-db-sample.pgn",       "molinari-bordais-1979.pgn",
                           "nepomniachtchi-liren-game1.pgn", "ushenina-girya-2013.pgn"};
    Figures ours, peer;
    std::uint64_t events = 0, board_events = 0, games = 0, plies = 0;
    for (const char* f : files) {
        auto list = read_pgn_file(std::string(EBOARD_REPO_DATA) + "/games/" + f);
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
                cfg.chess960_number = g.chess960_number();
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
                                    ours.press_ns.push_back(ns);
                                    break;
                                }
                    }
                }
                ours.feed_s += std::chrono::duration<double>(Clock::now() - t0).count();
                if (rec.plies_completed() != static_cast<int>(moves.size())) ++ours.wrong;
                std::size_t mem = rec.memory_bytes();
                ours.mem_max = std::max(ours.mem_max, mem);
                ours.mem_sum += mem;

                Baseline base(start);
                t0 = Clock::now();
                for (const SensorEvent& e : evs) {
                    bool press = std::holds_alternative<LeverPressed>(e);
                    auto a = press ? Clock::now() : Clock::time_point{};
                    bool done = base.feed(e, o.rotated);
                    if (done)
                        peer.press_ns.push_back(
                            std::chrono::duration<double, std::nano>(Clock::now() - a).count());
                }
                peer.feed_s += std::chrono::duration<double>(Clock::now() - t0).count();
                if (base.plies() != static_cast<int>(moves.size())) ++peer.wrong;
                peer.mem_max = std::max(peer.mem_max, base.memory_bytes());
                peer.mem_sum += base.memory_bytes();

                events += evs.size();
                for (const SensorEvent& e : evs) board_events += std::holds_alternative<Tick>(e) ? 0u : 1u;
                ++games;
                plies += moves.size();
            }
        }
    }
    auto d = [](std::uint64_t n) { return static_cast<double>(n); };
    std::printf("games %llu (occupancy and identity/DGT-scan handling), plies %llu; not exact: "
                "reconstructor %llu, baseline %llu\n",
                static_cast<unsigned long long>(games), static_cast<unsigned long long>(plies),
                static_cast<unsigned long long>(ours.wrong), static_cast<unsigned long long>(peer.wrong));
    std::printf("events %llu (%llu board/clock, the rest ticks)\n", static_cast<unsigned long long>(events),
                static_cast<unsigned long long>(board_events));
    std::printf("  reconstructor: %.3f s, %.0f events/s, %.0f board/clock events/s\n", ours.feed_s,
                d(events) / ours.feed_s, d(board_events) / ours.feed_s);
    std::printf("  baseline:      %.3f s, %.0f events/s (throughput reconstructor/baseline %.2fx)\n", peer.feed_s,
                d(events) / peer.feed_s, peer.feed_s / ours.feed_s);
    double o50 = ours.pct(0.5), o99 = ours.pct(0.99), p50 = peer.pct(0.5), p99 = peer.pct(0.99);
    std::printf("press -> completed move (target p99 <= 1000 us):\n");
    std::printf("  reconstructor: n %zu, p50 %.1f us, p99 %.1f us, max %.1f us\n", ours.press_ns.size(),
                o50 / 1000, o99 / 1000, ours.press_ns.empty() ? 0.0 : ours.press_ns.back() / 1000);
    std::printf("  baseline:      n %zu, p50 %.1f us, p99 %.1f us, max %.1f us "
                "(time reconstructor/baseline p50 %.2fx, p99 %.2fx)\n",
                peer.press_ns.size(), p50 / 1000, p99 / 1000,
                peer.press_ns.empty() ? 0.0 : peer.press_ns.back() / 1000, o50 / p50, o99 / p99);
    std::printf("memory per game (target <= 64 KiB):\n");
    std::printf("  reconstructor: max %.1f KiB, mean %.1f KiB\n", d(ours.mem_max) / 1024,
                games ? d(ours.mem_sum) / d(games) / 1024 : 0.0);
    std::printf("  baseline:      max %.1f KiB, mean %.1f KiB (reconstructor/baseline max %.2fx)\n",
                d(peer.mem_max) / 1024, games ? d(peer.mem_sum) / d(games) / 1024 : 0.0,
                d(ours.mem_max) / d(peer.mem_max));
    bench::check_target("reconstruction press -> completed move p99 (in process)", o99 / 1000,
                        bench::Bound::AtMost, 1000, "us", "issue 3");
    bench::check_target("reconstruction memory per game (max)", d(ours.mem_max) / 1024,
                        bench::Bound::AtMost, 64, "KiB", "issue 3");
    if (ours.wrong != 0) std::printf("NOT EXACT: %llu games (must be 0, issue 3)\n",
                                     static_cast<unsigned long long>(ours.wrong));
    return bench::target_exit_status(ours.wrong == 0 ? 0 : 1);
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_reconstruction: %s\n", e.what());
    return 2;
}
