// D.2.9 [23] / F2.7 [05]: "different positions on the two boards" - the sighted player's board
// and the visually impaired player's tactile board of one game.
#include "access/two_boards.hpp"
#include "rules/position.hpp"

#include <catch2/catch.hpp>

using namespace eboard;
using namespace eboard::access;
using B = TwoBoards::Board;

namespace {

std::string fen_after(std::initializer_list<const char*> ucis) {
    Position p = Position::startpos();
    for (const char* u : ucis) p.make_move(move_from_uci(p, u));
    return p.fen();
}

std::vector<Square> sq(std::initializer_list<const char*> names) {
    std::vector<Square> out;
    for (const char* n : names) out.push_back(Square::parse(n));
    return out;
}

} // namespace

TEST_CASE("D.2.9 a move repeated on the other board: the boards never differ") {
    TwoBoards t;
    t.start(fen_after({}));
    CHECK_FALSE(t.moved(B::Sighted, 1, fen_after({"e2e4"}))); // not yet repeated: expected
    CHECK_FALSE(t.moved(B::Tactile, 1, fen_after({"e2e4"})));
    CHECK_FALSE(t.moved(B::Tactile, 2, fen_after({"e2e4", "c7c5"})));
    CHECK_FALSE(t.moved(B::Sighted, 2, fen_after({"e2e4", "c7c5"})));
    CHECK_FALSE(t.differ());
}

TEST_CASE("D.2.9 another move on the tactile board: differ on its squares, agree once corrected") {
    TwoBoards t;
    t.start(fen_after({}));
    CHECK_FALSE(t.moved(B::Sighted, 1, fen_after({"e2e4"})));
    auto c = t.moved(B::Tactile, 1, fen_after({"d2d4"}));
    REQUIRE(c);
    CHECK(c->differ);
    CHECK(c->squares == sq({"d2", "e2", "d4", "e4"}));
    CHECK(t.differ());
    // The player takes d4 back and plays e4 (the same ply made again).
    c = t.moved(B::Tactile, 1, fen_after({"e2e4"}));
    REQUIRE(c);
    CHECK_FALSE(c->differ);
    CHECK(c->squares.empty());
    CHECK_FALSE(t.differ());
}

TEST_CASE("D.2.9 one board a ply ahead is compared at the ply of the other") {
    TwoBoards t;
    t.start(fen_after({}));
    CHECK_FALSE(t.moved(B::Sighted, 1, fen_after({"e2e4"})));
    // The tactile board repeats e4 wrongly as e3 while the sighted board is a ply ahead.
    auto c = t.moved(B::Tactile, 1, fen_after({"e2e3"}));
    REQUIRE(c);
    CHECK(c->differ);
    CHECK(c->squares == sq({"e3", "e4"}));
    c = t.moved(B::Tactile, 1, fen_after({"e2e4"}));
    REQUIRE(c);
    CHECK_FALSE(c->differ);
    // The visually impaired player answers e5 on his board; before the assistant repeats it,
    // the tactile board is a ply ahead and its position before e5 agrees with the other.
    CHECK_FALSE(t.moved(B::Tactile, 2, fen_after({"e2e4", "e7e5"})));
    // Repeated wrongly as d5 on the sighted board.
    c = t.moved(B::Sighted, 2, fen_after({"e2e4", "d7d5"}));
    REQUIRE(c);
    CHECK(c->squares == sq({"d5", "e5", "d7", "e7"}));
}

TEST_CASE("D.2.9 two or more plies apart: a move was not repeated") {
    TwoBoards t;
    t.start(fen_after({}));
    CHECK_FALSE(t.moved(B::Sighted, 1, fen_after({"g1f3"})));
    auto c = t.moved(B::Sighted, 2, fen_after({"g1f3", "g8f6"}));
    REQUIRE(c);
    CHECK(c->differ);
    CHECK(c->squares == sq({"g1", "f3", "f6", "g8"}));
    // Still two plies apart, now differing on fewer squares: the alert names them anew.
    c = t.moved(B::Sighted, 3, fen_after({"g1f3", "g8f6", "f3g1"}));
    REQUIRE(c);
    CHECK(c->differ);
    CHECK(c->squares == sq({"f6", "g8"}));
    // The same placement again after a knight dance, but four plies apart: moves were not
    // repeated, so the boards still differ, on no square.
    c = t.moved(B::Sighted, 4, fen_after({"g1f3", "g8f6", "f3g1", "f6g8"}));
    REQUIRE(c);
    CHECK(c->differ);
    CHECK(c->squares.empty());
}
