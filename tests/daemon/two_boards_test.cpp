// Appendix D through the eboardd process: two emulated DGT boards (with DGT3000 clocks) on
// ptys carry one game (D.1) - the sighted player's board "s" and the visually impaired
// player's tactile board "t" (pair = s). The daemon speaks into WAV files (--speech wav:DIR),
// each with its text beside it. Checked: the opponent's moves are announced in the Appendix D
// words (D.2.1), the player's own are not (speech-moves = white); a move repeated wrongly gives
// ALERT both_boards_differ naming the squares (D.2.9), spoken; the correction is said; INFO
// and a clock button answer only when asked (D.2.10.4). Waits are on events, READY=1 and
// inotify, never sleeps.
#include "drivers/emu/dgt_emulator.hpp"
#include "tests/speech/speech_support.hpp"
#include "tests/support/test_io.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <csignal>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace eboard;
using namespace std::chrono_literals;
using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

/// A client connection to the daemon's socket, line by line.
struct Client {
    int fd = -1;
    eboard::test::FdLineReader reader{-1};
    explicit Client(const std::string& path) {
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
        REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        reader = eboard::test::FdLineReader(fd);
        REQUIRE(next()["class"] == "VERSION");
    }
    ~Client() { close(fd); }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;
    void send(const ojson& j) {
        const std::string s = j.dump() + "\n";
        REQUIRE(write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size()));
    }
    ojson next() {
        const std::string l = reader.line();
        REQUIRE(!l.empty()); // "" = the daemon hung up
        return ojson::parse(l);
    }
    /// The next event matching `pred` (others skipped).
    template <typename P>
    ojson next_where(P pred) {
        for (;;) {
            ojson j = next();
            if (pred(j)) return j;
        }
    }
    ojson request(const ojson& j) {
        send(j);
        return next();
    }
};

/// eboardd as a child process, ready once it sent READY=1 to our notify socket.
class Eboardd {
  public:
    Eboardd(const fs::path& dir, const fs::path& config) {
        const std::string notify_path = (dir / "notify").string();
        notify_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_un na{};
        na.sun_family = AF_UNIX;
        std::strncpy(na.sun_path, notify_path.c_str(), sizeof na.sun_path - 1);
        REQUIRE(bind(notify_, reinterpret_cast<sockaddr*>(&na), sizeof na) == 0);
        std::vector<std::string> env_s;
        for (char** e = environ; *e; ++e) env_s.emplace_back(*e);
        env_s.push_back("NOTIFY_SOCKET=" + notify_path);
        std::vector<char*> envp;
        envp.reserve(env_s.size() + 1);
        for (auto& e : env_s) envp.push_back(e.data());
        envp.push_back(nullptr);
        std::string bin = std::string(EBOARD_BIN_DIR) + "/eboardd", flag = "--config",
                    cfg = config.string();
        char* argv[] = {bin.data(), flag.data(), cfg.data(), nullptr};
        REQUIRE(posix_spawn(&pid_, bin.c_str(), nullptr, nullptr, argv, envp.data()) == 0);
        // READY=1 (sd_notify), as systemd would see it; 20 s is a bound, not a wait.
        pollfd p{notify_, POLLIN, 0};
        REQUIRE(poll(&p, 1, 20000) == 1);
        char msg[512] = {};
        REQUIRE(recv(notify_, msg, sizeof msg - 1, 0) > 0);
        CHECK(std::string(msg).find("READY=1") != std::string::npos);
    }
    ~Eboardd() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
        close(notify_);
    }
    Eboardd(const Eboardd&) = delete;
    Eboardd& operator=(const Eboardd&) = delete;
    /// SIGTERM; the exit status.
    int stop() {
        kill(pid_, SIGTERM);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

  private:
    pid_t pid_ = -1;
    int notify_ = -1;
};

/// The text of the n-th utterance (1-based) the daemon spoke into `dir`, waiting for it.
std::string spoken(const fs::path& dir, std::size_t n) {
    const auto files = test::wait_for_files(dir, ".txt", n, 20s);
    REQUIRE(files.size() >= n);
    std::string t = test::slurp(files[n - 1]);
    if (!t.empty() && t.back() == '\n') t.pop_back();
    return t.substr(t.find('\t') + 1);
}

std::size_t spoken_count(const fs::path& dir) {
    return test::wait_for_files(dir, ".txt", 1000000, 0ms).size();
}

Square sq(const char* name) {
    return Square::parse(name);
}

} // namespace

