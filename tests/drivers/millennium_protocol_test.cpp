// The Millennium ChessLink codecs and framing on byte buffers (millennium.md): the worked
// encodings of section 3.1, both square orders, LED numbering, and the decoder against
// garbage, truncated and oversized messages, parity and block-check errors, a disconnect in
// the middle of a message, and resync at the next valid message.
#include "base/placement.hpp"
#include "drivers/millennium/protocol.hpp"
#include "harness.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::millennium;
using Bytes = std::vector<std::uint8_t>;

namespace {

/// A status report's text: "s" and the 64 squares.
std::string report(const std::string& squares) {
    return message('s', {squares});
}

const std::string kStartA8 = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";

/// Runs bytes through the core Framer with the ChessLink rule; returns the decoded texts.
struct Framed {
    std::vector<std::string> texts;
    FramerStats stats;
};
Framed frame(const std::vector<Bytes>& chunks, bool reset_at_end = false) {
    const millennium::FrameRule rule;
    Framer f(rule, trace_channel("test"));
    Framed out;
    for (const auto& c : chunks)
        f.push(c, [&](std::span<const std::uint8_t> p) {
            auto m = decode(p);
            REQUIRE(m.has_value()); // the framer hands out validated messages only
            out.texts.push_back(m->text);
        });
    if (reset_at_end) f.reset();
    out.stats = f.stats();
    return out;
}

Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

} // namespace

TEST_CASE("millennium 3.1 worked encodings: commands with odd parity and the XOR block check") {
    CHECK(encode("V") == Bytes{0xd6, 0xb5, 0xb6}); // matches python-mchess's BLE log
    CHECK(encode("S") == Bytes{0xd3, 0xb5, 0xb3});
    CHECK(encode("X") == Bytes{0x58, 0xb5, 0x38});
    CHECK(encode("T") == Bytes{0x54, 0xb5, 0x34});
    CHECK(encode(read_e2rom_command(0x02)) == Bytes{0x52, 0xb0, 0x32, 0xb5, 0xb0});
    CHECK(encode(write_e2rom_command(0x02, 0x03)) ==
          Bytes{0x57, 0xb0, 0x32, 0xb0, 0xb3, 0xb5, 0xb6});
    CHECK(hex2(block_check("v0103")) == "74");
    // The start position has check 73 in either order (XOR does not depend on order).
    CHECK(hex2(block_check(report(kStartA8))) == "73");
    CHECK(hex2(block_check(report(
              status_from_board(BoardReading::start_position(), SquareOrder::H1First)))) == "73");
}

TEST_CASE("millennium 2 parity: bit 7 makes the number of ones odd") {
    CHECK(with_parity('V') == 0xd6);
    CHECK(with_parity('s') == 0x73); // 's' has five ones already
    for (int c = 0; c < 128; ++c) {
        const std::uint8_t b = with_parity(static_cast<char>(c));
        CHECK(parity_ok(b));
        CHECK_FALSE(parity_ok(static_cast<std::uint8_t>(b ^ 0x80)));
        CHECK((b & 0x7f) == c);
    }
}

TEST_CASE("millennium 3 the real version reply decodes, lengths come from the letter") {
    // python-mchess BLE log: b'v\xb01\xb0\xb374'.
    const Bytes real = {'v', 0xb0, '1', 0xb0, 0xb3, '7', '4'};
    const auto m = decode(real);
    REQUIRE(m.has_value());
    CHECK(m->text == "v0103");
    CHECK(m->parity_errors == 0);
    CHECK(reply_length('s') == 67);
    CHECK(reply_length('v') == 7);
    CHECK(reply_length('l') == 3);
    CHECK(reply_length('x') == 3);
    CHECK(reply_length('w') == 7);
    CHECK(reply_length('r') == 7);
    CHECK(reply_length('S') == 0);
    CHECK(command_length('L') == 167);
    CHECK(encode(led_command(0x20, std::array<std::uint8_t, led_count>{})).size() == 167);
}

