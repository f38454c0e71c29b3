// DGT decoder on byte buffers: every message of dgt.md section 4, the worked vectors of
// sections 6, 10 and 12, and bad input (garbage, truncated, oversized, disconnect).
#include "harness.hpp"

#include "drivers/dgt/protocol.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::dgt;
using Bytes = std::vector<std::uint8_t>;

namespace {

std::vector<Bytes> frame_all(const Bytes& in, FramerStats* stats = nullptr) {
    const dgt::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    std::vector<Bytes> out;
    f.push(in, [&](std::span<const std::uint8_t> p) { out.emplace_back(p.begin(), p.end()); });
    if (stats) *stats = f.stats();
    return out;
}

Bytes start_dump() {
    Bytes d = {0x86, 0x00, 0x43, 0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08};
    for (int i = 0; i < 8; ++i) d.push_back(0x07);
    for (int i = 0; i < 32; ++i) d.push_back(0x00);
    for (int i = 0; i < 8; ++i) d.push_back(0x01);
    for (const std::uint8_t c : Bytes{0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02}) d.push_back(c);
    return d;
}

struct Driven {
    RecordingHost host;
    DgtDriver driver{[] {
        DgtOptions o;
        o.startup_delay_ms = 0;
        o.orientation = Orientation::Normal;
        return o;
    }()};
    Driven() {
        driver.start(host, 0);
        driver.on_tick(0);
    }
    void in(const Bytes& b, TimeMs now = 1) { feed(driver, b, now); }
};

} // namespace

TEST_CASE("dgt 5 piece codes: king before queen") {
    CHECK(piece_from_code(0x05) == Piece::WKing);
    CHECK(piece_from_code(0x06) == Piece::WQueen);
    CHECK(piece_from_code(0x0b) == Piece::BKing);
    CHECK(piece_from_code(0x0c) == Piece::BQueen);
    CHECK(piece_from_code(0x02) == Piece::WRook);
    CHECK(piece_from_code(0x03) == Piece::WKnight);
    CHECK(piece_from_code(0x0d) == Piece::None);  // magic pieces are not chess pieces
    CHECK(piece_from_code(0x7f) == Piece::None);
    for (std::uint8_t c = 0; c <= 12; ++c) CHECK(code_from_piece(piece_from_code(c)) == c);
}

TEST_CASE("dgt 7 field numbering: a8 = 0, h1 = 63, rotated board turns round") {
    CHECK(field_to_square(0, false) == Square::parse("a8"));
    CHECK(field_to_square(7, false) == Square::parse("h8"));
    CHECK(field_to_square(36, false) == Square::parse("e4"));
    CHECK(field_to_square(52, false) == Square::parse("e2"));
    CHECK(field_to_square(63, false) == Square::parse("h1"));
    CHECK(field_to_square(0, true) == Square::parse("h1"));
    CHECK(field_to_square(52, true) == Square::parse("d7"));
    for (int f = 0; f < 64; ++f) {
        CHECK(square_to_field(field_to_square(f, false), false) == f);
        CHECK(square_to_field(field_to_square(f, true), true) == f);
    }
}

TEST_CASE("dgt 6 BOARD_DUMP of the start position decodes to the start position") {
    Driven d;
    d.in(start_dump());
    const auto dumps = d.host.all<BoardSnapshot>();
    REQUIRE(dumps.size() == 1);
    CHECK(dumps[0].board == BoardReading::start_position());
    CHECK(dumps[0].board.at(Square::parse("d1")).piece == Piece::WQueen);
    CHECK(dumps[0].board.at(Square::parse("e8")).piece == Piece::BKing);
}

