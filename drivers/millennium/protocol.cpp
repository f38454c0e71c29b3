#include "drivers/millennium/protocol.hpp"

namespace eboard::drivers::millennium {

namespace {

constexpr std::string_view kPieceChars = "KQRNBPkqrnbp.";

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/// Payload characters (4, 5): pieces in `s`, anything printable in the undocumented `I`, hex
/// digits in every other message that has a payload (v w r, L W R).
bool payload_char_ok(char letter, char c) noexcept {
    if (letter == 's') return kPieceChars.find(c) != std::string_view::npos;
    if (letter == 'I') return c > 0x20 && c < 0x7f;
    return hex_value(c) >= 0;
}

} // namespace

std::uint8_t block_check(std::string_view chars) noexcept {
    std::uint8_t x = 0;
    for (const char c : chars) x ^= static_cast<std::uint8_t>(c & 0x7f);
    return x;
}

std::string hex2(std::uint8_t v) {
    static constexpr char digits[] = "0123456789ABCDEF";
    return {digits[v >> 4], digits[v & 15]};
}

int parse_hex2(char hi, char lo) noexcept {
    const int h = hex_value(hi), l = hex_value(lo);
    return h < 0 || l < 0 ? -1 : h * 16 + l;
}

std::string message(char letter, std::initializer_list<std::string_view> parts) {
    std::string out(1, letter);
    for (const auto p : parts) out += p;
    return out;
}

std::vector<std::uint8_t> encode(std::string_view message) {
    std::string text(message);
    text += hex2(block_check(message));
    std::vector<std::uint8_t> out;
    out.reserve(text.size());
    for (const char c : text) out.push_back(with_parity(c));
    return out;
}

std::size_t reply_length(char letter) noexcept {
    switch (letter) {
    case 's':
        return 67;
    case 'v':
    case 'w':
    case 'r':
        return 7;
    case 'l':
    case 'x':
        return 3;
    default:
        return 0;
    }
}

std::size_t command_length(char letter) noexcept {
    switch (letter) {
    case 'S':
    case 'X':
    case 'T':
    case 'V':
        return 3;
    case 'R':
        return 5;
    case 'W':
    case 'I':
        return 7;
    case 'L':
        return 167;
    default:
        return 0;
    }
}

Expected<Message> decode(std::span<const std::uint8_t> bytes) {
    Message m;
    m.text.reserve(bytes.size());
    for (const std::uint8_t b : bytes) {
        m.text += static_cast<char>(b & 0x7f);
        if (!parity_ok(b)) ++m.parity_errors;
    }
    if (m.text.empty()) return Error{"empty message"};
    const char letter = m.text[0];
    const std::size_t want =
        reply_length(letter) != 0 ? reply_length(letter) : command_length(letter);
    if (want == 0) return Error{"unknown message letter '" + std::string(1, letter) + "'"};
    if (m.text.size() != want)
        return Error{"message '" + std::string(1, letter) + "' has " +
                     std::to_string(m.text.size()) + " characters, not " + std::to_string(want)};
    const std::string_view payload = std::string_view(m.text).substr(1, want - 3);
    for (const char c : payload) {
        if (!payload_char_ok(letter, c))
            return Error{"character '" + std::string(1, c) + "' not allowed in '" +
                         std::string(1, letter) + "' message"};
    }
    const int check = parse_hex2(m.text[want - 2], m.text[want - 1]);
    const std::uint8_t want_check = block_check(std::string_view(m.text).substr(0, want - 2));
    if (check < 0) return Error{"block check digits are not hex"};
    if (check != want_check)
        return Error{"block check " + hex2(static_cast<std::uint8_t>(check)) + ", computed " +
                     hex2(want_check)};
    m.text.resize(want - 2);
    return m;
}

bool FrameRule::starts_packet(std::uint8_t b) const {
    return reply_length(static_cast<char>(b & 0x7f)) != 0;
}

bool FrameRule::continues_packet(std::uint8_t b) const {
    const int c = b & 0x7f;
    return c > 0x20 && c < 0x7f;
}

FrameLength FrameRule::packet_length(std::span<const std::uint8_t> header) const {
    const std::size_t n = reply_length(static_cast<char>(header[0] & 0x7f));
    return n == 0 ? FrameLength::invalid() : FrameLength::ok(n);
}

bool FrameRule::packet_valid(std::span<const std::uint8_t> packet) const {
    return decode(packet).has_value();
}

Expected<BoardReading> board_from_status(std::string_view chars, SquareOrder order) {
    if (chars.size() != 64)
        return Error{"a status has 64 squares, not " + std::to_string(chars.size())};
    BoardReading b;
    for (int i = 0; i < 64; ++i) {
        const char c = chars[static_cast<std::size_t>(i)];
        if (c == '.') continue;
        const Piece p = piece_from_char(c);
        if (p == Piece::None || kPieceChars.find(c) == std::string_view::npos)
            return Error{std::string("not a piece character: '") + c + "'", 1, i + 1};
        b.set(index_to_square(i, order), p);
    }
    return b;
}

std::string status_from_board(const BoardReading& b, SquareOrder order) {
    std::string out(64, '.');
    for (int i = 0; i < 64; ++i) {
        const SquareReading r = b.at(index_to_square(i, order));
        if (r.known()) out[static_cast<std::size_t>(i)] = piece_to_char(r.piece);
    }
    return out;
}

std::array<int, 4> square_leds(Square s, SquareOrder order) noexcept {
    // In the document's frame (a8 first) the square in column f, row t (rank 8 = row 0) has
    // the corners 9f+t, 9f+t+1, 9(f+1)+t, 9(f+1)+t+1 (6); the other order turns the board.
    const Square doc = order == SquareOrder::A8First ? s : s.rotate();
    const int f = doc.file(), t = 7 - doc.rank();
    return {9 * f + t, 9 * f + t + 1, 9 * (f + 1) + t, 9 * (f + 1) + t + 1};
}

std::string led_command(std::uint8_t slot_time, std::span<const std::uint8_t, led_count> codes) {
    std::string out = message('L', {hex2(slot_time)});
    for (const std::uint8_t c : codes) out += hex2(c);
    return out;
}

std::string read_e2rom_command(std::uint8_t addr) {
    return message('R', {hex2(addr)});
}

std::string write_e2rom_command(std::uint8_t addr, std::uint8_t value) {
    return message('W', {hex2(addr), hex2(value)});
}

} // namespace eboard::drivers::millennium
