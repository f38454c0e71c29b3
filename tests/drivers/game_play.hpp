// Playing the games of ../shared/data/games on an emulated board, for the drivers' done
// criterion (issue 4): every move is played by hand (lifts, then places) and the caller checks
// that its driver decoded the board the emulator holds.
#pragma once

#include "pgn_moves.hpp"

#include "drivers/core/board_state.hpp"
#include "rules/notation.hpp"
#include "rules/position.hpp"

#include <catch2/catch.hpp>

namespace eboard::drivers::test {

/// The pieces of a position as a sensor board shows them.
inline BoardState board_of(const Position& p) {
    BoardState b;
    for (int i = 0; i < 64; ++i) b.set(Square(i), p.piece_on(Square(i)));
    return b;
}

/// Plays a move by hand on an emulator with lift(Square) and place(Square, Piece): every square
/// that empties is lifted, then every square whose piece changed gets its new piece (captures,
/// castling, en passant, promotion alike).
template <typename Emulator>
void play_on_board(Emulator& e, const BoardState& before, const BoardState& after) {
    for (int i = 0; i < 64; ++i)
        if (before.at(Square(i)) != after.at(Square(i)) && before.at(Square(i)).occupied) e.lift(Square(i));
    for (int i = 0; i < 64; ++i)
        if (before.at(Square(i)) != after.at(Square(i)) && after.at(Square(i)).occupied)
            e.place(Square(i), after.at(Square(i)).piece);
}

/// The position a game starts from (its FEN tag, else the standard start).
inline Position start_of(const PgnGame& g) {
    auto start = g.fen.empty() ? Expected<Position>(Position::startpos()) : Position::from_fen(g.fen, g.chess960);
    REQUIRE(start.has_value());
    return std::move(start.value());
}

/// Calls `on_move(before, after)` for every move of `g` (null moves change nothing on the
/// board and are skipped) and returns the number of moves, null moves included.
template <typename OnMove>
int for_each_move(const PgnGame& g, OnMove&& on_move) {
    Position pos = start_of(g);
    int played = 0;
    for (const std::string& san : g.san) {
        INFO("move " << played + 1 << " " << san);
        if (san == "Z0" || san == "--") {  // a null move (anastasian-lewis.pgn): nothing moves
            pos.make_null_move();
            ++played;
            continue;
        }
        const auto m = parse_move(pos, san);
        REQUIRE(m.has_value());
        const BoardState before = board_of(pos);
        pos.make_move(m.value());
        on_move(before, board_of(pos));
        ++played;
    }
    return played;
}

} // namespace eboard::drivers::test
