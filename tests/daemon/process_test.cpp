// The eboardd process end to end: --simulate replays a real game through the emulated DGT
// board, the real driver, the reconstruction and the store; the recorded PGN must equal the
// source game. Processes are waited for by their output or their exit, never by sleeping.
#include <catch2/catch.hpp>

#include "tests/support/test_io.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "daemon/store.hpp"
#include "rules/notation.hpp"
#include "rules/pgn.hpp"

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/eboardd-proc-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
};

// eboardd as a child process; its stdout is readable line by line.
struct Child {
    pid_t pid = -1;
    int out = -1;
    eboard::test::FdLineReader reader{-1};

    explicit Child(std::vector<std::string> args, std::string notify_socket = "") {
        int p[2];
        REQUIRE(pipe(p) == 0);
        pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            dup2(p[1], STDOUT_FILENO);
            close(p[0]);
            close(p[1]);
            if (!notify_socket.empty()) setenv("NOTIFY_SOCKET", notify_socket.c_str(), 1);
            else unsetenv("NOTIFY_SOCKET");
            const int devnull = open("/dev/null", O_WRONLY);
            dup2(devnull, STDERR_FILENO);
            std::vector<char*> argv;
            static std::string bin = std::string(EBOARD_BIN_DIR) + "/eboardd";
            argv.push_back(bin.data());
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(bin.c_str(), argv.data());
            _exit(127);
        }
        close(p[1]);
        out = p[0];
        reader = eboard::test::FdLineReader(out);
    }
    ~Child() {
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        close(out);
    }
    // The next stdout line; "" at EOF.
    std::string line() {
        return reader.line();
    }
    int wait_exit() {
        int status = 0;
        REQUIRE(waitpid(pid, &status, 0) == pid);
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
};

using eboard::test::slurp;

std::vector<std::string> sans(const eboard::GameRecord& g) {
    std::vector<std::string> out;
    for (const auto& m : g.moves) out.push_back(std::string(eboard::bare_san(m.san)));
    return out;
}

// Replays `source` (one game in a PGN file) and returns the recorded PGN text.
std::string replay(const fs::path& source, const TempDir& dir) {
    Child d({"--simulate", source.string(), "--speed", "100", "--state-dir",
             (dir.path / "state").string(), "--pgn-dir", (dir.path / "pgn").string(), "--events", "-"});
    std::string game;
    for (std::string l = d.line(); !l.empty(); l = d.line()) {
        const ojson e = ojson::parse(l);
        if (e["class"] == "GAME" && e["event"] == "start") game = e["game"];
        CHECK(e["class"] != "ALERT"); // a clean replay raises no arbiter matter
    }
    CHECK(d.wait_exit() == 0);
    REQUIRE_FALSE(game.empty());
    return slurp(dir.path / "pgn" / (game + ".pgn"));
}

} // namespace

TEST_CASE("eboardd --simulate: the recorded PGN equals the source game (Deep Blue - Kasparov 1997)") {
    TempDir dir;
    const fs::path source = fs::path(EBOARD_TEST_DATA).parent_path().parent_path().parent_path() /
                            "daemon" / "data" / "deep-blue-kasparov-1997-game6.pgn";
    const std::string pgn = replay(source, dir);
    auto recorded = eboard::read_pgn_game(pgn);
    REQUIRE(recorded.has_value());
    auto original = eboard::read_pgn_game(slurp(source));
    REQUIRE(original.has_value());
    CHECK(sans(*recorded) == sans(*original));
    CHECK(recorded->result == "1-0");
    CHECK(*recorded->tag("White") == "Deep Blue (Computer)");
    CHECK(*recorded->tag("TimeControl") == "40/7200:1200");
    for (const auto& m : recorded->moves) CHECK(m.clock_ms.has_value()); // [%clk] per completed move
}

