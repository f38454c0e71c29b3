// A full disk under --state-dir (issue 7): the state directory is a small tmpfs of its own
// (16 MiB: room for SQLite's write-ahead log, which grows to ~4 MiB between checkpoints)
// in a private mount namespace (so nothing leaks to the machine; needs root, as CI is). When it
// fills up, the daemon says so clearly, announces nothing it could not record and corrupts
// nothing; when space returns, what waited is recorded in order and the game goes on to a PGN
// equal to its source.
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"

#include <sstream>

#include "daemon/store.hpp"
#include "rules/notation.hpp"

#include <sched.h>
#include <sys/mount.h>

#include <sqlite3.h>

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

// Fills the file system of `dir` with `file`, up to the last byte (ENOSPC).
std::uint64_t fill(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    std::vector<char> block(4096, 'x');
    std::uint64_t total = 0;
    for (std::size_t n = block.size(); n > 0;) {
        const ssize_t w = ::write(fd, block.data(), n);
        if (w > 0) total += static_cast<std::uint64_t>(w);
        else n /= 2; // the last blocks: smaller writes until nothing fits
    }
    ::close(fd);
    return total;
}

std::string integrity(const fs::path& db) {
    sqlite3* h = nullptr;
    REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    std::string result;
    sqlite3_exec(h, "PRAGMA integrity_check", [](void* r, int, char** v, char**) {
        *static_cast<std::string*>(r) += v[0] ? v[0] : "";
        return 0;
    }, &result, nullptr);
    sqlite3_close(h);
    return result;
}

// Mounts a 16 MiB tmpfs on `state` in a private mount namespace; false (and a warning: the
// test is skipped) where that needs root and the test is not.
bool small_tmpfs(const fs::path& state) {
    fs::create_directories(state);
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", state.c_str(), "tmpfs", 0, "size=16m,mode=0700") != 0) {
        WARN("skipped: cannot mount a small tmpfs here (needs root): " << std::strerror(errno));
        return false;
    }
    return true;
}

// The state directory on its small tmpfs, a board replaying game 7 of the sample, and eboardd
// (not started) on them. `mounted` false: the test is skipped.
struct FullDiskRig {
    TempDir dir{"eboardd-full"};
    fs::path state = dir.path / "state";
    bool mounted = small_tmpfs(state);
    EmulatedBoard t1{"t1", dir.path / "t1", source_game("lichess-db-sample.pgn", 7), 31, 150};
    DaemonUnderTest d{daemon_args(dir.path, {{"t1", t1.uri()}}), dir.path};
};

int announced_plies(DaemonUnderTest& d, const std::string& board) {
    int n = 0;
    for (const auto& e : d.events())
        if (e.value("class", "") == "MOVE" && e.value("board", "") == board && e.value("status", "") == "completed")
            n = std::max(n, e.value("ply", 0));
    return n;
}

} // namespace

TEST_CASE("a full disk under --state-dir, a clear error, nothing announced unrecorded or corrupted, recording resumes") {
    FullDiskRig rig;
    if (!rig.mounted) return;
    const fs::path& state = rig.state;
    EmulatedBoard& t1 = rig.t1;
    DaemonUnderTest& d = rig.d;
    const TempDir& dir = rig.dir;
    REQUIRE(d.start());
    REQUIRE(t1.wait_driver_ready(1));
    WorldLock world;
    REQUIRE(play(t1, d, world, 1, 10));

    const std::uint64_t filled = fill(state / "filler");
    // Ply 11 is played (and the clock pressed) on a full disk: it cannot be recorded, so it is
    // not announced. One ply only: at this speed a second move and press would come within
    // one poll of the clock, before the daemon saw the first press (two lever flips that
    // cancel out), which no player does; nothing the daemon announces tells when it saw it.
    REQUIRE(t1.player().play(t1.game().moves[10].move, [](std::chrono::microseconds) { return true; }));
    bool said = false;
    for (int i = 0; i < 200 && !said; ++i) { // the error line, within 10 s
        const std::string err = slurp(d.stderr_path());
        said = err.find("full") != std::string::npos || err.find("No space") != std::string::npos;
        if (!said) (void)d.wait([](const auto&) { return false; }, 50);
    }
    CHECK(said);
    CHECK(announced_plies(d, "t1") == 10);
    INFO(slurp(d.stderr_path()));

    fs::remove(state / "filler"); // space returns: ply 11 is recorded and announced
    const bool recorded = d.seen("MOVE", "t1", [](const ojson& e) { return e["ply"] == 11 && e["status"] == "completed"; });
    if (!recorded) {
        for (const auto& e : d.events()) std::fprintf(stderr, "%s\n", e.dump().c_str());
        std::fprintf(stderr, "eboardd's stderr:\n%s\n", slurp(d.stderr_path()).c_str());
    }
    CHECK(recorded);
    REQUIRE(play(t1, d, world, 12));
    CHECK(d.terminate() == 0);
    CHECK(slurp(d.stderr_path()).find("the store records again") != std::string::npos);
    std::printf("faults: full disk: %llu bytes filled the state directory\n", static_cast<unsigned long long>(filled));

    CHECK(integrity(state / "eboardd.db") == "ok");
    std::string game;
    for (const auto& e : d.events())
        if (e.value("class", "") == "MOVE") game = e.value("game", "");
    auto pgn = read_pgn_game(slurp(dir.path / "pgn" / (game + ".pgn")));
    REQUIRE(pgn.has_value());
    CHECK(sans_of(*pgn) == sans_of(t1.game()));
}

