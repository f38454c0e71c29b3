#include <catch2/catch.hpp>

#include <poll.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "daemon/config.hpp"

using namespace eboard::daemon;

namespace {
Invocation parse_ok(const std::vector<std::string>& args) {
    auto r = parse_command_line(args);
    if (!r) FAIL(r.error().message);
    return *r;
}
std::string parse_error(const std::vector<std::string>& args) {
    auto r = parse_command_line(args);
    REQUIRE_FALSE(r.has_value());
    return r.error().message;
}

// The error message of `parse`, computed in a child process: a parser that never returns
// (Boost's placeholder loop did) is killed after 20 s and the test fails instead of hanging.
// "OK" = no error.
template <typename Parse>
std::string error_in_child(const Parse& parse) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        const auto r = parse();
        const std::string text = r ? std::string("OK") : r.error().message;
        for (std::size_t done = 0; done < text.size();) {
            const auto n = write(fds[1], text.data() + done, text.size() - done);
            if (n <= 0) _exit(1);
            done += static_cast<std::size_t>(n);
        }
        _exit(0);
    }
    close(fds[1]);
    std::string text;
    bool answered = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd p{fds[0], POLLIN, 0};
        if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
        char buf[4096];
        const auto n = read(fds[0], buf, sizeof buf);
        if (n <= 0) {
            answered = n == 0;
            break;
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    if (!answered) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!answered) return "(the parser did not return within 20 s)";
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "(the parser crashed)";
    return text;
}

std::string command_line_error(const std::vector<std::string>& args) {
    return error_in_child([&] { return parse_command_line(args); });
}
std::string file_error(const std::string& text) {
    return error_in_child([&] { return parse_config_text(text, "x.conf"); });
}
} // namespace

TEST_CASE("config: defaults are those of eboardd(8)") {
    const Config c = parse_ok({}).config;
    CHECK(c.boards.empty());
    CHECK(c.clock == ClockMode::Board);
    CHECK(c.white_side == WhiteSide::Auto);
    CHECK(c.rules == "fide-2023");
    CHECK_FALSE(c.supervised);
    CHECK(c.illegal_feedback == IllegalFeedback::OnCompletion);
    CHECK(c.mismatch_grace_s == 5.0);
    CHECK_FALSE(c.simulate.has_value());
}

TEST_CASE("config: every option of the command line table") {
    const Config c = parse_ok({"--board", "dgt:/dev/ttyACM0", "--board", "dgt:tcp:host:2000",
                               "--clock", "none", "--white-side", "right", "--rules", "club-2014",
                               "--supervised", "yes", "--time-control", "40/5400+30:1800+30",
                               "--pgn-dir", "/tmp/p", "--state-dir", "/tmp/s", "--events", "-",
                               "--socket", "/run/e.sock", "--illegal-feedback", "immediate",
                               "--mismatch-grace", "7.5"})
                         .config;
    REQUIRE(c.boards.size() == 2);
    CHECK(c.boards[0].uri == "dgt:/dev/ttyACM0");
    CHECK(c.boards[0].name == "dgt:/dev/ttyACM0"); // no name given: the URI as given
    CHECK(c.boards[1].uri == "dgt:tcp:host:2000");
    CHECK(c.clock == ClockMode::None);
    CHECK(c.white_side == WhiteSide::Right);
    CHECK(c.rules == "club-2014");
    CHECK(c.supervised);
    CHECK(c.time_control == "40/5400+30:1800+30");
    CHECK(c.pgn_dir == "/tmp/p");
    CHECK(c.state_dir == "/tmp/s");
    CHECK(c.events == "-");
    CHECK(c.socket == "/run/e.sock");
    CHECK(c.illegal_feedback == IllegalFeedback::Immediate);
    CHECK(c.mismatch_grace_s == 7.5);
}

