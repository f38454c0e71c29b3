// Faults on the wire between a board and eboardd (issue 7), through FaultyLine: the real
// daemon, the real DGT driver, an emulated DGT board with a simulated player.
// - a board disconnected in the middle of a message: the daemon reports it gone, the half
//   message is forgotten, and when the board is back the game goes on (the move made while it
//   was away is made) to a PGN equal to its source;
// - a board streaming garbage at full speed: the daemon keeps serving the client API and the
//   other board, its memory stays bounded, and the board's next valid message is decoded.
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"
#include "tests/faults/faulty_line.hpp"
#include "tests/support/sanitized.hpp"

#include "drivers/core/events.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

// Points `link` (the board's stable path, as udev's /dev/eboard-* would be) at `target`.
void relink(const fs::path& link, const std::string& target) {
    std::error_code ec;
    fs::remove(link, ec);
    fs::create_symlink(target, link);
}

bool connected(DaemonUnderTest& d, const std::string& board, std::size_t n) {
    return d.wait([&](const std::vector<ojson>& all) {
        std::size_t k = 0;
        for (const auto& e : all)
            if (e.value("class", "") == "BOARD" && e.value("board", "") == board && e.value("state", "") == "connected") ++k;
        return k >= n;
    });
}

// The SAN of the recorded PGN of `board`'s game equals its source.
void check_pgn(DaemonUnderTest& d, const fs::path& dir, const EmulatedBoard& b) {
    std::string game;
    for (const auto& e : d.events())
        if (e.value("class", "") == "MOVE" && e.value("board", "") == b.name()) game = e.value("game", "");
    REQUIRE_FALSE(game.empty());
    auto pgn = read_pgn_game(slurp(dir / "pgn" / (game + ".pgn")));
    REQUIRE(pgn.has_value());
    CHECK(sans_of(*pgn) == sans_of(b.game()));
}

constexpr std::uint8_t kFieldUpdate = 0x8e; // DGT_MSG_FIELD_UPDATE: 8e 00 05 square piece (dgt.md)

} // namespace

TEST_CASE("a board disconnected in the middle of a message, the game resumes when it is back") {
    TempDir dir("eboardd-cut");
    EmulatedBoard t1("t1", dir.path / "t1-board", source_game("kasparov-deep-blue-1997.pgn", 1), 11, 150);
    auto line = std::make_unique<FaultyLine>((dir.path / "t1-board").string());
    relink(dir.path / "t1", line->host_path());
    DaemonUnderTest d(daemon_args(dir.path, {{"t1", "dgt:" + (dir.path / "t1").string()}}), dir.path);
    REQUIRE(d.start());
    REQUIRE(t1.wait_driver_ready(1));
    WorldLock world;
    REQUIRE(play(t1, d, world, 1, 8));

    // Ply 9 (White's): the cable is cut after the first 3 of the 5 bytes of its first field
    // update; the player goes on and makes the move, but does not press yet.
    line->cut_next(kFieldUpdate, 3);
    const Move ninth = t1.game().moves[8].move;
    REQUIRE(t1.player().play(ninth, [](std::chrono::microseconds) { return true; }, false));
    REQUIRE(line->wait_cut(10000));
    CHECK(d.seen("BOARD", "t1", [](const ojson& e) { return e["state"] == "disconnected"; }));
    CHECK(d.seen("ALERT", "t1", [](const ojson& e) { return e["kind"] == "board_disconnected"; }));

    // Plugged in again (a new line behind the same path): the board shows ply 9 made.
    line = std::make_unique<FaultyLine>((dir.path / "t1-board").string());
    relink(dir.path / "t1", line->host_path());
    const bool back = connected(d, "t1", 2);
    if (!back) UNSCOPED_INFO(slurp(d.stderr_path()));
    REQUIRE(back);
    REQUIRE(t1.wait_driver_ready(2));
    CHECK(d.seen("MOVE", "t1", [](const ojson& e) { return e["ply"] == 9; }));
    t1.emulator().press_lever(drivers::ClockSide::Left); // White completes ply 9
    CHECK(d.seen("MOVE", "t1", [](const ojson& e) { return e["ply"] == 9 && e["status"] == "completed"; }));
    REQUIRE(play(t1, d, world, 10));
    CHECK(d.terminate() == 0);
    check_pgn(d, dir.path, t1);
}

