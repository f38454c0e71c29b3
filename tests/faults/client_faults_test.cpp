// A client of the API socket that connects and never reads (issue 7; docs/client-api.md: a
// client that does not read is dropped once 1 MiB of output waits for it). The real eboardd
// with an emulated board whose game goes on meanwhile: the daemon keeps serving the other
// client, which sees every event, and drops the one that does not read.
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"

#include <sys/socket.h>

using namespace eboard;
using namespace eboard::test;

TEST_CASE("a client that connects and never reads is dropped, the daemon keeps serving the others") {
    TempDir dir("eboardd-slow");
    EmulatedBoard t1("t1", dir.path / "t1", source_game("lichess-db-sample.pgn", 6), 21, 150);
    const std::string socket = (dir.path / "s").string();
    DaemonUnderTest d(daemon_args(dir.path, {{"t1", t1.uri()}}, {"--socket", socket}), dir.path);
    REQUIRE(d.start());
    REQUIRE(t1.wait_driver_ready(1));

    LineSocket watcher(socket);
    REQUIRE(watcher.line().has_value()); // VERSION
    REQUIRE(watcher.send("{\"class\":\"WATCH\"}\n"));
    REQUIRE(watcher.line().has_value()); // the WATCH reply

    // The sleeper asks and asks (BOARDS, WATCH on) and never reads a reply.
    LineSocket sleeper(socket);
    REQUIRE(sleeper.send("{\"class\":\"WATCH\"}\n"));
    WorldLock world;
    bool played = false;
    std::thread player([&] { played = play(t1, d, world); });
    const std::string ask = "{\"class\":\"BOARDS\"}\n";
    bool dropped = false;
    std::size_t sent = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!dropped && std::chrono::steady_clock::now() < deadline) {
        pollfd p{sleeper.fd(), POLLOUT, 0};
        if (::poll(&p, 1, 100) <= 0) continue; // the daemon is not reading its requests now
        const ssize_t n = ::send(sleeper.fd(), ask.data(), ask.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n < 0) dropped = true; // EPIPE / ECONNRESET: the daemon closed it
        else sent += static_cast<std::size_t>(n);
        if (p.revents & (POLLHUP | POLLERR)) dropped = true;
    }
    CHECK(dropped);

    // Meanwhile the watcher got every event of the game, in order, and is still served.
    int last_completed = 0;
    for (;;) {
        auto l = watcher.line(30000);
        REQUIRE(l.has_value());
        const ojson e = ojson::parse(*l);
        if (e.value("class", "") == "MOVE" && e.value("status", "") == "completed") {
            CHECK(e.value("ply", 0) == last_completed + 1);
            last_completed = e.value("ply", 0);
        }
        if (last_completed == static_cast<int>(t1.game().moves.size())) break;
    }
    player.join();
    CHECK(played);
    REQUIRE(watcher.send("{\"class\":\"BOARDS\",\"id\":1}\n"));
    for (;;) { // events may still come before the reply
        auto l = watcher.line(10000);
        REQUIRE(l.has_value());
        if (ojson::parse(*l).value("class", "") == "BOARDS") break;
    }
    std::printf("faults: slow client: dropped after %zu request bytes\n", sent);
    CHECK(d.terminate() == 0);
    CHECK(slurp(d.stderr_path()).find("unread; dropped") != std::string::npos);
}
