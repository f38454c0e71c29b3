// The DGT driver on byte buffers with simulated time: the start-up sequence (dgt.md 15), the
// clock command rules (11: one in flight, ACK, at most 3 retries 2 s apart), keep-alive.
#include "harness.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::dgt;
using Bytes = std::vector<std::uint8_t>;

namespace {

const Bytes kVersion = {0x93, 0x00, 0x05, 0x03, 0x01};
const Bytes kClockVersionAck = {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x09, 0x0a, 0x20, 0x00, 0x00};
const Bytes kSetnrunAck = {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0a, 0x0a, 0x00, 0x00, 0x00};
const Bytes kErrorAck = {0x8d, 0x00, 0x0a, 0x0a, 0x20, 0x00, 0x0a, 0x00, 0x00, 0x00};

/// A driver past its start-up with a DGT3000 attached; `sent` cleared.
struct Ready {
    RecordingHost host;
    DgtDriver driver;
    Ready() : driver(DgtOptions{}) {
        driver.start(host, 0);
        driver.on_tick(300);
        feed(driver, kVersion, 350);
        driver.on_tick(360);
        feed(driver, kClockVersionAck, 400);
        driver.on_tick(410);
        host.take_sent();
    }
};

} // namespace

TEST_CASE("dgt 15 start-up: wait, reset + version, then serial, dump, UPDATE_NICE, clock version") {
    RecordingHost host;
    DgtDriver driver;
    driver.start(host, 1000);
    driver.on_tick(1100);
    CHECK(host.sent.empty());  // quiet time after open
    driver.on_tick(1300);
    CHECK(host.take_sent() == Bytes{0x40, 0x4d});
    driver.on_tick(3300);  // no VERSION within 2 s: ask again
    CHECK(host.take_sent() == Bytes{0x4d});
    feed(driver, kVersion, 3400);
    CHECK(driver.ready());
    driver.on_tick(3410);
    CHECK(host.take_sent() == Bytes{0x45, 0x42, 0x4b, 0x2b, 0x03, 0x03, 0x09, 0x00});
    feed(driver, kClockVersionAck, 3600);
    CHECK(driver.clock_model() == ClockModel::Dgt3000);
    REQUIRE(host.all<ClockInfo>().size() == 1);
    CHECK(host.all<ClockInfo>()[0].version_major == 2);
}

TEST_CASE("dgt 11 one clock command in flight: the next waits for the ACK") {
    Ready r;
    r.driver.set_and_run(60000, 60000, ClockRun::Left);
    r.driver.beep(500);
    r.driver.on_tick(500);
    const Bytes first = r.host.take_sent();
    CHECK(first == setnrun_frame(60000, 60000, ClockRun::Left));
    r.driver.on_tick(900);
    CHECK(r.host.sent.empty());  // beep still waits
    feed(r.driver, kSetnrunAck, 1000);
    r.driver.on_tick(1000);
    CHECK(r.host.take_sent() == beep_frame(500));
    const auto done = r.host.all<ClockCommandDone>();
    REQUIRE(done.size() == 2);  // version, setnrun
    CHECK(done[1].command == clk::setnrun);
    CHECK(done[1].ok);
    CHECK(done[1].attempts == 1);
}

TEST_CASE("dgt 11 no ACK: at most 3 retries, 2 s apart, then reported as failed") {
    Ready r;
    r.driver.set_and_run(1000, 1000, ClockRun::None);
    const Bytes frame = setnrun_frame(1000, 1000, ClockRun::None);
    std::vector<TimeMs> sends;
    for (TimeMs t = 500; t <= 12000; t += 50) {
        r.driver.on_tick(t);
        if (!r.host.sent.empty()) {
            CHECK(r.host.take_sent() == frame);
            sends.push_back(t);
        }
        feed(r.driver, {0x91, 0x00, 0x08, '2', '5', '8', '0', '5'}, t);  // board stays alive
    }
    REQUIRE(sends.size() == 4);  // first send + 3 retries
    for (std::size_t i = 1; i < sends.size(); ++i) CHECK(sends[i] - sends[i - 1] == 2000);
    const auto done = r.host.all<ClockCommandDone>();
    REQUIRE(done.back().command == clk::setnrun);
    CHECK_FALSE(done.back().ok);
    CHECK(done.back().attempts == 4);
    CHECK(done.back().error.find("3 retries") != std::string::npos);
}