TEST_CASE("a board streaming garbage at full speed, the daemon stays responsive and bounded, the next valid message is decoded") {
    // Under ASan, freed memory sits in a quarantine (256 MB by default) and would count as
    // growth: keep it small in the daemon, so that RSS shows what the daemon itself holds.
    const char* asan = std::getenv("ASAN_OPTIONS");
    ::setenv("ASAN_OPTIONS", ((asan ? std::string(asan) + ":" : std::string()) + "quarantine_size_mb=4").c_str(), 1);
    TempDir dir("eboardd-garbage");
    EmulatedBoard t1("t1", dir.path / "t1-board", source_game("lichess-db-sample.pgn", 4), 12, 150);
    EmulatedBoard t2("t2", dir.path / "t2", source_game("lichess-db-sample.pgn", 5), 13, 150);
    FaultyLine line((dir.path / "t1-board").string());
    relink(dir.path / "t1", line.host_path());
    const std::string socket = (dir.path / "s").string();
    DaemonUnderTest d(daemon_args(dir.path, {{"t1", "dgt:" + (dir.path / "t1").string()}, {"t2", t2.uri()}},
                                  {"--socket", socket}),
                      dir.path);
    REQUIRE(d.start());
    REQUIRE(t1.wait_driver_ready(1));
    REQUIRE(t2.wait_driver_ready(1));
    WorldLock world;
    REQUIRE(play(t1, d, world, 1, 6));
    REQUIRE(play(t2, d, world, 1, 2));
    const long rss_before = d.rss_kib();
    REQUIRE(rss_before > 0);

    // The flood: 32 MiB of garbage while t2 plays on and a client asks for BOARDS.
    const std::uint64_t flood = static_cast<std::uint64_t>(env_int("EBOARD_FAULT_GARBAGE_MIB", 32)) << 20;
    line.flood(true);
    bool t2_ok = false;
    std::thread other([&] { t2_ok = play(t2, d, world, 3, 40); });
    LineSocket client(socket);
    REQUIRE(client.line().has_value()); // VERSION
    int replies = 0;
    double worst_ms = 0;
    while (line.flooded_bytes() < flood) {
        const auto t0 = std::chrono::steady_clock::now();
        REQUIRE(client.send("{\"class\":\"BOARDS\"}\n"));
        const auto reply = client.line(10000);
        REQUIRE(reply.has_value());
        CHECK(ojson::parse(*reply)["class"] == "BOARDS");
        worst_ms = std::max(worst_ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        ++replies;
        REQUIRE(d.process().pid() > 0);
    }
    const long rss_flooded = d.rss_kib();
    line.flood(false);
    other.join();
    CHECK(t2_ok);
    std::printf("faults: garbage: %llu bytes taken, RSS %ld -> %ld KiB, %d BOARDS replies, worst %.1f ms\n",
                static_cast<unsigned long long>(line.flooded_bytes()), rss_before, rss_flooded, replies, worst_ms);
    CHECK(worst_ms < 5000);
    // Bounded: the daemon holds about 0.1 MiB more after 32 MiB of garbage (Release), and a
    // framer that kept the garbage it skips (checked by hand: +12.5 MiB) fails. Under ASan the
    // RSS is the sanitizer allocator's (quarantine, redzones, size-class caches: +22 MiB measured
    // with a 4 MiB quarantine), not the daemon's: the bound is the Release pass's.
    if (eboard::test::kSanitized) WARN("RSS bound not checked under ASan: " << rss_flooded - rss_before << " KiB more");
    else CHECK(rss_flooded - rss_before < 8 * 1024);

    // The next valid messages after the garbage are the board's own: ply 7 on goes on.
    REQUIRE(play(t1, d, world, 7, 20));
    CHECK(d.terminate() == 0);
}
