#include "base/placement.hpp"

namespace eboard {

std::string printable(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
    static constexpr char hex[] = "0123456789abcdef";
    return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

Expected<BoardReading> read_placement(std::string_view field, bool unknown) {
    BoardReading b{};
    int rank = 7;
    int file = 0;
    for (std::size_t i = 0; i < field.size() && field[i] != ' '; ++i) {
        const char c = field[i];
        const int column = static_cast<int>(i) + 1;
        if (c == '/') {
            if (file != 8)
                return Error{"rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                                 " squares, not 8",
                             1, column};
            if (--rank < 0) return Error{"more than 8 ranks in the board", 1, column};
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return Error{"rank " + std::to_string(rank + 1) + " has more than 8 squares", 1, column};
        } else {
            const Piece p = piece_from_char(c);
            const bool unknown_here = unknown && c == '?';
            if (p == Piece::None && !unknown_here)
                return Error{"unexpected " + printable(c) + " in the board", 1, column};
            if (file >= 8)
                return Error{"rank " + std::to_string(rank + 1) + " has more than 8 squares", 1, column};
            b.set(Square::at(file++, rank), unknown_here ? SquareReading::unknown() : SquareReading::of(p));
        }
    }
    if (rank != 0) return Error{std::to_string(8 - rank) + " ranks in the board, not 8"};
    if (file != 8) return Error{"rank 1 has " + std::to_string(file) + " squares, not 8"};
    return b;
}

std::string write_placement(const BoardReading& board) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const SquareReading r = board.at(Square::at(file, rank));
            if (!r.occupied) {
                ++empty;
                continue;
            }
            if (empty) out += static_cast<char>('0' + empty);
            empty = 0;
            out += reading_to_char(r);
        }
        if (empty) out += static_cast<char>('0' + empty);
        if (rank) out += '/';
    }
    return out;
}

} // namespace eboard
