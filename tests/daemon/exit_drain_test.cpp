// At exit eboardd still writes to each client the output queued for it (daemon/client_api.hpp
// close_gracefully): a watcher sees the last completed MOVE, the RESULT and the GAME end of
// `--simulate`, and on SIGTERM every event sent before it, even one that had stopped reading
// (its output queued in the daemon, past what the socket holds); a client that never reads
// delays the exit by the drain's bound only. Processes are waited for by their output or their
// exit, never by sleeping.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"

#include <fcntl.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <future>

using namespace eboard;
using namespace eboard::test;

namespace {

/// A client that WATCHes: its VERSION line and the WATCH reply are read, events come next.
void watch(LineSocket& client) {
    REQUIRE(client.line(10000)); // VERSION
    REQUIRE(client.send("{\"class\":\"WATCH\",\"id\":1}\n"));
    const auto reply = client.line(10000);
    REQUIRE(reply);
    CHECK(ojson::parse(*reply).value("class", "") == "WATCH");
}

/// The events `client` reads until eboardd closes the connection.
std::vector<ojson> read_until_closed(LineSocket& client) {
    std::vector<ojson> got;
    while (auto l = client.line(30000)) got.push_back(ojson::parse(*l, nullptr, false));
    return got;
}

/// Every event eboardd wrote on stdout (after its exit: all of them).
std::vector<ojson> all_events(EventLog& log) {
    (void)log.wait([](const std::vector<ojson>&) { return false; }, 5000); // until stdout closed
    return log.events();
}

/// How many lines of `bytes` bytes a Unix stream socket takes from a writer before it would
/// block (the kernel's default send buffer): what a client that does not read leaves beyond
/// that stays queued in eboardd.
std::size_t socket_holds_lines(std::size_t bytes) {
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    REQUIRE(::fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0);
    const std::string line(bytes, 'x');
    std::size_t n = 0;
    while (::write(fds[0], line.data(), line.size()) == static_cast<ssize_t>(line.size())) ++n;
    ::close(fds[0]);
    ::close(fds[1]);
    return n;
}

} // namespace

TEST_CASE("exit: a watcher gets --simulate's last MOVE, RESULT and GAME end before eboardd closes it") {
    TempDir dir("eboardd-drain-sim");
    const std::string socket = (dir.path / "s").string();
    ReadyDaemon eboardd(dir.path, {"--simulate", "--speed", "200", "--state-dir", (dir.path / "state").string(),
                                   "--socket", socket, "--events", "-"});
    EventLog log(eboardd.process);
    LineSocket client(socket);
    watch(client);
    const std::vector<ojson> got = read_until_closed(client);
    CHECK(eboardd.process.wait_exit() == 0);
    const std::vector<ojson> all = all_events(log);
    INFO(slurp(dir.path / "stderr"));
    // What the client read is the end of what eboardd sent, nothing missing.
    REQUIRE_FALSE(got.empty());
    REQUIRE(all.size() >= got.size());
    CHECK(std::vector<ojson>(all.end() - static_cast<std::ptrdiff_t>(got.size()), all.end()) == got);
    CHECK(got.back().value("class", "") == "GAME");
    CHECK(got.back().value("event", "") == "end");
    bool last_move = false; // Deep Blue - Kasparov 1997, game 6: 37 plies
    for (const auto& e : got)
        last_move = last_move || (e.value("class", "") == "MOVE" && e.value("ply", 0) == 37 &&
                                  e.value("status", "") == "completed");
    CHECK(last_move);
}

TEST_CASE("exit: on SIGTERM a client that stopped reading gets every event sent to it, one that never reads "
          "delays the exit by the drain's bound only") {
    TempDir dir("eboardd-drain-term");
    const std::string socket = (dir.path / "s").string();
    const std::string uri = "emu-dgt:" + std::string(EBOARD_REPO_DATA) + "/games/nepomniachtchi-liren-game1.pgn";
    ReadyDaemon eboardd(dir.path, {"--board", uri, "--white-side", "left", "--speed", "200", "--state-dir",
                                   (dir.path / "state").string(), "--socket", socket, "--events", "-"});
    EventLog log(eboardd.process);
    LineSocket slow(socket);  // reads nothing more until the SIGTERM
    LineSocket never(socket); // never reads again
    watch(slow);
    watch(never);
    const int plies = static_cast<int>(source_game("nepomniachtchi-liren-game1.pgn").moves.size());
    REQUIRE(log.wait_completed(uri, plies, 60000)); // the game's last move made and completed

    eboardd.process.signal(SIGTERM);
    auto exited = std::async(std::launch::async, [&] { return eboardd.process.wait_exit(); });
    const std::vector<ojson> got = read_until_closed(slow);
    // Not waiting for `never` to read: gone within the drain's 500 ms (and the boards' clean
    // exit) — a bound far above that, only so that a daemon that waited for it fails here.
    const bool gone = exited.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
    if (!gone) eboardd.process.signal(SIGKILL);
    REQUIRE(gone);
    CHECK(exited.get() == 0);
    const std::vector<ojson> all = all_events(log);
    const std::string err = slurp(dir.path / "stderr");
    INFO(err);
    REQUIRE_FALSE(got.empty());
    REQUIRE(all.size() >= got.size());
    CHECK(std::vector<ojson>(all.end() - static_cast<std::ptrdiff_t>(got.size()), all.end()) == got);
    CHECK(got.back().value("class", "") == "MOVE");
    CHECK(got.back().value("ply", 0) == plies);
    CHECK(got.back().value("status", "") == "completed");
    // More was sent than the socket holds (of lines as short as its shortest): the rest was
    // queued in eboardd when it stopped.
    std::size_t shortest = std::string::npos;
    for (const auto& e : got) shortest = std::min(shortest, e.dump().size() + 1);
    CHECK(got.size() > socket_holds_lines(shortest));
    CHECK(err.find("did not read their last output in time") != std::string::npos); // `never`
}