TEST_CASE("millennium 5 square orders: a8 first (document) and h1 first (the open drivers)") {
    CHECK(index_to_square(0, SquareOrder::A8First) == Square::parse("a8"));
    CHECK(index_to_square(7, SquareOrder::A8First) == Square::parse("h8"));
    CHECK(index_to_square(8, SquareOrder::A8First) == Square::parse("a7"));
    CHECK(index_to_square(63, SquareOrder::A8First) == Square::parse("h1"));
    CHECK(index_to_square(0, SquareOrder::H1First) == Square::parse("h1"));
    CHECK(index_to_square(1, SquareOrder::H1First) == Square::parse("g1"));
    CHECK(index_to_square(8, SquareOrder::H1First) == Square::parse("h2"));
    CHECK(index_to_square(63, SquareOrder::H1First) == Square::parse("a8"));
    for (int i = 0; i < 64; ++i)
        for (const auto o : {SquareOrder::A8First, SquareOrder::H1First})
            CHECK(square_to_index(index_to_square(i, o), o) == i);
    const auto a8 = board_from_status(kStartA8, SquareOrder::A8First);
    REQUIRE(a8.has_value());
    CHECK(a8.value() == BoardReading::start_position());
    // The same characters read in the other order: the board turned round (python-mchess
    // sees RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr and switches to "cable left").
    const auto h1 = board_from_status(kStartA8, SquareOrder::H1First);
    REQUIRE(h1.has_value());
    CHECK(write_placement(*h1) == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr");
    CHECK(start_position_rotated(h1.value()) == std::optional<bool>(true));
    CHECK(start_position_rotated(a8.value()) == std::optional<bool>(false));
    CHECK_FALSE(board_from_status(kStartA8.substr(1), SquareOrder::A8First).has_value());
    CHECK_FALSE(
        board_from_status(std::string(1, 'x').append(kStartA8.substr(1)), SquareOrder::A8First)
            .has_value());
}

TEST_CASE("millennium 6 LEDs: the document's numbering, turned with the square order") {
    const auto one_based = [](Square s, SquareOrder o) {
        auto k = square_leds(s, o);
        for (auto& v : k) ++v;
        return k;
    };
    using A = std::array<int, 4>;
    CHECK(one_based(Square::parse("a8"), SquareOrder::A8First) == A{1, 2, 10, 11});
    CHECK(one_based(Square::parse("e2"), SquareOrder::A8First) == A{43, 44, 52, 53});
    CHECK(one_based(Square::parse("e4"), SquareOrder::A8First) == A{41, 42, 50, 51});
    CHECK(one_based(Square::parse("h1"), SquareOrder::A8First) == A{71, 72, 80, 81});
    // chesslinkdriver (h1 first): h1 -> 1, 2, 10, 11. LED 1 shares a corner with the square
    // reported first.
    CHECK(one_based(Square::parse("h1"), SquareOrder::H1First) == A{1, 2, 10, 11});
    CHECK(one_based(Square::parse("a8"), SquareOrder::H1First) == A{71, 72, 80, 81});
}

TEST_CASE("millennium 3 decode rejects wrong length, payload and block check") {
    CHECK(decode(encode("v0103")).has_value());
    CHECK_FALSE(decode(encode("v010")).has_value());   // too short for 'v'
    CHECK_FALSE(decode(encode("v01034")).has_value()); // too long
    CHECK_FALSE(decode(encode("v01G3")).has_value());  // not hex
    CHECK_FALSE(decode(encode(report(kStartA8).substr(0, 63) + "x")).has_value()); // not a piece
    Bytes bad = encode("v0103");
    bad[6] = with_parity('5'); // check digit 74 -> 75
    const auto e = decode(bad);
    REQUIRE_FALSE(e.has_value());
    CHECK(e.error().message.find("block check") != std::string::npos);
    CHECK_FALSE(decode(encode("q")).has_value());
}

TEST_CASE("millennium 3 framing: garbage before, between and after messages is skipped") {
    const Bytes garbage = {0x00, 0xff, 0x13, 'Z', 0x80, '7'};
    const auto f = frame({cat({garbage, encode("v0103"), garbage, encode("x"), garbage})});
    CHECK(f.texts == std::vector<std::string>{"v0103", "x"});
    CHECK(f.stats.garbage_bytes > 0);
}

TEST_CASE("millennium 3 framing: any chunking gives the same messages") {
    const Bytes all =
        cat({encode(report(kStartA8)), encode("l"), encode("w0203"), encode("r0203")});
    for (std::size_t step = 1; step <= 9; ++step) {
        std::vector<Bytes> chunks;
        for (std::size_t i = 0; i < all.size(); i += step)
            chunks.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(i),
                                all.begin() +
                                    static_cast<std::ptrdiff_t>(std::min(all.size(), i + step)));
        const auto f = frame(chunks);
        CHECK(f.texts == std::vector<std::string>{report(kStartA8), "l", "w0203", "r0203"});
    }
}

