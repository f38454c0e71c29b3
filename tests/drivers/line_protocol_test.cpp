// The Certabo/Sentio line protocol on byte buffers (certabo-sentio.md): framing and resync
// (garbage, truncated, oversized, bad numbers, mid-frame LFs, glued acknowledgements, a
// disconnect mid-frame), the worked vectors of sections 2.2 and 4.1, the RGB layout of 4.2,
// the LED channel of 4.3/4.4, the core's BoardStream vote (3.2) and Certabo calibration (3.1).
#include "harness.hpp"

#include "drivers/line/leds.hpp"
#include "drivers/line/protocol.hpp"
#include "drivers/certabo/protocol.hpp"
#include "drivers/core/board_stream.hpp"
#include "drivers/sentio/protocol.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using Bytes = std::vector<std::uint8_t>;

namespace {

Bytes bytes(std::string_view s) { return {s.begin(), s.end()}; }

std::vector<std::string> frame_all(std::string_view in, FramerStats* stats = nullptr, std::size_t chunk = 0) {
    const line::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    std::vector<std::string> out;
    const Bytes b = bytes(in);
    const auto take = [&](std::span<const std::uint8_t> p) { out.emplace_back(p.begin(), p.end()); };
    if (chunk == 0) f.push(b, take);
    for (std::size_t i = 0; chunk > 0 && i < b.size(); i += chunk)
        f.push(std::span<const std::uint8_t>(b).subspan(i, std::min(chunk, b.size() - i)), take);
    if (stats) *stats = f.stats();
    return out;
}

const std::string kStartSentio = ":255 255 0 0 0 0 255 255 \r\n";

std::vector<std::uint8_t> numbers(std::string_view packet) {
    const Bytes b = bytes(packet);
    auto l = line::decode(b);
    REQUIRE(l.has_value());
    return l->numbers;
}

} // namespace

TEST_CASE("line 2.2 framing: a Sentio frame, whole or byte by byte") {
    CHECK(frame_all(kStartSentio) == std::vector<std::string>{kStartSentio});
    CHECK(frame_all(kStartSentio + kStartSentio, nullptr, 1).size() == 2);
    CHECK(numbers(kStartSentio) == std::vector<std::uint8_t>{255, 255, 0, 0, 0, 0, 255, 255});
}

TEST_CASE("line 2.4 framing: a read starting mid-frame skips to the next ':'") {
    FramerStats st;
    const auto out = frame_all("5 0 0 255 254 \r\n" + kStartSentio, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == kStartSentio);
    CHECK(st.garbage_bytes == 16);
}

TEST_CASE("line 2.4 a bare LF inside a frame, even inside a number, is not its end") {
    const auto out = frame_all(":255 25\n5 0 0 0 0 255 2\n54 \r\n");
    REQUIRE(out.size() == 1);
    CHECK(numbers(out[0]) == std::vector<std::uint8_t>{255, 255, 0, 0, 0, 0, 255, 254});
}

TEST_CASE("line 2.4/4.3 an LED acknowledgement alone or glued to a frame") {
    const auto out = frame_all("L\r\n:255 255 0 0 0 0 255 254\nL\r\nD\r\n");
    REQUIRE(out.size() == 3);
    const auto a = line::decode(bytes(out[0]));
    REQUIRE(a.has_value());
    CHECK(a->ack == 'L');
    CHECK(a->numbers.empty());
    const auto b = line::decode(bytes(out[1]));
    REQUIRE(b.has_value());
    CHECK(b->ack == 'L');
    CHECK(b->numbers.size() == 8);
    CHECK(b->numbers.back() == 254);
    CHECK(line::decode(bytes(out[2]))->ack == 'D');
}

TEST_CASE("line 2.4 a token that is not a number 0..255 invalidates the whole frame") {
    // 276: the official simulator's `202 276 32 4 57` tag; '*' and letters are stripped first.
    CHECK_FALSE(line::decode(bytes(":255 276 0 0 0 0 255 255 \r\n")).has_value());
    CHECK_FALSE(line::decode(bytes(":255 2555 0 0 0 0 255 255 \r\n")).has_value());
    CHECK(numbers(":25*5 255 0 0 0 0 255 255 \r\n").front() == 255);
    CHECK_FALSE(line::decode(bytes("L1\r\n")).has_value());
    // A byte the protocol never sends ends the frame: truncated, the next one survives.
    FramerStats st;
    const auto out = frame_all(":255 2x5 0 0" + kStartSentio, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == kStartSentio);
    CHECK(st.truncated == 1);
}

