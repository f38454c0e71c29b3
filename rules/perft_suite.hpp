// Reader for perft reference files (text already in memory; the rules core does no I/O):
//  - python-chess / CPW style: "id NAME", "epd FEN", "perft DEPTH COUNT" lines, '#' comments;
//  - EPD style (perftsuite.epd): "FEN ;D1 20 ;D2 400 ...", one position per line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.hpp"

namespace eboard {

/// One position of a perft file with its published counts.
struct PerftCase {
    std::string id;   // "id" line, else "line N"
    std::string fen;  // as written (often 4 fields, EPD style)
    int line = 0;     // 1-based line of the FEN in the file
    std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, leaf nodes), file order
};

/// Parses either format (detected per line). A malformed line gives an Error with its line.
Expected<std::vector<PerftCase>> parse_perft_suite(std::string_view text);

} // namespace eboard
