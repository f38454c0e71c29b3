// Playing the games of data/games move by move on an emulated board, for the
// drivers' done criterion (issue 4): the caller plays each move by hand (play_on_board in
// harness.hpp) and checks that its driver decoded the board the emulator holds.
#pragma once

#include "harness.hpp"
#include "pgn_moves.hpp"

#include <catch2/catch.hpp>

namespace eboard::drivers::test {

/// Calls `on_move(before, after)` for every move of `g` that changes the board (null moves do
/// not) and returns the number of moves, null moves included. Fails the test at a move the
/// rules core cannot read.
template <typename OnMove>
int for_each_move(const PgnGame& g, OnMove&& on_move) {
    const std::vector<BoardReading> boards = game_boards(g);
    REQUIRE(boards.size() == g.san.size() + 1);
    for (std::size_t i = 0; i + 1 < boards.size(); ++i) {
        INFO("move " << i + 1 << " " << g.san[i]);
        if (boards[i] != boards[i + 1]) on_move(boards[i], boards[i + 1]);
    }
    return static_cast<int>(g.san.size());
}

} // namespace eboard::drivers::test
