// Promotion (Art. 4.4.4, 4.6, 4.7.3 of the 2023 Laws; docs/reconstruction.md): the
// pawn removed and the new piece placed in either order, the pawn first put on the promotion
// square, underpromotion; on occupancy-only boards a queen by default or the piece chosen by
// clock button or command, and the choice final once the piece touched the square.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("4.7.3 promotion with the pawn removed first or the new piece placed first") {
    const char* fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    for (bool piece_first : {false, true}) {
        for (bool id : {false, true}) {
            Run r;
            BoardHands h(id ? plain_hands(true) : plain_hands(false));
            start_at(r, h, fen);
            if (piece_first) {
                h.place(sq("a8"), Piece::WQueen);
                h.wait(150);
                h.lift(sq("a7"));
            } else {
                h.lift(sq("a7"));
                h.wait(800);
                h.place(sq("a8"), Piece::WQueen);
            }
            h.wait(100);
            h.press(Color::White);
            h.wait(50);
            r.feed(h);
            REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
            REQUIRE(r.irregularities() == 0);
        }
    }
}

TEST_CASE("4.7.3 promotion with the pawn first put on the promotion square") {
    // (The black pawn keeps K+N against K from being a dead position.)
    const char* fen = "4k3/P6p/8/8/8/8/8/4K3 w - - 0 1";
    SECTION("identity board: the pawn on the last rank is not a move made") {
        Run r;
        BoardHands h(plain_hands(true));
        start_at(r, h, fen);
        h.shift(sq("a7"), sq("a8"), 150);
        h.wait(600);
        r.feed(h);
        REQUIRE(r.made.empty());  // a pawn on the last rank is not a move made
        h.lift(sq("a8"));
        h.wait(500);
        h.place(sq("a8"), Piece::WKnight);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8n"});
        REQUIRE(r.irregularities() == 0);
    }
    SECTION("occupancy-only board: an assumed queen, replaced by the piece chosen meanwhile") {
        // The board cannot tell the pawn from a queen: after the settle time a7a8=Q is made,
        // marked assumed. The pawn is taken off, the knight chosen by clock button while the
        // square is empty, the knight put down: the move made becomes a7a8=N.
        Run r;
        BoardHands h(plain_hands(false));
        start_at(r, h, fen);
        h.shift(sq("a7"), sq("a8"), 150);
        h.wait(600);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
        h.lift(sq("a8"));
        h.wait(300);
        h.button(3);
        h.wait(300);
        h.place(sq("a8"), Piece::WKnight);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8n"});
        CHECK(r.replaced == 1);
        REQUIRE(r.completed == std::vector<int>{1});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("4.4.4 identity board: the promotion piece is final once it touched the square") {
    // A knight put on a8, then exchanged for a queen before the press: the board's piece is
    // recorded and the arbiter told (touch_move 4.4).
    Run r;
    BoardHands h(plain_hands(true));
    start_at(r, h, "4k3/P6p/8/8/8/8/8/4K3 w - - 0 1");
    h.lift(sq("a7"));
    h.wait(400);
    h.place(sq("a8"), Piece::WKnight);
    h.wait(400);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"a7a8n"});
    h.lift(sq("a8"));
    h.wait(300);
    h.place(sq("a8"), Piece::WQueen);
    h.wait(100);
    h.press(Color::White);
    h.wait(50);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
    REQUIRE(r.count(AlertKind::TouchMove) == 1);
    CHECK(r.alerts[0].article == "4.4");
    CHECK(r.alerts[0].squares == bb(sq("a8")));
}

TEST_CASE("4.7.3 underpromotion on an identity board takes the piece the board sees") {
    Run r;
    BoardHands h(plain_hands(true));
    start_at(r, h, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    h.lift(sq("b8"));
    h.wait(150);
    h.lift(sq("a7"));
    h.wait(600);
    h.place(sq("b8"), Piece::WRook);
    h.wait(100);
    h.press(Color::White);
    h.wait(50);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"a7b8r"});
}

TEST_CASE("4.4.4 occupancy-only promotion: queen assumed, or the piece chosen by clock button") {
    SECTION("assumed queen") {
        Run r;
        BoardHands h(plain_hands(false));
        start_at(r, h, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        h.lift(sq("a7"));
        h.wait(600);
        h.place(sq("a8"), Piece::WQueen);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
        bool assumed = false;
        for (const ReconEvent& e : r.all)
            if (const auto* m = std::get_if<MoveEvent>(&e)) assumed = assumed || m->promotion_assumed;
        CHECK(assumed);
    }
    SECTION("knight by button before the piece touches the square") {
        Run r;
        BoardHands h(plain_hands(false));
        start_at(r, h, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        h.lift(sq("a7"));
        h.wait(300);
        h.button(3);
        h.wait(300);
        h.place(sq("a8"), Piece::WKnight);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8n"});
    }
    SECTION("a rook by client command (Reconstructor::choose_promotion) before it is placed") {
        Run r;
        BoardHands h(plain_hands(false));
        start_at(r, h, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        h.lift(sq("a7"));
        h.wait(300);
        r.feed(h);
        CHECK(r.rec.choose_promotion(PieceType::Rook, h.now()));
        h.wait(300);
        h.place(sq("a8"), Piece::WRook);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8r"});
        for (const ReconEvent& e : r.all)
            if (const auto* m = std::get_if<MoveEvent>(&e)) CHECK_FALSE(m->promotion_assumed);
    }
    SECTION("a choice while the assumed queen's square is empty again replaces it") {
        // The queen was assumed, not chosen: the player is exchanging pieces, and the new one
        // has not touched the square yet (4.4.4). (The black pawn keeps K+B v K alive.)
        Run r;
        BoardHands h(plain_hands(false));
        start_at(r, h, "4k3/P6p/8/8/8/8/8/4K3 w - - 0 1");
        h.lift(sq("a7"));
        h.wait(300);
        h.place(sq("a8"), Piece::WQueen);
        h.wait(500);
        h.lift(sq("a8"));
        h.wait(200);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
        CHECK(r.rec.choose_promotion(PieceType::Bishop, h.now()));
        h.wait(200);
        h.place(sq("a8"), Piece::WBishop);
        h.wait(100);
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8b"});
        REQUIRE(r.irregularities() == 0);
    }
    SECTION("a choice after the piece stands on the square is refused") {
        Run r;
        BoardHands h(plain_hands(false));
        start_at(r, h, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        h.lift(sq("a7"));
        h.wait(300);
        h.place(sq("a8"), Piece::WQueen);
        h.wait(500);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
        CHECK_FALSE(r.rec.choose_promotion(PieceType::Knight, h.now()));
        h.press(Color::White);
        h.wait(50);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"a7a8q"});
    }
}
