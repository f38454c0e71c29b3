#include "access/two_boards.hpp"

#include <cstdlib>

#include "base/placement.hpp"

namespace eboard::access {

namespace {
// The position of a FEN's placement field; nullopt if it is malformed.
std::optional<BoardReading> placement_of(std::string_view fen) {
    auto board = read_placement(fen);
    if (!board) return std::nullopt;
    return *board;
}
} // namespace

std::vector<Square> differing_squares(const BoardReading& a, const BoardReading& b) {
    std::vector<Square> out;
    for (std::size_t i = 0; i < 64; ++i)
        if (a[i] != b[i]) out.emplace_back(static_cast<int>(i));
    return out;
}

void TwoBoards::start(std::string_view fen) {
    const auto p = placement_of(fen);
    for (Side& s : sides_) s = Side{0, p, std::nullopt};
    differ_ = false;
    squares_.clear();
}

std::vector<Square> TwoBoards::compare() const {
    const Side& a = sides_[0];
    const Side& b = sides_[1];
    const int gap = a.ply - b.ply;
    const std::optional<BoardReading>* x = &a.now;
    const std::optional<BoardReading>* y = &b.now;
    if (gap == 1) x = &a.before; // a is ahead: b's position against a's at b's ply
    if (gap == -1) y = &b.before;
    if (!*x || !*y) return {};
    std::vector<Square> d = differing_squares(**x, **y);
    // Two or more plies apart, a move was not repeated: the boards differ even if the
    // positions happen to coincide (say, a piece moved there and back).
    if (d.empty() && std::abs(gap) >= 2) d = differing_squares(*a.now, *b.now);
    return d;
}

std::optional<TwoBoards::Change> TwoBoards::moved(Board board, int ply, std::string_view fen) {
    Side& s = sides_[static_cast<std::size_t>(board)];
    const auto p = placement_of(fen);
    if (!p) return std::nullopt;
    if (ply == s.ply + 1)
        s.before = s.now;
    else if (ply != s.ply)
        s.before.reset(); // taken back further, or a jump: not known
    s.ply = ply;
    s.now = p;
    std::vector<Square> d = compare();
    const bool differ = !d.empty() || std::abs(sides_[0].ply - sides_[1].ply) >= 2;
    if (differ == differ_ && d == squares_) return std::nullopt;
    differ_ = differ;
    squares_ = d;
    return Change{differ, d};
}

} // namespace eboard::access
