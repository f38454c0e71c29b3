// Skeleton of the Position implementation (the real one follows shortly): compiles and links so
// that code written against rules/position.hpp builds. Every query answers "empty board".
#include "rules/position.hpp"

namespace eboard {

Position Position::startpos() {
    Position p;
    p.states_.emplace_back();
    return p;
}
Position Position::chess960_start(int) { return startpos(); }
Expected<Position> Position::from_fen(std::string_view, bool) {
    return Error{"bad FEN: not implemented yet", 0, 0};
}
std::string Position::fen() const { return "8/8/8/8/8/8/8/8 w - - 0 1"; }
std::string Position::shredder_fen() const { return fen(); }
Position Position::copy() const {
    Position p;
    p.board_ = board_;
    p.by_type_ = by_type_;
    p.by_color_ = by_color_;
    p.stm_ = stm_;
    p.fullmove_ = fullmove_;
    p.chess960_ = chess960_;
    p.castling_rooks_ = castling_rooks_;
    p.castling_empty_ = castling_empty_;
    p.castling_safe_ = castling_safe_;
    p.castling_loss_ = castling_loss_;
    p.states_ = states_;
    return p;
}
Square Position::king_square(Color) const noexcept { return Square::none(); }
Bitboard Position::attackers_to(Square, Color) const noexcept { return 0; }
MoveList Position::legal_moves() const { return {}; }
bool Position::has_legal_move() const { return false; }
bool Position::is_legal(Move) const { return false; }
bool Position::gives_check(Move) const { return false; }
bool Position::is_capture(Move) const noexcept { return false; }
Piece Position::captured_piece(Move) const noexcept { return Piece::None; }
void Position::make_move(Move) {}
void Position::unmake_move() {}
void Position::make_null_move() {}

std::uint64_t perft(Position&, int depth) { return depth <= 0 ? 1 : 0; }
std::string to_uci(const Position&, Move m) {
    return m.from().name() + m.to().name();
}
Move move_from_uci(const Position&, std::string_view) { return Move::none(); }

} // namespace eboard
