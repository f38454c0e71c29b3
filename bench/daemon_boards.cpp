// bench_daemon_boards: boards per daemon (issue 5; target 1,000 boards under 50% of one core,
// <= 64 KiB per board). N emulated DGT boards with DGT3000 clocks (drivers/emu, each on its
// own pty) replay real blitz games (../shared/data/games/lichess-db-sample.pgn) at blitz pace
// through one eboardd process; the daemon's CPU time (/proc/PID/stat) over a measured window
// and its memory (VmRSS) are read. Peers measured in the same run: the same daemon with no
// board (its fixed memory, the per-board figure is the difference), and the same N boards
// connected but idle (no moves: what merely having the boards costs).
//   bench_daemon_boards [--boards N] [--seconds S] [--ply-ms MS] [--state DIR]
// --ply-ms: the mean time between two plies on one board (default 4000: a 3+2 blitz game
// played in about 6 minutes). --state: where the store and PGNs go (default a fresh directory
// under /dev/shm, so that the disk's fsync rate does not bound the figure; see the note the
// benchmark prints).
#include "bench/daemon_support.hpp"
#include "bench/target.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <random>

#include "daemon/simulated_player.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "rules/pgn.hpp"

using namespace eboard;
using namespace eboard::bench;
namespace fs = std::filesystem;

namespace {

struct Board {
    std::unique_ptr<drivers::emu::DgtEmulator> emu;
    std::unique_ptr<daemon::SimulatedPlayer> player;
    const GameRecord* game = nullptr;
    std::size_t next = 0; ///< next ply of the game
    Clock::time_point due;
};

std::vector<GameRecord> blitz_games() {
    std::ifstream in(fs::path(EBOARD_SHARED_DATA) / "games" / "lichess-db-sample.pgn");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<GameRecord> out;
    PgnReader reader(text);
    while (auto g = reader.next())
        if (g->has_value() && g->value().start_fen.empty() && g->value().moves.size() >= 40)
            out.push_back(std::move(g->value()));
    return out;
}

struct Sample {
    double cpu_percent = 0; ///< of one core
    long rss_kib = 0;
    long threads = 0;
    long completed = 0;
    long played = 0;
};

// Runs eboardd with `n` boards; plays them when `play`, else leaves them idle. Measures over
// `seconds` after the games started.
Sample run(int n, bool play, int seconds, int ply_ms, const fs::path& state, const std::vector<GameRecord>& games) {
    Sample s;
    fs::create_directories(state);
    std::vector<Board> boards(static_cast<std::size_t>(n));
    std::ofstream conf(state / "eboardd.conf");
    conf << "white-side = left\ntime-control = 180+2\n";
    for (int i = 0; i < n; ++i) {
        drivers::emu::DgtEmulatorOptions o;
        o.clock.left_ms = o.clock.right_ms = 180000;
        Board& b = boards[static_cast<std::size_t>(i)];
        b.emu = std::make_unique<drivers::emu::DgtEmulator>(o);
        b.game = &games[static_cast<std::size_t>(i) % games.size()];
        conf << "[board.b" << i << "]\nuri = dgt:" << b.emu->pty_slave_path() << "\n";
    }
    conf.close();
    test::NotifySocket notify((state / "notify").string());
    test::Process d(eboardd_bin(),
                    {"--config", (state / "eboardd.conf").string(), "--state-dir", (state / "db").string(),
                     "--pgn-dir", (state / "pgn").string(), "--events", "-"},
                    notify.path(), (state / "stderr").string());
    if (!notify.wait_for("READY=1", 60000)) return s;
    std::atomic<long> started{0}, completed{0};
    EventReader reader(d, [&](const ojson& e, Clock::time_point) {
        if (e["class"] == "GAME" && e["event"] == "start") ++started;
        if (e["class"] == "MOVE" && e["status"] == "completed") ++completed;
    });
    for (int w = 0; w < 600 && started < n; ++w) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (started < n) std::fprintf(stderr, "only %ld of %d games started\n", started.load(), n);
    if (n == 0) std::this_thread::sleep_for(std::chrono::seconds(1));
    // Every driver set its board up (the clock version asked for after the update mode).
    for (auto& b : boards)
        b.emu->wait_until([](const drivers::emu::DgtBoardEmu& m) { return m.clock().state().commands > 0; }, 30000);
    std::atomic<bool> stop{false};
    std::atomic<long> played{0};
    std::vector<std::thread> players;
    if (play && n > 0) {
        // Players: a few threads, each with its share of the boards, each board moving at its
        // own (seeded, spread) times; a move is handled at 20x human pace.
        const int threads = std::clamp(n / 25, 1, 64);
        const auto t0 = Clock::now();
        std::mt19937 rng(7); // NOLINT(cert-msc51-cpp): the same players in every run
        for (auto& b : boards) {
            b.player = std::make_unique<daemon::SimulatedPlayer>(*b.emu, Position::startpos(), rng(), 20);
            b.due = t0 + std::chrono::milliseconds(rng() % static_cast<unsigned>(ply_ms));
        }
        for (int t = 0; t < threads; ++t)
            players.emplace_back([&, t] {
                std::mt19937 r(static_cast<unsigned>(t));
                auto pace = [&](std::chrono::microseconds p) {
                    std::this_thread::sleep_for(p);
                    return !stop;
                };
                while (!stop) {
                    Board* next = nullptr;
                    for (std::size_t i = static_cast<std::size_t>(t); i < boards.size(); i += static_cast<std::size_t>(threads))
                        if (boards[i].next < boards[i].game->moves.size() && (!next || boards[i].due < next->due))
                            next = &boards[i];
                    if (!next) return;
                    std::this_thread::sleep_until(next->due);
                    if (stop) return;
                    if (!next->player->play(next->game->moves[next->next].move, pace)) return;
                    ++next->next;
                    ++played;
                    next->due = Clock::now() + std::chrono::milliseconds(ply_ms / 2 + static_cast<int>(r() % static_cast<unsigned>(ply_ms)));
                }
            });
        std::this_thread::sleep_for(std::chrono::milliseconds(ply_ms)); // warm up: every board moving
    }
    const long completed0 = completed, played0 = played;
    const double cpu0 = cpu_seconds(d.pid());
    const auto w0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    const double cpu1 = cpu_seconds(d.pid());
    const double wall = std::chrono::duration<double>(Clock::now() - w0).count();
    s.cpu_percent = 100.0 * (cpu1 - cpu0) / wall;
    s.rss_kib = status_field(d.pid(), "VmRSS");
    s.threads = status_field(d.pid(), "Threads");
    s.completed = completed - completed0;
    s.played = played - played0;
    stop = true;
    for (auto& p : players) p.join();
    d.signal(SIGTERM);
    (void)d.wait_exit();
    return s;
}

} // namespace