TEST_CASE("dgt 7 auto orientation: a start position dumped the other way round") {
    RecordingHost host;
    DgtDriver driver;  // Orientation::Auto
    driver.start(host, 0);
    const auto codes = codes_from_board(BoardReading::start_position(), true);
    Bytes dump = {0x86, 0x00, 0x43};
    dump.insert(dump.end(), codes.begin(), codes.end());
    feed(driver, dump, 1);
    CHECK(driver.rotated());
    REQUIRE(host.all<BoardSnapshot>().size() == 1);
    CHECK(host.all<BoardSnapshot>()[0].board == BoardReading::start_position());
    feed(driver, start_dump(), 2);  // turned back
    CHECK_FALSE(driver.rotated());
}

TEST_CASE("dgt 8 FIELD_UPDATE: e2 lifted, e4 placed") {
    Driven d;
    d.in(start_dump());
    d.in({0x8e, 0x00, 0x05, 0x34, 0x00, 0x8e, 0x00, 0x05, 0x24, 0x01}, 5);
    const auto ch = d.host.all<SquareChange>();
    REQUIRE(ch.size() == 2);
    CHECK(ch[0].square == Square::parse("e2"));
    CHECK_FALSE(ch[0].reading.occupied);
    CHECK(ch[1].square == Square::parse("e4"));
    CHECK(ch[1].reading == SquareReading::of(Piece::WPawn));
    CHECK(ch[1].t_ms == 5);
    CHECK(d.driver.board().at(Square::parse("e4")).piece == Piece::WPawn);
}

TEST_CASE("dgt 4.1 SERIALNR, LONG_SERIALNR, VERSION, TRADEMARK, BUSADRES, BATTERY") {
    Driven d;
    d.in({0x91, 0x00, 0x08, 0x32, 0x35, 0x38, 0x30, 0x35});
    d.in({0x93, 0x00, 0x05, 0x03, 0x01});
    d.in({0xa2, 0x00, 0x0d, '3', '.', '3', '6', '0', '1', '2', '3', '4', '5'});
    d.in({0x92, 0x00, 0x08, 'D', 'G', 'T', ' ', 'P'});
    d.in({0x90, 0x00, 0x05, 0x08, 0x01});
    d.in({0xa0, 0x00, 0x0c, 0x58, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0x01});
    const auto info = d.host.all<DeviceInfo>();
    REQUIRE_FALSE(info.empty());
    const DeviceInfo& last = info.back();
    CHECK(last.serial == "25805");
    CHECK(last.version_major == 3);
    CHECK(last.version_minor == 1);
    CHECK(last.long_serial == "3.36012345");
    CHECK(last.trademark == "DGT P");
    CHECK(last.bus_address == 1025);  // header example: serial 01025 -> 08 01
    const auto bat = d.host.all<BatteryInfo>();
    REQUIRE(bat.size() == 1);
    CHECK(bat[0].percent == 88);
    CHECK(bat[0].charging);
}

TEST_CASE("dgt 10.1 BWTIME time report: the constructed example, status bits as real clocks set them") {
    // Right to move: 0x10 as real clocks set it (0x08 in the 2015 header, issue 23).
    const Bytes m = {0x8d, 0x00, 0x0a, 0x01, 0x23, 0x45, 0x00, 0x05, 0x00, 0x13};
    const auto t = decode_time_report(std::span<const std::uint8_t, 7>(m.data() + 3, 7));
    REQUIRE(t.has_value());
    CHECK(t->right_ms == (1 * 3600 + 23 * 60 + 45) * 1000);
    CHECK(t->left_ms == 5 * 60 * 1000);
    CHECK(t->running);
    CHECK(t->lever_high == ClockSide::Right);
    CHECK(t->turn == ClockSide::Right);
    CHECK(t->connected);
    const auto back = encode_time_report(*t);
    CHECK(Bytes(back.begin(), back.end()) == m);
}

TEST_CASE("dgt 10.1 no clock connected bit and out-of-range times") {
    Driven d;
    d.in({0x8d, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20});
    REQUIRE(d.host.all<ClockReport>().size() == 1);
    CHECK_FALSE(d.host.all<ClockReport>()[0].connected);
    REQUIRE_FALSE(d.host.all<ClockInfo>().empty());
    CHECK(d.host.all<ClockInfo>().back().model == ClockModel::None);
    d.in({0x8d, 0x00, 0x0a, 0x00, 0x6a, 0x00, 0x00, 0x00, 0x00, 0x01});  // minutes 6a: not BCD
    d.in({0x8d, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});  // all zero (BT quirk)
    CHECK(d.host.all<ClockReport>().size() == 1);
}

