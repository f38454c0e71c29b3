// eboardd as eboardd.service and eboardd.socket run it, without systemd: this test plays the
// service manager's part of the protocols (sd_listen_fds(3), sd_notify(3)). It passes a
// listening socket as fd 3 with LISTEN_FDS/LISTEN_PID, reads the datagrams on its own
// $NOTIFY_SOCKET (READY=1 with STATUS=, WATCHDOG=1 at half of WATCHDOG_USEC, STOPPING=1),
// gives $STATE_DIRECTORY as StateDirectory= does, and starts the daemon on the shipped sample
// configuration. Stderr must carry a syslog priority prefix on every line; SIGTERM must end
// the daemon with status 0 within 2 s. Waits are on the daemon's own signals, never sleeps.
#include <catch2/catch.hpp>

#include "tests/support/test_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <csignal>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/config.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/eboardd-service-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
};

sockaddr_un unix_address(const fs::path& p) {
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    REQUIRE(p.string().size() < sizeof a.sun_path);
    std::strncpy(a.sun_path, p.c_str(), sizeof a.sun_path - 1);
    return a;
}

int bound_socket(int type, const fs::path& p) {
    const int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    const sockaddr_un a = unix_address(p);
    REQUIRE(bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0);
    return fd;
}

// The next datagram on `fd` within `ms`, "" on timeout.
std::string datagram(int fd, int ms) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return "";
    char buf[4096];
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

// Datagrams until one contains `what` (returned), or "" after `ms` in all.
std::string datagram_with(int fd, const std::string& what, int ms, std::vector<std::string>& seen) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < end) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
        std::string d = datagram(fd, static_cast<int>(left.count()) + 1);
        if (d.empty()) continue;
        seen.push_back(d);
        if (d.find(what) != std::string::npos) return d;
    }
    return "";
}

fs::path source_dir() {
    return fs::path(EBOARD_TEST_DATA).parent_path().parent_path().parent_path();
}

} // namespace

