// eboardd's start-up against bad luck and mistakes (issue 26): a second eboardd on the same
// state directory or socket, a configuration that cannot work, and `--simulate` killed with
// SIGKILL and started again. A refused start says what is wrong, naming the option, and exits
// before READY; nothing of the running eboardd is touched. Waits are the processes' output,
// readiness or exit, never sleeps.
#include <catch2/catch.hpp>

#include "tests/faults/daemon_under_test.hpp"

#include <sys/stat.h>

#include <set>

#include "daemon/simulation.hpp"
#include "daemon/store.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

struct Refused {
    int status = -1;
    std::string err;
};

// Starts eboardd with `args` and waits for it to exit on its own. A daemon that started
// anyway (it prints its VERSION line and then nothing) is stopped after 10 s of quiet, and
// exits 0 or by the signal, which the callers' checks then refuse.
Refused start_refused(const TempDir& dir, const std::vector<std::string>& args, const std::string& tag) {
    const std::string err_path = (dir.path / ("stderr-" + tag)).string();
    Process d(eboardd_bin(), args, "", err_path);
    while (d.line(10000)) {
    }
    d.signal(SIGTERM);
    Refused r;
    r.status = d.wait_exit();
    r.err = slurp(err_path);
    return r;
}

// Whether `text` has only printable ASCII, tabs and newlines (nothing of a binary file echoed).
bool printable(const std::string& text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == '\n' || u == '\t' || (u >= 0x20 && u < 0x7f);
    });
}

} // namespace

TEST_CASE("start-up: a configuration that cannot work is refused at start, naming the option, exit 2") {
    TempDir dir("eboardd-config");
    const std::string state = (dir.path / "state").string();
    fs::create_directories(dir.path / "confdir");
    std::ofstream(dir.path / "twice.conf") << "[board.t1]\nuri = dgt:/dev/null\n[board.t2]\nuri = dgt:/dev/zero\n"
                                              "[board.t1]\nround = 2\n";
    {
        std::ofstream bin(dir.path / "binary.conf", std::ios::binary);
        const char elf[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00 secret\n\x01\x02";
        bin.write(elf, sizeof elf - 1);
    }
    std::ofstream(dir.path / "a-file") << "not a directory\n";
    std::ofstream(dir.path / "huge.conf") << "# a configuration file grown past 1 MiB\n";
    fs::resize_file(dir.path / "huge.conf", (1 << 20) + 1);
    const std::string long_socket = (dir.path / std::string(120, 's')).string();
    // --simulate's game: a FIFO with no writer is refused at once, not waited on.
    const std::string fifo = (dir.path / "game.pgn").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--config", (dir.path / "confdir").string()}, "--config: '" + (dir.path / "confdir").string() + "' is not a regular file (a directory)"},
        {{"--config", (dir.path / "twice.conf").string()}, "twice.conf:5: [board.t1] is given twice (first at line 1)"},
        {{"--board", "nosuch:/dev/ttyACM0"}, "--board nosuch:/dev/ttyACM0: 'nosuch:/dev/ttyACM0': unknown driver 'nosuch'"},
        {{"--pgn-dir", (dir.path / "a-file" / "pgn").string()}, "--pgn-dir: cannot create '" + (dir.path / "a-file" / "pgn").string() + "'"},
        {{"--time-control", "0"}, "--time-control: '0' gives a period no time"},
        {{"--time-control", "0+0"}, "--time-control: '0+0' gives a period no time"},
        {{"--config", (dir.path / "binary.conf").string()}, "binary.conf:1: not a text file (byte 0x7f)"},
        {{"--config", (dir.path / "huge.conf").string()}, "--config: cannot read '" + (dir.path / "huge.conf").string() + "': larger than 1048576 bytes"},
        {{"--socket", long_socket}, "--socket: '" + long_socket + "' is " + std::to_string(long_socket.size()) + " bytes long"},
    };
    int n = 0;
    for (const auto& [more, says] : cases) {
        INFO(says);
        std::vector<std::string> args{"--state-dir", state, "--events", "-"};
        args.insert(args.end(), more.begin(), more.end());
        const Refused r = start_refused(dir, args, std::to_string(++n));
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find(says) != std::string::npos);
        CHECK(r.err.find("ready") == std::string::npos);
        CHECK(printable(r.err));
        CHECK(r.err.find("secret") == std::string::npos);
    }
    // The game files are read when the boards open (exit 1, as an emu-KIND:PGN board's).
    const Refused sim = start_refused(dir, {"--state-dir", state, "--events", "-", "--simulate", fifo}, "simulate");
    INFO(sim.err);
    CHECK(sim.status == 1);
    CHECK(sim.err.find("--simulate: cannot read '" + fifo + "': not a regular file") != std::string::npos);
    CHECK(sim.err.find("ready") == std::string::npos);
}

