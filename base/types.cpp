#include "base/types.hpp"

namespace eboard {

namespace {
constexpr std::string_view kPieceChars = ".PNBRQK..pnbrqk";
} // namespace

char piece_to_char(Piece p) noexcept {
    const auto i = static_cast<std::size_t>(p);
    return i < kPieceChars.size() ? kPieceChars[i] : '?';
}

Piece piece_from_char(char c) noexcept {
    if (c == '.') return Piece::None;
    const auto i = kPieceChars.find(c);
    return i == std::string_view::npos ? Piece::None : static_cast<Piece>(i);
}

Square Square::parse(std::string_view s) noexcept {
    if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return none();
    return at(s[0] - 'a', s[1] - '1');
}

std::string Square::name() const {
    if (!valid()) return "-";
    return {static_cast<char>('a' + file()), static_cast<char>('1' + rank())};
}

} // namespace eboard
