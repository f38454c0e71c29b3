// Recorded conversations: the DGT record.txt format (../shared/data/dgt/README.md), the console
// log of a Node.js app: host writes are `write --- [ Uint8Array(1) [ 66 ] ]` lines, every
// received chunk is a JavaScript array of decimal bytes, possibly over several lines; and our
// own wire trace (drivers/core/trace.hpp, `--trace NAME`), so a user's trace can be replayed.
#pragma once

#include "rules/expected.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace eboard::drivers::emu {

/// One host write and the chunks the board sent before the next write.
struct RecordedExchange {
    std::vector<std::uint8_t> host;
    std::vector<std::vector<std::uint8_t>> chunks;
};

/// Parses a record.txt-style log. Chunks before the first write are attached to an exchange
/// with an empty `host`. Errors name the line of a malformed array.
[[nodiscard]] Expected<std::vector<RecordedExchange>> parse_record_log(std::string_view text);

/// Parses a wire trace: `NAME > 56 35` (host bytes) starts an exchange, `NAME < 76 30` (device
/// bytes) is one chunk of it, anything else (notes `NAME : ...`, other log lines) is skipped.
/// Errors name the line of a malformed hex byte.
[[nodiscard]] Expected<std::vector<RecordedExchange>> parse_trace_log(std::string_view text);

} // namespace eboard::drivers::emu
