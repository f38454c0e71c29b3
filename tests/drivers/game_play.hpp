// Playing the games of ../shared/data/games on an emulated board: the positions of a game
// move by move (rules core), and a move played by hand on any emulator with lift/place.
#pragma once

#include "drivers/core/board_state.hpp"
#include "pgn_moves.hpp"
#include "rules/notation.hpp"
#include "rules/pgn.hpp"
#include "rules/position.hpp"

#include <catch2/catch.hpp>

namespace eboard::drivers::test {

/// The pieces of a position as a board reading.
inline BoardState board_of(const Position& p) {
    BoardState b;
    for (int i = 0; i < 64; ++i) b.set(Square(i), p.piece_on(Square(i)));
    return b;
}

/// Every game of a PGN file as the rules core's PGN reader reads it (the full reader: tag
/// order, comments with brackets and games without moves as PGN allows them).
inline std::vector<PgnGame> read_all_games(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    PgnReader reader(in);
    std::vector<PgnGame> out;
    while (auto game = reader.next()) {
        INFO(path << ": " << (game->has_value() ? "" : game->error().message));
        REQUIRE(game->has_value());
        PgnGame g;
        g.fen = game->value().start_fen;
        g.chess960 = game->value().chess960;
        for (const auto& m : game->value().moves) g.san.push_back(m.san);
        out.push_back(std::move(g));
    }
    return out;
}

/// The position a game starts from (its FEN tag, else the standard start).
inline Position game_start(const PgnGame& g) {
    auto start = g.fen.empty() ? Expected<Position>(Position::startpos())
                               : Position::from_fen(g.fen, g.chess960);
    REQUIRE(start.has_value());
    return std::move(start.value());
}

/// Calls `step(before, after)` for every move of `g` in order (a null move, "Z0" or "--" as in
/// anastasian-lewis.pgn, leaves the board as it is and is not passed on). Returns the number
/// of moves gone through; every SAN must parse.
template <typename Step>
int replay_game(const PgnGame& g, Step&& step) {
    Position pos = game_start(g);
    int played = 0;
    for (const std::string& san : g.san) {
        INFO("move " << played + 1 << " " << san);
        if (san == "Z0" || san == "--") {
            pos.make_null_move();
            ++played;
            continue;
        }
        const auto m = parse_move(pos, san);
        REQUIRE(m.has_value());
        const BoardState before = board_of(pos);
        pos.make_move(m.value());
        step(before, board_of(pos));
        ++played;
    }
    return played;
}

/// Plays a move by hand on an emulator: every square that empties is lifted, then every
/// square whose piece changed gets its new piece (captures, castling, en passant, promotion
/// alike).
template <typename Emulator>
void play_on_board(Emulator& e, const BoardState& before, const BoardState& after) {
    for (int i = 0; i < 64; ++i)
        if (before.at(Square(i)) != after.at(Square(i)) && before.at(Square(i)).occupied)
            e.lift(Square(i));
    for (int i = 0; i < 64; ++i)
        if (before.at(Square(i)) != after.at(Square(i)) && after.at(Square(i)).occupied)
            e.place(Square(i), after.at(Square(i)).piece);
}

} // namespace eboard::drivers::test
