// kill -9 at random moments during multi-board replays (issue 7): four emulated DGT boards,
// each with a simulated pair of players replaying a game of
// data/games/lichess-db-sample.pgn, and eboardd killed with SIGKILL at random moments
// and started again at once on the same state directory. The players do not know: as at a real
// board they go on with the move in hand while the daemon is down (the board keeps its pieces,
// the clock keeps running, a press is in the clock's lever when the daemon is back), and each
// waits for the opponent's move to be announced completed before making his own reply, as the
// only pacing. So a kill lands wherever it falls: between moves, with a piece in the air, after
// a move made and before the press, after the press before the daemon completed the move,
// while a board message is on the wire, during the daemon's start-up. Afterwards no completed
// move it announced is missing from the store, each board kept one game (resumed, not
// restarted), no board raised a position_mismatch or an illegal_move (nothing irregular was
// played), and every PGN equals its source game.
//   EBOARD_FAULT_GAMES (default 12 in ctest; 100 for the full sweep), EBOARD_FAULT_SEED;
//   EBOARD_FAULT_KEEP=DIR: a failing round's directory (state, PGNs, the daemon's stderr, every
//   event in events.jsonl) is kept there, for the post-mortem.
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"

#include <array>
#include <atomic>
#include <functional>
#include <random>
#include <set>

#include "daemon/store.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

constexpr int kBoards = 4;
// A kill this soon after a player's last action on the board: that board's message was on
// the wire or being handled by the daemon when it died.
constexpr auto kWireWindow = std::chrono::milliseconds(10);

/// Where a board's players were when the daemon was killed.
enum class Window { Idle, InTheAir, MadeNotPressed, PressedNotCompleted, Count };
constexpr std::array<const char*, static_cast<std::size_t>(Window::Count)> kWindowNames{
    "between moves", "a piece in the air", "move made, not pressed", "pressed, not yet completed"};

/// What a sweep saw (printed at the end, for the report of a long run).
struct Tally {
    int kills = 0;
    int completed = 0;  ///< completed moves announced (MOVE completed events, all runs)
    int lost = 0;       ///< of those, missing from the store or different there
    int pgn_equal = 0;  ///< games whose PGN equals the source
    std::array<int, static_cast<std::size_t>(Window::Count)> windows{}; ///< boards at the kills
    int on_wire = 0;    ///< of those, a board message in flight or in hand (kWireWindow)
};

/// A pair of players at one board, playing on their own thread without regard to the daemon:
/// each move by hand at human pace, then waiting for the daemon to announce it completed.
/// What they are doing can be read from another thread at any moment (the kill's window).
class FreePlayers {
  public:
    FreePlayers(EmulatedBoard& board, DaemonUnderTest& daemon) : board_(board), daemon_(daemon) {}
    FreePlayers(const FreePlayers&) = delete;
    FreePlayers& operator=(const FreePlayers&) = delete;
    ~FreePlayers() {
        if (thread_.joinable()) thread_.join();
    }

    void start() { thread_ = std::thread([this] { ok_ = run(); done_ = true; }); }
    void join() { thread_.join(); }
    [[nodiscard]] bool done() const { return done_; }
    [[nodiscard]] bool ok() const { return ok_; }

    /// The window this board is in now (called while the players go on).
    [[nodiscard]] Window window() {
        switch (stage_.load()) {
        case Stage::Handling: {
            const auto shown = board_.emulator().position();
            const int ply = ply_;
            if (shown == state_at(ply - 1)) return Window::Idle; // not started yet
            return shown == state_at(ply) ? Window::MadeNotPressed : Window::InTheAir;
        }
        case Stage::Pressed: return Window::PressedNotCompleted;
        default: return Window::Idle;
        }
    }
    /// Whether the players touched the board within `d` before now.
    [[nodiscard]] bool acted_within(std::chrono::steady_clock::duration d) const {
        return std::chrono::steady_clock::now() - last_action_.load() < d;
    }

  private:
    enum class Stage { Waiting, Handling, Pressed };

    BoardReading state_at(int ply) const {
        const Position pos = board_.position_at(ply);
        BoardReading b;
        for (int s = 0; s < 64; ++s) b.set(Square(s), pos.piece_on(Square(s)));
        return b;
    }

