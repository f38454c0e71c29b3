// The Sentio driver (certabo-sentio.md 2.2): on byte buffers with simulated time, against the
// emulator over a pty, and every move of every game in data/games through a
// loopback, both orientations; a human's lifts and slides (rules/handling.hpp) on top.
#include "base/placement.hpp"
#include "line_harness.hpp"

#include "drivers/core/registry.hpp"
#include "rules/handling.hpp"

#include <algorithm>


using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using Bytes = std::vector<std::uint8_t>;

namespace {

Bytes frame(const BoardReading& b, bool rotated = false) {
    const std::string t = line::encode_frame(sentio::numbers_of(b.occupancy(), rotated));
    return {t.begin(), t.end()};
}

/// A placement with 'x' for '?' (a literal "??/" would be a trigraph).
std::string unknowns(std::string s) {
    std::replace(s.begin(), s.end(), 'x', '?');
    return s;
}

const std::string kUnknownStart = unknowns("xxxxxxxx/xxxxxxxx/8/8/8/8/xxxxxxxx/xxxxxxxx");

/// Every frame as it is (`vote-frames` 1), for the tests of one frame's decoding; the default
/// 2-of-3 vote has its own tests (sentio_bounce_test.cpp).
line::LineOptions unvoted() {
    line::LineOptions o = sentio::SentioDriver::defaults();
    o.vote_frames = 1;
    return o;
}

} // namespace

TEST_CASE("sentio 2.2 driver: first frame -> board of unknown occupants, then square changes") {
    RecordingHost host;
    sentio::SentioDriver d(unvoted());
    d.start(host, 0);
    feed(d, frame(BoardReading::start_position()), 10);
    REQUIRE(host.all<DeviceInfo>().size() == 1);
    CHECK(host.all<DeviceInfo>()[0].driver == "sentio");
    REQUIRE(host.all<BoardSnapshot>().size() == 1);
    CHECK(write_placement(host.all<BoardSnapshot>()[0].board) == kUnknownStart);
    BoardReading after = BoardReading::start_position();
    after.set(Square::parse("e2"), SquareReading::empty());
    after.set(Square::parse("e4"), Piece::WPawn);
    feed(d, frame(after), 20);
    const auto ch = host.all<SquareChange>();
    REQUIRE(ch.size() == 2);
    CHECK(ch[0].square == Square::parse("e2"));
    CHECK_FALSE(ch[0].reading.occupied);
    CHECK(ch[1].square == Square::parse("e4"));
    CHECK(ch[1].reading == SquareReading::unknown());
    CHECK(host.sent.empty());  // the board streams; nothing is asked
}

TEST_CASE("sentio orientation: a board turned round reports its a8 corner first as the game's h1") {
    RecordingHost host;
    line::LineOptions o = unvoted();
    o.rotated = true;
    sentio::SentioDriver d(o);
    d.start(host, 0);
    BoardReading b;
    b.set(Square::parse("a1"), Piece::WRook);
    const std::string t = ":0 0 0 0 0 0 0 1 \r\n";  // the board's own h1 = the game's a8
    feed(d, Bytes(t.begin(), t.end()), 0);
    REQUIRE(host.all<BoardSnapshot>().size() == 1);
    CHECK(write_placement(host.all<BoardSnapshot>()[0].board) == "?7/8/8/8/8/8/8/8");
    feed(d, frame(b, true), 1);
    CHECK(write_placement(d.board()) == "8/8/8/8/8/8/8/?7");
}

TEST_CASE("sentio 2.3 a Certabo frame (320 numbers) is dropped with a clear note, nothing reported") {
    RecordingHost host;
    sentio::SentioDriver d;
    std::vector<std::string> notes;
    set_trace_sink([&](std::string_view l) { notes.emplace_back(l); });
    (void)enable_traces("sentio");
    d.start(host, 0);
    const std::string t = line::encode_frame(std::vector<std::uint8_t>(320, 0));
    feed(d, Bytes(t.begin(), t.end()), 0);
    disable_traces();
    set_trace_sink(nullptr);
    CHECK(host.events.empty());
    CHECK(d.bad_frames() == 1);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "sentio : frame dropped: 320 numbers, not 8 (a Certabo board: use the certabo driver)");
}

TEST_CASE("sentio: event-driven ticks: the silence limit while linked, nothing when down, LEDs when due") {
    RecordingHost host;
    sentio::SentioDriver d;
    d.start(host, 0);
    feed(d, frame(BoardReading::start_position()), 100);
    CHECK(d.next_tick_ms(200) == 5100);  // not polled every 50 ms: the silence limit only
    d.on_tick(5100);
    CHECK(d.next_tick_ms(5100) == kNoTick);  // down: the next frame comes by itself
    feed(d, frame(BoardReading::start_position()), 6000);
    CHECK(d.next_tick_ms(6000) == 11000);
    d.set_leds(Bitboard{1});  // a wanted LED change is due at once
    CHECK(d.next_tick_ms(6000) == 6000);
}