TEST_CASE("dgt 10.2 worked ACK vectors decode and encode") {
    struct V { ClockAck ack; Bytes msg; };
    const std::vector<V> vectors = {
        {{0x10, 0x0a, 0x00, 0x00}, {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0a, 0x0a, 0x00, 0x00, 0x00}},
        {{0x10, 0x09, 0x20, 0x00}, {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x09, 0x0a, 0x20, 0x00, 0x00}},
        {{0x10, 0x0c, 0x00, 0x00}, {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0c, 0x0a, 0x00, 0x00, 0x00}},
        {{0x10, 0x88, 0x05, 0x31}, {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x08, 0x2a, 0x05, 0x31, 0x00}},
        {{0x10, 0x81, 0x00, 0x00}, {0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x01, 0x2a, 0x00, 0x00, 0x00}},
        {{0x20, 0x00, 0x00, 0x00}, {0x8d, 0x00, 0x0a, 0x0a, 0x20, 0x00, 0x0a, 0x00, 0x00, 0x00}},
    };
    for (const auto& v : vectors) {
        const std::span<const std::uint8_t, 7> data(v.msg.data() + 3, 7);
        CHECK(is_clock_ack(data));
        CHECK(decode_clock_ack(data) == v.ack);
        const auto enc = encode_clock_ack(v.ack);
        CHECK(Bytes(enc.begin(), enc.end()) == v.msg);
    }
    // An ACK with the high bits of ack2/ack3 set survives the 7-bit spreading.
    const ClockAck high{0x90, 0xff, 0x80, 0xc1};
    const auto enc = encode_clock_ack(high);
    CHECK(decode_clock_ack(std::span<const std::uint8_t, 7>(enc.data() + 3, 7)) == high);
    for (std::size_t i = 1; i < enc.size(); ++i) CHECK(enc[i] < 0x80);
}

TEST_CASE("dgt 13 button auto-ACK: back pressed") {
    Driven d;
    d.in({0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x08, 0x2a, 0x05, 0x31, 0x00});
    const auto b = d.host.all<ClockButton>();
    REQUIRE(b.size() == 1);
    CHECK(b[0].button == 0);
    CHECK(b[0].code == 0x31);
    CHECK(button_from_code(0x34) == 1);
    CHECK(button_from_code(0x35) == 4);
}

TEST_CASE("dgt 12 clock frames: SETNRUN example, version, beep, ASCII, XL segments") {
    CHECK(setnrun_frame(5400000, 5400000, ClockRun::Left) ==
          Bytes{0x2b, 0x0a, 0x03, 0x0a, 0x01, 0x1e, 0x00, 0x01, 0x1e, 0x00, 0x01, 0x00});
    CHECK(setnrun_frame(1000, 2000, ClockRun::None).at(10) == 0x04);
    CHECK(clock_frame(clk::version, {}) == Bytes{0x2b, 0x03, 0x03, 0x09, 0x00});
    CHECK(clock_frame(clk::end, {}) == Bytes{0x2b, 0x03, 0x03, 0x03, 0x00});
    CHECK(beep_frame(1024) == Bytes{0x2b, 0x04, 0x03, 0x0b, 0x10, 0x00});
    const Bytes ascii = ascii_frame("hello", 0);
    CHECK(ascii.size() == 14);
    CHECK(ascii[1] == 0x0c);
    CHECK(std::string(ascii.begin() + 4, ascii.begin() + 12) == "hello   ");
    const Bytes xl = xl_display_frame("123456", true);
    // Display order A..F goes on the wire as C B A F E D (12.1).
    CHECK(xl == Bytes{0x2b, 0x0b, 0x03, 0x01, 0x4f, 0x5b, 0x06, 0x7d, 0x6d, 0x66, 0x00, 0x03, 0x00});
}