TEST_CASE("line framing: a frame cut short by the next ':' is dropped as truncated") {
    FramerStats st;
    const auto out = frame_all(":255 255 0 0" + kStartSentio, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == kStartSentio);
    CHECK(st.truncated == 1);
}

TEST_CASE("line framing: an oversized frame is dropped, resync at the next ':'") {
    FramerStats st;
    const std::string endless = ":" + std::string(line::max_packet_bytes + 100, '1');
    const auto out = frame_all(endless + " 2 3 \r\n" + kStartSentio, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == kStartSentio);
    CHECK(st.oversized == 1);
    // The longest legal Certabo frame (320 x 255 with LFs) fits.
    const std::vector<std::uint8_t> big(320, 255);
    const std::string f = line::encode_frame(big, 64);
    CHECK(f.size() < line::max_packet_bytes);
    CHECK(frame_all(f) == std::vector<std::string>{f});
    CHECK(numbers(f) == big);
    // An acknowledgement line without its end is dropped quickly.
    CHECK(frame_all("LLLLLLLLLLLL" + kStartSentio, &st).size() == 1);
    CHECK(st.oversized == 1);
}

TEST_CASE("line framing: a disconnect mid-frame drops the partial frame") {
    const line::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    int packets = 0;
    f.push(bytes(":255 255 0"), [&](auto) { ++packets; });
    CHECK(f.in_packet());
    f.reset();
    CHECK(f.stats().dropped_partial == 1);
    f.push(bytes(" 0 0 255 255 \r\n" + kStartSentio), [&](auto) { ++packets; });
    CHECK(packets == 1);
}

TEST_CASE("sentio 2.2 occupancy bytes: rank 8 first, MSB = a-file") {
    const auto start = numbers(kStartSentio);
    const Bitboard occ = sentio::occupancy_of(std::span<const std::uint8_t, 8>(start.data(), 8), false);
    CHECK(occ == BoardReading::start_position().occupancy());
    // h1 empty, the rest of the start position occupied: the last number is 254.
    const auto n = sentio::numbers_of(occ & ~bb(Square::parse("h1")), false);
    CHECK(n == std::array<std::uint8_t, 8>{255, 255, 0, 0, 0, 0, 255, 254});
    // e4 alone: rank 4 is number 4, e-file is bit 3.
    CHECK(sentio::numbers_of(bb(Square::parse("e4")), false) == std::array<std::uint8_t, 8>{0, 0, 0, 0, 0x08, 0, 0, 0});
    // Turned round, a board's h1 corner is the game's a8.
    CHECK(sentio::numbers_of(bb(Square::parse("a8")), true) == std::array<std::uint8_t, 8>{0, 0, 0, 0, 0, 0, 0, 0x01});
    const auto r = sentio::numbers_of(bb(Square::parse("c6")), true);
    CHECK(sentio::occupancy_of(r, true) == bb(Square::parse("c6")));
    CHECK(sentio::board_of(bb(Square::parse("c6"))).at(Square::parse("c6")) == SquareReading::unknown());
}

TEST_CASE("line 4.1 classic LED vectors (picochess tests): byte 0 = rank 8, bit 0 = a-file") {
    using A = std::array<std::uint8_t, 8>;
    CHECK(line::led_command(bb(Square::parse("a1")), false) == A{0, 0, 0, 0, 0, 0, 0, 0x01});
    CHECK(line::led_command(bb(Square::parse("h2")), false) == A{0, 0, 0, 0, 0, 0, 0x80, 0});
    CHECK(line::led_command(BoardReading::start_position().occupancy(), false) == A{0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff});
    CHECK(line::led_command(bb(Square::parse("e2")) | bb(Square::parse("e4")), false) == A{0, 0, 0, 0, 0x10, 0, 0x10, 0});
    CHECK(line::led_command(0, false) == A{});
    // Turned round, the game's a1 is the board's h8.
    CHECK(line::led_command(bb(Square::parse("a1")), true) == A{0x80, 0, 0, 0, 0, 0, 0, 0});
    const A c = line::led_command(bb(Square::parse("b7")) | bb(Square::parse("g3")), true);
    CHECK(line::leds_of_command(c, true) == (bb(Square::parse("b7")) | bb(Square::parse("g3"))));
}