TEST_CASE("millennium 3 framing: a truncated report is dropped, the next message is kept") {
    Bytes cut = encode(report(kStartA8));
    cut.resize(40);
    const auto f = frame({cat({cut, encode(report(kStartA8)), encode("v0103")})});
    CHECK(f.texts == std::vector<std::string>{report(kStartA8), "v0103"});
    CHECK(f.stats.bad_checks >= 1);
}

TEST_CASE("millennium 3 framing: an oversized report is dropped, resync at the next header") {
    // 70 piece characters where 64 belong: the 67 taken fail the check; the rest is rescanned.
    Bytes big = encode(report(kStartA8) + "PPPPPP");
    const auto f = frame({cat({big, encode("x"), encode(report(kStartA8))})});
    CHECK(f.texts.back() == report(kStartA8));
    CHECK(std::count(f.texts.begin(), f.texts.end(), "x") == 1);
    CHECK(f.stats.bad_checks >= 1);
}

TEST_CASE("millennium 3 framing: a bad block check drops exactly that message") {
    Bytes bad = encode(report(kStartA8));
    bad[20] = with_parity('Q'); // a piece changed in transit: the check no longer holds
    const auto f = frame({cat({encode("v0103"), bad, encode(report(kStartA8))})});
    CHECK(f.texts == std::vector<std::string>{"v0103", report(kStartA8)});
    CHECK(f.stats.bad_checks >= 1);
}

TEST_CASE("millennium 2 framing: a wrong parity bit alone does not lose a message") {
    Bytes m = encode(report(kStartA8));
    m[5] ^= 0x80;
    m[30] ^= 0x80;
    const auto f = frame({m});
    REQUIRE(f.texts.size() == 1);
    const auto d = decode(m);
    REQUIRE(d.has_value());
    CHECK(d->parity_errors == 2);
    // eONE-style: no parity bit at all (a 7-bit stream) decodes the same.
    Bytes seven = encode(report(kStartA8));
    for (auto& b : seven) b &= 0x7f;
    CHECK(frame({seven}).texts == std::vector<std::string>{report(kStartA8)});
}

TEST_CASE("millennium 2 framing: a NUL (a UART's parity error) cuts the message it is in") {
    Bytes m = encode(report(kStartA8));
    m[10] = 0x00;
    const auto f = frame({cat({m, encode("v0103")})});
    CHECK(f.texts == std::vector<std::string>{"v0103"});
    CHECK(f.stats.truncated == 1);
}

TEST_CASE("millennium 3 framing: a disconnect in the middle of a message drops it") {
    Bytes half = encode(report(kStartA8));
    half.resize(33);
    const auto f = frame({encode("v0103"), half}, /*reset_at_end=*/true);
    CHECK(f.texts == std::vector<std::string>{"v0103"});
    CHECK(f.stats.dropped_partial == 1);
}

TEST_CASE("millennium 3 framing: reply letters inside garbage do not hide the next message") {
    // 'r' and 's' are both reply letters and piece characters: a false start must cost no
    // more than itself.
    const Bytes garbage = {'r', 'n', 'b', 's', 'r', '0', '2', 'q'};
    const auto f = frame({cat({garbage, encode("r0203"), garbage, encode(report(kStartA8))})});
    CHECK(f.texts == std::vector<std::string>{"r0203", report(kStartA8)});
}
