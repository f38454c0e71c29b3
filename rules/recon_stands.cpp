// An illegal move that stands ([23] A.5.2 unsupervised rapid/blitz, [05] B6/C3, club Art. 6):
// not put right before the opponent's next move, it becomes part of the game, which continues
// from the position on the board ([23] A.5.2, [05] B6/C3, club Art. 6; docs/reconstruction.md).
#include "base/placement.hpp"
#include "rules/recon_impl.hpp"

namespace eboard {

// After the press on an illegal move: the position it left, when the board shows one piece of
// the offender moved to one other square (quiet, or onto an opponent's piece seen lifted), and
// that position is one the rules core accepts (e.g. not with the offender's king in check).
void Reconstructor::Impl::prepare_stands() {
    stood.reset();
    Color us = cur().side_to_move();
    Bitboard gone = cur().occupied() & ~occ;
    Bitboard arrived = occ & ~cur().occupied();
    if (count(gone) != 1 || !(gone & cur().pieces(us))) return;
    Square from = first_square(gone);
    Square to;
    if (count(arrived) == 1) {
        to = first_square(arrived);
    } else if (arrived == 0) {
        Bitboard taken = cur().pieces(~us) & occ & (vacated | retyped);
        if (count(taken) != 1) return;
        to = first_square(taken);
    } else {
        return;
    }
    auto ti = static_cast<std::size_t>(to.index());
    Piece moved = (known & bit_of(to)) ? ident[ti] : cur().piece_on(from);
    if (moved == Piece::None || color_of(moved) != us) return;
    if (type_of(cur().piece_on(to)) == PieceType::King) return;  // capturing the king
    BoardReading after = board_reading(cur());
    after.set(from, Piece::None);
    after.set(to, moved);
    std::string fen = write_placement(after);
    fen += us == Color::White ? " b " : " w ";
    std::string rights;
    for (Color c : {Color::White, Color::Black}) {
        for (bool king_side : {true, false}) {
            Square rook = cur().castling_rook(c, king_side);
            if (!rook.valid() || rook == from || rook == to) continue;
            Square king = cur().king_square(c);
            if (king == from) continue;
            char letter = static_cast<char>('a' + rook.file());
            rights += c == Color::White ? static_cast<char>(letter - 'a' + 'A') : letter;
        }
    }
    fen += rights.empty() ? "-" : rights;
    fen += " - 0 " + std::to_string(cur().fullmove_number() + (us == Color::Black ? 1 : 0));
    auto p = Position::from_fen(fen, cur().chess960());
    if (!p) return;
    stood.emplace(std::move(p.value()));
    stood_from = from;
    stood_to = to;
}

// The opponent moved from the illegal position: the illegal move stands, the game continues.
bool Reconstructor::Impl::illegal_stands() {
    std::vector<Successor> list;
    successors(*stood, list);
    bool assumed = false;
    std::optional<Move> m = find_move(*stood, list, &assumed);
    if (!m) return false;
    int ply = ply_base + made_plies() + 1;
    out.emplace_back(IllegalMoveStands{now, ply, stood_from, stood_to, stood->fen()});
    start_line(std::move(*stood));
    stood.reset();
    ply_base = ply;
    completed = 0;
    successors(cur(), succ);
    succ_prev.clear();
    await_restore = false;
    illegal_episode = false;
    set_mismatch_clear();
    touches.clear();
    make(*m, assumed, false);
    return true;
}

} // namespace eboard
