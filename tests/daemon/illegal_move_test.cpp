// The daemon in-process against an emulated DGT board and DGT3000 clock: an illegal move
// completed with the clock gives the ALERT of Art. 7.5.1 and a text with a beep on the clock;
// the arbiter's PENALTY then sets and runs the clock with 2 more minutes for the opponent
// (Art. 7.5.5, FIDE Laws 2023). Waits are on events and on the emulator's state, never sleeps.
#include <catch2/catch.hpp>

#include "tests/support/test_io.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/post.hpp>

#include <cstring>
#include <filesystem>
#include <thread>

#include "daemon/daemon.hpp"
#include "drivers/emu/dgt_emulator.hpp"

using namespace eboard;
using namespace eboard::daemon;
namespace fs = std::filesystem;

namespace {

struct Line {
    int fd = -1;
    eboard::test::FdLineReader reader{-1};
    explicit Line(const std::string& path) {
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
        REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        reader = eboard::test::FdLineReader(fd);
    }
    ~Line() { close(fd); }
    void send(const std::string& s) { REQUIRE(write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size())); }
    ojson next() {
        const std::string l = reader.line();
        REQUIRE(!l.empty()); // "" = the daemon hung up
        return ojson::parse(l);
    }
    // The next object of class `cls` (others skipped).
    ojson next_of(const std::string& cls) {
        for (;;) {
            ojson j = next();
            if (j["class"] == cls) return j;
        }
    }
};

} // namespace

TEST_CASE("7.5.1 an illegal move completed on the clock: ALERT, clock text and beep, then the 7.5.5 penalty") {
    char tmpl[] = "/tmp/eboardd-illegal-XXXXXX";
    const fs::path dir = mkdtemp(tmpl);
    drivers::emu::DgtEmulatorOptions eo;
    eo.clock.left_ms = eo.clock.right_ms = 10 * 60 * 1000;
    drivers::emu::DgtEmulator board(eo);

    // Readiness: READY=1 on our own $NOTIFY_SOCKET, as systemd would see it.
    const std::string notify_path = (dir / "notify").string();
    const int notify = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un na{};
    na.sun_family = AF_UNIX;
    std::strncpy(na.sun_path, notify_path.c_str(), sizeof na.sun_path - 1);
    REQUIRE(bind(notify, reinterpret_cast<sockaddr*>(&na), sizeof na) == 0);
    setenv("NOTIFY_SOCKET", notify_path.c_str(), 1);

    Config c;
    c.boards.push_back(BoardConfig{"dgt:" + board.pty_slave_path(), "t1", {}, {}, {}, {}, {}, {}, {}});
    c.state_dir = (dir / "state").string();
    c.socket = (dir / "s").string();
    c.white_side = WhiteSide::Left;
    Daemon daemon(c);
    int status = -1;
    std::thread loop([&] { status = daemon.run(); });
    char msg[256] = {};
    REQUIRE(recv(notify, msg, sizeof msg - 1, 0) > 0);
    unsetenv("NOTIFY_SOCKET");
    close(notify);

    Line watch(c.socket);
    CHECK(watch.next()["class"] == "VERSION");
    watch.send("{\"class\":\"WATCH\"}\n");
    CHECK(watch.next()["class"] == "WATCH");
    // The board shows the start position: a game starts (unless it started before we watched).
    Line ctl(c.socket);
    (void)ctl.next();
    for (;;) {
        ctl.send("{\"class\":\"BOARDS\"}\n");
        const ojson b = ctl.next_of("BOARDS");
        if (b["boards"][0].contains("game")) break;
        (void)watch.next(); // wait for the next event before asking again
    }

    // White moves the e2 pawn to e5 (illegal) and presses the clock.
    board.move(Square::parse("e2"), Square::parse("e5"));
    board.press_lever(drivers::ClockSide::Left);
    const ojson alert = watch.next_of("ALERT");
    CHECK(alert["kind"] == "illegal_move");
    CHECK(alert["article"] == "7.5.1");
    CHECK(alert["count"] == 1);
    CHECK(alert["penalty"] == "+2min");
    CHECK(board.wait_until([](const drivers::emu::DgtBoardEmu& m) {
        return !m.clock().state().text.empty() && m.clock().state().beeps > 0;
    }, 5000));

    // The arbiter applies the penalty: Black's clock gets 2 more minutes, set and run.
    const auto before = board.clock().times;
    ctl.send("{\"class\":\"PENALTY\",\"board\":\"t1\",\"decision\":\"apply\"}\n");
    const ojson ok = ctl.next();
    CHECK(ok["class"] == "OK");
    CHECK(ok["penalty"] == "+2min");
    CHECK(board.wait_until([&](const drivers::emu::DgtBoardEmu& m) {
        return m.clock().state().times.right_ms >= before.right_ms + 110 * 1000;
    }, 5000));
    ctl.send("{\"class\":\"PENALTY\",\"board\":\"t1\",\"decision\":\"apply\"}\n");
    CHECK(ctl.next()["class"] == "ERROR"); // nothing left to penalise

    boost::asio::post(daemon.io(), [&] { daemon.stop(); });
    loop.join();
    CHECK(status == 0);
    fs::remove_all(dir);
}