TEST_CASE("eboardd.service: socket activation, READY/STATUS/WATCHDOG/STOPPING, <N> log lines, SIGTERM exits 0 within 2 s") {
    TempDir dir;
    const fs::path sock_path = dir.path / "eboardd.sock";
    const int notify = bound_socket(SOCK_DGRAM, dir.path / "notify");
    const int listener = bound_socket(SOCK_STREAM, sock_path);
    REQUIRE(chmod(sock_path.c_str(), 0660) == 0); // SocketMode=0660
    REQUIRE(listen(listener, 16) == 0);
    struct stat before {};
    REQUIRE(stat(sock_path.c_str(), &before) == 0);
    int err[2];
    REQUIRE(pipe2(err, O_CLOEXEC) == 0);

    const std::string bin = std::string(EBOARD_BIN_DIR) + "/eboardd";
    const std::string conf = (source_dir() / "systemd" / "eboardd.conf").string();
    const std::string pgn_dir = (dir.path / "pgn").string();
    const std::string notify_path = (dir.path / "notify").string();
    const std::string state_dir = (dir.path / "state").string();
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // As systemd execs a socket-activated service: the socket is fd 3 (SD_LISTEN_FDS_START).
        if (dup2(listener, 3) < 0) _exit(126);
        dup2(err[1], STDERR_FILENO);
        const int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, STDIN_FILENO);
        dup2(devnull, STDOUT_FILENO);
        setenv("LISTEN_FDS", "1", 1);
        setenv("LISTEN_PID", std::to_string(getpid()).c_str(), 1);
        setenv("NOTIFY_SOCKET", notify_path.c_str(), 1);
        setenv("WATCHDOG_USEC", "200000", 1); // pings every 100 ms
        setenv("WATCHDOG_PID", std::to_string(getpid()).c_str(), 1);
        setenv("STATE_DIRECTORY", state_dir.c_str(), 1);
        // The sample eboardd.conf as installed, but PGN files inside the test's directory
        // (the command line wins over the file).
        execl(bin.c_str(), bin.c_str(), "--config", conf.c_str(), "--pgn-dir", pgn_dir.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    close(err[1]);
    close(listener); // the daemon has its own copy, as under systemd

    std::vector<std::string> seen;
    const std::string ready = datagram_with(notify, "READY=1", 10000, seen);
    INFO("datagrams: " << seen.size());
    REQUIRE_FALSE(ready.empty());
    CHECK(ready.find("STATUS=0/0 boards connected") != std::string::npos);
    // WatchdogSec=: two pings at half the interval.
    CHECK_FALSE(datagram_with(notify, "WATCHDOG=1", 2000, seen).empty());
    CHECK_FALSE(datagram_with(notify, "WATCHDOG=1", 2000, seen).empty());
    // The state directory systemd passes is the store's.
    CHECK(fs::exists(state_dir));

    // A client on the socket systemd "bound" gets the VERSION line: the daemon adopted fd 3.
    const int client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_un a = unix_address(sock_path);
    REQUIRE(connect(client, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0);
    eboard::test::FdLineReader reader(client);
    const auto version = nlohmann::json::parse(reader.line());
    CHECK(version["class"] == "VERSION");
    CHECK(version["proto_major"] == 1);
    close(client);

    const auto t0 = Clock::now();
    REQUIRE(kill(pid, SIGTERM) == 0);
    CHECK_FALSE(datagram_with(notify, "STOPPING=1", 2000, seen).empty());
    int status = -1;
    while (waitpid(pid, &status, WNOHANG) == 0 && Clock::now() - t0 < std::chrono::seconds(5)) {
        pollfd p{err[0], POLLIN, 0}; // wakes on log lines; at most 50 ms between looks
        poll(&p, 1, 50);
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    if (!WIFEXITED(status) && !WIFSIGNALED(status)) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        FAIL("eboardd did not exit within 5 s of SIGTERM");
    }
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(took.count() <= 2000);

    // The socket belongs to the service manager: the daemon neither replaced nor removed it.
    struct stat after {};
    REQUIRE(stat(sock_path.c_str(), &after) == 0);
    CHECK(after.st_ino == before.st_ino);
    CHECK((after.st_mode & 0777) == 0660);

    // Every stderr line starts with a syslog priority, as journald reads it (sd-daemon(3)).
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(err[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    close(err[0]);
    close(notify);
    std::istringstream lines(text);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        INFO(line);
        CHECK(std::regex_search(line, std::regex("^<[0-7]>")));
    }
    CHECK(count >= 2); // "ready" and "stopped" at least
    CHECK(text.find("socket from systemd") != std::string::npos);
}

TEST_CASE("eboardd.conf: the shipped sample is accepted by eboardd's parser") {
    const fs::path sample = source_dir() / "systemd" / "eboardd.conf";
    auto config = eboard::daemon::parse_config_text(eboard::test::slurp(sample), sample.string());
    INFO((config ? "" : config.error().message));
    REQUIRE(config);
    CHECK(config->socket == "/run/eboardd/eboardd.sock");
    CHECK(config->socket_group == "eboardctl");
    CHECK(config->pgn_dir == "/var/lib/eboardd/pgn");
    CHECK(config->rules == "fide-2023");
    CHECK(config->boards.empty()); // the board sections are examples, commented out
    // The example board section, uncommented, is valid too.
    std::string text = eboard::test::slurp(sample);
    for (const char* key : {"[board.table1]", "uri = ", "round = ", "white = ", "black = "}) {
        const auto at = text.find(std::string("#") + key);
        REQUIRE(at != std::string::npos);
        text.erase(at, 1);
    }
    auto with_board = eboard::daemon::parse_config_text(text, sample.string());
    INFO((with_board ? "" : with_board.error().message));
    REQUIRE(with_board);
    REQUIRE(with_board->boards.size() == 1);
    CHECK(with_board->boards[0].uri == "dgt:/dev/eboard-dgt-A1234");
    CHECK(with_board->boards[0].white == "Carlsen, Magnus");
}
