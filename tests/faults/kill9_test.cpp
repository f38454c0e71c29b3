// kill -9 at random moments during multi-board replays (issue 7): four emulated DGT boards,
// each with a simulated player replaying a game of ../shared/data/games/lichess-db-sample.pgn,
// and eboardd killed with SIGKILL at random moments between the players' moves (with four
// boards, often while another board's move is being recorded) and started again on the same
// state directory. Afterwards no
// completed move it announced is missing from the store, each board kept one game (resumed,
// not restarted), and every PGN equals its source game.
//   EBOARD_FAULT_GAMES (default 12 in ctest; 100 for the full sweep), EBOARD_FAULT_SEED;
//   EBOARD_FAULT_WINDOW=press also kills right after a press, before the daemon completed the
//   move; =inside also while a move is under way (a piece in the air, a move made and not
//   pressed). Neither passes yet: the restarted daemon does not take up a move made or pressed
//   while it was down (the game stalls, or the DGT board's orientation is guessed wrong).
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"

#include <atomic>
#include <random>
#include <set>

#include "daemon/store.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

constexpr int kBoards = 4;

/// What a sweep saw (printed at the end, for the report of a long run).
struct Tally {
    int kills = 0;
    int completed = 0;  ///< completed moves announced (MOVE completed events, all runs)
    int lost = 0;       ///< of those, missing from the store or different there
    int pgn_equal = 0;  ///< games whose PGN equals the source
};

// One round: `n` boards playing games [first, first + n) of the sample, kills at random.
void round_with_kills(Tally& tally, int first, int n, std::mt19937_64& random, KillWindow window) {
    TempDir dir("eboardd-kill9");
    const double speed = 150;
    std::vector<std::unique_ptr<EmulatedBoard>> boards;
    for (int i = 0; i < n; ++i)
        boards.push_back(std::make_unique<EmulatedBoard>("b" + std::to_string(i), dir.path / ("b" + std::to_string(i)),
                                                         source_game("lichess-db-sample.pgn", first + i),
                                                         random(), speed));
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string state = (dir.path / "state").string();
    std::vector<std::pair<std::string, std::string>> uris;
    for (const auto& b : boards) uris.emplace_back(b->name(), b->uri());
    DaemonUnderTest daemon(daemon_args(dir.path, uris), dir.path);
    REQUIRE(daemon.start());
    for (auto& b : boards) REQUIRE(b->wait_driver_ready(1));

    WorldLock world;
    std::atomic<int> finished{0};
    std::vector<char> ok(static_cast<std::size_t>(n), 0);
    std::vector<std::thread> players;
    for (int i = 0; i < n; ++i)
        players.emplace_back([&, i] {
            ok[static_cast<std::size_t>(i)] =
                play(*boards[static_cast<std::size_t>(i)], daemon, world, 1, -1, window);
            ++finished;
        });
    int kills = 0;
    bool restarted = true;
    std::uniform_int_distribution<int> pause_ms(20, 600);
    while (finished < n) {
        // The random moment: how long the daemon runs before the next kill.
        std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(random)));
        // cppcheck-suppress oppositeInnerCondition ; `finished` is atomic, the players change it
        if (finished == n) break;
        world.stop();
        daemon.kill9();
        ++kills;
        restarted = daemon.start();
        for (auto& b : boards) restarted = restarted && b->wait_driver_ready(static_cast<std::size_t>(daemon.runs()));
        world.resume();
        if (!restarted) break; // the players time out; the checks below say what was lost
    }
    for (auto& t : players) t.join();
    CHECK(restarted);
    CHECK(daemon.terminate() == 0);
    if (std::count(ok.begin(), ok.end(), 0) > 0) UNSCOPED_INFO(slurp(daemon.stderr_path()));

    auto store = daemon::Store::open(state);
    REQUIRE(store.has_value());
    const auto events = daemon.events();
    for (int i = 0; i < n; ++i) {
        const EmulatedBoard& b = *boards[static_cast<std::size_t>(i)];
        INFO("board " << b.name() << ", game " << first + i << " of the sample, " << kills << " kills");
        CHECK(ok[static_cast<std::size_t>(i)]);
        std::set<std::string> games;
        std::vector<std::pair<int, std::string>> completed; // (ply, SAN) as announced
        for (const auto& e : events)
            if (e.value("board", "") == b.name() && e.value("class", "") == "MOVE") {
                games.insert(e.value("game", ""));
                if (e.value("status", "") == "completed") completed.emplace_back(e.value("ply", 0), e.value("san", ""));
            }
        CHECK(games.size() == 1); // resumed after every kill, never a new game
        REQUIRE_FALSE(games.empty());
        const std::string game = *games.begin();
        // No completed move lost: every one announced is in the store, at its ply.
        auto stored = (*store)->load(game);
        REQUIRE(stored.has_value());
        for (const auto& [ply, san] : completed) {
            ++tally.completed;
            const bool kept = ply >= 1 && static_cast<std::size_t>(ply) <= stored->moves.size() &&
                              stored->moves[static_cast<std::size_t>(ply - 1)].san == san &&
                              stored->moves[static_cast<std::size_t>(ply - 1)].completed;
            if (!kept) ++tally.lost;
            CHECK(kept);
        }
        // Every PGN equals its source.
        auto pgn = read_pgn_game(slurp(pgn_dir / (game + ".pgn")));
        REQUIRE(pgn.has_value());
        const bool equal = sans_of(*pgn) == sans_of(b.game());
        if (equal) ++tally.pgn_equal;
        CHECK(equal);
    }
    tally.kills += kills;
}

} // namespace

TEST_CASE("kill -9 at random moments during four-board replays, no completed move lost, every PGN equals its source") {
    const int games = env_int("EBOARD_FAULT_GAMES", 12);
    const auto seed = static_cast<std::uint64_t>(env_int("EBOARD_FAULT_SEED", 20261123));
    std::mt19937_64 random(seed);
    const char* w = std::getenv("EBOARD_FAULT_WINDOW");
    const KillWindow window = !w                          ? KillWindow::Idle
                              : std::string(w) == "press"  ? KillWindow::Press
                              : std::string(w) == "inside" ? KillWindow::Inside
                                                           : KillWindow::Idle;
    Tally tally;
    for (int first = 0; first < games; first += kBoards)
        round_with_kills(tally, first, std::min(kBoards, games - first), random, window);
    std::printf("faults: kill -9: %d games on %d boards, %d kills, %d completed moves announced, %d lost, "
                "%d of %d PGNs equal to their source, seed %llu\n",
                games, kBoards, tally.kills, tally.completed, tally.lost, tally.pgn_equal, games,
                static_cast<unsigned long long>(seed));
    CHECK(tally.kills >= games / kBoards);
    CHECK(tally.lost == 0);
}
