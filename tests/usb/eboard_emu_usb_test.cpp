// eboard-emu's chessnut mode end to end: `eboard-emu chessnut -- eboardd --board chessnut:usb`
// serves a fake Chessnut on USB to the real daemon in another process, which finds it through
// libusb, reports the board and the game start, and sees a move played on eboard-emu's stdin.
#include "usb_harness.hpp"

#include <cstdlib>
#include <filesystem>
#include <poll.h>
#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace eboard;
using namespace eboard::drivers;

namespace {

/// Lines from a pipe, waiting at most until a deadline (a readiness condition, not a sleep).
class Lines {
  public:
    explicit Lines(int fd) : fd_(fd) {}
    /// The next line containing `needle`; "" if none came within `timeout_ms`.
    std::string until(const std::string& needle, int timeout_ms = 10000) {
        const TimeMs end = steady_now_ms() + timeout_ms;
        for (;;) {
            for (auto nl = buf_.find('\n'); nl != std::string::npos; nl = buf_.find('\n')) {
                std::string line = buf_.substr(0, nl);
                buf_.erase(0, nl + 1);
                seen_ += line + "\n";
                if (line.find(needle) != std::string::npos) return line;
            }
            const TimeMs left = end - steady_now_ms();
            pollfd p{fd_, POLLIN, 0};
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return "";
            char c[4096];
            const ssize_t n = ::read(fd_, c, sizeof c);
            if (n <= 0) return "";
            buf_.append(c, static_cast<std::size_t>(n));
        }
    }
    [[nodiscard]] const std::string& seen() const { return seen_; }

  private:
    int fd_;
    std::string buf_, seen_;
};

} // namespace

TEST_CASE("eboard-emu chessnut serves a fake USB board to eboardd in another process") {
    char dir_template[] = "/tmp/eboard-emu-usb-XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    const std::string state = dir_template;
    int out[2], in[2];
    REQUIRE(::pipe(out) == 0);
    REQUIRE(::pipe(in) == 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    const std::string bin = EBOARD_BIN_DIR;
    std::vector<std::string> args = {bin + "/eboard-emu", "chessnut", "--model", "pro", "--",
                                     bin + "/eboardd", "--board", "chessnut:usb", "--events", "-",
                                     "--state-dir", state};
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // eboard-emu makes its own testbed; it gives its child the preload itself.
    std::vector<std::string> env_text;
    for (char** e = environ; *e; ++e) {
        const std::string kv = *e;
        if (kv.rfind("LD_PRELOAD=", 0) != 0 && kv.rfind("UMOCKDEV_DIR=", 0) != 0) env_text.push_back(kv);
    }
    std::vector<char*> env;
    env.reserve(env_text.size() + 1);
    for (auto& kv : env_text) env.push_back(kv.data());
    env.push_back(nullptr);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), env.data()) == 0);
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    ::close(in[0]);
    Lines lines(out[0]);

    CHECK(lines.until("UMOCKDEV_DIR=").rfind("UMOCKDEV_DIR=/", 0) == 0);
    const std::string board = lines.until("\"class\":\"BOARD\"");
    INFO(lines.seen());
    CHECK(board.find("\"state\":\"connected\"") != std::string::npos);
    CHECK(board.find("\"driver\":\"chessnut\"") != std::string::npos);
    const std::string game = lines.until("\"class\":\"GAME\"");
    CHECK(game.find("\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"") != std::string::npos);
    const std::string move = "move e2 e4\n";
    REQUIRE(::write(in[1], move.data(), move.size()) == static_cast<ssize_t>(move.size()));
    const std::string made = lines.until("\"class\":\"MOVE\"");
    CHECK(made.find("\"san\":\"e4\"") != std::string::npos);

    ::kill(pid, SIGTERM);  // forwarded to eboardd, which exits 0
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    ::close(out[0]);
    ::close(in[1]);
    std::filesystem::remove_all(state);
}
