// DGT serial board protocol: byte values, piece codes, field numbering, framing, and the
// encoders/decoders of the messages the driver and the emulator exchange. Pure functions on
// byte buffers, no I/O. Section numbers refer to docs/protocols/dgt.md.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/events.hpp"
#include "drivers/core/framer.hpp"
#include "base/expected.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers::dgt {

/// Host -> board commands (section 3).
namespace cmd {
inline constexpr std::uint8_t reset = 0x40, send_clk = 0x41, send_brd = 0x42, send_update = 0x43,
                              send_update_brd = 0x44, return_serialnr = 0x45,
                              return_busadres = 0x46, send_trademark = 0x47, send_ee_moves = 0x49,
                              to_busmode = 0x4a, send_update_nice = 0x4b, send_battery = 0x4c,
                              send_version = 0x4d, return_long_serialnr = 0x55,
                              clock_message = 0x2b;
}

/// Board -> host message ids (section 4).
namespace msg {
inline constexpr std::uint8_t board_dump = 0x86, bwtime = 0x8d, field_update = 0x8e,
                              ee_moves = 0x8f, busadres = 0x90, serialnr = 0x91, trademark = 0x92,
                              version = 0x93, battery = 0xa0, long_serialnr = 0xa2;
}

/// Clock command ids inside a `2b` frame (section 12); ACKs echo them in ack1 (10.2).
namespace clk {
inline constexpr std::uint8_t display = 0x01, icons = 0x02, end = 0x03, button = 0x08,
                              version = 0x09, setnrun = 0x0a, beep = 0x0b, ascii = 0x0c;
/// ack1 values the clock generates on its own (>= 0x80).
inline constexpr std::uint8_t auto_ready = 0x81, auto_button = 0x88;
inline constexpr std::uint8_t ack_ok = 0x10;
}

/// Total length of message `id` (header included), 0 for ids we do not know. TRADEMARK is
/// variable: the value is its maximum (section 4).
[[nodiscard]] std::size_t max_message_length(std::uint8_t id) noexcept;
/// True if every message with this id has exactly max_message_length bytes.
[[nodiscard]] bool fixed_length(std::uint8_t id) noexcept;

/// The DGT framing (section 4): id byte with MSB set, 14-bit total length in bytes 1-2 (MSB
/// clear), data bytes with MSB clear. Lengths other than the id's size are rejected, as are
/// unknown ids longer than 64 data bytes.
class FrameRule final : public drivers::FrameRule {
  public:
    [[nodiscard]] bool starts_packet(std::uint8_t b) const override { return (b & 0x80) != 0; }
    [[nodiscard]] bool continues_packet(std::uint8_t b) const override { return (b & 0x80) == 0; }
    [[nodiscard]] std::size_t header_size() const override { return 3; }
    [[nodiscard]] FrameLength packet_length(std::span<const std::uint8_t> header) const override;
};

/// Piece codes (section 5). Careful: the order is P, R, N, B, K, Q — king BEFORE queen.
/// Codes 0d-0f (magic pieces) and > 0f are not chess pieces: Piece::None.
[[nodiscard]] Piece piece_from_code(std::uint8_t code) noexcept;
/// Inverse of piece_from_code for chess pieces; 0 for Piece::None.
[[nodiscard]] std::uint8_t code_from_piece(Piece p) noexcept;

/// Field numbering (section 7): field = 8 * (8 - rank) + file, a8 = 0, h1 = 63, with the
/// connector on white's left. With the board the other way round (`rotated`), field f is
/// game square 63 - f in that numbering, i.e. the square turned round.
[[nodiscard]] constexpr Square field_to_square(int field, bool rotated) noexcept {
    const Square s = Square::at(field & 7, 7 - ((field >> 3) & 7));
    return rotated ? s.rotate() : s;
}
[[nodiscard]] constexpr int square_to_field(Square s, bool rotated) noexcept {
    const Square r = rotated ? s.rotate() : s;
    return 8 * (7 - r.rank()) + r.file();
}

