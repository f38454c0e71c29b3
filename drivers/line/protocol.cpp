#include "drivers/line/protocol.hpp"

namespace eboard::drivers::line {

namespace {

bool is_digit(std::uint8_t b) { return b >= '0' && b <= '9'; }

/// R, C of the corner LED grid (4.2) to the command's byte offset of its R byte.
std::size_t corner_offset(int row, int col) { return 2 + 3 * static_cast<std::size_t>(9 * row + col); }

/// The four corners of the square standing at physical (file, rank), as (R, C) pairs (4.2).
std::array<std::pair<int, int>, 4> corners(Square physical) {
    const int r = physical.rank(), f = physical.file();
    return {{{r, 7 - f}, {r, 8 - f}, {r + 1, 7 - f}, {r + 1, 8 - f}}};
}

} // namespace

bool FrameRule::starts_packet(std::uint8_t b) const { return b == ':' || b == 'L' || b == 'D'; }

bool FrameRule::continues_packet(std::uint8_t b) const {
    return is_digit(b) || b == ' ' || b == '\r' || b == '\n' || b == 'L' || b == 'D' || b == '*';
}

FrameLength FrameRule::packet_length(std::span<const std::uint8_t> header) const {
    // An acknowledgement is "L\r\n"; allow a little slack for doubled letters.
    return FrameLength::until("\r\n", header[0] == ':' ? max_packet_bytes : 8);
}

Expected<Line> decode(std::span<const std::uint8_t> packet) {
    Line line;
    if (packet.empty()) return Error{"empty packet"};
    const bool frame = packet[0] == ':';
    std::string body;
    for (const std::uint8_t b : packet.subspan(frame ? 1 : 0)) {
        if (b == 'L' || b == 'D') line.ack = static_cast<char>(b);
        else if (b != '\r' && b != '\n' && b != '*') body += static_cast<char>(b);
    }
    if (!frame) {
        if (line.ack == 0 || !body.empty()) return Error{"neither a frame nor an LED acknowledgement"};
        return line;
    }
    std::size_t i = 0;
    while (i < body.size()) {
        if (body[i] == ' ') {
            ++i;
            continue;
        }
        int value = 0;
        for (; i < body.size() && body[i] != ' '; ++i) {
            if (!is_digit(static_cast<std::uint8_t>(body[i])))
                return Error{"frame token with '" + std::string(1, body[i]) + "' is not a number"};
            value = value * 10 + (body[i] - '0');
            if (value > 255) return Error{"frame number above 255"};
        }
        line.numbers.push_back(static_cast<std::uint8_t>(value));
    }
    return line;
}

std::string encode_frame(std::span<const std::uint8_t> numbers, std::size_t lf_every) {
    std::string text = ":";
    for (const std::uint8_t n : numbers) {
        text += std::to_string(n);
        text += ' ';
    }
    if (lf_every > 0) {
        std::string split;
        for (std::size_t i = 0; i < text.size(); ++i) {
            split += text[i];
            if ((i + 1) % lf_every == 0) split += '\n';
        }
        text = std::move(split);
    }
    return text + "\r\n";
}

std::array<std::uint8_t, 8> led_command(Bitboard on, bool rotated) noexcept {
    std::array<std::uint8_t, 8> cmd{};
    for (int i = 0; i < 64; ++i) {
        if (!(on & bb(Square(i)))) continue;
        const int k = index_of_square(Square(i), rotated);
        cmd[static_cast<std::size_t>(k >> 3)] |= static_cast<std::uint8_t>(1u << (k & 7));
    }
    return cmd;
}

Bitboard leds_of_command(std::span<const std::uint8_t, 8> cmd, bool rotated) noexcept {
    Bitboard on = 0;
    for (int k = 0; k < 64; ++k)
        if (cmd[static_cast<std::size_t>(k >> 3)] & (1u << (k & 7))) on |= bb(square_of_index(k, rotated));
    return on;
}

std::vector<std::uint8_t> rgb_led_command(Bitboard on, bool rotated, std::array<std::uint8_t, 3> rgb) {
    std::vector<std::uint8_t> cmd(rgb_command_bytes, 0);
    cmd[0] = 0xff;
    cmd[1] = 0x55;
    cmd[rgb_command_bytes - 2] = 0x0d;
    cmd[rgb_command_bytes - 1] = 0x0a;
    for (int i = 0; i < 64; ++i) {
        if (!(on & bb(Square(i)))) continue;
        const Square physical = rotated ? Square(i).rotate() : Square(i);
        for (const auto& [row, col] : corners(physical))
            for (std::size_t c = 0; c < 3; ++c) cmd[corner_offset(row, col) + c] = rgb[c];
    }
    return cmd;
}

bool is_rgb_led_command(std::span<const std::uint8_t> cmd) noexcept {
    return cmd.size() == rgb_command_bytes && cmd[0] == 0xff && cmd[1] == 0x55 &&
           cmd[rgb_command_bytes - 2] == 0x0d && cmd[rgb_command_bytes - 1] == 0x0a;
}

} // namespace eboard::drivers::line
