// Perft: the number of leaf nodes of the legal move tree, the standard test of a move
// generator against published counts (rules/position.hpp).
#include "rules/position.hpp"

namespace eboard {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    const MoveList moves = pos.legal_moves();
    if (depth == 1) return moves.size(); // bulk counting: the last ply is not played
    std::uint64_t nodes = 0;
    for (const Move m : moves) {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    return nodes;
}

} // namespace eboard
