// Reconstruction of ordinary moves, captures, castling and en passant from lifts and placements
// (Art. 4.7), slides, bounce and DGT scan order, on occupancy-only and
// identity boards. Promotion is in recon_promotion_test.cpp.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("4.7 a move is made when the piece is released and completed when the clock is pressed") {
    for (bool id : {false, true}) {
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
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
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
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
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        h.lift(sq("e4"));
        h.wait(200);
        h.lift(sq("d5"));
        h.wait(200);
        // A piece held in the hand with its victim off the board is not yet a capture.
        r.feed(h);
        REQUIRE(r.made.empty());
        h.place(sq("d5"), Piece::WPawn);
        h.wait(400);  // occupancy only: a capture stands once the hand has left (settle time)
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e4d5"});
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.completed == std::vector<int>{1});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("4.7.1 a captured piece put back while the capturer is held is no capture") {
    // The hand lets go of nothing: the capturer goes back to its square. On an occupancy-only
    // board the board passes through the capture's occupancy; it must not stand as made.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        h.lift(sq("d5"));
        h.wait(200);
        h.lift(sq("e4"));
        h.wait(150);
        h.place(sq("d5"), Piece::BPawn);
        h.wait(150);
        h.place(sq("e4"), Piece::WPawn);
        h.wait(600);
        h.shift(sq("g1"), sq("f3"), 150);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"g1f3"});
        REQUIRE(r.replaced == 0);
        // d5 was touched first and can be captured (4.3.2; 4.3.3 with e4).
        REQUIRE(r.count(AlertKind::TouchMove) == 1);
    }
}

TEST_CASE("4.7.1 capture on an identity board whose captured square changes identity directly") {
    HandlingOptions o = plain_hands(true);
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
        for (bool id : {false, true}) {
            INFO("identity " << id);
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
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
    }
    SECTION("both lifted, queenside") {
        for (bool id : {false, true}) {
            INFO("identity " << id);
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
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
    }
    SECTION("4.4.2 rook first, then king: castling recorded and touch_move raised") {
        for (bool id : {false, true}) {
            INFO("identity " << id);
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
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
}

TEST_CASE("Guidelines II Chess960 castling: rook-only castling with the king off the board first") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        // King g1, rook h1: 0-0 leaves the king on g1 and brings the rook to f1.
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
        h.lift(sq("g1"));
        h.wait(200);
        h.shift(sq("h1"), sq("f1"), 200);
        h.wait(200);
        h.place(sq("g1"), Piece::WKing);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"g1h1"});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("Guidelines II Chess960 rook-only castling without lifting the king: the rook jumps over it") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
        h.shift(sq("h1"), sq("f1"), 200);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"g1h1"});
    }
}

TEST_CASE("Guidelines II Chess960 king-only castling: the king jumps over the rook") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        // King e1, rook f1: 0-0 moves only the king, to g1.
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", true);
        h.shift(sq("e1"), sq("g1"), 150);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e1f1"});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("Guidelines II Chess960 castling: king and rook swapping squares") {
    // King f1, rook g1: 0-0 puts the king on g1 and the rook on f1.
    for (bool id : {false, true}) {
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true);
        h.lift(sq("f1"));
        h.wait(150);
        h.lift(sq("g1"));
        h.wait(150);
        h.place(sq("f1"), Piece::WRook);
        h.wait(150);
        h.place(sq("g1"), Piece::WKing);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"f1g1"});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("Guidelines II a one-square king move stays provisional until the rook comes") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        // King f1, rook h1: Kg1 is a move, and also the first half of 0-0.
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        start_at(r, h, "4k3/8/8/8/8/8/8/5K1R w H - 0 1", true);
        h.shift(sq("f1"), sq("g1"), 150);
        h.wait(100);
        r.feed(h);
        REQUIRE(r.made.empty());
        h.shift(sq("h1"), sq("f1"), 150);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"f1h1"});
    }
}