TEST_CASE("sentio: silence takes the link down, the next frame brings it back with a fresh board") {
    RecordingHost host;
    sentio::SentioDriver d(unvoted());
    d.start(host, 0);
    feed(d, frame(BoardReading::start_position()), 100);
    d.on_tick(5099);
    CHECK(host.all<LinkStatus>().empty());
    d.on_tick(5100);
    REQUIRE(host.all<LinkStatus>().size() == 1);
    CHECK_FALSE(host.all<LinkStatus>()[0].connected);
    feed(d, frame(BoardReading::start_position()), 6000);
    REQUIRE(host.all<LinkStatus>().size() == 2);
    CHECK(host.all<LinkStatus>()[1].connected);
    CHECK(host.all<BoardSnapshot>().size() == 2);
}

TEST_CASE("sentio registry: 38400/8n1 without DTR, no USB id claimed, options checked") {
    const DriverInfo* d = find_driver("sentio");
    REQUIRE(d != nullptr);
    CHECK(d->model("")->serial.str() == "38400/8n1");
    CHECK_FALSE(d->model("")->serial.dtr);
    CHECK(d->usb_ids.empty());
    DriverOptions o;
    CHECK(d->create(o) != nullptr);
    o.params["orientation"] = "auto";  // cannot be told from occupancy
    CHECK(d->create(o) == nullptr);
    o.params = {{"vote-frames", "0"}};
    CHECK(d->create(o) == nullptr);
    o.params = {{"silence-ms", "x"}};
    CHECK(d->create(o) == nullptr);
}

TEST_CASE("sentio emu over a pty: board, a move, LEDs acknowledged with 'L', unplug") {
    emu::LineEmulatorOptions eo;
    eo.kind = emu::LineBoardKind::Sentio;
    eo.frame_period_ms = 5;
    eo.lf_every = 20;
    eo.fragment_max = 9;
    LineHarness<sentio::SentioDriver> h(eo, std::make_unique<sentio::SentioDriver>());
    REQUIRE(h.ready());
    CHECK(write_placement(h.all<BoardSnapshot>().front().board) == kUnknownStart);
    h.emu->move(Square::parse("g1"), Square::parse("f3"));
    REQUIRE(h.pump_until([&] { return h.all<SquareChange>().size() >= 2; }));
    CHECK(write_placement(h.driver->board()) == unknowns("xxxxxxxx/xxxxxxxx/8/8/8/5x2/xxxxxxxx/xxxxxx1x"));
    h.driver->set_leds(bb(Square::parse("g1")) | bb(Square::parse("f3")));
    REQUIRE(h.pump_until([&] { return h.driver->led_kind() == line::LedKind::Classic; }));
    CHECK(h.emu->leds() == (bb(Square::parse("g1")) | bb(Square::parse("f3"))));
    CHECK(h.emu->received() == Bytes{0, 0, 0, 0, 0, 0x20, 0, 0x40});
    CHECK(h.session->framer_stats().garbage_bytes < 64);  // only the first, partial frame
    h.emu->disconnect();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    CHECK_FALSE(h.all<LinkStatus>().back().connected);
}

TEST_CASE("sentio emu: every move of the games in data/games, both orientations") {
    // 475 games (438 from the lichess sample), both orientations in about a second of CPU.
    const SweepCount swept = play_all_games(emu::LineBoardKind::Sentio);
    CHECK(swept.games == 475);
    WARN(swept.games << " games, " << swept.moves << " moves, both orientations");
}

TEST_CASE("sentio emu: a human's lifts, slides and capture orders end in the right occupancy") {
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 2);
    REQUIRE(games.size() == 2);
    for (const auto& g : games) {
        REQUIRE(g.fen.empty());
        emu::LineEmulatorOptions eo;
        eo.kind = emu::LineBoardKind::Sentio;
        eo.frame_period_ms = 20;
        emu::LineBoardEmu board(eo);
        sentio::SentioDriver driver;
        Loopback loop(board, driver);
        HandlingOptions ho;
        ho.identity = true;
        ho.clock = false;
        ho.seed = 7;
        BoardHands hands(ho);
        Position pos = Position::startpos();
        hands.setup(pos);
        (void)hands.take_events();
        std::size_t changes = 0;
        for (std::size_t i = 0; i < g.san.size(); ++i) {
            INFO("move " << i + 1 << " " << g.san[i]);
            const auto m = parse_move(pos, g.san[i]);
            REQUIRE(m.has_value());
            hands.play(pos, m.value());
            pos.make_move(m.value());
            const TimeMs offset = loop.now;
            for (const SensorEvent& e : hands.take_events()) {
                loop.run(std::max<TimeMs>(0, offset + time_of(e) - loop.now), 5);
                if (const auto* c = std::get_if<eboard::SquareChange>(&e)) {
                    if (c->reading.occupied) board.place(c->square, c->reading.piece);
                    else board.lift(c->square);
                }
            }
            const BoardReading want = sentio::board_of(board_of(pos).occupancy());
            REQUIRE(loop.run_until([&] { return driver.board() == want; }, 200, 5));
            changes = loop.host.all<SquareChange>().size();
        }
        // The intermediate states (a lifted piece, a slide) were seen, not only the results.
        CHECK(changes > 2 * g.san.size());
    }
}
