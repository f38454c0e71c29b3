// The games of data/games as SAN moves for the driver tests, read with the rules
// core's PGN reader (rules/pgn.hpp): every game of a file, including study chapters that
// start from a FEN; null moves come as "--".
#pragma once

#include "drivers/core/board_state.hpp"
#include "rules/notation.hpp"
#include "rules/pgn.hpp"
#include "rules/position.hpp"

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

/// Every game of a PGN file as the rules core's reader reads it (tag order, comments with
/// brackets, games without moves: all of PGN); an empty list if a game does not read.
inline std::vector<PgnGame> read_all_games(const std::string& path) {
    std::ifstream in(path);
    PgnReader reader(in);
    std::vector<PgnGame> out;
    while (auto game = reader.next()) {
        if (!game->has_value()) return {};
        PgnGame g;
        g.fen = game->value().start_fen;
        g.chess960 = game->value().chess960;
        for (const auto& m : game->value().moves) g.san.push_back(m.san);
        out.push_back(std::move(g));
    }
    return out;
}

/// The pieces of a position as a board reading.
inline BoardReading board_of(const Position& p) {
    BoardReading b;
    for (int i = 0; i < 64; ++i) b.set(Square(i), p.piece_on(Square(i)));
    return b;
}

/// The pieces on the board at the start of `g` and after each of its moves (a null move,
/// "Z0" or "--", repeats the board). Stops at a move the rules core cannot parse (the caller
/// compares the size with g.san.size() + 1).
inline std::vector<BoardReading> game_boards(const PgnGame& g) {
    auto start = g.fen.empty() ? Expected<Position>(Position::startpos()) : Position::from_fen(g.fen, g.chess960);
    std::vector<BoardReading> boards;
    if (!start) return boards;
    Position pos = std::move(start.value());
    boards.push_back(board_of(pos));
    for (const std::string& san : g.san) {
        if (san == "Z0" || san == "--") {
            pos.make_null_move();
        } else {
            const auto m = parse_move(pos, san);
            if (!m) break;
            pos.make_move(m.value());
        }
        boards.push_back(board_of(pos));
    }
    return boards;
}

} // namespace eboard::drivers::test
