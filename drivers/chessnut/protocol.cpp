#include "drivers/chessnut/protocol.hpp"

#include <algorithm>

namespace eboard::drivers::chessnut {

namespace {

// Section 4 table, indexed by nibble 0..12.
constexpr Piece kNibblePieces[13] = {
    Piece::None,   Piece::BQueen, Piece::BKing,   Piece::BBishop, Piece::BPawn,  Piece::BKnight, Piece::WRook,
    Piece::WPawn,  Piece::BRook,  Piece::WBishop, Piece::WKnight, Piece::WQueen, Piece::WKing,
};

std::uint8_t nibble_at(std::span<const std::uint8_t> board, int i) noexcept {
    const std::uint8_t b = board[static_cast<std::size_t>(i / 2)];
    return (i & 1) ? static_cast<std::uint8_t>(b >> 4) : static_cast<std::uint8_t>(b & 0x0f);
}

Square physical(Square game, bool rotated) noexcept { return rotated ? game.rotate() : game; }

} // namespace

FrameLength FrameRule::packet_length(std::span<const std::uint8_t> header) const {
    const std::uint8_t type = header[0], len = header[1];
    if (len > report::max_payload) return FrameLength::invalid();
    if (type == report::position && len < report::min_position_length) return FrameLength::invalid();
    return FrameLength::ok(std::size_t{2} + len);
}

std::optional<Piece> piece_from_nibble(std::uint8_t nibble) noexcept {
    if (nibble > 12) return std::nullopt;
    return kNibblePieces[nibble];
}

std::uint8_t nibble_from_piece(Piece p) noexcept {
    for (std::uint8_t n = 1; n <= 12; ++n)
        if (kNibblePieces[n] == p) return n;
    return 0;
}

Expected<BoardReading> decode_position(std::span<const std::uint8_t> report, bool rotated) {
    if (report.size() < 2 + 32u || report[0] != report::position)
        return Error{"not a position report (" + std::to_string(report.size()) + " bytes)"};
    const auto board = report.subspan(2, 32);
    BoardReading out;
    for (int sq = 0; sq < 64; ++sq) {
        const Square p(sq);
        const std::uint8_t n = nibble_at(board, report_index(p));
        const auto piece = piece_from_nibble(n);
        if (!piece) return Error{"invalid piece code " + std::to_string(n) + " on " + p.name()};
        out.set(rotated ? p.rotate() : p, *piece);
    }
    return out;
}

std::array<std::uint8_t, 38> encode_position(const BoardReading& b, bool rotated) {
    std::array<std::uint8_t, 38> r{};
    r[0] = report::position;
    r[1] = report::position_length;
    for (int sq = 0; sq < 64; ++sq) {
        const Square game(sq);
        const int i = report_index(physical(game, rotated));
        const std::uint8_t n = nibble_from_piece(b.at(game).piece);
        auto& byte = r[2 + static_cast<std::size_t>(i / 2)];
        byte = static_cast<std::uint8_t>((i & 1) ? (byte & 0x0f) | (n << 4) : (byte & 0xf0) | n);
    }
    std::fill(r.begin() + 34, r.end(), 0xff);
    return r;
}

std::optional<bool> orientation_from_board(const BoardReading& physical_board) noexcept {
    int white_up = 0, white_down = 0, black_up = 0, black_down = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const Piece p = physical_board.at(Square(sq)).piece;
        if (p == Piece::None) continue;
        const bool up = Square(sq).rank() >= 4;
        if (color_of(p) == Color::White) (up ? white_up : white_down)++;
        else (up ? black_up : black_down)++;
    }
    if (white_up > 10 && black_down > 10) return true;
    if (white_down > 10 && black_up > 10) return false;
    return std::nullopt;
}

std::array<std::uint8_t, 10> led_command(Bitboard lit, bool rotated) noexcept {
    std::array<std::uint8_t, 10> c{cmd::leds, 0x08};
    for (int sq = 0; sq < 64; ++sq) {
        if (!(lit & bb(Square(sq)))) continue;
        const Square p = physical(Square(sq), rotated);
        c[2 + static_cast<std::size_t>(7 - p.rank())] |= static_cast<std::uint8_t>(0x80 >> p.file());
    }
    return c;
}

Bitboard leds_from_command(std::span<const std::uint8_t> command, bool rotated) noexcept {
    if (command.size() < 10) return 0;
    Bitboard out = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const Square p(sq);
        if (command[2 + static_cast<std::size_t>(7 - p.rank())] & (0x80 >> p.file()))
            out |= bb(physical(p, rotated));
    }
    return out;
}

std::array<std::uint8_t, 6> beep_command(int frequency_hz, TimeMs duration_ms) noexcept {
    const auto f = static_cast<unsigned>(std::clamp(frequency_hz, 0, 65535));
    const auto d = static_cast<unsigned>(std::clamp<TimeMs>(duration_ms, 0, 65535));
    return {cmd::beep, 0x04, static_cast<std::uint8_t>(f >> 8), static_cast<std::uint8_t>(f & 0xff),
            static_cast<std::uint8_t>(d >> 8), static_cast<std::uint8_t>(d & 0xff)};
}

std::optional<Battery> decode_battery(std::span<const std::uint8_t> r) noexcept {
    if (r.size() < 4 || r[0] != report::battery || r[1] < 2 || r[2] == 0) return std::nullopt;
    return Battery{std::min(r[2] & 0x7f, 100), (r[2] & 0x80) != 0 || r[3] == 1};
}

std::array<std::uint8_t, 4> encode_battery(Battery b, bool bit7) noexcept {
    const auto level = static_cast<std::uint8_t>(std::clamp(b.percent, 0, 100));
    if (bit7) return {report::battery, 0x02, static_cast<std::uint8_t>(level | (b.charging ? 0x80 : 0)), 0x00};
    return {report::battery, 0x02, level, static_cast<std::uint8_t>(b.charging ? 1 : 0)};
}

std::optional<VersionReply> decode_version(std::span<const std::uint8_t> r) {
    if (r.size() < 3 || r[0] != report::version || r[1] < 1) return std::nullopt;
    const std::size_t end = std::min<std::size_t>(r.size(), std::size_t{2} + r[1]);
    VersionReply v;
    v.mcu = r[2] != 0;
    for (std::size_t i = 3; i < end; ++i) {
        if (r[i] == 0) break;
        v.text += (r[i] >= 0x20 && r[i] < 0x7f) ? static_cast<char>(r[i]) : '?';
    }
    return v;
}

std::vector<std::uint8_t> encode_version(const VersionReply& v) {
    const std::size_t n = std::min<std::size_t>(v.text.size(), report::max_payload - 1);
    std::vector<std::uint8_t> r(n + 3);
    r[0] = report::version;
    r[1] = static_cast<std::uint8_t>(n + 1);
    r[2] = v.mcu ? 1 : 0;
    for (std::size_t i = 0; i < n; ++i) r[3 + i] = static_cast<std::uint8_t>(v.text[i]);
    return r;
}

} // namespace eboard::drivers::chessnut
