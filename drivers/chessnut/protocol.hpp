// Chessnut USB HID protocol (Air, Air+, Pro, Go; docs/protocols/chessnut.md): report
// types, the piece nibbles, the h8..a1 square order, commands, LEDs, battery, version replies.
// Pure functions on byte buffers, no I/O, shared by the driver and the emulator. Section
// numbers refer to chessnut.md.
#pragma once

#include "drivers/core/board_state.hpp"
#include "drivers/core/events.hpp"
#include "drivers/core/framer.hpp"
#include "base/expected.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers::chessnut {

/// Host -> board command opcodes (section 3); the opcode is also the HID report id (2).
namespace cmd {
inline constexpr std::uint8_t mode = 0x21, leds = 0x0a, beep = 0x0b, version = 0x27, battery = 0x29,
                              game_count = 0x31, download = 0x33, download_go = 0x34,
                              delete_file = 0x39;
}

/// Board -> host report types (sections 3, 4, 6). `version` = 0x28 is our inference (every
/// documented reply is the command + 1: 29 -> 2a, 31 -> 32); the sources give only "text from
/// byte 3 on".
namespace report {
inline constexpr std::uint8_t position = 0x01, version = 0x28, battery = 0x2a, game_count = 0x32,
                              file_marker = 0x37;
/// Payload length of a USB position report: 32 board bytes + 4 unknown (`ff ff ff ff`).
inline constexpr std::uint8_t position_length = 0x24;
/// The BLE document's shorter form carries only the 32 board bytes (section 4).
inline constexpr std::uint8_t min_position_length = 32;
/// A full-speed interrupt report holds 64 bytes: type + length + at most 62.
inline constexpr std::uint8_t max_payload = 62;
}

/// Fixed commands (section 3).
inline constexpr std::array<std::uint8_t, 3> realtime_mode{0x21, 0x01, 0x00};
inline constexpr std::array<std::uint8_t, 3> upload_mode{0x21, 0x01, 0x01};
inline constexpr std::array<std::uint8_t, 3> mcu_version_request{0x27, 0x01, 0x01};
inline constexpr std::array<std::uint8_t, 3> ble_version_request{0x27, 0x01, 0x00};
inline constexpr std::array<std::uint8_t, 3> battery_request{0x29, 0x01, 0x00};
inline constexpr std::array<std::uint8_t, 3> game_count_request{0x31, 0x01, 0x00};

/// Minimum time between two host writes (the SDK's WRITE_INTERVAL, section 2).
inline constexpr TimeMs min_write_spacing_ms = 200;

/// Reports are `type, len, payload[len]` (section 2). Any non-zero byte can start one; zeros
/// between reports are the padding of fixed-size HID reports. A position report must carry
/// 32..62 payload bytes; anything longer than a 64-byte report is rejected (resync).
class FrameRule final : public drivers::FrameRule {
  public:
    [[nodiscard]] bool starts_packet(std::uint8_t b) const override { return b != 0; }
    [[nodiscard]] bool continues_packet(std::uint8_t) const override { return true; }
    [[nodiscard]] std::size_t header_size() const override { return 2; }
    [[nodiscard]] FrameLength packet_length(std::span<const std::uint8_t> header) const override;
    [[nodiscard]] bool is_padding(std::uint8_t b) const override { return b == 0; }
};

/// Piece of a square nibble (section 4 table: 1 black queen .. 12 white king, 0 empty);
/// nullopt for the invalid values 13..15.
[[nodiscard]] std::optional<Piece> piece_from_nibble(std::uint8_t nibble) noexcept;
/// Inverse of piece_from_nibble; 0 for Piece::None.
[[nodiscard]] std::uint8_t nibble_from_piece(Piece p) noexcept;

/// Position of square `s` in the report order h8, g8, .., a8, h7, .., a1 (section 4): byte
/// 2 + i/2 of the report, low nibble when i is even. `s` is the physical square (as the
/// board is built, white pieces at its rank 1).
[[nodiscard]] constexpr int report_index(Square s) noexcept { return 8 * (7 - s.rank()) + (7 - s.file()); }

/// Decodes the 32 board bytes of a position report (`report` = whole report, type and length
/// included) into game squares; `rotated` = the pieces were set up with white at the board's
/// far side, so physical square p is game square p.rotate(). Errors: too short, wrong type,
/// invalid nibble (the message names the square).
[[nodiscard]] Expected<BoardReading> decode_position(std::span<const std::uint8_t> report, bool rotated);
/// The 38-byte position report of `b` (game squares) as the board sends it, with the four
/// trailing `ff` bytes (section 4). Unknown occupants are sent as empty.
[[nodiscard]] std::array<std::uint8_t, 38> encode_position(const BoardReading& b, bool rotated);

/// Orientation from a physical reading (section 7, picochess's rule): true (turned round) when
/// more than 10 white pieces stand on ranks 5-8 and more than 10 black ones on ranks 1-4, false
/// on the opposite, nullopt otherwise (keep the current orientation).
[[nodiscard]] std::optional<bool> orientation_from_board(const BoardReading& physical) noexcept;

/// `0a 08 r8 .. r1` (section 5): one byte per rank, rank 8 first, bit 7 = a-file. `lit` in
/// game squares; `rotated` maps them to physical squares.
[[nodiscard]] std::array<std::uint8_t, 10> led_command(Bitboard lit, bool rotated) noexcept;
/// The game squares an LED command lights (for the emulator); 0 if `command` is too short.
[[nodiscard]] Bitboard leds_from_command(std::span<const std::uint8_t> command, bool rotated) noexcept;

/// `0b 04 fH fL dH dL` (section 3): frequency in Hz and duration in ms, big-endian, each
/// clamped to 0..65535.
[[nodiscard]] std::array<std::uint8_t, 6> beep_command(int frequency_hz, TimeMs duration_ms) noexcept;

/// A battery report `2a 02 level x` (section 6). Both encodings are accepted: charging when
/// bit 7 of `level` is set or x == 1; percent = level & 7f (capped at 100).
struct Battery {
    int percent = 0;
    bool charging = false;
    bool operator==(const Battery&) const = default;
};
/// nullopt if `report` is not a battery report, too short, or has level 0 (the SDK ignores
/// those: new hardware sends them while it does not know the level yet).
[[nodiscard]] std::optional<Battery> decode_battery(std::span<const std::uint8_t> report) noexcept;
/// The report for `b`; `bit7` = the official BLE document's encoding (charging in bit 7 of
/// the level byte, x = 0), otherwise picochess's (x = 1 when charging).
[[nodiscard]] std::array<std::uint8_t, 4> encode_battery(Battery b, bool bit7) noexcept;

/// A version reply (section 3, `27 01 01` MCU / `27 01 00` BLE module): `28 len which text..`.
struct VersionReply {
    bool mcu = true;   ///< byte 2: 01 = MCU firmware, 00 = BLE module
    std::string text;  ///< e.g. "CN_DVT9_210659"; non-printable bytes become '?'
};
[[nodiscard]] std::optional<VersionReply> decode_version(std::span<const std::uint8_t> report);
[[nodiscard]] std::vector<std::uint8_t> encode_version(const VersionReply& v);

} // namespace eboard::drivers::chessnut
