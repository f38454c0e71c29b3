// The daemon in-process against an emulated DGT board and DGT3000 clock: an illegal move
// completed with the clock gives the ALERT of Art. 7.5.1 and a text with a beep on the clock;
// the arbiter's PENALTY then sets and runs the clock with 2 more minutes for the opponent
// (Art. 7.5.5, FIDE Laws 2023). Waits are on events and on the emulator's state, never sleeps.
#include <catch2/catch.hpp>

#include "tests/support/process.hpp"

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

using eboard::test::LineSocket;

// The next object on `s` of class `cls` (others skipped).
ojson next_of(LineSocket& s, const std::string& cls) {
    for (;;) {
        auto l = s.line();
        REQUIRE(l.has_value()); // the daemon hung up or said nothing in time
        ojson j = ojson::parse(*l);
        if (j["class"] == cls) return j;
    }
}

ojson next(LineSocket& s) {
    auto l = s.line();
    REQUIRE(l.has_value());
    return ojson::parse(*l);
}

} // namespace

TEST_CASE("7.5.1 an illegal move completed on the clock: ALERT, clock text and beep, then the 7.5.5 penalty") {
    char tmpl[] = "/tmp/eboardd-illegal-XXXXXX";
    const fs::path dir = mkdtemp(tmpl);
    drivers::emu::DgtEmulatorOptions eo;
    eo.clock.left_ms = eo.clock.right_ms = 10 * 60 * 1000;
    drivers::emu::DgtEmulator board(eo);

    // Readiness: READY=1 on our own $NOTIFY_SOCKET, as systemd would see it.
    eboard::test::NotifySocket notify((dir / "notify").string());
    setenv("NOTIFY_SOCKET", notify.path().c_str(), 1);

    Config c;
    c.boards.push_back(BoardConfig{"dgt:" + board.pty_slave_path(), "t1", {}, {}, {}, {}, {}, {}, {}});
    c.state_dir = (dir / "state").string();
    c.socket = (dir / "s").string();
    c.white_side = WhiteSide::Left;
    Daemon daemon(c);
    int status = -1;
    std::thread loop([&] { status = daemon.run(); });
    REQUIRE(notify.wait_for("READY=1"));
    unsetenv("NOTIFY_SOCKET");

    LineSocket watch(c.socket);
    CHECK(next(watch)["class"] == "VERSION");
    watch.send("{\"class\":\"WATCH\"}\n");
    CHECK(next(watch)["class"] == "WATCH");
    // The board shows the start position: a game starts (unless it started before we watched).
    LineSocket ctl(c.socket);
    (void)next(ctl);
    for (;;) {
        ctl.send("{\"class\":\"BOARDS\"}\n");
        const ojson b = next_of(ctl, "BOARDS");
        if (b["boards"][0].contains("game")) break;
        (void)next(watch); // wait for the next event before asking again
    }

    // White moves the e2 pawn to e5 (illegal) and presses the clock.
    board.move(Square::parse("e2"), Square::parse("e5"));
    board.press_lever(drivers::ClockSide::Left);
    const ojson alert = next_of(watch, "ALERT");
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
    const ojson ok = next(ctl);
    CHECK(ok["class"] == "OK");
    CHECK(ok["penalty"] == "+2min");
    CHECK(board.wait_until([&](const drivers::emu::DgtBoardEmu& m) {
        return m.clock().state().times.right_ms >= before.right_ms + 110 * 1000;
    }, 5000));
    ctl.send("{\"class\":\"PENALTY\",\"board\":\"t1\",\"decision\":\"apply\"}\n");
    CHECK(next(ctl)["class"] == "ERROR"); // nothing left to penalise

    board.move(Square::parse("e5"), Square::parse("e2")); // the position before it restored
    boost::asio::post(daemon.io(), [&] { daemon.stop(); });
    loop.join();
    CHECK(status == 0);

    // Restarted on the same store: the decided penalty stays decided (never applied twice).
    {
        eboard::test::NotifySocket notify2((dir / "notify2").string());
        setenv("NOTIFY_SOCKET", notify2.path().c_str(), 1);
        Daemon again(c);
        std::thread loop2([&] { status = again.run(); });
        REQUIRE(notify2.wait_for("READY=1"));
        unsetenv("NOTIFY_SOCKET");
        LineSocket ctl2(c.socket);
        (void)next(ctl2);
        ctl2.send("{\"class\":\"PENALTY\",\"board\":\"t1\",\"decision\":\"apply\"}\n");
        CHECK(next(ctl2)["class"] == "ERROR");
        boost::asio::post(again.io(), [&] { again.stop(); });
        loop2.join();
        CHECK(status == 0);
    }
    fs::remove_all(dir);
}