    bool run() {
        const auto& moves = board_.game().moves;
        for (int ply = 1; ply <= static_cast<int>(moves.size()); ++ply) {
            ply_ = ply;
            stage_ = Stage::Handling;
            (void)board_.player().play(moves[static_cast<std::size_t>(ply - 1)].move,
                                       [this](std::chrono::microseconds d) {
                                           std::this_thread::sleep_for(d); // the player's handling time
                                           last_action_ = std::chrono::steady_clock::now();
                                           return true;
                                       });
            last_action_ = std::chrono::steady_clock::now();
            stage_ = Stage::Pressed;
            if (!daemon_.seen("MOVE", board_.name(), [ply](const ojson& e) {
                    return e.value("ply", 0) == ply && e.value("status", "") == "completed";
                }, 60000)) {
                std::string last;
                for (const auto& e : daemon_.events())
                    if (e.value("board", "") == board_.name()) last = e.dump();
                // Printed, not UNSCOPED_INFO: the players run on threads of their own (Catch2 is
                // not thread-safe).
                std::fprintf(stderr, "board %s: ply %d was not completed; its last event: %s\n",
                             board_.name().c_str(), ply, last.c_str());
                return false;
            }
            stage_ = Stage::Waiting;
        }
        return true;
    }

    EmulatedBoard& board_;
    DaemonUnderTest& daemon_;
    std::atomic<int> ply_{0};
    std::atomic<Stage> stage_{Stage::Waiting};
    std::atomic<std::chrono::steady_clock::time_point> last_action_{};
    std::atomic<bool> done_{false};
    std::atomic<bool> ok_{false};
    std::thread thread_;
};

// Keeps a failing round's directory and events under $EBOARD_FAULT_KEEP (if set).
void keep_for_post_mortem(const fs::path& dir, DaemonUnderTest& daemon, int first) {
    const char* keep = std::getenv("EBOARD_FAULT_KEEP");
    if (!keep || !*keep) return;
    {
        std::ofstream out(dir / "events.jsonl");
        for (const auto& e : daemon.events()) out << e.dump() << "\n";
    }
    const fs::path to = fs::path(keep) / ("round-" + std::to_string(first));
    std::error_code ec;
    fs::remove_all(to, ec);
    fs::create_directories(to, ec);
    // Regular files only (not the notify sockets nor the boards' links to their ptys).
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        const fs::path target = to / fs::relative(it->path(), dir);
        if (it->is_directory(ec)) fs::create_directories(target, ec);
        else if (it->is_regular_file(ec)) fs::copy_file(it->path(), target, ec);
    }
    std::fprintf(stderr, "faults: kill -9: round of game %d kept in %s\n", first, to.c_str());
}