TEST_CASE("D.2.9 two boards of one game through eboardd: announced, compared, corrected") {
    test::TempDir dir;
    drivers::emu::DgtEmulator sighted, tactile;
    const fs::path wav = dir.path() / "wav";
    fs::create_directories(wav);
    std::ofstream(dir.path() / "eboardd.conf")
        << "state-dir = " << (dir.path() / "state").string() << "\n"
        << "socket = " << (dir.path() / "sock").string() << "\n"
        << "clock = none\n"
        << "speech = wav:" << wav.string() << "\n"
        << "[board.s]\nuri = dgt:" << sighted.pty_slave_path() << "\nspeech-moves = none\n"
        << "[board.t]\nuri = dgt:" << tactile.pty_slave_path()
        << "\ntactile = yes\npair = s\nspeech-moves = white\n";
    Eboardd daemon(dir.path(), dir.path() / "eboardd.conf");
    Client watch((dir.path() / "sock").string());
    Client ctl((dir.path() / "sock").string());
    watch.send({{"class", "WATCH"}});
    CHECK(watch.next()["class"] == "WATCH");
    // Both boards show the start position: both games start (maybe before we watched).
    for (;;) {
        const ojson b = ctl.request({{"class", "BOARDS"}});
        if (b["boards"].size() == 2 && b["boards"][0].contains("game") &&
            b["boards"][1].contains("game"))
            break;
        (void)watch.next(); // the next event, then ask again
    }
    auto made = [&](const char* board, int ply) {
        return watch.next_where([&](const ojson& j) {
            return j["class"] == "MOVE" && j["board"] == board && j["ply"] == ply &&
                   j["status"] == "made";
        });
    };

    // White (sighted) plays e4; the visually impaired player repeats it on his board and hears
    // it (his opponent's move); the sighted board's own moves are not spoken.
    sighted.move(sq("e2"), sq("e4"));
    CHECK(made("s", 1)["san"] == "e4");
    tactile.move(sq("e2"), sq("e4"));
    // The tactile board (D.2.2): taking the pawn out of its hole is the touch.
    const ojson touch =
        watch.next_where([](const ojson& j) { return j["class"] == "TOUCH" && j["board"] == "t"; });
    CHECK(touch["action"] == "lift");
    CHECK(touch["square"] == "e2");
    CHECK(made("t", 1)["san"] == "e4");
    CHECK(spoken(wav, 1) == "Bauer Eva vier");

    // Black (tactile) answers d5; the assistant repeats it wrongly as d6 on the sighted board.
    tactile.move(sq("d7"), sq("d5"));
    CHECK(made("t", 2)["san"] == "d5");
    sighted.move(sq("d7"), sq("d6"));
    const ojson alert = watch.next_where([](const ojson& j) { return j["class"] == "ALERT"; });
    CHECK(alert["kind"] == "both_boards_differ");
    CHECK(alert["article"] == "D.2.9");
    CHECK(alert["board"] == "t");
    CHECK(alert["squares"] == ojson::array({"d5", "d6"}));
    CHECK(spoken(wav, 2) == "Bretter verschieden: David fünf, David sechs");

    // The sighted board is corrected (d6 -> d5, the move replaced before completion).
    sighted.move(sq("d6"), sq("d5"));
    CHECK(made("s", 2)["san"] == "d5");
    CHECK(spoken(wav, 3) == "Bretter wieder gleich");

    // Nothing unasked so far besides the opponent's move and the boards; now asked, by INFO ...
    CHECK(spoken_count(wav) == 3);
    const ojson info = ctl.request({{"class", "INFO"}, {"board", "t"}, {"request", "last 2"}});
    CHECK(info["class"] == "INFO");
    CHECK(info["text"] == "Zug 1, Weiß: Bauer Eva vier. Zug 1, Schwarz: Bauer David fünf.");
    CHECK(info["language"] == "de");
    CHECK(spoken(wav, 4) == info["text"].get<std::string>());
    CHECK(ctl.request({{"class", "INFO"}, {"board", "t"}, {"request", "square e4"}})["text"] ==
          "Eva vier, weißer Bauer");
    CHECK(spoken(wav, 5) == "Eva vier, weißer Bauer");
    const ojson bad = ctl.request({{"class", "INFO"}, {"board", "t"}, {"request", "rank 9"}});
    CHECK(bad["class"] == "ERROR");
    CHECK(bad["message"] == "bad rank '9'");
    // ... and by the clock's button 1 at the tactile board: the move number.
    tactile.press_button(1);
    CHECK(spoken(wav, 6) == "Zug 2, Weiß am Zug");

    CHECK(daemon.stop() == 0);
    for (const auto& w : test::wait_for_files(wav, ".wav", 6, 0ms))
        CHECK(test::soxi_seconds(w) > 0.3);
}
