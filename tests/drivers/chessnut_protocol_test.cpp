// Chessnut codecs on byte buffers (chessnut.md): the documented vectors (picochess's start
// position both ways round, LEDs, beep, battery in both encodings), the nibble table, and the
// framing of reports: padding, garbage, truncated, oversized, resync.
#include "base/placement.hpp"
#include "harness.hpp"

#include "drivers/chessnut/protocol.hpp"

#include <random>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::chessnut;
using namespace eboard::drivers::test;

namespace {

std::vector<std::uint8_t> bytes(std::initializer_list<int> v) {
    std::vector<std::uint8_t> out;
    for (const int b : v) out.push_back(static_cast<std::uint8_t>(b));
    return out;
}

/// chessnut.md 4: `01 24 58 23 31 85 44 44 44 44 00x16 77 77 77 77 a6 c9 9b 6a ff ff ff ff`.
std::vector<std::uint8_t> start_report() {
    auto r = bytes({0x01, 0x24, 0x58, 0x23, 0x31, 0x85, 0x44, 0x44, 0x44, 0x44});
    r.insert(r.end(), 16, 0x00);
    for (const int b : {0x77, 0x77, 0x77, 0x77, 0xa6, 0xc9, 0x9b, 0x6a, 0xff, 0xff, 0xff, 0xff})
        r.push_back(static_cast<std::uint8_t>(b));
    return r;
}

/// chessnut.md 4: the start position with white at the far side.
std::vector<std::uint8_t> turned_start_report() {
    auto r = bytes({0x01, 0x24, 0xa6, 0xb9, 0x9c, 0x6a, 0x77, 0x77, 0x77, 0x77});
    r.insert(r.end(), 16, 0x00);
    for (const int b : {0x44, 0x44, 0x44, 0x44, 0x58, 0x13, 0x32, 0x85, 0xff, 0xff, 0xff, 0xff})
        r.push_back(static_cast<std::uint8_t>(b));
    return r;
}

/// Frames `chunks` as the session does for a message-oriented transport: one chunk = one
/// report, end_of_message after each. Returns the packets.
std::vector<std::vector<std::uint8_t>> frame_reports(const std::vector<std::vector<std::uint8_t>>& chunks,
                                                     FramerStats* stats = nullptr) {
    static const chessnut::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    std::vector<std::vector<std::uint8_t>> out;
    for (const auto& c : chunks) {
        f.push(c, [&](std::span<const std::uint8_t> p) { out.emplace_back(p.begin(), p.end()); });
        f.end_of_message();
    }
    if (stats) *stats = f.stats();
    return out;
}

std::vector<std::uint8_t> padded(std::vector<std::uint8_t> r, std::size_t n = 64) {
    r.resize(n, 0);
    return r;
}

} // namespace