TEST_CASE("dgt 4 framing: messages split across reads are reassembled") {
    const Bytes dump = start_dump();
    const dgt::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    std::vector<Bytes> out;
    // record.txt: [86] then [00 43 08 ...]: split headers are common over USB.
    for (const std::uint8_t b : dump)
        f.push(std::span<const std::uint8_t>(&b, 1), [&](auto p) { out.emplace_back(p.begin(), p.end()); });
    REQUIRE(out.size() == 1);
    CHECK(out[0] == dump);
}

TEST_CASE("dgt 4 rule 1: garbage before a message is skipped") {
    FramerStats st;
    Bytes in = {0x00, 0x13, 0x7f, 0x42};
    const Bytes ver = {0x93, 0x00, 0x05, 0x03, 0x01};
    in.insert(in.end(), ver.begin(), ver.end());
    const auto out = frame_all(in, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == ver);
    CHECK(st.garbage_bytes == 4);
}

TEST_CASE("dgt 4 rule 2: a header byte with the MSB set restarts the parse there") {
    FramerStats st;
    const auto out = frame_all({0x86, 0x93, 0x00, 0x05, 0x03, 0x01}, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0][0] == 0x93);
    CHECK(st.truncated == 1);
}

TEST_CASE("dgt 4 rule 3: oversized and wrong lengths are rejected") {
    FramerStats st;
    // FIELD_UPDATE claiming 127 bytes, a dump claiming 0x3e03, a length below 3.
    const auto out = frame_all({0x8e, 0x00, 0x7f, 0x86, 0x7c, 0x03, 0x91, 0x00, 0x02,
                                0x8e, 0x00, 0x05, 0x24, 0x01}, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == Bytes{0x8e, 0x00, 0x05, 0x24, 0x01});
    CHECK(st.bad_headers == 3);
}

TEST_CASE("dgt 4 rule 4: a truncated dump is dropped, the next message survives") {
    FramerStats st;
    Bytes in = {0x86, 0x00, 0x43, 0x08, 0x09, 0x0a};
    const Bytes fu = {0x8e, 0x00, 0x05, 0x24, 0x01};
    in.insert(in.end(), fu.begin(), fu.end());
    const auto out = frame_all(in, &st);
    REQUIRE(out.size() == 1);
    CHECK(out[0] == fu);
    CHECK(st.truncated == 1);
}

TEST_CASE("dgt 4 rule 5: an unknown id with a sane length is skipped whole") {
    Driven d;
    d.in({0xc5, 0x00, 0x06, 0x01, 0x02, 0x03, 0x93, 0x00, 0x05, 0x03, 0x01});
    REQUIRE_FALSE(d.host.all<DeviceInfo>().empty());
    CHECK(d.host.all<DeviceInfo>().back().version_major == 3);
}

TEST_CASE("dgt 4 EE_MOVES of 7939 bytes is framed and ignored") {
    Bytes ee(7939, 0x7f);
    ee[0] = 0x8f;
    ee[1] = 0x3e;
    ee[2] = 0x03;
    ee.back() = 0x6b;
    const auto out = frame_all(ee);
    REQUIRE(out.size() == 1);
    CHECK(out[0].size() == 7939);
}

TEST_CASE("dgt disconnect in the middle of a message drops the partial message") {
    const dgt::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    int packets = 0;
    const Bytes half = {0x86, 0x00, 0x43, 0x08, 0x09};
    f.push(half, [&](auto) { ++packets; });
    CHECK(f.in_packet());
    f.reset();
    CHECK_FALSE(f.in_packet());
    CHECK(f.stats().dropped_partial == 1);
    // After reconnecting, data bytes of the old dump are garbage; the next message is whole.
    f.push(Bytes{0x0a, 0x0c, 0x93, 0x00, 0x05, 0x03, 0x01}, [&](auto) { ++packets; });
    CHECK(packets == 1);
}
