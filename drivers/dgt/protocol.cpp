#include "drivers/dgt/protocol.hpp"

#include <algorithm>

namespace eboard::drivers::dgt {

std::size_t max_message_length(std::uint8_t id) noexcept {
    switch (id) {
    case msg::board_dump: return 67;
    case msg::bwtime: return 10;
    case msg::field_update: return 5;
    case msg::ee_moves: return 0x2000 - 0x100 + 3;  // 7939, section 4
    case msg::busadres: return 5;
    case msg::serialnr: return 8;
    case msg::trademark: return 3 + 260;
    case msg::version: return 5;
    case msg::battery: return 12;                  // header says 7 and lists 9 data bytes: 12 (4.1)
    case msg::long_serialnr: return 13;
    default: return 0;
    }
}

bool fixed_length(std::uint8_t id) noexcept { return id != msg::trademark && max_message_length(id) != 0; }

FrameLength FrameRule::packet_length(std::span<const std::uint8_t> header) const {
    const std::size_t len = (static_cast<std::size_t>(header[1]) << 7) | header[2];
    const std::uint8_t id = header[0];
    if (len < 3) return FrameLength::invalid();
    const std::size_t max = max_message_length(id);
    if (max == 0) return len <= 3 + 64 ? FrameLength::ok(len) : FrameLength::invalid();  // rule 5
    if (fixed_length(id) ? len != max : len > max) return FrameLength::invalid();          // rule 3
    return FrameLength::ok(len);
}

Piece piece_from_code(std::uint8_t code) noexcept {
    // 0 empty, then white P R N B K Q (1..6), black P R N B K Q (7..12).
    static constexpr std::array<PieceType, 6> types = {PieceType::Pawn,   PieceType::Rook,
                                                       PieceType::Knight, PieceType::Bishop,
                                                       PieceType::King,   PieceType::Queen};
    if (code == 0 || code > 12) return Piece::None;
    const Color c = code <= 6 ? Color::White : Color::Black;
    return make_piece(c, types[static_cast<std::size_t>((code - 1) % 6)]);
}

std::uint8_t code_from_piece(Piece p) noexcept {
    if (p == Piece::None) return 0;
    std::uint8_t base = 0;
    switch (type_of(p)) {
    case PieceType::Pawn: base = 1; break;
    case PieceType::Rook: base = 2; break;
    case PieceType::Knight: base = 3; break;
    case PieceType::Bishop: base = 4; break;
    case PieceType::King: base = 5; break;
    case PieceType::Queen: base = 6; break;
    case PieceType::None: return 0;
    }
    return static_cast<std::uint8_t>(base + (color_of(p) == Color::Black ? 6 : 0));
}

BoardReading board_from_codes(std::span<const std::uint8_t, 64> codes, bool rotated) {
    BoardReading b;
    for (int f = 0; f < 64; ++f)
        b.set(field_to_square(f, rotated), piece_from_code(codes[static_cast<std::size_t>(f)]));
    return b;
}

std::array<std::uint8_t, 64> codes_from_board(const BoardReading& b, bool rotated) {
    std::array<std::uint8_t, 64> codes{};
    for (int f = 0; f < 64; ++f)
        codes[static_cast<std::size_t>(f)] = code_from_piece(b.at(field_to_square(f, rotated)).piece);
    return codes;
}

bool is_clock_ack(std::span<const std::uint8_t, 7> d) noexcept {
    return (d[0] & 0x0f) == 0x0a || (d[3] & 0x0f) == 0x0a;
}

ClockAck decode_clock_ack(std::span<const std::uint8_t, 7> d) noexcept {
    // d[i] is message byte i+3.
    const auto b = [&](int i) { return static_cast<unsigned>(d[static_cast<std::size_t>(i - 3)]); };
    ClockAck a;
    a.ack0 = static_cast<std::uint8_t>((b(4) & 0x7f) | ((b(6) << 3) & 0x80));
    a.ack1 = static_cast<std::uint8_t>((b(5) & 0x7f) | ((b(6) << 2) & 0x80));
    a.ack2 = static_cast<std::uint8_t>((b(7) & 0x7f) | ((b(3) << 3) & 0x80));
    a.ack3 = static_cast<std::uint8_t>((b(8) & 0x7f) | ((b(3) << 2) & 0x80));
    return a;
}

std::array<std::uint8_t, 10> encode_clock_ack(const ClockAck& a) noexcept {
    const auto u8 = [](unsigned v) { return static_cast<std::uint8_t>(v); };
    return {msg::bwtime, 0x00, 0x0a,
            u8(0x0a | ((a.ack2 & 0x80u) >> 3) | ((a.ack3 & 0x80u) >> 2)),
            u8(a.ack0 & 0x7fu), u8(a.ack1 & 0x7fu),
            u8(0x0a | ((a.ack0 & 0x80u) >> 3) | ((a.ack1 & 0x80u) >> 2)),
            u8(a.ack2 & 0x7fu), u8(a.ack3 & 0x7fu), 0x00};
}

namespace {

int from_bcd(std::uint8_t v) noexcept { return (v >> 4) * 10 + (v & 15); }
bool valid_bcd59(std::uint8_t v) noexcept { return (v & 15) <= 9 && (v >> 4) <= 5; }
std::uint8_t to_bcd(int v) noexcept { return static_cast<std::uint8_t>(((v / 10) << 4) | (v % 10)); }

/// h:mm:ss of `ms`, capped at 9:59:59; negative counts as 0.
std::array<int, 3> hms(TimeMs ms) noexcept {
    TimeMs s = std::clamp<TimeMs>(ms, 0, 35999999) / 1000;
    return {static_cast<int>(s / 3600), static_cast<int>(s / 60 % 60), static_cast<int>(s % 60)};
}

} // namespace

Expected<ClockReport> decode_time_report(std::span<const std::uint8_t, 7> d) {
    ClockReport t;
    const std::uint8_t status = d[6];
    t.connected = (status & 0x20) == 0;
    t.running = (status & 0x01) != 0;
    t.lever_high = (status & 0x02) ? ClockSide::Right : ClockSide::Left;
    t.battery_low = (status & 0x04) != 0;
    // Real clocks set 0x08 while the LEFT clock runs and 0x10 while the RIGHT runs (10.1: the
    // reverse of the 2015 header). Only a hint: the driver decides from the lever and the times.
    t.turn = (status & 0x08) ? ClockSide::Left : (status & 0x10) ? ClockSide::Right : ClockSide::None;
    if (!t.connected) return t;
    for (const std::size_t side : {std::size_t{0}, std::size_t{3}}) {
        const std::uint8_t h = d[side], m = d[side + 1], s = d[side + 2];
        if ((h & 0x0f) > 9 || !valid_bcd59(m) || !valid_bcd59(s))
            return Error{"time report out of range: " + hex_bytes(d)};
        const TimeMs ms = ((h & 0x0f) * 3600 + from_bcd(m) * 60 + from_bcd(s)) * TimeMs{1000};
        const bool flag = (h & 0x50) != 0, delay = (h & 0x20) != 0;
        if (side == 0) {
            t.right_ms = ms, t.right_flag = flag, t.right_delay = delay;
        } else {
            t.left_ms = ms, t.left_flag = flag, t.left_delay = delay;
        }
    }
    return t;
}

ClockSide running_side(const ClockReport& now, const ClockReport* before) noexcept {
    if (!now.connected || !now.running) return ClockSide::None;
    const bool same_lever = before && before->connected && before->lever_high == now.lever_high;
    if (same_lever) {
        // Counting down: a few seconds less than the report before (UPDATE reports every
        // second, UPDATE_NICE on every change); a bigger jump is the clock being set (SETNRUN).
        const auto down = [](TimeMs was, TimeMs is) { return is < was && was - is <= 5000; };
        const bool left_down = down(before->left_ms, now.left_ms), right_down = down(before->right_ms, now.right_ms);
        if (left_down != right_down) return left_down ? ClockSide::Left : ClockSide::Right;
    }
    // The lever is a see-saw: the side that is up is the one whose time runs (10.1).
    return now.lever_high;
}

std::array<std::uint8_t, 10> encode_time_report(const ClockReport& t) noexcept {
    std::array<std::uint8_t, 10> m{msg::bwtime, 0x00, 0x0a};
    if (!t.connected) {
        m[9] = 0x20;
        return m;
    }
    const auto put = [&](std::size_t at, TimeMs ms, bool flag, bool delay) {
        const auto [h, mi, s] = hms(ms);
        m[at] = static_cast<std::uint8_t>(h | (flag ? 0x10 : 0) | (delay ? 0x20 : 0));
        m[at + 1] = to_bcd(mi);
        m[at + 2] = to_bcd(s);
    };
    put(3, t.right_ms, t.right_flag, t.right_delay);
    put(6, t.left_ms, t.left_flag, t.left_delay);
    unsigned status = 0;
    if (t.running) status |= 0x01;
    if (t.lever_high == ClockSide::Right) status |= 0x02;
    if (t.battery_low) status |= 0x04;
    if (t.turn == ClockSide::Left) status |= 0x08;  // as real clocks do (10.1)
    if (t.turn == ClockSide::Right) status |= 0x10;
    m[9] = static_cast<std::uint8_t>(status);
    return m;
}

std::vector<std::uint8_t> clock_frame(std::uint8_t command, std::span<const std::uint8_t> payload) {
    std::vector<std::uint8_t> f;
    f.reserve(payload.size() + 5);
    f.push_back(cmd::clock_message);
    f.push_back(static_cast<std::uint8_t>(payload.size() + 3));
    f.push_back(0x03);
    f.push_back(command);
    for (const std::uint8_t b : payload) f.push_back(b);
    f.push_back(0x00);
    return f;
}

std::vector<std::uint8_t> setnrun_frame(TimeMs left_ms, TimeMs right_ms, ClockRun run) {
    const auto l = hms(left_ms), r = hms(right_ms);
    const std::uint8_t flags = run == ClockRun::Left ? 0x01 : run == ClockRun::Right ? 0x02 : 0x04;
    const std::array<std::uint8_t, 7> p = {
        static_cast<std::uint8_t>(l[0]), static_cast<std::uint8_t>(l[1]), static_cast<std::uint8_t>(l[2]),
        static_cast<std::uint8_t>(r[0]), static_cast<std::uint8_t>(r[1]), static_cast<std::uint8_t>(r[2]),
        flags};
    return clock_frame(clk::setnrun, p);
}

std::vector<std::uint8_t> ascii_frame(std::string_view text, std::uint8_t beep) {
    std::array<std::uint8_t, 9> p{};
    for (std::size_t i = 0; i < 8; ++i) {
        const char c = i < text.size() ? text[i] : ' ';
        p[i] = (c >= 0x20 && c < 0x7f) ? static_cast<std::uint8_t>(c) : std::uint8_t{' '};
    }
    p[8] = std::min<std::uint8_t>(beep, 15);
    return clock_frame(clk::ascii, p);
}

namespace {
// 7-segment patterns: bits 01 top, 02 top-right, 04 bottom-right, 08 bottom, 10 bottom-left,
// 20 top-left, 40 middle (12.1). Digits first, so decoding prefers them.
constexpr std::string_view kSegChars = "0123456789 -abcdefghijlnoprstuy";
constexpr std::array<std::uint8_t, 31> kSegBits = {
    0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f, 0x00, 0x40, 0x5f, 0x7c, 0x58, 0x5e,
    0x7b, 0x71, 0x3d, 0x74, 0x04, 0x1e, 0x38, 0x54, 0x5c, 0x73, 0x50, 0x6d, 0x78, 0x1c, 0x6e};
} // namespace

std::uint8_t seven_segment(char c) noexcept {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const auto i = kSegChars.find(c);
    return i == std::string_view::npos ? std::uint8_t{0} : kSegBits[i];
}

std::string segments_to_text(std::span<const std::uint8_t> segments) {
    std::string out;
    for (const std::uint8_t s : segments) {
        const auto it = std::find(kSegBits.begin(), kSegBits.end(), s);
        out += it == kSegBits.end() ? '?' : kSegChars[static_cast<std::size_t>(it - kSegBits.begin())];
    }
    return out;
}

std::vector<std::uint8_t> xl_display_frame(std::string_view text, bool beep) {
    std::array<std::uint8_t, 6> t{};
    for (std::size_t i = 0; i < 6; ++i) t[i] = seven_segment(i < text.size() ? text[i] : ' ');
    // Wire order C B A F E D for display order A..F (12.1); icons 0, beep 03/01.
    const std::array<std::uint8_t, 8> p = {t[2], t[1], t[0], t[5], t[4], t[3], 0x00,
                                           static_cast<std::uint8_t>(beep ? 0x03 : 0x01)};
    return clock_frame(clk::display, p);
}

std::vector<std::uint8_t> beep_frame(TimeMs duration_ms) {
    const auto n = static_cast<std::uint8_t>(std::clamp<TimeMs>(duration_ms / 64, 1, 127));
    const std::array<std::uint8_t, 1> p = {n};
    return clock_frame(clk::beep, p);
}

namespace {
// Left to right: back, minus, run, plus, ok (section 13, inference from picochess).
constexpr std::array<std::uint8_t, 5> kButtonCodes = {0x31, 0x34, 0x33, 0x32, 0x35};
constexpr std::array<std::uint8_t, 5> kButtonBits = {0x04, 0x20, 0x10, 0x08, 0x40};
} // namespace

int button_from_code(std::uint8_t code) noexcept {
    const auto it = std::find(kButtonCodes.begin(), kButtonCodes.end(), code);
    return it == kButtonCodes.end() ? -1 : static_cast<int>(it - kButtonCodes.begin());
}
std::uint8_t button_mask_bit(int button) noexcept {
    return button >= 0 && button < 5 ? kButtonBits[static_cast<std::size_t>(button)] : std::uint8_t{0};
}
std::uint8_t button_code(int button) noexcept {
    return button >= 0 && button < 5 ? kButtonCodes[static_cast<std::size_t>(button)] : std::uint8_t{0};
}

} // namespace eboard::drivers::dgt