TEST_CASE("line 4.2 RGB LED command: 247 bytes, a square lights its four corners") {
    const auto c = line::rgb_led_command(bb(Square::parse("a1")), false);
    REQUIRE(c.size() == 247);
    CHECK(line::is_rgb_led_command(c));
    CHECK(c[0] == 0xff);
    CHECK(c[1] == 0x55);
    CHECK(c[245] == 0x0d);
    CHECK(c[246] == 0x0a);
    // a1 = rank 1, file a: corners R 0..1 from the rank-1 edge, C 7..8 from the h-file edge.
    std::vector<std::size_t> lit;
    for (std::size_t led = 0; led < 81; ++led)
        if (c[2 + 3 * led + 2] == 0x40) lit.push_back(led);
    CHECK(lit == std::vector<std::size_t>{7, 8, 16, 17});
    CHECK(c[2 + 3 * 7] == 0);  // blue only (picochess)
    // Turned round, the game's a1 is the board's h8: corners R 7..8, C 0..1.
    const auto r = line::rgb_led_command(bb(Square::parse("a1")), true);
    CHECK(r[2 + 3 * (9 * 8 + 0) + 2] == 0x40);
    CHECK(r[2 + 3 * 7 + 2] == 0);
    CHECK_FALSE(line::is_rgb_led_command(std::vector<std::uint8_t>(c.begin(), c.end() - 1)));
}

TEST_CASE("line 4.4 LED channel: latest wins, at most one command per interval, no repeats of the same") {
    RecordingHost host;
    line::LedChannel ch({}, trace_channel("test"));
    const auto send = [&](std::span<const std::uint8_t> b) { host.send(b); };
    ch.set(bb(Square::parse("e2")));
    ch.tick(0, false, send);
    CHECK(host.take_sent() == Bytes{0, 0, 0, 0, 0, 0, 0x10, 0});
    ch.on_ack('L', 50);
    CHECK(ch.kind() == line::LedKind::Classic);
    ch.set(bb(Square::parse("e3")));
    ch.set(bb(Square::parse("e4")));  // replaces e3
    ch.tick(100, false, send);
    CHECK(host.sent.empty());  // within 600 ms
    ch.tick(600, false, send);
    CHECK(host.take_sent() == Bytes{0, 0, 0, 0, 0x10, 0, 0, 0});
    ch.set(bb(Square::parse("e4")));
    ch.tick(1300, false, send);
    CHECK(host.sent.empty());  // the same squares again: skipped
    ch.set(0);
    ch.tick(1400, false, send);
    CHECK(host.take_sent() == Bytes(8, 0));
    ch.set(0);
    ch.tick(2100, false, send);
    CHECK(host.take_sent() == Bytes(8, 0));  // "all off" always goes through
}

TEST_CASE("line 4.3 LED detection: no 'L' -> the RGB form, 'D' -> RGB from then on") {
    RecordingHost host;
    line::LedChannel ch({}, trace_channel("test"));
    const auto send = [&](std::span<const std::uint8_t> b) { host.send(b); };
    ch.set(bb(Square::parse("d4")));
    ch.tick(0, false, send);
    CHECK(host.take_sent().size() == 8);
    ch.tick(399, false, send);
    CHECK(host.sent.empty());
    ch.tick(400, false, send);
    CHECK(host.take_sent() == line::rgb_led_command(bb(Square::parse("d4")), false));
    ch.on_ack('D', 450);
    CHECK(ch.kind() == line::LedKind::Rgb);
    ch.set(bb(Square::parse("d5")));
    ch.tick(1000, false, send);
    CHECK(host.take_sent() == line::rgb_led_command(bb(Square::parse("d5")), false));
}

