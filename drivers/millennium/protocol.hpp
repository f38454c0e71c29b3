// Millennium ChessLink protocol (Exclusive, Performance, eONE): characters, odd parity, the XOR
// block check, message lengths, the two square orders of the status report, LEDs and E2ROM
// addresses. Pure functions on byte buffers, no I/O; the driver and the emulator share them.
// Section numbers refer to docs/protocols/millennium.md.
//
// Every message, both ways, is `<letter> <printable payload> <2 upper-case hex digits>`, the
// digits being the XOR of all preceding 7-bit characters (3). On the wire every byte carries an
// odd-parity bit in bit 7 (2): we always send it ourselves, so the bytes are right on a 7O1 line
// (the UART regenerates the same bit), on an 8N1 line, a pty or a TCP link alike.
#pragma once

#include "drivers/core/board_state.hpp"
#include "drivers/core/framer.hpp"
#include "base/expected.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers::millennium {

/// The byte of a 7-bit character with the odd-parity bit in bit 7 (2).
[[nodiscard]] constexpr std::uint8_t with_parity(char c) noexcept {
    const auto v = static_cast<std::uint8_t>(c & 0x7f);
    int ones = 0;
    for (int i = 0; i < 7; ++i) ones += (v >> i) & 1;
    return static_cast<std::uint8_t>(ones % 2 == 0 ? v | 0x80 : v);
}
/// True if bit 7 is the odd-parity bit of the low 7 bits.
[[nodiscard]] constexpr bool parity_ok(std::uint8_t b) noexcept {
    return with_parity(static_cast<char>(b & 0x7f)) == b;
}

/// XOR of the 7-bit characters (3).
[[nodiscard]] std::uint8_t block_check(std::string_view chars) noexcept;
/// Two upper-case hex digits ("0A").
[[nodiscard]] std::string hex2(std::uint8_t v);
/// Value of two hex digits (upper or lower case), -1 if they are not hex.
[[nodiscard]] int parse_hex2(char hi, char lo) noexcept;
/// A message's text without check: the letter followed by the parts ("v", {"01", "03"}).
/// (Also spares g++ 12 its false -Wrestrict on "literal" + std::string.)
[[nodiscard]] std::string message(char letter, std::initializer_list<std::string_view> parts = {});
/// The wire bytes of a message given without its check: "V" -> d6 b5 b6 ("V56" with parity).
[[nodiscard]] std::vector<std::uint8_t> encode(std::string_view message);

/// Total length (letter and check digits included) of a board -> host message, 0 for a
/// letter that is not a reply (3): s 67, v 7, l 3, x 3, w 7, r 7.
[[nodiscard]] std::size_t reply_length(char letter) noexcept;
/// Total length of a host -> board command, 0 if unknown (4): S X T V 3, R 5, W 7, I 7, L 167.
[[nodiscard]] std::size_t command_length(char letter) noexcept;

/// A checked message as 7-bit characters, letter first, check digits removed.
struct Message {
    std::string text;      ///< e.g. "v0103", "s" + 64 piece characters
    int parity_errors = 0; ///< bytes whose bit 7 was not their odd parity (see the driver)
};
/// Checks a complete message (7-bit characters taken from the low bits of each byte): its
/// length for its letter, the character class of the payload (piece characters for `s`, hex
/// digits for `v w r`) and the block check. Errors say which.
[[nodiscard]] Expected<Message> decode(std::span<const std::uint8_t> bytes);

/// Framing of board -> host messages for the core's Framer: a reply letter starts a packet,
/// any printable character continues it (control characters, e.g. the NUL a UART makes of a
/// byte with a parity error, cut it), the letter gives the length, decode() validates it.
class FrameRule final : public drivers::FrameRule {
  public:
    [[nodiscard]] bool starts_packet(std::uint8_t b) const override;
    [[nodiscard]] bool continues_packet(std::uint8_t b) const override;
    [[nodiscard]] std::size_t header_size() const override { return 1; }
    [[nodiscard]] FrameLength packet_length(std::span<const std::uint8_t> header) const override;
    [[nodiscard]] bool packet_valid(std::span<const std::uint8_t> packet) const override;
};

/// Which square the first of the 64 characters of a status report is (5). The document says
/// a8 (then b8 .. h8, a7 .. h1); both working drivers found h1 (then g1 .. a1, h2 .. a8) with
/// the board as they use it: the same physical scan with the board turned round.
enum class SquareOrder : std::uint8_t {
    H1First, ///< python-mchess / chesslinkdriver default ("cable right")
    A8First, ///< the document's order ("cable left")
};

/// Square of character `index` 0..63 of a status report.
[[nodiscard]] constexpr Square index_to_square(int index, SquareOrder order) noexcept {
    const Square doc = Square::at(index & 7, 7 - ((index >> 3) & 7)); // a8-first
    return order == SquareOrder::A8First ? doc : doc.rotate();
}
[[nodiscard]] constexpr int square_to_index(Square s, SquareOrder order) noexcept {
    const Square doc = order == SquareOrder::A8First ? s : s.rotate();
    return 8 * (7 - doc.rank()) + doc.file();
}

/// The 64 piece characters (`KQRNBPkqrnbp.`) as a board; any other character is an error.
[[nodiscard]] Expected<BoardReading> board_from_status(std::string_view chars, SquareOrder order);
/// The 64 characters of a board (for the emulator); an unknown occupant becomes '.'.
[[nodiscard]] std::string status_from_board(const BoardReading& b, SquareOrder order);

/// LEDs (6): 81 on the corners of the squares, in the document's frame k = 9 * column + row
/// (column 0..8 from the a-file edge, row 0..8 from the rank-8 edge), 0-based here (the
/// document counts from 1). LED 0 shares a corner with the square reported first.
inline constexpr int led_count = 81;
/// The four LEDs around `s` with the board's square order applied.
[[nodiscard]] std::array<int, 4> square_leds(Square s, SquareOrder order) noexcept;
/// The `L` command text (without check): slot time (units of 4.096 ms) and 81 pattern bytes,
/// each an 8-step blink pattern shown from bit 7 to bit 0 (FF steady on, 00 off).
[[nodiscard]] std::string led_command(std::uint8_t slot_time,
                                      std::span<const std::uint8_t, led_count> codes);

/// E2ROM addresses (7). Writes are non-volatile: read first, write only what differs.
namespace e2rom {
inline constexpr std::uint8_t serial_setup = 0x00;    ///< bit 0: block check off
inline constexpr std::uint8_t scan_time = 0x01;       ///< 2.048 ms units, default 20, minimum 15
inline constexpr std::uint8_t auto_report = 0x02;     ///< bits 2..0 (below)
inline constexpr std::uint8_t report_interval = 0x03; ///< 4.096 ms units, for report_timed
inline constexpr std::uint8_t led_brightness = 0x04;
/// auto_report modes: every scan (default), off, timed, on change, on change with 2..5 scans
/// of debounce (4..7).
inline constexpr std::uint8_t report_every_scan = 0, report_off = 1, report_timed = 2,
                              report_on_change = 3;
} // namespace e2rom
/// "R" + addr, "W" + addr + value (without check).
[[nodiscard]] std::string read_e2rom_command(std::uint8_t addr);
[[nodiscard]] std::string write_e2rom_command(std::uint8_t addr, std::uint8_t value);

} // namespace eboard::drivers::millennium
