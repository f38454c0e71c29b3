// Touch-move (Art. 4.2-4.5, 2023 numbering): lifts are the board's evidence of touches; the
// obligations they create are alerted to the arbiter, never enforced.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("4.2 adjusting: a piece lifted and put back on its square is not a move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
        std::size_t before = b.r.touches.size();
        b.h.lift(sq("g1"));
        b.h.wait(200);
        b.h.place(sq("g1"), Piece::WKnight);
        b.h.wait(600);
        b.r.feed(b.h);
        REQUIRE(b.r.made.empty());
        REQUIRE(b.r.touches.size() == before + 2);
        // ... and moving that same piece afterwards is what 4.3.1 asks.
        b.h.shift(sq("g1"), sq("f3"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"g1f3"});
        REQUIRE(b.r.irregularities() == 0);
    }
}

TEST_CASE("4.3.1 lifting an own piece that can move and moving another raises touch_move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
        b.h.lift(sq("g1"));
        b.h.wait(200);
        b.h.place(sq("g1"), Piece::WKnight);
        b.h.wait(300);
        b.h.shift(sq("e2"), sq("e4"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4"});
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        CHECK(b.r.alerts[0].article == "4.3");
        CHECK(b.r.alerts[0].squares == bb(sq("g1")));
        CHECK(b.r.alerts[0].player == Color::White);
    }
}

TEST_CASE("4.3.2 lifting a capturable opponent piece and not capturing it raises touch_move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        b.h.lift(sq("d5"));
        b.h.wait(200);
        b.h.place(sq("d5"), Piece::BPawn);
        b.h.wait(300);
        b.h.shift(sq("e1"), sq("e2"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"e1e2"});
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        CHECK(b.r.alerts[0].squares == bb(sq("d5")));
    }
}

TEST_CASE("4.3.3 an own and an opponent piece touched: the own piece must capture it") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/3p4/4P3/8/8/4K1N1 w - - 0 1");
        b.h.lift(sq("e4"));
        b.h.wait(100);
        b.h.lift(sq("d5"));
        b.h.wait(200);
        b.h.place(sq("d5"), Piece::BPawn);
        b.h.wait(100);
        b.h.place(sq("e4"), Piece::WPawn);
        b.h.wait(300);
        b.h.shift(sq("g1"), sq("f3"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"g1f3"});
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        CHECK(b.r.alerts[0].squares == (bb(sq("e4")) | bb(sq("d5"))));
    }
}

TEST_CASE("4.4.1 king and then rook touched: castling with that rook was required") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        b.h.lift(sq("e1"));
        b.h.wait(100);
        b.h.place(sq("e1"), Piece::WKing);
        b.h.wait(100);
        b.h.lift(sq("h1"));
        b.h.wait(100);
        b.h.place(sq("h1"), Piece::WRook);
        b.h.wait(300);
        b.h.shift(sq("e1"), sq("d1"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"e1d1"});
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        CHECK(b.r.alerts[0].article == "4.4");
    }
}

TEST_CASE("4.4.3 king and then rook touched where castling is illegal: a king move was required") {
    // f1 is attacked by the black rook: castling kingside is illegal, the king can move.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        for (bool king_moves : {false, true}) {
            Board b({}, id);
            b.start("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
            b.h.lift(sq("e1"));
            b.h.wait(100);
            b.h.place(sq("e1"), Piece::WKing);
            b.h.wait(100);
            b.h.lift(sq("h1"));
            b.h.wait(100);
            b.h.place(sq("h1"), Piece::WRook);
            b.h.wait(300);
            if (king_moves) b.h.shift(sq("e1"), sq("d1"), 200);
            else b.h.shift(sq("h1"), sq("h5"), 200);
            b.finish(Color::White);
            REQUIRE(b.r.made == std::vector<std::string>{king_moves ? "e1d1" : "h1h5"});
            REQUIRE(b.r.count(AlertKind::TouchMove) == (king_moves ? 0 : 1));
            if (!king_moves) CHECK(b.r.alerts[0].article == "4.4");
        }
    }
}

TEST_CASE("4.5 no alert when the touched piece cannot move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        // The knight on b1 is pinned... no: the bishop c1 is blocked by its own pawns.
        b.start("4k3/8/8/8/8/8/1PPP4/2B1K3 w - - 0 1");
        b.h.lift(sq("c1"));
        b.h.wait(200);
        b.h.place(sq("c1"), Piece::WBishop);
        b.h.wait(300);
        b.h.shift(sq("d2"), sq("d4"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"d2d4"});
        REQUIRE(b.r.irregularities() == 0);
    }
}

TEST_CASE("4.3 a sensor bounce on an own piece is not a touch") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
        b.h.bounce(sq("g1"), 6);
        b.h.wait(300);
        b.h.shift(sq("e2"), sq("e4"), 200);
        b.finish(Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4"});
        REQUIRE(b.r.irregularities() == 0);
    }
}

TEST_CASE("4.3 lifts after the player's own move and before his press are not the opponent's touches") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1");
        b.h.shift(sq("e2"), sq("e4"), 200);
        b.h.wait(100);
        // White adjusts his pawn, then presses; Black then plays another move.
        b.h.lift(sq("e4"));
        b.h.wait(100);
        b.h.place(sq("e4"), Piece::WPawn);
        b.finish(Color::White);
        b.h.shift(sq("e8"), sq("d7"), 200);
        b.finish(Color::Black);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4", "e8d7"});
        REQUIRE(b.r.irregularities() == 0);
    }
}