TEST_CASE("line 4.3 LED detection: no acknowledgement at all -> classic, shown again") {
    RecordingHost host;
    line::LedChannel ch({}, trace_channel("test"));
    const auto send = [&](std::span<const std::uint8_t> b) { host.send(b); };
    ch.set(bb(Square::parse("a8")));
    ch.tick(0, false, send);
    ch.tick(400, false, send);
    (void)host.take_sent();
    ch.tick(800, false, send);
    CHECK(ch.kind() == line::LedKind::Classic);
    CHECK(host.take_sent() == Bytes{0x01, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("line 4.4 LED repeats (certabodriver): each command goes out 1 + repeats times") {
    RecordingHost host;
    line::LedOptions o;
    o.repeats = 2;
    o.kind = line::LedKind::Classic;
    line::LedChannel ch(o, trace_channel("test"));
    const auto send = [&](std::span<const std::uint8_t> b) { host.send(b); };
    ch.set(bb(Square::parse("a1")));
    for (TimeMs t = 0; t <= 500; t += 10) ch.tick(t, false, send);
    CHECK(host.sent.size() == 24);
}

TEST_CASE("board stream 3.2: a square changes only with a majority of the last frames") {
    RecordingHost host;
    BoardStream s(3);
    BoardReading a = BoardReading::start_position(), b = a;
    b.set(Square::parse("e2"), SquareReading::empty());
    s.push(a, 0, host);
    s.push(b, 1, host);  // a dropped read
    CHECK(host.events.empty());
    s.push(a, 2, host);
    REQUIRE(host.all<BoardSnapshot>().size() == 1);
    CHECK(host.all<BoardSnapshot>()[0].board == a);
    for (const BoardReading& f : {a, b, a, a, b, a}) s.push(f, 3, host);  // isolated bad reads
    CHECK(host.all<SquareChange>().empty());
    s.push(b, 5, host);  // history a, b, a + b: b, a, b -> b in 2 of 3
    REQUIRE(host.all<SquareChange>().size() == 1);
    CHECK(host.all<SquareChange>()[0].square == Square::parse("e2"));
    CHECK_FALSE(host.all<SquareChange>()[0].reading.occupied);
    s.request_dump();
    s.push(b, 7, host);
    CHECK(host.all<BoardSnapshot>().size() == 2);
    s.reset();
    s.push(a, 8, host);
    CHECK(host.all<BoardSnapshot>().size() == 2);  // settles again after 3 frames
}

TEST_CASE("certabo 2.1 tag order: 5 numbers per square, a8 first, calibration text round trip") {
    std::array<std::uint8_t, 320> n{};
    n[0] = 3;     // a8, first number
    n[319] = 99;  // h1, last number
    const auto tags = certabo::tags_of(n, false);
    CHECK(tags[static_cast<std::size_t>(Square::parse("a8").index())] == certabo::TagId{3, 0, 0, 0, 0});
    CHECK(tags[static_cast<std::size_t>(Square::parse("h1").index())] == certabo::TagId{0, 0, 0, 0, 99});
    CHECK(certabo::numbers_of(tags, false) == n);
    // Turned round, the board's h1 corner (the frame's last square) is the game's a8.
    CHECK(certabo::tags_of(n, true)[static_cast<std::size_t>(Square::parse("a8").index())] == certabo::TagId{0, 0, 0, 0, 99});
    CHECK(certabo::tag_text({3, 0, 84, 252, 153}) == "3 0 84 252 153");

    certabo::Calibration c;
    c.add({3, 0, 84, 252, 153}, Piece::WKing);
    c.add({3, 0, 85, 1, 2}, Piece::BPawn);
    const auto back = certabo::Calibration::from_text("# a comment\n" + c.to_text());
    REQUIRE(back.has_value());
    CHECK(back.value() == c);
    CHECK(c.piece({3, 0, 85, 1, 2}) == Piece::BPawn);
    CHECK(c.piece({9, 9, 9, 9, 9}) == Piece::None);  // unknown id: empty (3.2)
    CHECK(certabo::Calibration::from_text("1 2 3 4 X\n").error().line == 1);
    CHECK_FALSE(certabo::Calibration::from_text("1 2 3 4 5 K\n1 2 3 4 256 K\n").has_value());
    CHECK_FALSE(certabo::Calibration::from_text("0 0 0 0 0 K\n").has_value());
    CHECK_FALSE(certabo::Calibration::from_text("1 2 3 4 5 K extra\n").has_value());
}

namespace {

/// A start position of distinct tags, spare queens optional; noise as the official simulator.
certabo::TagBoard start_tags(bool spares, std::uint8_t salt = 0) {
    certabo::TagBoard t{};
    const BoardReading s = BoardReading::start_position();
    for (int i = 0; i < 64; ++i) {
        if (s.at(Square(i)).occupied) t[static_cast<std::size_t>(i)] = {3, 0, 84, static_cast<std::uint8_t>(i), salt};
        else t[static_cast<std::size_t>(i)] = {0, 0, 56, 0, 0};  // the simulator's usual noise
    }
    if (spares) {
        t[static_cast<std::size_t>(Square::parse("d3").index())] = {3, 0, 83, 1, 1};
        t[static_cast<std::size_t>(Square::parse("d6").index())] = {3, 0, 83, 2, 2};
    }
    return t;
}

} // namespace

TEST_CASE("certabo 3.1 calibration: 7 frames of the start position, spare queens on d3 and d6") {
    certabo::Calibrator cal;
    for (int i = 0; i < 6; ++i) CHECK(cal.push(start_tags(true)) == certabo::Calibrator::Result::Collecting);
    REQUIRE(cal.push(start_tags(true)) == certabo::Calibrator::Result::Done);
    const auto& c = cal.result();
    CHECK(c.size() == 34);
    CHECK(c.piece({3, 0, 84, static_cast<std::uint8_t>(Square::parse("e1").index()), 0}) == Piece::WKing);
    CHECK(c.piece({3, 0, 84, static_cast<std::uint8_t>(Square::parse("d8").index()), 0}) == Piece::BQueen);
    CHECK(c.piece({3, 0, 84, static_cast<std::uint8_t>(Square::parse("g7").index()), 0}) == Piece::BPawn);
    CHECK(c.piece({3, 0, 83, 1, 1}) == Piece::WQueen);
    CHECK(c.piece({3, 0, 83, 2, 2}) == Piece::BQueen);
    // The noise id on 30 empty squares of every frame is never learned, not even on d3/d6.
    CHECK(c.piece({0, 0, 56, 0, 0}) == Piece::None);
}

TEST_CASE("certabo 3.1 calibration: a majority per square survives noisy frames") {
    certabo::Calibrator cal;
    certabo::Calibrator::Result r{};
    for (int i = 0; i < 7; ++i) {
        auto t = start_tags(false);
        if (i % 3 == 0) t[static_cast<std::size_t>(Square::parse("e1").index())] = certabo::no_tag;  // dropped read
        if (i % 3 == 1) std::swap(t[0], t[1]);  // swapped ids for one frame
        r = cal.push(t);
    }
    REQUIRE(r == certabo::Calibrator::Result::Done);
    CHECK(cal.result().size() == 32);
    CHECK(cal.result().piece({3, 0, 84, 0, 0}) == Piece::WRook);
}

TEST_CASE("certabo 3.1 calibration fails after 15 frames without the start position, then recovers") {
    certabo::Calibrator cal;
    auto t = start_tags(false);
    t[static_cast<std::size_t>(Square::parse("e2").index())] = certabo::no_tag;  // e2 missing
    certabo::Calibrator::Result r{};
    for (int i = 0; i < 15; ++i) r = cal.push(t);
    CHECK(r == certabo::Calibrator::Result::Failed);
    CHECK(cal.problem() == "no steady tag on e2 (set up the start position)");
    // 10 frames are kept; the board now shows the start position. At 15 frames the oldest 5
    // bad ones go, so the 6th good frame makes the majority (6 of 11).
    int more = 0;
    do {
        r = cal.push(start_tags(false));
        ++more;
    } while (r != certabo::Calibrator::Result::Done && more < 20);
    CHECK(r == certabo::Calibrator::Result::Done);
    CHECK(more == 6);
}
