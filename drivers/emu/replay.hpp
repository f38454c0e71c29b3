// Recorded conversations for the emulators to replay: DGT's record.txt format
// (../shared/data/dgt/README.md: the console log of a Node.js app; host writes are
// `write --- [ Uint8Array(1) [ 66 ] ]` lines, every received chunk a JavaScript array of
// decimal bytes, possibly over several lines), and eboardd's own `--trace` output.
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

/// Parses the wire lines of channel `category` from a `--trace` log (drivers/core/trace.hpp):
/// `<category> > 21 01 00` is a host write, `<category> < 01 24 ..` one chunk the host
/// received (one whole report on a message-oriented transport). Notes, other channels, blank
/// lines and `#` comments are skipped. Errors name the line of a malformed hex byte.
[[nodiscard]] Expected<std::vector<RecordedExchange>> parse_trace_log(std::string_view text,
                                                                      std::string_view category);

} // namespace eboard::drivers::emu
