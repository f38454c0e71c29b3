// libFuzzer target for the PGN reader (rules/pgn_read.cpp) and the TimeControl parser: any bytes
// in, games or Errors out, never a crash or a hang. Every game read is written (export format),
// read again and must come out the same; a TimeControl that parses must format and re-parse
// to the same value.
#include "rules/pgn.hpp"

#include "rules/time_control.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace eboard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    PgnReadOptions opts;
    opts.keep_variations = size > 0 && (data[0] & 1) != 0;
    PgnReader reader(text, opts);
    int games = 0;
    while (auto game = reader.next()) {
        if (++games > 10'000) std::abort(); // the reader must make progress
        if (!game->has_value()) {
            if (game->error().line < 1 || game->error().column < 1) std::abort();
            continue;
        }
        const GameRecord& g = game->value();
        const std::string written = write_pgn(g);
        auto again = read_pgn_game(written, opts);
        if (!again) std::abort();
        if (write_pgn(*again) != written) std::abort();
        if (const std::string* tc = g.tag("TimeControl")) {
            if (auto parsed = parse_time_control(*tc)) {
                auto round = parse_time_control(format_time_control(*parsed));
                if (!round || !(*round == *parsed)) std::abort();
            }
        }
    }
    return 0;
}