TEST_CASE("config: --simulate takes an optional PGN") {
    CHECK(parse_ok({"--simulate"}).config.simulate == std::string());
    CHECK(parse_ok({"--simulate", "game.pgn"}).config.simulate == std::string("game.pgn"));
    CHECK(parse_ok({"--simulate=game.pgn", "--speed", "50"}).config.simulate == std::string("game.pgn"));
    CHECK(parse_ok({"--simulate", "--speed", "50"}).config.speed == 50.0);
    CHECK(parse_ok({"--simulate", "--speed", "50"}).config.simulate == std::string());
    // --help says so, as eboardd(8) writes it: `--simulate [PGN]`.
    const std::string help = usage_text();
    CHECK(help.find("--simulate [PGN]") != std::string::npos);
    CHECK(help.find("--simulate PGN") == std::string::npos);
}

TEST_CASE("config: bad values name the option and the choices") {
    CHECK(parse_error({"--clock", "sometimes"}) == "--clock: 'sometimes' is not board|none");
    CHECK(parse_error({"--white-side", "up"}).find("left|right|auto") != std::string::npos);
    CHECK(parse_error({"--supervised", "maybe"}).find("yes|no") != std::string::npos);
    CHECK(parse_error({"--board", "ttyACM0"}).find("DRIVER:TRANSPORT") != std::string::npos);
    CHECK(parse_error({"--mismatch-grace", "-1"}).find("--mismatch-grace") != std::string::npos);
    CHECK(parse_error({"--no-such-option"}).find("no-such-option") != std::string::npos);
    CHECK(parse_error({"--config", "/nonexistent/eboardd.conf"}).find("cannot read") != std::string::npos);
    CHECK(parse_error({"--board", "dgt:/dev/a", "--board", "dgt:/dev/a"}).find("twice") != std::string::npos);
}

// Boost.Program_options 1.74 fills "%canonical_option%", "%value%", ... in its messages until
// none is left, so user text holding one looped forever (fuzz_config finding). The messages
// must come back at once and show the user's text as it was given.
TEST_CASE("config: an option named like a Boost placeholder is refused at once") {
    CHECK(command_line_error({"--%original_token%"}) == "unrecognised option '--%original_token%'");
    CHECK(command_line_error({"--x%canonical_option%"}) ==
          "unrecognised option '--x%canonical_option%'");
    CHECK(command_line_error({"--%option%%prefix%%value%"}) ==
          "unrecognised option '--%option%%prefix%%value%'");
    CHECK(command_line_error({"--speed", "%value%"}) ==
          "the argument ('%value%') for option '--speed' is invalid");
}

TEST_CASE("config: the fuzz_config timeout input is refused at once") {
    // fuzz/config.cpp's argument vector for crash-config-timeout-0ccad231... (split at NUL).
    static const char input[] = "--%original_token%%d = yebs\nmismatch-gra\x91\xb8\x02\0 `\0\0"
                                "44444444444444444#!r4\x92\x92\x92\x92\x92\x92\x92\x92\x92"
                                "\x92\x92\x92\x92\x92\x92\x92\x92\x92\x92\x92\x92\x92\x92"
                                "44";
    std::vector<std::string> args(1);
    for (const char c : std::string(input, sizeof input - 1)) {
        if (c == '\0')
            args.emplace_back();
        else
            args.back() += c;
    }
    REQUIRE(args.size() == 4);
    CHECK(command_line_error(args) ==
          "unrecognised option '--%original_token%%d = yebs\\nmismatch-gra\x91\xb8\\x02'");
}

TEST_CASE("config: a file line holding a Boost placeholder is refused at once") {
    CHECK(file_error("%original_token% = 1\n") == "x.conf: unknown option '%original_token%'");
    CHECK(file_error("%invalid_line%\n") ==
          "x.conf: the options configuration file contains an invalid line "
          "'%invalid_line%'");
    CHECK(file_error("speed = %value%\n") ==
          "x.conf: the argument ('%value%') for option 'speed' is invalid");
}

