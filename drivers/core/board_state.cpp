#include "drivers/core/board_state.hpp"

namespace eboard::drivers {

char reading_to_char(SquareReading r) noexcept {
    if (!r.occupied) return '.';
    if (!r.identified()) return '?';
    return piece_to_char(r.piece);
}

Bitboard BoardState::occupancy() const noexcept {
    Bitboard b = 0;
    for (int i = 0; i < 64; ++i)
        if (squares_[static_cast<std::size_t>(i)].occupied) b |= bb(Square(i));
    return b;
}

BoardState BoardState::rotated() const noexcept {
    BoardState r;
    for (int i = 0; i < 64; ++i) r.set(Square(i).rotate(), at(Square(i)));
    return r;
}

std::string BoardState::placement() const {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empties = 0;
        for (int file = 0; file < 8; ++file) {
            const SquareReading r = at(Square::at(file, rank));
            if (!r.occupied) {
                ++empties;
                continue;
            }
            if (empties) out += static_cast<char>('0' + empties);
            empties = 0;
            out += reading_to_char(r);
        }
        if (empties) out += static_cast<char>('0' + empties);
        if (rank) out += '/';
    }
    return out;
}

Expected<BoardState> BoardState::from_placement(std::string_view fen) {
    BoardState b;
    int rank = 7, file = 0;
    for (std::size_t i = 0; i < fen.size(); ++i) {
        const char c = fen[i];
        const int column = static_cast<int>(i) + 1;
        if (c == ' ') break;
        if (c == '/') {
            if (file != 8 || rank == 0) return Error{"rank does not have 8 squares", 1, column};
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return Error{"too many squares in a rank", 1, column};
        } else {
            const Piece p = piece_from_char(c);
            if (p == Piece::None && c != '?')
                return Error{std::string("not a piece letter: '") + c + "'", 1, column};
            if (file >= 8) return Error{"too many squares in a rank", 1, column};
            b.set(Square::at(file, rank),
                  c == '?' ? SquareReading::unknown_occupant() : SquareReading::of(p));
            ++file;
        }
    }
    if (rank != 0 || file != 8) return Error{"placement does not describe 8 ranks of 8 squares"};
    return b;
}

BoardState BoardState::start_position() {
    return from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").value();
}

std::optional<bool> start_position_rotated(const BoardState& b) noexcept {
    int near_white = 0, near_black = 0, far_white = 0, far_black = 0;
    for (int i = 0; i < 64; ++i) {
        const Square s(i);
        if (s.rank() >= 2 && s.rank() <= 5) continue;
        const SquareReading r = b.at(s);
        if (!r.identified()) {
            if (r.occupied) return std::nullopt;  // an unknown occupant proves nothing
            continue;
        }
        const bool white = color_of(r.piece) == Color::White;
        (s.rank() < 2 ? (white ? near_white : near_black) : (white ? far_white : far_black))++;
    }
    if (near_white >= 8 && near_black == 0 && far_black >= 8 && far_white == 0) return false;
    if (near_black >= 8 && near_white == 0 && far_white >= 8 && far_black == 0) return true;
    return std::nullopt;
}

} // namespace eboard::drivers