TEST_CASE("eboardd --simulate: a game that ends in checkmate (Molinari - Bordais 1979)") {
    TempDir dir;
    const std::string all = slurp(fs::path(EBOARD_SHARED_DATA) / "games" / "molinari-bordais-1979.pgn");
    eboard::PgnReader reader(all);
    auto first = reader.next();
    REQUIRE(first.has_value());
    REQUIRE(first->has_value());
    const fs::path source = dir.path / "source.pgn";
    {
        std::ofstream f(source);
        f << all.substr(0, all.find("\n\n[Event ")); // its first game
    }
    const std::string pgn = replay(source, dir);
    auto recorded = eboard::read_pgn_game(pgn);
    REQUIRE(recorded.has_value());
    CHECK(sans(*recorded) == sans(first->value()));
    CHECK(recorded->result == first->value().result);
}

TEST_CASE("eboardd: kill -9 in mid-game loses no completed move, the game resumes") {
    TempDir dir;
    const std::string state = (dir.path / "state").string();
    std::vector<std::string> completed;
    std::string game;
    {
        Child d({"--simulate", "--speed", "100", "--state-dir", state, "--events", "-"});
        for (std::string l = d.line(); !l.empty(); l = d.line()) {
            const ojson e = ojson::parse(l);
            if (e["class"] == "MOVE" && e["status"] == "completed") {
                completed.push_back(e["san"]);
                game = e["game"];
                if (completed.size() == 12) break; // announced, hence durable
            }
        }
        REQUIRE(completed.size() == 12);
        REQUIRE(kill(d.pid, SIGKILL) == 0);
        CHECK(d.wait_exit() == 128 + SIGKILL);
    }
    {
        auto store = eboard::daemon::Store::open(state);
        REQUIRE(store.has_value());
        auto g = (*store)->load(game);
        REQUIRE(g.has_value());
        REQUIRE(g->moves.size() >= completed.size());
        for (std::size_t i = 0; i < completed.size(); ++i) {
            CHECK(g->moves[i].san == completed[i]);
            CHECK(g->moves[i].completed);
        }
        CHECK((*store)->unfinished_games() == std::vector<std::string>{game});
    }
    // Restarted on the same state directory, the board takes its unfinished game up again.
    const fs::path conf = dir.path / "eboardd.conf";
    {
        std::ofstream f(conf);
        f << "[board.simulated]\nuri = dgt:" << (dir.path / "absent-tty").string() << "\n";
    }
    const std::string sock = (dir.path / "s").string();
    // Readiness as systemd sees it: READY=1 on $NOTIFY_SOCKET (sd_notify(3)).
    const std::string notify_path = (dir.path / "notify").string();
    const int notify = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, notify_path.c_str(), sizeof addr.sun_path - 1);
    REQUIRE(bind(notify, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    Child d({"--config", conf.string(), "--state-dir", state, "--socket", sock}, notify_path);
    char msg[512] = {};
    const ssize_t n = recv(notify, msg, sizeof msg - 1, 0); // blocks until the daemon is ready
    close(notify);
    REQUIRE(n > 0);
    CHECK(std::string(msg).rfind("READY=1\nSTATUS=", 0) == 0);
    CHECK(std::string(msg).find("1 games in progress") != std::string::npos);
    // eboardctl against the restarted daemon: the game is there, at the ply it had.
    const std::string ctl = std::string(EBOARD_BIN_DIR) + "/eboardctl --socket " + sock + " --json boards";
    std::string reply;
    FILE* p = popen(ctl.c_str(), "r");
    REQUIRE(p != nullptr);
    char buf[4096];
    while (fgets(buf, sizeof buf, p)) reply += buf;
    CHECK(pclose(p) == 0);
    const ojson boards = ojson::parse(reply);
    REQUIRE(boards["boards"].size() == 1);
    CHECK(boards["boards"][0]["game"] == game);
    CHECK(boards["boards"][0]["ply"].get<int>() >= 12);
    // SIGTERM: a graceful exit with status 0 within 2 s (interfaces.md).
    const auto t0 = std::chrono::steady_clock::now();
    kill(d.pid, SIGTERM);
    CHECK(d.wait_exit() == 0);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
}