// One round: `n` boards playing games [first, first + n) of the sample, kills at random.
void round_with_kills(Tally& tally, int first, int n, std::mt19937_64& random) {
    TempDir dir("eboardd-kill9");
    const double speed = 150;
    std::vector<std::unique_ptr<EmulatedBoard>> boards;
    boards.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        boards.push_back(std::make_unique<EmulatedBoard>("b" + std::to_string(i), dir.path / ("b" + std::to_string(i)),
                                                         source_game("lichess-db-sample.pgn", first + i),
                                                         random(), speed));
    const fs::path pgn_dir = dir.path / "pgn";
    const std::string state = (dir.path / "state").string();
    std::vector<std::pair<std::string, std::string>> uris;
    uris.reserve(boards.size());
    for (const auto& b : boards) uris.emplace_back(b->name(), b->uri());
    DaemonUnderTest daemon(daemon_args(dir.path, uris), dir.path);
    REQUIRE(daemon.start());
    // The games exist (recorded: GAME start is announced after the store has it) before anyone
    // moves: a daemon killed before it recorded a game finds no game to resume, only a board
    // that is not in a start position.
    for (auto& b : boards) {
        REQUIRE(daemon.seen("GAME", b->name(), [](const ojson& e) { return e.value("event", "") == "start"; }));
        REQUIRE(b->wait_driver_ready(1));
    }
    // Whatever fails from here on, the round is kept for the post-mortem (EBOARD_FAULT_KEEP).
    bool round_ok = false;
    struct KeepIfFailed {
        const bool& ok;
        std::function<void()> keep;
        ~KeepIfFailed() {
            if (!ok) keep();
        }
    } keep_if_failed{round_ok, [&] { keep_for_post_mortem(dir.path, daemon, first); }};

    std::vector<std::unique_ptr<FreePlayers>> players;
    players.reserve(boards.size());
    for (auto& b : boards) players.push_back(std::make_unique<FreePlayers>(*b, daemon));
    for (auto& p : players) p->start();
    auto all_done = [&] {
        return std::all_of(players.begin(), players.end(), [](const auto& p) { return p->done(); });
    };
    int kills = 0;
    bool restarted = true;
    std::uniform_int_distribution<int> run_ms(20, 600);
    while (!all_done()) {
        // The random moment: how long the daemon runs before the next kill. The players go on.
        std::this_thread::sleep_for(std::chrono::milliseconds(run_ms(random)));
        if (all_done()) break;
        for (auto& p : players) {
            ++tally.windows[static_cast<std::size_t>(p->window())];
            if (p->acted_within(kWireWindow)) ++tally.on_wire;
        }
        daemon.kill9();
        ++kills;
        restarted = daemon.start();
        if (!restarted) break; // the players time out; the checks below say what was lost
    }
    for (auto& p : players) p->join();
    CHECK(restarted);
    CHECK(daemon.terminate() == 0);

    auto store = daemon::Store::open(state);
    REQUIRE(store.has_value());
    const auto events = daemon.events();
    round_ok = true;
    for (int i = 0; i < n; ++i) {
        const EmulatedBoard& b = *boards[static_cast<std::size_t>(i)];
        INFO("board " << b.name() << ", game " << first + i << " of the sample, " << kills << " kills");
        CHECK(players[static_cast<std::size_t>(i)]->ok());
        round_ok = round_ok && players[static_cast<std::size_t>(i)]->ok();
        std::set<std::string> games;
        std::set<std::pair<int, std::string>> completed; // (ply, SAN) as announced (a resumed game's
                                                          // last MOVE is said again)
        int irregular = 0;                                   // position_mismatch, illegal_move
        for (const auto& e : events) {
            if (e.value("board", "") != b.name()) continue;
            if (e.value("class", "") == "MOVE") {
                games.insert(e.value("game", ""));
                if (e.value("status", "") == "completed") completed.emplace(e.value("ply", 0), e.value("san", ""));
            }
            if (e.value("class", "") == "ALERT" &&
                (e.value("kind", "") == "position_mismatch" || e.value("kind", "") == "illegal_move")) {
                ++irregular;
                UNSCOPED_INFO(e.dump());
            }
        }
        CHECK(irregular == 0); // the players played a clean game: nothing for the arbiter
        CHECK(games.size() == 1); // resumed after every kill, never a new game
        round_ok = round_ok && irregular == 0 && games.size() == 1;
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
            round_ok = round_ok && kept;
        }
        // Every PGN equals its source.
        auto pgn = read_pgn_game(slurp(pgn_dir / (game + ".pgn")));
        REQUIRE(pgn.has_value());
        const bool equal = sans_of(*pgn) == sans_of(b.game());
        if (equal) ++tally.pgn_equal;
        CHECK(equal);
        round_ok = round_ok && equal;
    }
    tally.kills += kills;
}

} // namespace

TEST_CASE("kill -9 at random moments during four-board replays, no completed move lost, every PGN equals its source") {
    const int games = env_int("EBOARD_FAULT_GAMES", 12);
    const auto seed = static_cast<std::uint64_t>(env_int("EBOARD_FAULT_SEED", 20261123));
    std::mt19937_64 random(seed);
    Tally tally;
    const auto t0 = std::chrono::steady_clock::now();
    for (int first = 0; first < games; first += kBoards)
        round_with_kills(tally, first, std::min(kBoards, games - first), random);
    const auto wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("faults: kill -9: %d games on %d boards, %d kills, %d completed moves announced, %d lost, "
                "%d of %d PGNs equal to their source, seed %llu, %.1f s\n",
                games, kBoards, tally.kills, tally.completed, tally.lost, tally.pgn_equal, games,
                static_cast<unsigned long long>(seed), wall_s);
    std::printf("faults: kill -9: boards at the kills:");
    for (std::size_t w = 0; w < kWindowNames.size(); ++w) std::printf(" %s %d;", kWindowNames[w], tally.windows[w]);
    std::printf(" of them with a board message in flight (%lld ms) %d\n",
                static_cast<long long>(kWireWindow.count()), tally.on_wire);
    CHECK(tally.kills >= games / kBoards);
    CHECK(tally.lost == 0);
    CHECK(tally.pgn_equal == games);
    // Every window was hit (a sweep that never kills inside a move proves nothing about it).
    if (games >= 12)
        for (std::size_t w = 0; w < kWindowNames.size(); ++w) {
            INFO("kills with a board " << kWindowNames[w]);
            CHECK(tally.windows[w] > 0);
        }
}
