// The games of ../shared/data/games as SAN moves for the driver tests, read with the rules
// core's PGN reader (rules/pgn.hpp): every game of a file, including study chapters that
// start from a FEN; null moves come as "--".
#pragma once

#include "rules/pgn.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace eboard::drivers::test {

struct PgnGame {
    std::string fen;  ///< the FEN tag, empty for the standard start
    bool chess960 = false;
    std::vector<std::string> san;
};

/// The first `max_games` games of the PGN file at `path`; a game the reader rejects fails the
/// test (the shared games are all valid).
inline std::vector<PgnGame> read_pgn_games(const std::string& path, std::size_t max_games = 1000) {
    std::ifstream f(path);
    INFO("reading " << path);
    REQUIRE(f.good());
    PgnReader reader(f);
    std::vector<PgnGame> games;
    while (games.size() < max_games) {
        auto next = reader.next();
        if (!next) break;
        INFO("game " << games.size() + 1);
        if (!next->has_value()) FAIL(next->error().message << " at line " << next->error().line);
        const GameRecord& rec = next->value();
        PgnGame g;
        g.fen = rec.start_fen;
        g.chess960 = rec.chess960;
        for (const GameMove& m : rec.moves) g.san.push_back(m.san);
        games.push_back(std::move(g));
    }
    return games;
}

} // namespace eboard::drivers::test