TEST_CASE("dgt 11 error ACK: resent once, a second error gives up") {
    Ready r;
    r.driver.set_and_run(1000, 1000, ClockRun::Right);
    r.driver.on_tick(500);
    r.host.take_sent();
    feed(r.driver, kErrorAck, 600);
    CHECK(r.host.take_sent() == setnrun_frame(1000, 1000, ClockRun::Right));
    feed(r.driver, kErrorAck, 700);
    CHECK(r.host.sent.empty());
    const auto done = r.host.all<ClockCommandDone>();
    CHECK_FALSE(done.back().ok);
    CHECK(done.back().error.find("error ACK 20") != std::string::npos);
}

TEST_CASE("dgt 11 display texts are coalesced: only the newest pending text is sent") {
    Ready r;
    r.driver.beep(100);
    r.driver.show_text("first", false);
    r.driver.show_text("second", false);
    r.driver.on_tick(500);
    r.host.take_sent();
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0b, 0x0a, 0x00, 0x00, 0x00}, 600);  // beep ACK
    r.driver.on_tick(600);
    CHECK(r.host.take_sent() == ascii_frame("second", 0));
}

TEST_CASE("dgt 13 lever change from BWTIME status bit 1") {
    Ready r;
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x05, 0x00, 0x11}, 500);
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x59, 0x0b}, 1500);
    const auto lever = r.host.all<ClockLever>();
    REQUIRE(lever.size() == 1);
    CHECK(lever[0].high == ClockSide::Right);
    const auto times = r.host.all<ClockReport>();
    REQUIRE(times.size() == 2);
    CHECK(times[1].left_ms == 299000);
}

TEST_CASE("dgt 10.1 real clocks: whose clock runs is read from the lever and the times, 0x08 = left runs") {
    // No real capture with clock reports could be found (docs/drivers-conformance.md); the
    // reports are built to the facts recorded in issue 23 from three real games: 0x08 set while
    // the LEFT clock ran, 0x10 while the RIGHT ran; ply 1 of a 3+2 game shown as 2:59 before
    // the press and 3:01 right after it. White plays on the left.
    Ready r;
    // bytes: right h m s, left h m s, status (01 running, 02 right side high, 08/10 as recorded)
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x09}, 500);
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x03, 0x00, 0x00, 0x02, 0x59, 0x09}, 1500);
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x03, 0x00, 0x00, 0x03, 0x01, 0x13}, 1900);  // White's press
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x02, 0x59, 0x00, 0x03, 0x01, 0x13}, 2900);
    const auto times = r.host.all<ClockReport>();
    REQUIRE(times.size() == 4);
    CHECK(times[0].turn == ClockSide::Left);
    CHECK(times[1].turn == ClockSide::Left);
    CHECK(times[2].turn == ClockSide::Right);
    CHECK(times[3].turn == ClockSide::Right);
    // The press comes after the times of its report: the move's clock is 3:01, not 2:59.
    std::optional<ClockReport> before_press;
    for (const auto& e : r.host.events) {
        if (const auto* t = std::get_if<ClockReport>(&e)) before_press = *t;
        if (std::holds_alternative<ClockLever>(e)) break;
    }
    REQUIRE(r.host.all<ClockLever>().size() == 1);
    REQUIRE(before_press.has_value());
    CHECK(before_press->left_ms == 181000);
}

TEST_CASE("dgt 10.1 the status bits are only a hint: the time going down decides") {
    Ready r;
    // Bits as the 2015 header has them (0x10 = left) while the left time goes down: left runs.
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x05, 0x00, 0x11}, 500);
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x59, 0x11}, 1500);
    // No status bit at all and the right time going down with the left side high: right runs.
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x04, 0x59, 0x00, 0x04, 0x59, 0x01}, 2500);
    // Stopped with start/stop: nobody's clock runs, whatever the bits say.
    feed(r.driver, {0x8d, 0x00, 0x0a, 0x00, 0x04, 0x59, 0x00, 0x04, 0x59, 0x08}, 3500);
    const auto times = r.host.all<ClockReport>();
    REQUIRE(times.size() == 4);
    CHECK(times[0].turn == ClockSide::Left);  // the lever's high side
    CHECK(times[1].turn == ClockSide::Left);
    CHECK(times[2].turn == ClockSide::Right);
    CHECK(times[3].turn == ClockSide::None);
}

