#include <catch2/catch.hpp>

#include "base/types.hpp"

using namespace eboard;

TEST_CASE("squares are numbered a1=0 .. h8=63") {
    CHECK(Square::parse("a1").index() == 0);
    CHECK(Square::parse("h1").index() == 7);
    CHECK(Square::parse("e4").index() == 28);
    CHECK(Square::parse("h8").index() == 63);
    CHECK(Square::parse("i1") == Square::none());
    CHECK(Square::parse("e4").name() == "e4");
    CHECK(Square::parse("h1").light());
    CHECK_FALSE(Square::parse("a1").light());
}

TEST_CASE("moves keep their squares, kind and promotion piece") {
    const Move m = Move::promotion(Square::parse("b7"), Square::parse("a8"), PieceType::Rook);
    CHECK(m.from() == Square::parse("b7"));
    CHECK(m.to() == Square::parse("a8"));
    CHECK(m.kind() == Move::Kind::Promotion);
    CHECK(m.promotion_type() == PieceType::Rook);
    const Move c = Move::castling(Square::parse("e1"), Square::parse("h1"));
    CHECK(c.king_to() == Square::parse("g1"));
    CHECK(c.rook_to() == Square::parse("f1"));
    const Move q = Move::castling(Square::parse("b8"), Square::parse("a8"));
    CHECK(q.king_to() == Square::parse("c8"));
    CHECK(q.rook_to() == Square::parse("d8"));
}

TEST_CASE("pieces know their colour, type and FEN letter") {
    CHECK(make_piece(Color::Black, PieceType::Queen) == Piece::BQueen);
    CHECK(type_of(Piece::WKnight) == PieceType::Knight);
    CHECK(color_of(Piece::BPawn) == Color::Black);
    CHECK(piece_to_char(Piece::BKing) == 'k');
    CHECK(piece_from_char('R') == Piece::WRook);
    CHECK(piece_from_char('x') == Piece::None);
}
