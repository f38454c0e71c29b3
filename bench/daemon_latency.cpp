// bench_daemon_latency: clock press -> MOVE completed on the events stream (issue 5; target
// p99 <= 5 ms), through the eboardd process: an emulated DGT board with its DGT3000 (drivers/emu,
// on a pty) replays real games; each move is made on the board, and once the daemon announced
// it made, the player presses the clock; the time from the press to the completed MOVE line read
// from `eboardd --events -` is the latency. It includes the DGT wire (the clock's time report),
// the driver, the reconstruction, the store's durable commit and the event line; the PGN file
// is rewritten after the announcement, on the daemon's PGN writer thread (daemon/recorder.hpp).
// Run twice: the state and PGN directories on the disk (/tmp) and on tmpfs (/dev/shm).
// Peers measured in the same run:
// - the floor of the durability contract: a SQLite commit with synchronous=FULL (WAL) on the
//   same file system (a completed move is durable before it is announced: one such commit is
//   in every completed move);
// - the in-process floor: the Reconstructor alone, from the press input to the completed move
//   (what bench_reconstruction measures, here on the same games).
//   bench_daemon_latency [--games N] [--speed X]
#include "bench/daemon_support.hpp"
#include "bench/target.hpp"

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <cstring>
#include <filesystem>
#include <map>

#include "daemon/simulated_player.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "rules/handling.hpp"
#include "rules/pgn.hpp"
#include "rules/reconstruction.hpp"

using namespace eboard;
using namespace eboard::bench;
namespace fs = std::filesystem;

namespace {

std::vector<GameRecord> games(int n) {
    std::vector<GameRecord> out;
    for (const char* file : {"kasparov-deep-blue-1997.pgn", "lichess-db-sample.pgn", "nepomniachtchi-liren-game1.pgn"}) {
        std::ifstream in(fs::path(EBOARD_REPO_DATA) / "games" / file);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        PgnReader reader(text);
        while (static_cast<int>(out.size()) < n) {
            auto g = reader.next();
            if (!g) break;
            if (g->has_value() && g->value().start_fen.empty() && !g->value().moves.empty()) out.push_back(std::move(g->value()));
        }
    }
    return out;
}

void report(const char* what, const std::vector<double>& ms) {
    std::printf("  %-58s n=%4zu  p50 %7.3f ms  p99 %7.3f ms  max %7.3f ms\n", what, ms.size(), percentile(ms, 50),
                percentile(ms, 99), ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()));
}

