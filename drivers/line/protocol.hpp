// The ASCII line protocol shared by Certabo (RFID) and Tabutronic Sentio (occupancy) boards:
// framing, the frame codec, square order and the LED commands. Pure functions on byte
// buffers, no I/O. Section numbers refer to docs/protocols/certabo-sentio.md.
#pragma once

#include "drivers/core/framer.hpp"
#include "base/expected.hpp"
#include "base/types.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace eboard::drivers::line {

/// Numbers per frame (2.3): 8 = Sentio (one occupancy byte per rank), 320 = Certabo (5-byte
/// tag id per square).
inline constexpr std::size_t sentio_numbers = 8, certabo_numbers = 320;
/// Longest packet the framer accepts: ':' + 320 x "255 " + a LF every ~64 characters (2.4) +
/// CR LF is about 1303 bytes; the slack covers stray LED acknowledgement letters.
inline constexpr std::size_t max_packet_bytes = 1536;

/// Framing (2.1, 2.2, 2.4, 4.3): ':' starts a frame, 'L' or 'D' an LED acknowledgement line;
/// every packet ends with CR LF (kept in the packet). Inside a packet only digits, spaces, bare
/// LFs (the mid-frame LFs of 2.4), 'L', 'D' (an acknowledgement glued to a frame) and '*'
/// (stripped by picochess) may appear; anything else ends the packet as truncated, and a ':'
/// starts the next one. Packets longer than max_packet_bytes are dropped as oversized.
class FrameRule final : public drivers::FrameRule {
  public:
    [[nodiscard]] bool starts_packet(std::uint8_t b) const override;
    [[nodiscard]] bool continues_packet(std::uint8_t b) const override;
    [[nodiscard]] std::size_t header_size() const override { return 1; }
    [[nodiscard]] FrameLength packet_length(std::span<const std::uint8_t> header) const override;
};

/// One decoded packet.
struct Line {
    std::vector<std::uint8_t> numbers;  ///< the frame's numbers in order; empty for an ack line
    char ack = 0;                       ///< 'L' or 'D' if the packet is or carries an LED ack
};

/// Decodes a packet the FrameRule delimited. CR, LF, 'L', 'D' and '*' are removed first (so a
/// number split by a LF, `8\n4`, reads 84, as picochess does), then the frame is split on
/// spaces. Errors: a token that is not a number 0..255 (the whole frame is invalid, 2.4), or
/// a packet that is neither a frame nor an acknowledgement.
[[nodiscard]] Expected<Line> decode(std::span<const std::uint8_t> packet);

/// A frame as the board sends it: ':' + the numbers separated by single spaces + " \r\n",
/// with a bare LF inserted after every `lf_every` characters when `lf_every` > 0 (2.4).
[[nodiscard]] std::string encode_frame(std::span<const std::uint8_t> numbers, std::size_t lf_every = 0);

/// Square of frame position k = 0..63 (a8, b8, .. h8, a7, .. h1; 2.1). With the board turned
/// round (white at the far side of the way the board numbers itself) it is the square rotated.
[[nodiscard]] constexpr Square square_of_index(int k, bool rotated) noexcept {
    const Square s = Square::at(k & 7, 7 - ((k >> 3) & 7));
    return rotated ? s.rotate() : s;
}
/// Inverse of square_of_index.
[[nodiscard]] constexpr int index_of_square(Square s, bool rotated) noexcept {
    const Square r = rotated ? s.rotate() : s;
    return 8 * (7 - r.rank()) + r.file();
}

/// Classic LED command (4.1): 8 raw bytes, byte 0 = rank 8 .. byte 7 = rank 1, bit 0 = a-file
/// (the opposite bit order of the Sentio occupancy bytes), 1 = on.
[[nodiscard]] std::array<std::uint8_t, 8> led_command(Bitboard on, bool rotated) noexcept;
/// The squares a classic LED command lights (for the emulator).
[[nodiscard]] Bitboard leds_of_command(std::span<const std::uint8_t, 8> cmd, bool rotated) noexcept;

/// RGB ("Spectrum") LED command (4.2, picochess only, UNCERTAIN): `ff 55`, 81 x (R, G, B) for
/// the 9 x 9 square corners, `0d 0a`; 247 bytes. Corner (R, C) is LED 9R + C with R counted
/// from the rank-1 edge and C from the h-file edge; a lit square lights its four corners in
/// `rgb` (picochess: blue 0x40).
inline constexpr std::size_t rgb_command_bytes = 247;
[[nodiscard]] std::vector<std::uint8_t> rgb_led_command(Bitboard on, bool rotated,
                                                        std::array<std::uint8_t, 3> rgb = {0, 0, 0x40});
/// True for a well-formed RGB LED command (size, `ff 55` header, `0d 0a` trailer).
[[nodiscard]] bool is_rgb_led_command(std::span<const std::uint8_t> cmd) noexcept;

} // namespace eboard::drivers::line
