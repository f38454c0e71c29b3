// Reconstruction of ordinary moves, captures, castling, en passant and promotion from lifts and
// placements (Art. 4.7; laws.md section 4.3), on occupancy-only and identity boards.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

HandlingOptions occupancy() {
    HandlingOptions o;
    o.vary_orders = false;
    o.slides = o.bounce = o.jadoube = false;
    return o;
}
HandlingOptions identity() {
    HandlingOptions o = occupancy();
    o.identity = true;
    return o;
}

/// Sets up `fen` and starts the game there (an arbiter's position).
void start_at(Run& r, BoardHands& h, const char* fen, bool chess960 = false) {
    Position p = std::move(Position::from_fen(fen, chess960).value());
    r.take(r.rec.start_game(p, h.now()));
    h.setup(p);
    h.wait(400);
    r.feed(h);
}

} // namespace

TEST_CASE("4.7 a move is made when the piece is released and completed when the clock is pressed") {
    for (bool id : {false, true}) {
        Run r;
        BoardHands h(id ? identity() : occupancy());
        h.setup(Position::startpos());
        h.wait(300);
        r.feed(h);
        REQUIRE(r.games_started == 1);
        h.lift(sq("g1"));
        h.wait(200);
        h.place(sq("f3"), Piece::WKnight);
        h.wait(100);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"g1f3"});
        REQUIRE(r.completed.empty());
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.completed == std::vector<int>{1});
        REQUIRE(r.irregularities() == 0);
        REQUIRE(r.touches.size() == 2);
        CHECK(r.touches[0].lift);
        CHECK(r.touches[0].piece == Piece::WKnight);
    }
}

TEST_CASE("4.7.1 capture with the captured piece removed first") {
    for (bool id : {false, true}) {
        Run r;
        BoardHands h(id ? identity() : occupancy());
        start_at(r, h, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        h.lift(sq("d5"));
        h.wait(200);
        h.lift(sq("e4"));
        h.wait(200);
        h.place(sq("d5"), Piece::WPawn);
        h.wait(100);
        h.press(Color::White);
        h.wait(100);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e4d5"});
        REQUIRE(r.completed == std::vector<int>{1});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("4.7.1 capture with the capturing piece lifted first and the captured piece removed last") {
    Run r;
    BoardHands h(occupancy());
    start_at(r, h, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    h.lift(sq("e4"));
    h.wait(200);
    h.lift(sq("d5"));
    h.wait(200);
    // A piece held in the hand with its victim off the board is not yet a capture.
    r.feed(h);
    REQUIRE(r.made.empty());
    h.place(sq("d5"), Piece::WPawn);
    h.wait(100);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"e4d5"});
    REQUIRE(r.irregularities() == 0);
}

TEST_CASE("4.7.1 capture on an identity board whose captured square changes identity directly") {
    HandlingOptions o = identity();
    Run r;
    BoardHands h(o);
    start_at(r, h, "rnbqkb1r/pppppppp/8/8/2n5/1B6/PPPP1PPP/RNBQK1NR w KQkq - 0 1");
    h.retype(sq("c4"), Piece::WBishop);  // dgt.md 8 (b): c4's "empty" never reported
    h.wait(60);
    h.lift(sq("b3"));
    h.wait(100);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"b3c4"});
    REQUIRE(r.irregularities() == 0);
}

TEST_CASE("3.8 castling king first, rook first-then-alert, and both lifted") {
    const char* fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    SECTION("king first") {
        Run r;
        BoardHands h(occupancy());
        start_at(r, h, fen);
        h.shift(sq("e1"), sq("g1"), 200);
        h.wait(400);  // the king alone on g1 is not a move
        r.feed(h);
        REQUIRE(r.made.empty());
        h.shift(sq("h1"), sq("f1"), 200);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e1g1"});
        REQUIRE(r.irregularities() == 0);
    }
    SECTION("both lifted, queenside") {
        Run r;
        BoardHands h(identity());
        start_at(r, h, fen);
        h.lift(sq("e1"));
        h.wait(100);
        h.lift(sq("a1"));
        h.wait(100);
        h.place(sq("d1"), Piece::WRook);
        h.wait(100);
        h.place(sq("c1"), Piece::WKing);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e1c1"});
        REQUIRE(r.irregularities() == 0);
    }
    SECTION("4.4.2 rook first, then king: castling recorded and touch_move raised") {
        Run r;
        BoardHands h(occupancy());
        start_at(r, h, fen);
        h.shift(sq("h1"), sq("f1"), 200);
        h.wait(100);
        h.shift(sq("e1"), sq("g1"), 200);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e1g1"});
        REQUIRE(r.count(AlertKind::TouchMove) == 1);
        CHECK(r.alerts[0].article == "4.4");
    }
}