TEST_CASE("dgt 15 keep-alive: silence brings 45 pings, 3 missed mean the board is gone") {
    Ready r;
    TimeMs t = 410;
    int pings = 0;
    for (; t < 10000 && r.host.all<LinkStatus>().empty(); t += 100) {
        r.driver.on_tick(t);
        for (const std::uint8_t b : r.host.take_sent()) pings += b == 0x45;
    }
    CHECK(pings == 3);
    const auto link = r.host.all<LinkStatus>();
    REQUIRE(link.size() == 1);
    CHECK_FALSE(link[0].connected);
    CHECK_FALSE(r.driver.ready());
    feed(r.driver, kVersion, t + 100);  // back again
    CHECK(r.driver.ready());
    CHECK(r.host.all<LinkStatus>().back().connected);
}

TEST_CASE("dgt clock text without a clock fails at once") {
    RecordingHost host;
    DgtDriver driver;
    driver.start(host, 0);
    driver.show_text("hi", false);
    REQUIRE(host.all<ClockCommandDone>().size() == 1);
    CHECK_FALSE(host.all<ClockCommandDone>()[0].ok);
}

TEST_CASE("dgt 4/8 resync: after garbage or a cut message the driver asks for a fresh dump") {
    Ready r;
    Framer f(r.driver.frame_rule(), trace_channel("test"));
    const auto push = [&](const Bytes& b, TimeMs now) {
        f.push(b, [&](std::span<const std::uint8_t> p) { r.driver.on_packet(p, now); },
               [&] { r.driver.on_resync(now); });
    };
    push({0x8e, 0x00, 0x05, 0x24, 0x01}, 500);  // a clean field update: nothing asked
    CHECK(r.host.take_sent().empty());
    push({0x13, 0x7f}, 600);                    // garbage: an update may have been in it
    push(kVersion, 610);
    CHECK(r.host.take_sent() == Bytes{cmd::send_brd});
    push({0x8e, 0x00, 0x05, 0x24}, 700);        // a field update cut by the next header
    push(kVersion, 710);
    CHECK(r.host.take_sent() == Bytes{cmd::send_brd});
    CHECK(f.stats().truncated == 1);
}

TEST_CASE("dgt 7 orientation: a board set up reversed is turned round, and the host told once before the board") {
    Ready r;
    auto dump = [](bool rotated) {
        Bytes m{msg::board_dump, 0x00, 0x43};
        for (std::uint8_t c : codes_from_board(BoardReading::start_position(), rotated)) m.push_back(c);
        return m;
    };
    auto orientations = [&] {
        std::vector<std::pair<std::size_t, bool>> out; // (index among the events, rotated)
        for (std::size_t i = 0; i < r.host.events.size(); ++i)
            if (const auto* o = std::get_if<BoardOrientation>(&r.host.events[i])) out.emplace_back(i, o->rotated);
        return out;
    };
    feed(r.driver, dump(false), 500); // the normal orientation: nothing to tell
    CHECK(orientations().empty());
    feed(r.driver, dump(true), 600);  // White's pieces at the connector's right
    REQUIRE(orientations().size() == 1);
    const auto [at, rotated] = orientations()[0];
    CHECK(rotated);
    REQUIRE(at + 1 < r.host.events.size()); // the board, read the right way round, comes after it
    const auto* snapshot = std::get_if<BoardSnapshot>(&r.host.events[at + 1]);
    REQUIRE(snapshot != nullptr);
    CHECK(snapshot->board == BoardReading::start_position());
    feed(r.driver, dump(true), 700);
    CHECK(orientations().size() == 1); // told once
    feed(r.driver, dump(false), 800);
    REQUIRE(orientations().size() == 2);
    CHECK_FALSE(orientations()[1].second);
}