TEST_CASE("config: the file takes the same options and [board.NAME] sections") {
    const auto c = parse_config_text("rules = fide-2023-rapid\n"
                                     "pgn-dir = /var/lib/eboardd/pgn\n"
                                     "event = Club championship\n"
                                     "site = Paris\n"
                                     "clock = none\n"
                                     "board = dgt:/dev/ttyUSB0\n"
                                     "[board.table1]\n"
                                     "uri = dgt:/dev/ttyACM0\n"
                                     "round = 3\n"
                                     "white = Carlsen, Magnus\n"
                                     "black = Nepomniachtchi, Ian\n"
                                     "time-control = 5400+30\n",
                                     "test.conf");
    if (!c) FAIL(c.error().message);
    CHECK(c->rules == "fide-2023-rapid");
    CHECK(c->pgn_dir == "/var/lib/eboardd/pgn");
    CHECK(c->event == "Club championship");
    CHECK(c->clock == ClockMode::None);
    REQUIRE(c->boards.size() == 2);
    CHECK(c->boards[0].name == "dgt:/dev/ttyUSB0");
    const BoardConfig& t = c->boards[1];
    CHECK(t.name == "table1");
    CHECK(t.uri == "dgt:/dev/ttyACM0");
    CHECK(t.round == "3");
    CHECK(t.white == "Carlsen, Magnus");
    CHECK(t.black == "Nepomniachtchi, Ian");
    CHECK(board_time_control(*c, t) == "5400+30");
    CHECK(board_rules(*c, t) == "fide-2023-rapid");
}

TEST_CASE("config: file errors name the file and the setting") {
    auto unknown = parse_config_text("colour = blue\n", "x.conf");
    REQUIRE_FALSE(unknown.has_value());
    CHECK(unknown.error().message.find("x.conf") != std::string::npos);
    CHECK(unknown.error().message.find("colour") != std::string::npos);
    auto bad_key = parse_config_text("[board.t1]\nuri = dgt:/dev/a\nplayer = X\n", "x.conf");
    REQUIRE_FALSE(bad_key.has_value());
    CHECK(bad_key.error().message.find("player") != std::string::npos);
    auto no_uri = parse_config_text("[board.t1]\nround = 1\n", "x.conf");
    REQUIRE_FALSE(no_uri.has_value());
    CHECK(no_uri.error().message.find("uri") != std::string::npos);
    CHECK_FALSE(parse_config_text("clock = sometimes\n", "x.conf").has_value());
}

TEST_CASE("config: the command line wins over --config, boards from both are kept") {
    char path[] = "/tmp/eboardd-config-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    {
        std::ofstream f(path);
        f << "rules = fide-2005\nsocket = /run/file.sock\n[board.t1]\nuri = dgt:/dev/ttyACM0\nwhite = A\n";
    }
    const Config c = parse_ok({"--config", path, "--rules", "club-2014", "--board", "dgt:/dev/ttyUSB0"}).config;
    std::remove(path);
    CHECK(c.rules == "club-2014");
    CHECK(c.socket == "/run/file.sock");
    CHECK(c.config_file == path);
    REQUIRE(c.boards.size() == 2);
    CHECK(c.boards[0].uri == "dgt:/dev/ttyUSB0");
    CHECK(c.boards[1].name == "t1");
    CHECK(c.boards[1].white == "A");
}

TEST_CASE("config: --state-dir, else $STATE_DIRECTORY, else /var/lib/eboardd") {
    Config c;
    c.state_dir = "/x";
    CHECK(resolve_state_dir(c) == "/x");
    c.state_dir.clear();
    setenv("STATE_DIRECTORY", "/var/lib/private/eboardd:/other", 1);
    CHECK(resolve_state_dir(c) == "/var/lib/private/eboardd");
    unsetenv("STATE_DIRECTORY");
    CHECK(resolve_state_dir(c) == "/var/lib/eboardd");
}