TEST_CASE("chessnut 4 the start position vector decodes to the start position") {
    const auto b = decode_position(start_report(), false);
    REQUIRE(b.has_value());
    CHECK(write_placement(*b) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    const auto a = encode_position(BoardReading::start_position(), false);
    CHECK(std::vector<std::uint8_t>(a.begin(), a.end()) == start_report());
}

TEST_CASE("chessnut 4 the start position set up the other way round") {
    const auto physical = decode_position(turned_start_report(), false);
    REQUIRE(physical.has_value());
    CHECK(write_placement(*physical) == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr");
    CHECK(decode_position(turned_start_report(), true).value() == BoardReading::start_position());
    const auto a = encode_position(BoardReading::start_position(), true);
    CHECK(std::vector<std::uint8_t>(a.begin(), a.end()) == turned_start_report());
    CHECK(orientation_from_board(physical.value()) == std::optional<bool>(true));
    CHECK(orientation_from_board(BoardReading::start_position()) == std::optional<bool>(false));
    CHECK_FALSE(orientation_from_board(read_placement("4k3/8/8/8/8/8/8/4K3", true).value()).has_value());
}

TEST_CASE("chessnut 4 square order h8..a1, low nibble first, and the piece table") {
    CHECK(report_index(Square::parse("h8")) == 0);
    CHECK(report_index(Square::parse("g8")) == 1);
    CHECK(report_index(Square::parse("a8")) == 7);
    CHECK(report_index(Square::parse("a1")) == 63);
    const Piece table[13] = {Piece::None,  Piece::BQueen,  Piece::BKing,   Piece::BBishop, Piece::BPawn,
                             Piece::BKnight, Piece::WRook, Piece::WPawn,   Piece::BRook,   Piece::WBishop,
                             Piece::WKnight, Piece::WQueen, Piece::WKing};
    for (std::uint8_t n = 0; n <= 12; ++n) {
        CHECK(piece_from_nibble(n) == std::optional<Piece>(table[n]));
        CHECK(nibble_from_piece(table[n]) == n);
    }
    for (std::uint8_t n = 13; n <= 15; ++n) CHECK_FALSE(piece_from_nibble(n).has_value());
    // One piece alone: a white king on e4 is index 8*4 + 3 = 35 -> byte 2 + 17, high nibble.
    BoardReading b;
    b.set(Square::parse("e4"), Piece::WKing);
    const auto r = encode_position(b, false);
    CHECK(r[19] == 0xc0);
    CHECK(decode_position(r, false).value() == b);
}

TEST_CASE("chessnut 4 random boards survive encode and decode, both orientations") {
    std::mt19937 rng(7); // NOLINT(cert-msc51-cpp): fixed seed, failures reproduce
    std::uniform_int_distribution<int> piece(0, 12);
    for (int round = 0; round < 200; ++round) {
        BoardReading b;
        for (int s = 0; s < 64; ++s) b.set(Square(s), piece_from_nibble(static_cast<std::uint8_t>(piece(rng))).value());
        for (const bool rotated : {false, true}) {
            const auto r = encode_position(b, rotated);
            CHECK(decode_position(r, rotated).value() == b);
        }
    }
}

TEST_CASE("chessnut 4 invalid nibbles, short and foreign reports are refused") {
    auto r = start_report();
    r[5] = 0x8d;  // a8 (high nibble of byte 5) stays a rook, b8 (low) becomes 13
    const auto bad = decode_position(r, false);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "invalid piece code 13 on b8");
    const auto start = start_report();
    CHECK_FALSE(decode_position(std::vector<std::uint8_t>(start.begin(), start.begin() + 33), false).has_value());
    CHECK_FALSE(decode_position(bytes({0x2a, 0x02, 0x64, 0x01}), false).has_value());
}

TEST_CASE("chessnut 5 LED commands: picochess vectors and the rotated board") {
    CHECK(led_command(bb(Square::parse("c3")), false) ==
          std::array<std::uint8_t, 10>{0x0a, 0x08, 0, 0, 0, 0, 0, 0x20, 0, 0});
    CHECK(led_command(bb(Square::parse("e2")) | bb(Square::parse("e4")), false) ==
          std::array<std::uint8_t, 10>{0x0a, 0x08, 0, 0, 0, 0, 0x08, 0, 0x08, 0});
    CHECK(led_command(0, false) == std::array<std::uint8_t, 10>{0x0a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0});
    // Turned round, game square c3 is the board's f6 (rank 6 byte, bit for file f).
    CHECK(led_command(bb(Square::parse("c3")), true) ==
          std::array<std::uint8_t, 10>{0x0a, 0x08, 0, 0, 0x04, 0, 0, 0, 0, 0});
    const Bitboard lit = bb(Square::parse("a1")) | bb(Square::parse("h8")) | bb(Square::parse("d5"));
    for (const bool rotated : {false, true}) CHECK(leds_from_command(led_command(lit, rotated), rotated) == lit);
    CHECK(leds_from_command(bytes({0x0a, 0x08, 0xff}), false) == 0);
}

TEST_CASE("chessnut 3 beep: 1000 Hz for 200 ms") {
    CHECK(beep_command(1000, 200) == std::array<std::uint8_t, 6>{0x0b, 0x04, 0x03, 0xe8, 0x00, 0xc8});
    CHECK(beep_command(-5, 100000) == std::array<std::uint8_t, 6>{0x0b, 0x04, 0, 0, 0xff, 0xff});
}

TEST_CASE("chessnut 6 battery in both encodings, level 0 ignored") {
    CHECK(decode_battery(bytes({0x2a, 0x02, 0x64, 0x01})) == std::optional<Battery>(Battery{100, true}));
    CHECK(decode_battery(bytes({0x2a, 0x02, 0x58, 0x00})) == std::optional<Battery>(Battery{88, false}));
    CHECK(decode_battery(bytes({0x2a, 0x02, 0xb2, 0x00})) == std::optional<Battery>(Battery{50, true}));
    CHECK_FALSE(decode_battery(bytes({0x2a, 0x02, 0x00, 0x01})).has_value());
    CHECK_FALSE(decode_battery(bytes({0x2a, 0x02, 0x64})).has_value());
    CHECK(decode_battery(bytes({0x2a, 0x02, 0x7f, 0x00}))->percent == 100);
    for (const bool bit7 : {false, true})
        for (const Battery b : {Battery{5, true}, Battery{99, false}})
            CHECK(decode_battery(encode_battery(b, bit7)) == std::optional<Battery>(b));
}

TEST_CASE("chessnut 3 version replies: 28 len which text") {
    const auto r = encode_version({true, "CN_DVT9_210659"});
    CHECK(r[0] == 0x28);
    CHECK(r[1] == 15);
    CHECK(r[2] == 1);
    const auto v = decode_version(padded(r));
    REQUIRE(v.has_value());
    CHECK(v->mcu);
    CHECK(v->text == "CN_DVT9_210659");
    CHECK(decode_version(encode_version({false, "CNCA100_V201"}))->mcu == false);
    CHECK(decode_version(bytes({0x28, 0x03, 0x01, 'A', 0x07}))->text == "A?");
    CHECK_FALSE(decode_version(bytes({0x28})).has_value());
}

TEST_CASE("chessnut 2 framing: padded reports give one packet each, padding is not garbage") {
    FramerStats st;
    const auto packets = frame_reports({padded(start_report()), padded(bytes({0x2a, 0x02, 0x58, 0x00}))}, &st);
    REQUIRE(packets.size() == 2);
    CHECK(packets[0] == start_report());
    CHECK(packets[1] == bytes({0x2a, 0x02, 0x58, 0x00}));
    CHECK(st.garbage_bytes == 0);
    CHECK(st.truncated == 0);
    CHECK(st.padding_bytes == 64 - 38 + 60);
}

TEST_CASE("chessnut 2 framing: a report cut short is dropped, never completed from the next") {
    FramerStats st;
    const auto start = start_report();
    const auto cut = std::vector<std::uint8_t>(start.begin(), start.begin() + 20);
    const auto packets = frame_reports({cut, padded(start_report())}, &st);
    REQUIRE(packets.size() == 1);
    CHECK(packets[0] == start_report());
    CHECK(st.truncated == 1);
}

TEST_CASE("chessnut 2 framing: oversized and impossible headers resync at the next report") {
    FramerStats st;
    // Longer than a 64-byte report; a position report too short to hold a board.
    const auto packets =
        frame_reports({bytes({0x01, 0xff, 0x12, 0x34}), bytes({0x01, 0x05, 1, 2, 3, 4, 5}), padded(start_report())}, &st);
    REQUIRE_FALSE(packets.empty());
    CHECK(packets.back() == start_report());
    CHECK(st.bad_headers >= 2);
    for (const auto& p : packets) CHECK((p[0] != 0x01 || p == start_report()));
}

TEST_CASE("chessnut 2 framing: random garbage never yields a bad position packet") {
    std::mt19937 rng(11); // NOLINT(cert-msc51-cpp): fixed seed, failures reproduce
    std::uniform_int_distribution<int> byte(0, 255), len(0, 80);
    std::vector<std::vector<std::uint8_t>> chunks;
    for (int i = 0; i < 300; ++i) {
        std::vector<std::uint8_t> c(static_cast<std::size_t>(len(rng)));
        for (auto& b : c) b = static_cast<std::uint8_t>(byte(rng));
        chunks.push_back(std::move(c));
        if (i % 10 == 0) chunks.push_back(padded(start_report()));
    }
    const auto packets = frame_reports(chunks);
    int starts = 0;
    for (const auto& p : packets) {
        REQUIRE(p.size() >= 2);
        CHECK(p.size() == std::size_t{2} + p[1]);
        CHECK(p.size() <= 64);
        if (p[0] == 0x01) CHECK(p.size() >= 34);
        starts += p == start_report();
    }
    CHECK(starts == 30);
}