// The daemon's latencies, state in `dir`.
std::vector<double> through_daemon(const std::vector<GameRecord>& list, const fs::path& dir, double speed,
                                   int* missed) {
    std::vector<double> out;
    for (const auto& game : list) {
        const fs::path run = dir / ("run-" + std::to_string(out.size()));
        fs::create_directories(run);
        drivers::emu::DgtEmulatorOptions o;
        o.clock.left_ms = o.clock.right_ms = 60 * 60 * 1000;
        drivers::emu::DgtEmulator board(o);
        test::NotifySocket notify((run / "notify").string());
        test::Process d(eboardd_bin(),
                        {"--board", "dgt:" + board.pty_slave_path(), "--white-side", "left", "--state-dir",
                         (run / "state").string(), "--pgn-dir", (run / "pgn").string(), "--events", "-"},
                        notify.path());
        if (!notify.wait_for("READY=1")) return out;
        // ply -> status seen, and when the completed line arrived.
        std::map<int, Clock::time_point> completed;
        std::map<int, bool> made;
        bool started = false;
        Signal sig;
        EventReader reader(d, [&](const ojson& e, Clock::time_point at) {
            sig.update([&] {
                if (e["class"] == "GAME") started = true;
                if (e["class"] != "MOVE") return;
                if (e["status"] == "completed") completed.emplace(e["ply"].get<int>(), at);
                else made[e["ply"].get<int>()] = true;
            });
        });
        if (!sig.wait([&] { return started; }, 20000)) return out;
        // The driver set the board up (it asked for the clock version after the update mode).
        board.wait_until([](const drivers::emu::DgtBoardEmu& m) { return m.clock().state().commands > 0; }, 20000);
        daemon::SimulatedPlayer player(board, Position::startpos(), 2026, speed);
        auto pace = [](std::chrono::microseconds p) {
            std::this_thread::sleep_for(p);
            return true;
        };
        int ply = 0;
        for (const auto& gm : game.moves) {
            ++ply;
            const bool white = ply % 2 == 1;
            player.play(gm.move, pace, false);
            if (!sig.wait([&] { return made.count(ply) > 0 || completed.count(ply) > 0; }, 5000)) {
                ++*missed;
                break;
            }
            const auto t0 = Clock::now();
            board.press_lever(white ? drivers::ClockSide::Left : drivers::ClockSide::Right);
            if (!sig.wait([&] { return completed.count(ply) > 0; }, 5000)) {
                ++*missed;
                break;
            }
            Clock::time_point t1;
            sig.update([&] { t1 = completed[ply]; });
            // A move that ends the game is completed when made (Art. 6.2.1): no press latency.
            if (t1 > t0) out.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        d.signal(SIGTERM);
        (void)d.wait_exit();
    }
    return out;
}

// SQLite commits with synchronous=FULL in WAL mode, in `dir`.
std::vector<double> sqlite_commits(const fs::path& dir, int n) {
    std::vector<double> out;
    sqlite3* db = nullptr;
    const std::string path = (dir / "floor.db").string();
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return out;
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE t(x);", nullptr, nullptr, nullptr);
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        sqlite3_exec(db, "BEGIN IMMEDIATE; INSERT INTO t VALUES(1); COMMIT;", nullptr, nullptr, nullptr);
        out.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    sqlite3_close(db);
    return out;
}

// The reconstruction alone: press input -> completed move, on the same games handled the same way.
std::vector<double> in_process(const std::vector<GameRecord>& list) {
    std::vector<double> out;
    for (const auto& game : list) {
        HandlingOptions ho;
        ho.identity = true;
        ho.seed = 2026;
        std::vector<Move> moves;
        for (const auto& m : game.moves) moves.push_back(m.move);
        const auto events = handle_game(Position::startpos(), moves, ho);
        Reconstructor recon;
        for (const auto& e : events) {
            const bool press = std::holds_alternative<LeverPressed>(e);
            const auto t0 = Clock::now();
            const auto& r = recon.feed(e);
            const auto t1 = Clock::now();
            if (!press) continue;
            for (const auto& x : r)
                if (const auto* m = std::get_if<MoveEvent>(&x); m && m->completed == Completion::Clock)
                    out.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
    }
    return out;
}

} // namespace

int main(int argc, char** argv) try {
    int n_games = 3;
    double speed = 20;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--games") && i + 1 < argc) n_games = static_cast<int>(std::strtol(argv[++i], nullptr, 10));
        else if (!std::strcmp(argv[i], "--speed") && i + 1 < argc) speed = std::strtod(argv[++i], nullptr);
        else {
            std::fprintf(stderr, "usage: bench_daemon_latency [--games N] [--speed X]\n");
            return 2;
        }
    }
    const auto list = games(n_games);
    int plies = 0;
    for (const auto& g : list) plies += static_cast<int>(g.moves.size());
    std::printf("bench_daemon_latency: clock press -> MOVE completed on eboardd's events stream\n");
    std::printf("  %zu games, %d plies, handling at %.0fx human pace (target p99 <= 5 ms)\n\n", list.size(), plies, speed);
    for (const char* base : {"/tmp", "/dev/shm"}) {
        if (!fs::is_directory(base)) continue;
        test::TempDir dir;
        fs::path where = dir.path;
        if (std::string(base) == "/dev/shm") {
            where = fs::path(base) / dir.path.filename();
            fs::create_directories(where);
        }
        int missed = 0;
        const auto daemon = through_daemon(list, where, speed, &missed);
        std::printf("state and PGN on %s:\n", base);
        report("eboardd: press -> completed MOVE line", daemon);
        report("peer: SQLite commit, synchronous=FULL (durability floor)", sqlite_commits(where, 200));
        if (missed) std::printf("  (%d plies not seen in time)\n", missed);
        const std::string figure = std::string("daemon press -> completed MOVE p99, state on ") + base;
        if (daemon.empty() || missed) target_not_measured(figure.c_str(), "plies not seen in time", "issue 5");
        else check_target(figure.c_str(), percentile(daemon, 99), Bound::AtMost, 5, "ms", "issue 5");
        if (where != dir.path) fs::remove_all(where);
    }
    report("peer: Reconstructor alone, press input -> completed move", in_process(list));
    return target_exit_status();
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_daemon_latency: %s\n", e.what());
    return 2;
}