namespace {

// Ten plies recorded, the disk under --state-dir filled, ply 11 played: it waits, not stored.
// The ALERT store_failed (announced, not recorded) tells the clients so. Returns ply 11's SAN.
std::string eleventh_ply_on_a_full_disk(FullDiskRig& rig) {
    EmulatedBoard& t1 = rig.t1;
    DaemonUnderTest& d = rig.d;
    REQUIRE(d.start());
    REQUIRE(t1.wait_driver_ready(1));
    WorldLock world;
    REQUIRE(play(t1, d, world, 1, 10));
    (void)fill(rig.state / "filler");
    REQUIRE(t1.player().play(t1.game().moves[10].move, [](std::chrono::microseconds) { return true; }));
    const bool alerted = d.seen("ALERT", "t1", [](const ojson& e) { return e.value("kind", "") == "store_failed"; }, 15000);
    INFO(slurp(d.stderr_path()));
    CHECK(alerted);
    CHECK(announced_plies(d, "t1") == 10);
    Position p = t1.position_at(10);
    return to_san(p, t1.game().moves[10].move);
}

} // namespace

TEST_CASE("SIGTERM on a full disk: the store is tried for a bounded time, exit 1, every move not stored in the log") {
    FullDiskRig rig;
    if (!rig.mounted) return;
    const fs::path& state = rig.state;
    DaemonUnderTest& d = rig.d;
    const std::string san = eleventh_ply_on_a_full_disk(rig);

    const auto t0 = std::chrono::steady_clock::now();
    const int status = d.terminate();
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string err = slurp(d.stderr_path());
    INFO(err);
    CHECK(status == 1);
    // Tried again for Recorder::kExitRetryMs (5 s), inside systemd's TimeoutStopSec=10s.
    CHECK(took_s >= 4.5);
    CHECK(took_s < 9.0);
    // The completed move, as its MOVE line, one line in the log (the journal).
    bool logged = false;
    std::istringstream lines(err);
    for (std::string l; std::getline(lines, l);) {
        const auto at = l.find("not stored: ");
        if (at == std::string::npos) continue;
        const ojson e = ojson::parse(l.substr(at + 12), nullptr, false);
        logged = logged || (e.value("class", "") == "MOVE" && e.value("ply", 0) == 11 && e.value("san", "") == san &&
                            e.value("status", "") == "completed");
    }
    CHECK(logged);
    CHECK(err.find("exit: the store failed;") != std::string::npos);
    std::printf("faults: SIGTERM on a full disk: exit %d after %.1f s, ply 11 (%s) logged as not stored: %s\n", status,
                took_s, san.c_str(), logged ? "yes" : "no");
    fs::remove(state / "filler");
    CHECK(integrity(state / "eboardd.db") == "ok");
}

TEST_CASE("SIGTERM on a full disk, space back within the retries: everything stored, exit 0") {
    FullDiskRig rig;
    if (!rig.mounted) return;
    const fs::path& state = rig.state;
    DaemonUnderTest& d = rig.d;
    const std::string san = eleventh_ply_on_a_full_disk(rig);

    d.process().signal(SIGTERM);
    bool retrying = false;
    for (int i = 0; i < 100 && !retrying; ++i) { // the retries' line, within 5 s
        retrying = slurp(d.stderr_path()).find("exit: the store still fails") != std::string::npos;
        if (!retrying) (void)d.wait([](const auto&) { return false; }, 50);
    }
    REQUIRE(retrying);
    fs::remove(state / "filler");
    CHECK(d.process().wait_exit() == 0);
    INFO(slurp(d.stderr_path()));
    CHECK(slurp(d.stderr_path()).find("not stored") == std::string::npos);
    auto store = daemon::Store::open(state);
    REQUIRE(store.has_value());
    std::string game;
    for (const auto& e : d.events())
        if (e.value("class", "") == "MOVE") game = e.value("game", "");
    auto stored = (*store)->load(game);
    REQUIRE(stored.has_value());
    REQUIRE(stored->moves.size() >= 11);
    CHECK(stored->moves[10].san == san);
    CHECK(stored->moves[10].completed);
}
