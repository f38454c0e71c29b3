// base/placement.hpp: the one reader and writer of the FEN placement field.
#include <catch2/catch.hpp>

#include "base/placement.hpp"

using namespace eboard;

TEST_CASE("placement: the start position reads square by square and writes back the same") {
    const auto b = read_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    REQUIRE(b.has_value());
    CHECK(*b == BoardReading::start_position());
    CHECK(b->at(Square::parse("e1")) == SquareReading::of(Piece::WKing));
    CHECK(b->at(Square::parse("d8")) == SquareReading::of(Piece::BQueen));
    CHECK(b->at(Square::parse("e4")) == SquareReading::empty());
    CHECK(write_placement(*b) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
}

TEST_CASE("placement: a whole FEN is read up to its first space") {
    const auto p = read_placement("8/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    REQUIRE(p.has_value());
    CHECK((*p)[0] == SquareReading::of(Piece::WRook));
    CHECK((*p)[4] == SquareReading::of(Piece::WKing));
    CHECK(write_placement(*p) == "8/8/8/8/8/8/8/R3K2R");
}

TEST_CASE("placement: '?' is an unknown occupant only when asked for") {
    const auto o = read_placement("8/8/8/8/8/8/8/4?3", true);
    REQUIRE(o.has_value());
    CHECK(o->at(Square::parse("e1")) == SquareReading::unknown());
    CHECK(write_placement(*o) == "8/8/8/8/8/8/8/4?3");
    const auto refused = read_placement("8/8/8/8/8/8/8/4?3");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message == "unexpected '?' in the board");
}

TEST_CASE("placement: errors name the fault and its column") {
    const auto letter = read_placement("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    REQUIRE_FALSE(letter.has_value());
    CHECK(letter.error().message == "unexpected 'X' in the board");
    CHECK(letter.error().column == 14);
    CHECK(read_placement("9/8/8/8/8/8/8/8").error().message == "unexpected '9' in the board");
    CHECK(read_placement("\x01" "7/8/8/8/8/8/8/8").error().message == "unexpected byte 0x01 in the board");
    CHECK(read_placement("8/8/8").error().message == "3 ranks in the board, not 8");
    CHECK(read_placement("8/8/8/8/8/8/8/8/8").error().message == "more than 8 ranks in the board");
    CHECK(read_placement("4k4/8/8/8/8/8/8/8").error().message == "rank 8 has more than 8 squares");
    CHECK(read_placement("7/8/8/8/8/8/8/8").error().message == "rank 8 has 7 squares, not 8");
    CHECK(read_placement("8/8/8/8/8/8/8/7").error().message == "rank 1 has 7 squares, not 8");
}

TEST_CASE("board reading: occupancy bits and the board turned round") {
    const BoardReading s = BoardReading::start_position();
    CHECK(s.occupancy() == 0xffff00000000ffffULL);
    CHECK(s.rotated().at(Square::parse("d8")).piece == Piece::WKing); // e1 turned round
    CHECK(s.rotated().rotated() == s);
    CHECK(reading_to_char(SquareReading::unknown()) == '?');
    CHECK(reading_to_char(SquareReading::empty()) == '.');
}