TEST_CASE("start-up: a second eboardd on the same state directory or socket is refused, a stale one replaced") {
    TempDir dir("eboardd-second");
    const std::string state = (dir.path / "state").string();
    const std::string socket = (dir.path / "eboardd.sock").string();
    auto first = std::make_unique<ReadyDaemon>(dir.path, std::vector<std::string>{"--state-dir", state, "--socket", socket, "--events", "-"}, "first");

    // The same state directory (another socket): refused, naming the eboardd that holds it.
    const Refused same_state = start_refused(dir, {"--state-dir", state, "--socket", socket + "2"}, "state");
    INFO(same_state.err);
    CHECK(same_state.status != 0);
    CHECK(same_state.err.find("--state-dir: " + state + " is in use by another eboardd (pid " +
                              std::to_string(first->process.pid()) + ")") != std::string::npos);

    // The same socket (another state directory): refused; the live socket stays the first one's.
    const Refused same_socket = start_refused(dir, {"--state-dir", state + "2", "--socket", socket}, "socket");
    INFO(same_socket.err);
    CHECK(same_socket.status != 0);
    CHECK(same_socket.err.find("--socket: " + socket + " is in use by a running eboardd") != std::string::npos);
    CHECK(fs::exists(socket));
    {
        LineSocket client(socket);
        auto version = client.line(10000);
        REQUIRE(version.has_value());
        CHECK(version->find("\"VERSION\"") != std::string::npos);
    }

    // kill -9 leaves the socket file and the lock file: the next eboardd replaces the one and
    // takes the other.
    first->process.signal(SIGKILL);
    CHECK(first->process.wait_exit() == 128 + SIGKILL);
    first.reset();
    REQUIRE(fs::exists(socket));
    ReadyDaemon next(dir.path, {"--state-dir", state, "--socket", socket, "--events", "-"}, "next");
    {
        LineSocket client(socket);
        CHECK(client.line(10000).has_value());
    }
    next.process.signal(SIGTERM);
    CHECK(next.process.wait_exit() == 0);
    CHECK_FALSE(fs::exists(socket));
}

TEST_CASE("start-up: --simulate killed with SIGKILL resumes its game on the emulated board, one game to its end") {
    TempDir dir("eboardd-simulate");
    const fs::path state = dir.path / "state";
    DaemonUnderTest d({"--simulate", "--speed", "50", "--state-dir", state.string(), "--events", "-"}, dir.path);
    REQUIRE(d.start());
    // Killed after the 8th ply was announced completed, the player thinking about the 9th.
    REQUIRE(d.seen("MOVE", "simulated", [](const ojson& e) { return e["ply"] == 8 && e["status"] == "completed"; }));
    d.kill9();
    REQUIRE(d.start());
    REQUIRE(d.seen("GAME", "simulated", [](const ojson& e) { return e["event"] == "end"; }, 120000));
    CHECK(d.process().wait_exit() == 0);

    std::set<std::string> games;
    std::string result;
    for (const auto& e : d.events()) {
        if (e.value("board", "") != "simulated") continue;
        if (e.contains("game") && !e.value("game", "").empty()) games.insert(e.value("game", ""));
        if (e.value("class", "") == "RESULT") result = e.value("result", "");
        if (e.value("class", "") == "ALERT") UNSCOPED_INFO(e.dump());
        CHECK(e.value("class", "") != "ALERT"); // the players went on as if nothing happened
    }
    CHECK(games.size() == 1); // resumed, not a new game
    REQUIRE_FALSE(games.empty());
    auto source = read_pgn_game(daemon::embedded_simulation_pgn());
    REQUIRE(source.has_value());
    CHECK(result == source->result);
    auto store = daemon::Store::open(state);
    REQUIRE(store.has_value());
    CHECK((*store)->unfinished_games().empty());
    auto pgn = read_pgn_game(slurp(state / "pgn" / (*games.begin() + ".pgn")));
    REQUIRE(pgn.has_value());
    CHECK(sans_of(*pgn) == sans_of(*source));
    CHECK(pgn->result == source->result);
}