TEST_CASE("Guidelines II Chess960 queenside: a one-square king move is a king move unless the rook follows") {
    // King b1, rook a1: 0-0-0 puts the king on c1 (one square) and the rook on d1.
    const char* fen = "4k3/8/8/8/8/8/8/RK6 w A - 0 1";
    for (int how = 0; how < 3; ++how) {
        for (bool id : {false, true}) {
            INFO("how " << how << " identity " << id);
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
            start_at(r, h, fen, true);
            if (how == 2) {  // both lifted, the rook put down first
                h.lift(sq("b1"));
                h.wait(100);
                h.lift(sq("a1"));
                h.wait(150);
                h.place(sq("d1"), Piece::WRook);
                h.wait(150);
                h.place(sq("c1"), Piece::WKing);
            } else {
                h.shift(sq("b1"), sq("c1"), 150);
                h.wait(200);
                if (how == 1) h.shift(sq("a1"), sq("d1"), 150);
            }
            h.wait(100);
            h.press(Color::White);
            h.wait(50);
            r.feed(h);
            REQUIRE(r.made == std::vector<std::string>{how == 0 ? "b1c1" : "b1a1"});
            REQUIRE(r.completed == std::vector<int>{1});
            REQUIRE(r.irregularities() == 0);
        }
    }
}

TEST_CASE("3.7.4 en passant in every order") {
    const char* fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    for (int order = 0; order < 3; ++order) {
        for (bool id : {false, true}) {
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
            start_at(r, h, fen);
            if (order == 0) {
                h.shift(sq("e5"), sq("f6"), 150);
                h.wait(150);
                h.lift(sq("f5"));
            } else if (order == 1) {
                h.lift(sq("f5"));
                h.wait(150);
                h.shift(sq("e5"), sq("f6"), 150);
            } else {
                h.lift(sq("e5"));
                h.wait(150);
                h.lift(sq("f5"));
                h.wait(150);
                h.place(sq("f6"), Piece::WPawn);
            }
            h.wait(100);
            h.press(Color::White);
            h.wait(50);
            r.feed(h);
            INFO("order " << order << " identity " << id);
            REQUIRE(r.made == std::vector<std::string>{"e5f6"});
            REQUIRE(r.irregularities() == 0);
        }
    }
}

TEST_CASE("sliding pieces that register on intermediate squares make one move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        for (TimeMs pause : {10, 120, 250}) {
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
            start_at(r, h, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
            h.lift(sq("a1"));
            for (const char* s : {"a2", "a3", "a4"}) {
                h.wait(20);
                h.place(sq(s), Piece::WRook);
                h.wait(pause);
                h.lift(sq(s));
            }
            h.wait(20);
            h.place(sq("a5"), Piece::WRook);
            h.wait(150);
            h.press(Color::White);
            h.wait(50);
            r.feed(h);
            INFO("pause " << pause);
            REQUIRE(r.made == std::vector<std::string>{"a1a5"});
            REQUIRE(r.completed == std::vector<int>{1});
            REQUIRE(r.irregularities() == 0);
        }
    }
}

// A streaming board (Sentio, Certabo: one frame every 100 ms here) can catch a pawn sliding
// c2-c3-c4 on c3. c2-c3 is legal, but the pawn may still be on its way: were c2-c3 made at
// once, the next frame (c3 left, c4 taken, and the reply already begun: b8 lifted) would read
// as Black's Nc6 and White's c3-c4 — two plies for one, and the game out of step with the
// board from then on (the emu-sentio flake: "ply 10 was not announced in time").
TEST_CASE("4.7 a pawn caught on the square between in its double step makes one move, the reply begun at once") {
    for (bool id : {false, true}) {
        for (bool clock : {false, true}) {
            INFO("identity " << id << " clock " << clock);
            ReconConfig cfg;
            cfg.clock = clock;
            Run r(cfg);
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
            h.setup(Position::startpos());
            h.wait(300);
            h.lift(sq("c2")); // one frame: the pawn on its way, on c3
            h.place(sq("c3"), Piece::WPawn);
            h.wait(100);      // the next frame: on c4, and Black's knight already lifted
            h.lift(sq("c3"));
            h.lift(sq("b8"));
            h.place(sq("c4"), Piece::WPawn);
            h.wait(100);
            h.place(sq("c6"), Piece::BKnight);
            h.wait(400);
            r.feed(h);
            CHECK(r.made == std::vector<std::string>{"c2c4", "b8c6"});
            CHECK(r.irregularities() == 0);
            CHECK(r.replaced == 0); // c2-c3 was never made
        }
    }
}