/// A BOARD_DUMP's 64 codes as a board (section 6), oriented.
[[nodiscard]] BoardReading board_from_codes(std::span<const std::uint8_t, 64> codes, bool rotated);
/// The 64 codes of a board (for the emulator); unknown occupants become 0.
[[nodiscard]] std::array<std::uint8_t, 64> codes_from_board(const BoardReading& b, bool rotated);

/// The four bytes of a clock ACK (section 10.2).
struct ClockAck {
    std::uint8_t ack0 = 0, ack1 = 0, ack2 = 0, ack3 = 0;
    bool operator==(const ClockAck&) const noexcept = default;
};

/// True if the 7 BWTIME data bytes are an ACK rather than a time report (section 10).
[[nodiscard]] bool is_clock_ack(std::span<const std::uint8_t, 7> data) noexcept;
[[nodiscard]] ClockAck decode_clock_ack(std::span<const std::uint8_t, 7> data) noexcept;
/// The full 10-byte BWTIME message carrying `ack` (section 10.2, inverse formulas).
[[nodiscard]] std::array<std::uint8_t, 10> encode_clock_ack(const ClockAck& ack) noexcept;

/// Decodes a time report (section 10.1); rejects hours > 9 and BCD minutes/seconds > 59.
/// t_ms is left 0 for the caller to fill in. `turn` is the status bits' hint as real clocks set
/// them (0x08 left runs, 0x10 right runs); running_side() decides from what the clock shows.
[[nodiscard]] Expected<ClockReport> decode_time_report(std::span<const std::uint8_t, 7> data);
/// Whose clock runs, from what the clock shows (section 10.1, issue 23): none while it is stopped;
/// after a press (the lever moved since `before`) the lever's high side; else the one side whose
/// time went down since `before` (by at most 5 s: more is the clock being set); else the
/// lever's high side. The status bits (`now.turn`) do
/// not decide (real clocks set them the other way round from the protocol header); the driver
/// notes when they disagree.
[[nodiscard]] ClockSide running_side(const ClockReport& now, const ClockReport* before) noexcept;
/// The full 10-byte BWTIME time report for `t` (times rounded down to whole seconds, capped at
/// 9:59:59). Used by the emulator.
[[nodiscard]] std::array<std::uint8_t, 10> encode_time_report(const ClockReport& t) noexcept;

/// `2b size 03 cmd payload... 00` (section 12).
[[nodiscard]] std::vector<std::uint8_t> clock_frame(std::uint8_t command,
                                                    std::span<const std::uint8_t> payload);
/// SETNRUN (12.3): times as plain binary h/m/s (capped at 9:59:59), run flags 01 left,
/// 02 right, 04 pause when neither runs.
[[nodiscard]] std::vector<std::uint8_t> setnrun_frame(TimeMs left_ms, TimeMs right_ms, ClockRun run);
/// DGT3000 ASCII text (12.4): 8 characters, padded with spaces, non-printables as spaces;
/// beep byte 0..15.
[[nodiscard]] std::vector<std::uint8_t> ascii_frame(std::string_view text, std::uint8_t beep);
/// DGT XL display (12.1): the first 6 characters as 7-segment digits, sent in the order
/// C B A F E D; beep 03 / no beep 01.
[[nodiscard]] std::vector<std::uint8_t> xl_display_frame(std::string_view text, bool beep);
/// Seven-segment pattern of a character (digits, letters approximated, '-', ' ').
[[nodiscard]] std::uint8_t seven_segment(char c) noexcept;
/// Text of six XL segment bytes in display order (inverse of seven_segment; '?' if unknown).
[[nodiscard]] std::string segments_to_text(std::span<const std::uint8_t> segments);
/// BEEP (12): n x 64 ms, n = duration / 64 clamped to 1..127.
[[nodiscard]] std::vector<std::uint8_t> beep_frame(TimeMs duration_ms);

/// Key code (ack3) to the button number 0..4 left to right (section 13); -1 if unknown.
[[nodiscard]] int button_from_code(std::uint8_t code) noexcept;
/// The ack2 bit of a button 0..4 (section 13, picochess table).
[[nodiscard]] std::uint8_t button_mask_bit(int button) noexcept;
/// Key code of a button 0..4.
[[nodiscard]] std::uint8_t button_code(int button) noexcept;

} // namespace eboard::drivers::dgt
