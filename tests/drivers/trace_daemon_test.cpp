// `eboardd --trace dgt` (issue 4: "the core owns ... trace logging: --trace dgt shows the wire
// both ways"): the real daemon on an emulated DGT board logs every byte it writes (`dgt > ..`)
// and reads (`dgt < ..`) in hex, in the format eboard-emu replays (drivers/core/trace.hpp);
// without the option nothing of the wire is logged.
#include "harness.hpp"

#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

#include <csignal>
#include <sstream>

using namespace eboard;
using namespace eboard::drivers;

namespace {

/// Runs eboardd on `board`'s pty with `more` options until the board is connected and (when
/// `move`) a lift and a place of e2-e4 were reported as TOUCH events, then SIGTERM. Returns
/// its stderr (the log).
std::string run_daemon(emu::DgtEmulator& board, const std::vector<std::string>& more, bool move) {
    eboard::test::TempDir dir("eboardd-trace");
    const std::string err = (dir.path / "stderr").string();
    std::vector<std::string> args{"--board", "dgt:" + board.pty_slave_path(), "--events", "-", "--state-dir",
                                  (dir.path / "state").string()};
    args.insert(args.end(), more.begin(), more.end());
    eboard::test::Process d(std::string(EBOARD_BIN_DIR) + "/eboardd", args, "", err);
    const auto wait_for = [&](const std::string& what) {
        for (auto l = d.line(20000); l; l = d.line(20000))
            if (l->find(what) != std::string::npos) return true;
        return false;
    };
    const bool connected = wait_for("\"state\":\"connected\"");
    const bool started = connected && wait_for("\"class\":\"GAME\"");
    bool touched = !move;
    if (started && move) {
        board.move(Square::parse("e2"), Square::parse("e4"));
        touched = wait_for("\"square\":\"e2\"") && wait_for("\"square\":\"e4\"");
    }
    d.signal(SIGTERM);
    const int status = d.wait_exit();
    std::string log = eboard::test::slurp(err);
    INFO(log);
    CHECK(connected);
    CHECK(started);
    CHECK(touched);
    CHECK(status == 0);
    return log;
}

/// The trace lines of `log` in direction `dir` ('>' host to board, '<' board to host), the
/// bytes only ("40 4d").
std::vector<std::string> wire(const std::string& log, char dir) {
    std::vector<std::string> out;
    std::istringstream in(log);
    const std::string tag = std::string("dgt ") + dir + ' ';
    for (std::string l; std::getline(in, l);)
        if (const auto at = l.find(tag); at != std::string::npos) out.push_back(l.substr(at + tag.size()));
    return out;
}

bool any_contains(const std::vector<std::string>& lines, const std::string& bytes) {
    for (const auto& l : lines)
        if (l.find(bytes) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("eboardd --trace dgt logs the wire both ways in hex, and nothing without it") {
    emu::DgtEmulator board;
    const std::string log = run_daemon(board, {"--trace", "dgt"}, true);
    INFO(log);
    const auto out = wire(log, '>');
    const auto in = wire(log, '<');
    REQUIRE_FALSE(out.empty());
    REQUIRE_FALSE(in.empty());
    // Host to board, the start-up of dgt.md 15: leave bus mode + version, then serial, dump,
    // UPDATE_NICE, and the clock's version through the board.
    CHECK(out.front() == "40 4d");
    CHECK(any_contains(out, "45"));
    CHECK(any_contains(out, "42"));
    CHECK(any_contains(out, "4b"));
    CHECK(any_contains(out, "2b 03 03 09 00"));
    // Board to host: the VERSION message (93 00 05 ..), a BOARD_DUMP (86 00 43 ..) and the
    // FIELD_UPDATEs of e2 lifted (field 52 = 34) and e4 placed (field 36 = 24, a white pawn 01).
    CHECK(any_contains(in, "93 00 05"));
    CHECK(any_contains(in, "86 00 43"));
    CHECK(any_contains(in, "8e 00 05 34 00"));
    CHECK(any_contains(in, "8e 00 05 24 01"));
    // The host's bytes are exactly what the board received, in order (the last ones may still
    // be in the pty when the daemon is gone: wait for them).
    std::string sent;
    for (const auto& l : out) sent += (sent.empty() ? "" : " ") + l;
    CHECK(board.wait_until([&](const emu::DgtBoardEmu& m) { return hex_bytes(m.received()).size() >= sent.size(); },
                           5000));
    CHECK(sent == hex_bytes(board.received()));

    emu::DgtEmulator quiet;
    const std::string plain = run_daemon(quiet, {}, false);
    CHECK(wire(plain, '>').empty());
    CHECK(wire(plain, '<').empty());
}
