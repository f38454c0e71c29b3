// Game state from the board: new games on a start position (standard, Chess960), a board set
// up the other way round, the DGT kings-in-the-centre result signal, and the visually impaired
// player's tactile board (App. D.2.2-D.2.3).
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

HandlingOptions plain(bool identity, bool rotated = false) {
    HandlingOptions o;
    o.identity = identity;
    o.rotated = rotated;
    o.vary_orders = o.slides = o.bounce = o.jadoube = false;
    return o;
}

const GameEvent* first_start(const Run& r) {
    for (const ReconEvent& e : r.all)
        if (const auto* g = std::get_if<GameEvent>(&e))
            if (g->start) return g;
    return nullptr;
}

} // namespace

TEST_CASE("new game: the standard start position set up starts a game") {
    for (bool id : {false, true}) {
        Run r;
        BoardHands h(plain(id));
        h.setup(Position::startpos());
        h.wait(100);
        r.feed(h);
        REQUIRE(r.games_started == 1);
        CHECK(first_start(r)->fen == Position::startpos().fen());
        CHECK(r.rec.in_game());
    }
}

TEST_CASE("new game: a Chess960 start position on an identity board is recognised") {
    Run r;
    BoardHands h(plain(true));
    h.setup(Position::chess960_start(0));
    h.wait(100);
    r.feed(h);
    REQUIRE(r.games_started == 1);
    CHECK(first_start(r)->chess960_number == 0);
    CHECK(r.rec.position().chess960());
}

TEST_CASE("new game: pieces set up one by one start the game when the start position is complete") {
    Run r;
    BoardHands h(plain(false));
    Position s = Position::startpos();
    for (int i = 0; i < 64; ++i) {
        if (s.piece_on(Square(i)) == Piece::None) continue;
        h.place(Square(i), s.piece_on(Square(i)));
        h.wait(120);
    }
    r.feed(h);
    REQUIRE(r.games_started == 1);
    h.shift(sq("d2"), sq("d4"), 150);
    h.wait(100);
    h.press(Color::White);
    h.wait(100);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"d2d4"});
}

TEST_CASE("new game: the start position set up after a finished game starts the next one") {
    Run r;
    BoardHands h(plain(false));
    h.setup(Position::startpos());
    h.wait(100);
    for (auto [f, t] : {std::pair{"f2", "f3"}, {"e7", "e5"}, {"g2", "g4"}, {"d8", "h4"}}) {
        Color c = f[1] == '2' ? Color::White : Color::Black;
        h.shift(sq(f), sq(t), 150);
        h.wait(100);
        h.press(c);
        h.wait(100);
    }
    r.feed(h);
    REQUIRE(r.results.size() == 1);
    CHECK(r.results[0].result == "0-1");
    h.clear();
    h.wait(500);
    h.setup(Position::startpos());
    h.wait(500);
    r.feed(h);
    REQUIRE(r.games_started == 2);
    CHECK(r.rec.in_game());
}

TEST_CASE("7.2.2 a board set up rotated is detected from the start position (identity board)") {
    Run r;
    BoardHands h(plain(true, true));
    h.setup(Position::startpos());
    h.wait(100);
    r.feed(h);
    REQUIRE(r.games_started == 1);
    CHECK(first_start(r)->rotated);
    h.shift(sq("e2"), sq("e4"), 150);  // game squares; the board sees d7-d5
    h.wait(100);
    h.press(Color::White);
    h.wait(100);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"e2e4"});
}

TEST_CASE("7.2.2 a board set up rotated is detected from the first move (occupancy-only board)") {
    Run r;
    BoardHands h(plain(false, true));
    h.setup(Position::startpos());
    h.wait(100);
    h.shift(sq("g1"), sq("f3"), 150);
    h.wait(100);
    h.press(Color::White);
    h.wait(100);
    h.shift(sq("e7"), sq("e5"), 150);
    h.wait(100);
    h.press(Color::Black);
    h.wait(100);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"g1f3", "e7e5"});
    CHECK(r.rec.rotated());
}

TEST_CASE("DGT kings in the centre signal the result and are never recorded as a move") {
    struct Case { const char* wk; const char* bk; const char* result; };
    for (Case c : {Case{"e4", "d5", "1-0"}, Case{"d4", "e5", "0-1"}, Case{"e4", "e5", "1/2-1/2"}}) {
        for (bool id : {false, true}) {
            Run r;
            BoardHands h(plain(id));
            h.setup(Position::startpos());
            h.wait(100);
            h.shift(sq("e2"), sq("e3"), 150);
            h.wait(100);
            h.press(Color::White);
            h.wait(300);
            h.shift(sq("e1"), sq(c.wk), 200);
            h.wait(100);
            h.shift(sq("e8"), sq(c.bk), 200);
            h.wait(800);
            r.feed(h);
            INFO(c.wk << " " << c.bk << " identity " << id);
            REQUIRE(r.made == std::vector<std::string>{"e2e3"});
            REQUIRE(r.results.size() == 1);
            CHECK(r.results[0].result == c.result);
            CHECK(r.results[0].termination == "kings in the centre");
            REQUIRE(r.irregularities() == 0);
        }
    }
}

TEST_CASE("App. D.2.2-D.2.3 tactile board: taken out of its hole is a touch, put into another makes the move") {
    ReconConfig cfg;
    cfg.tactile = true;
    Run r(cfg);
    BoardHands h(plain(false));
    h.setup(Position::startpos());
    h.wait(100);
    r.feed(h);
    h.lift(sq("f1"));  // a bishop that cannot move: a touch, no obligation (4.5)
    h.wait(300);
    h.place(sq("f1"), Piece::WBishop);
    h.wait(300);
    h.lift(sq("d2"));
    h.wait(300);
    h.place(sq("d4"), Piece::WPawn);
    h.wait(60);  // no settle time: the move is made as soon as the peg is in
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"d2d4"});
    REQUIRE(r.touches.size() == 4);
    CHECK(r.touches[0].lift);
    CHECK(r.touches[0].piece == Piece::WBishop);
    REQUIRE(r.irregularities() == 0);
}