int main(int argc, char** argv) try {
    int n = 100, seconds = 20, ply_ms = 4000;
    std::string state_base;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--boards") && i + 1 < argc) n = static_cast<int>(std::strtol(argv[++i], nullptr, 10));
        else if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = static_cast<int>(std::strtol(argv[++i], nullptr, 10));
        else if (!std::strcmp(argv[i], "--ply-ms") && i + 1 < argc) ply_ms = static_cast<int>(std::strtol(argv[++i], nullptr, 10));
        else if (!std::strcmp(argv[i], "--state") && i + 1 < argc) state_base = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_daemon_boards [--boards N] [--seconds S] [--ply-ms MS] [--state DIR]\n");
            return 2;
        }
    }
    if (state_base.empty()) state_base = fs::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    const auto games = blitz_games();
    const fs::path base = fs::path(state_base) / ("eboardd-bench-" + std::to_string(getpid()));
    std::printf("bench_daemon_boards: %d emulated DGT boards, a ply every ~%d ms per board, %d s measured,\n"
                "  state and PGN in %s (target: 1,000 boards under 50%% of one core, <= 64 KiB per board)\n\n",
                n, ply_ms, seconds, state_base.c_str());
    const Sample none = run(0, false, 3, ply_ms, base / "none", games);
    const Sample idle = run(n, false, seconds, ply_ms, base / "idle", games);
    const Sample busy = run(n, true, seconds, ply_ms, base / "busy", games);
    fs::remove_all(base);
    auto line = [&](const char* what, const Sample& x, int boards) {
        std::printf("  %-34s CPU %6.1f %% of a core  RSS %7ld KiB  threads %5ld", what, x.cpu_percent, x.rss_kib, x.threads);
        if (boards > 0)
            std::printf("  per board: %5.3f %% CPU, %5.1f KiB", x.cpu_percent / boards,
                        static_cast<double>(x.rss_kib - none.rss_kib) / boards);
        std::printf("\n");
    };
    line("peer: eboardd, no board", none, 0);
    line("peer: N boards connected, idle", idle, n);
    line("eboardd: N boards playing", busy, n);
    std::printf("  plies played %ld, completed MOVEs announced %ld (%.1f plies/s) in the window\n", busy.played,
                busy.completed, static_cast<double>(busy.completed) / seconds);
    std::printf("  linear estimate for 1,000 boards: %.0f %% of a core, %.0f KiB per board\n",
                n > 0 ? busy.cpu_percent * 1000.0 / n : 0.0,
                n > 0 ? static_cast<double>(busy.rss_kib - none.rss_kib) / n : 0.0);
    if (n > 0 && busy.completed > 0) {
        check_target("daemon 1,000 boards CPU (linear estimate)", busy.cpu_percent * 1000.0 / n, Bound::Below, 50,
                     "% of a core", "issue 5");
        check_target("daemon memory per board (RSS over no board)",
                     static_cast<double>(busy.rss_kib - none.rss_kib) / n, Bound::AtMost, 64, "KiB", "issue 5");
    } else {
        target_not_measured("daemon 1,000 boards CPU and memory per board", "no completed move", "issue 5");
    }
    return target_exit_status();
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_daemon_boards: %s\n", e.what());
    return 2;
}