// The second-order case of the test above: the pawn stood on c3 long enough (settle_ms) for
// c2-c3 to be made, then went on to c4 in the same frame as the opponent lifted his knight. Its
// player had not pressed, so the pawn going on is his move growing (c2-c4 replaces c2-c3), not
// a reply and then a second move of his (2...Nc6 3.c3-c4 would be one ply too many).
TEST_CASE("4.7 a pawn that paused on the square between moves on in the frame of the opponent's lift: one move, replaced") {
    for (bool id : {false, true}) {
        for (bool clock : {false, true}) {
            INFO("identity " << id << " clock " << clock);
            ReconConfig cfg;
            cfg.clock = clock;
            Run r(cfg);
            BoardHands h(plain_hands(id));
            h.setup(Position::startpos());
            h.wait(300);
            h.lift(sq("c2"));
            h.place(sq("c3"), Piece::WPawn);
            h.wait(400);      // long enough for c2-c3 to be made
            h.lift(sq("c3")); // one frame: on c4, and Black's knight already lifted
            h.lift(sq("b8"));
            h.place(sq("c4"), Piece::WPawn);
            h.wait(100);
            h.place(sq("c6"), Piece::BKnight);
            h.wait(400);
            r.feed(h);
            CHECK(r.made == std::vector<std::string>{"c2c4", "b8c6"});
            CHECK(r.irregularities() == 0);
            CHECK(r.takebacks.empty());
        }
    }
}

// The same with the clock pressed by White after the pawn went on, the knight already lifted
// (the press completes the move the board shows), or after Black's knight has landed too.
TEST_CASE("6.2.1 the press after a paused pawn went on completes the move it went on to, the reply begun or made") {
    for (bool id : {false, true}) {
        for (bool landed : {false, true}) {
            INFO("identity " << id << ", knight landed before the press " << landed);
            Run r;
            BoardHands h(plain_hands(id));
            h.setup(Position::startpos());
            h.wait(300);
            h.lift(sq("c2"));
            h.place(sq("c3"), Piece::WPawn);
            h.wait(400);  // c2-c3 made
            h.lift(sq("c3"));
            h.lift(sq("b8"));
            h.place(sq("c4"), Piece::WPawn);
            h.wait(100);
            if (landed) h.place(sq("c6"), Piece::BKnight);
            h.wait(100);
            h.press(Color::White);
            h.wait(200);
            if (!landed) h.place(sq("c6"), Piece::BKnight);
            h.wait(200);
            h.press(Color::Black);
            h.wait(800);
            r.feed(h);
            CHECK(r.made == std::vector<std::string>{"c2c4", "b8c6"});
            CHECK(r.completed == std::vector<int>{1, 2});
            CHECK(r.irregularities() == 0);
        }
    }
}

TEST_CASE("sensor bounce: a square toggling within a few ms changes nothing") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardHands h(id ? plain_hands(true) : plain_hands(false));
        h.setup(Position::startpos());
        h.wait(300);
        h.bounce(sq("e2"), 5);
        h.bounce(sq("e4"), 7);
        h.wait(300);
        h.shift(sq("e2"), sq("e4"), 200);
        h.wait(50);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e2e4"});
        REQUIRE(r.touches.size() == 2);
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("DGT scan dynamics: the placement reported before the lift, in one scan") {
    Run r;
    BoardHands h(plain_hands(true));
    h.setup(Position::startpos());
    h.wait(300);
    h.place(sq("a3"), Piece::WPawn);  // dgt.md 8 (a)
    h.wait(5);
    h.lift(sq("a2"));
    h.wait(100);
    h.press(Color::White);
    h.wait(50);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"a2a3"});
    REQUIRE(r.irregularities() == 0);
}

TEST_CASE("DGT scan dynamics: a sliding capture with the captured piece removed first") {
    // dgt.md 8 (c): queen c1 takes a pawn on c4 sliding along the file.
    Run r;
    BoardHands h(plain_hands(true));
    start_at(r, h, "4k3/8/8/8/2p5/8/8/2Q1K3 w - - 0 1");
    h.lift(sq("c4"));
    h.wait(30);
    h.place(sq("c2"), Piece::WQueen);
    h.wait(60);
    h.place(sq("c3"), Piece::WQueen);
    h.wait(60);
    h.lift(sq("c1"));
    h.wait(60);
    h.lift(sq("c2"));
    h.wait(60);
    h.place(sq("c4"), Piece::WQueen);
    h.wait(60);
    h.lift(sq("c3"));
    h.wait(100);
    h.press(Color::White);
    h.wait(50);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"c1c4"});
    REQUIRE(r.irregularities() == 0);
}
