// A client of the API socket that connects and never reads (issue 7; docs/client-api.md: a
// client that does not read is dropped once 1 MiB of output waits for it). The real eboardd
// with an emulated board whose game goes on meanwhile: the daemon keeps serving the other
// client, which sees every event, and drops the one that does not read.
// Hostile clients (issue 26): ATTACH of an emulated board's game file (a FIFO, /dev/zero, a
// file not to be read), control characters in a board's name, partial lines, more clients than
// allowed, and a daemon out of file descriptors.
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"

#include <sys/socket.h>
#include <sys/stat.h>

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

namespace {

// A new connection's first reply to `req` (after VERSION), within `timeout_ms`; null if none came.
ojson first_reply(const std::string& socket, const ojson& req, int timeout_ms = 5000) {
    LineSocket c(socket);
    if (!c.line(timeout_ms)) return {};
    if (!c.send(req.dump() + "\n")) return {};
    auto l = c.line(timeout_ms);
    return l ? ojson::parse(*l, nullptr, false) : ojson();
}

// The lines of a file.
std::vector<std::string> lines_of(const std::string& path) {
    std::vector<std::string> out;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

} // namespace

TEST_CASE("ATTACH emu-KIND:PGN: no file is read for a client, a FIFO or /dev/zero hangs nothing, no content leaks") {
    TempDir dir("eboardd-attach-file");
    const std::string socket = (dir.path / "s").string();
    const std::string secret = (dir.path / "shadow").string();
    std::ofstream(secret) << "root:SECRET-HASH:19000:0:99999:7:::\n";
    const std::string fifo = (dir.path / "fifo").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    DaemonUnderTest d(daemon_args(dir.path, {}, {"--socket", socket}), dir.path);
    REQUIRE(d.start());
    // The FIFO first: without a writer its open() would block the loop (and no memory grows).
    for (const std::string& file : {fifo, secret, std::string(EBOARD_REPO_DATA) + "/games/molinari-bordais-1979.pgn",
                                    std::string("/dev/zero")}) {
        INFO(file);
        const ojson r = first_reply(socket, {{"class", "ATTACH"}, {"uri", "emu-dgt:" + file}, {"name", "z"}});
        REQUIRE(r.is_object()); // a reply came, within 5 s
        CHECK(r["class"] == "ERROR");
        CHECK(r["code"] == "bad_uri");
        const std::string message = r.value("message", "");
        CHECK(message.find("not taken over the socket") != std::string::npos);
        CHECK(message.find("SECRET") == std::string::npos);
        CHECK(message.find("root:") == std::string::npos);
    }
    // Still serving: a new client, and an emulated board without a game is attached.
    const ojson ok = first_reply(socket, {{"class", "ATTACH"}, {"uri", "emu-dgt"}, {"name", "z"}});
    CHECK(ok["class"] == "OK");
    CHECK(d.terminate() == 0);
    CHECK(slurp(d.stderr_path()).find("SECRET") == std::string::npos);
}

TEST_CASE("ATTACH name: a newline, a NUL or 65 bytes are refused, nothing a client sends forges a log line") {
    TempDir dir("eboardd-attach-name");
    const std::string socket = (dir.path / "s").string();
    DaemonUnderTest d(daemon_args(dir.path, {}, {"--socket", socket}), dir.path);
    REQUIRE(d.start());
    for (const std::string& name : {std::string("x\n<0>forged"), std::string("a\0b", 3), std::string(65, 'n'),
                                    std::string("tab\there")}) {
        INFO(name);
        const ojson r = first_reply(socket, {{"class", "ATTACH"}, {"uri", "emu-dgt"}, {"name", name}});
        REQUIRE(r.is_object());
        CHECK(r["class"] == "ERROR");
        CHECK(r["code"] == "bad_request");
    }
    // A URI with a control character is refused too (it names the board when no name is given).
    const ojson uri = first_reply(socket, {{"class", "ATTACH"}, {"uri", "emu-dgt\n<0>forged"}});
    CHECK(uri["code"] == "bad_request");
    const ojson ok = first_reply(socket, {{"class", "ATTACH"}, {"uri", "emu-dgt"}, {"name", "Board 7 (Ødegaard)"}});
    CHECK(ok["class"] == "OK");
    CHECK(ok["board"] == "Board 7 (Ødegaard)");
    CHECK(d.terminate() == 0);
    for (const auto& l : lines_of(d.stderr_path())) {
        INFO(l);
        CHECK(l.rfind("<0>", 0) == std::string::npos);
        CHECK(l.find("forged") == std::string::npos);
    }
}

TEST_CASE("slow clients: a partial line is bounded (16 KiB), the clients too (--max-clients), the next are refused") {
    TempDir dir("eboardd-partial");
    const std::string socket = (dir.path / "s").string();
    DaemonUnderTest d(daemon_args(dir.path, {}, {"--socket", socket, "--max-clients", "8"}), dir.path);
    REQUIRE(d.start());
    const long rss_before = d.rss_kib();
    // 7 clients each leave a partial line of 15 KiB (within the bound): they are kept.
    std::vector<std::unique_ptr<LineSocket>> slow;
    for (int i = 0; i < 7; ++i) {
        slow.push_back(std::make_unique<LineSocket>(socket));
        REQUIRE(slow.back()->line(5000).has_value()); // VERSION
        REQUIRE(slow.back()->send("{\"class\":\"BOARDS\",\"pad\":\"" + std::string(15 * 1024, 'p')));
    }
    // The 8th: 17 KiB without a newline, an ERROR and the connection closed.
    {
        LineSocket big(socket);
        REQUIRE(big.line(5000).has_value());
        (void)big.send(std::string(17 * 1024, 'q'));
        const auto r = big.line(5000);
        REQUIRE(r.has_value());
        CHECK(ojson::parse(*r)["code"] == "bad_request");
        CHECK(r->find("longer than 16 KiB") != std::string::npos);
        CHECK_FALSE(big.line(5000).has_value()); // closed
    }
    // Now 7 + this one = 8, the most: the ninth gets ERROR too_many_clients and is closed.
    LineSocket eighth(socket);
    REQUIRE(eighth.line(5000).has_value());
    std::vector<std::unique_ptr<LineSocket>> refused;
    for (int i = 0; i < 3; ++i) {
        refused.push_back(std::make_unique<LineSocket>(socket));
        const auto r = refused.back()->line(5000);
        REQUIRE(r.has_value());
        CHECK(ojson::parse(*r)["code"] == "too_many_clients");
        CHECK_FALSE(refused.back()->line(5000).has_value());
    }
    // One goes: the next is served.
    slow.pop_back();
    bool served = false;
    for (int attempt = 0; attempt < 50 && !served; ++attempt) { // the daemon sees the close first
        LineSocket next(socket);
        const auto r = next.line(5000);
        REQUIRE(r.has_value());
        served = ojson::parse(*r)["class"] == "VERSION";
        if (!served) std::this_thread::yield();
    }
    CHECK(served);
    std::printf("faults: partial lines: RSS %ld -> %ld KiB with 7 partial lines of 15 KiB\n", rss_before, d.rss_kib());
    CHECK(d.terminate() == 0);
    const std::string err = slurp(d.stderr_path());
    std::size_t logged = 0;
    for (auto at = err.find("further clients are refused"); at != std::string::npos;
         at = err.find("further clients are refused", at + 1))
        ++logged;
    CHECK(logged == 1); // once, not per refused client
}

TEST_CASE("out of file descriptors: no accept() busy loop, clients are refused, the game and its PGN file are kept") {
    TempDir dir("eboardd-nofile");
    const std::string socket = (dir.path / "s").string();
    const std::string pgn = std::string(EBOARD_REPO_DATA) + "/games/molinari-bordais-1979.pgn";
    NotifySocket notify((dir.path / "notify").string());
    const std::string err_path = (dir.path / "stderr").string();
    // 44 descriptors: about 24 are the daemon's own (store, board, loop, the board's device
    // thread's stop eventfd), the rest is shared by the clients and the reserve.
    Process d("/usr/bin/prlimit",
              {"--nofile=44", eboardd_bin(), "--board", "emu-dgt:" + pgn, "--white-side", "left", "--speed", "200",
               "--state-dir", (dir.path / "state").string(), "--pgn-dir", (dir.path / "pgn").string(), "--socket",
               socket, "--max-clients", "1000", "--events", "-"},
              notify.path(), err_path);
    REQUIRE(notify.wait_for("READY=1"));
    // 60 clients: those beyond the descriptors' reserve get ERROR too_many_clients at once.
    std::vector<std::unique_ptr<LineSocket>> clients;
    int served = 0, refused = 0;
    for (int i = 0; i < 60; ++i) {
        clients.push_back(std::make_unique<LineSocket>(socket));
        const auto l = clients.back()->line(5000);
        REQUIRE(l.has_value()); // never left unanswered
        const ojson j = ojson::parse(*l);
        if (j["class"] == "VERSION") ++served;
        else if (j["code"] == "too_many_clients") ++refused;
    }
    CHECK(served > 0);
    CHECK(refused > 0);
    CHECK(served + refused == 60);
    // The game goes on to its end, and its PGN file is written.
    bool ended = false;
    std::string game;
    while (!ended) {
        const auto l = d.line(60000);
        if (!l) break;
        const ojson e = ojson::parse(*l, nullptr, false);
        if (e.value("class", "") == "GAME") game = e.value("game", "");
        ended = e.value("class", "") == "RESULT";
    }
    REQUIRE(ended);
    clients.clear();
    d.signal(SIGTERM);
    CHECK(d.wait_exit() == 0);
    auto recorded = read_pgn_game(slurp(dir.path / "pgn" / (game + ".pgn")));
    REQUIRE(recorded.has_value());
    CHECK(sans_of(*recorded) == sans_of(source_game("molinari-bordais-1979.pgn")));
    const auto log = lines_of(err_path);
    std::printf("faults: nofile 44: %d clients served, %d refused, %zu log lines\n", served, refused, log.size());
    CHECK(log.size() < 100);
}
