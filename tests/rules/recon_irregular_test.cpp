// Irregularities (Art. 6.2.1, 7.4-7.6 of the 2023 Laws and the profile variants): illegal moves
// alerted when completed, pressing without moving, restoring the position, displaced pieces,
// takebacks, moves out of turn, flag falls, and completion without a clock.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("7.5.1 an illegal move is alerted when completed, with the count and the 2023 penalty") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.h.shift(sq("g1"), sq("g3"), 200);  // a knight cannot go there
        b.h.wait(800);
        b.r.feed(b.h);
        REQUIRE(b.r.alerts.empty());  // made, not completed: the player may still correct it
        b.h.press(Color::White);
        b.h.wait(1000);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        const AlertEvent& a = b.r.alerts[0];
        CHECK(a.article == "7.5.1");
        CHECK(a.count == 1);
        CHECK(a.penalty == "+2min");
        CHECK(a.player == Color::White);
        CHECK(a.squares == (bb(sq("g1")) | bb(sq("g3"))));
        REQUIRE(b.r.made.empty());
    }
}

TEST_CASE("7.5.1 the position before the irregularity is restored and 4.3 applies to the replacement") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.h.shift(sq("g1"), sq("g3"), 200);
        b.h.wait(100);
        b.h.press(Color::White);
        b.h.wait(1000);
        b.h.shift(sq("g3"), sq("g1"), 200);  // restored
        b.h.wait(500);
        b.move("e2", "e4", Color::White);    // but the knight was touched first and can move
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4"});
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        REQUIRE(b.r.count(AlertKind::PositionMismatch) == 0);
    }
}

TEST_CASE("7.5.5 the second illegal move loses (2023), a draw when the opponent cannot mate") {
    SECTION("opponent can mate: loss") {
        Board b;
        b.start();
        for (int i = 0; i < 2; ++i) {
            b.h.shift(sq("g1"), sq("g3"), 200);
            b.h.wait(100);
            b.h.press(Color::White);
            b.h.wait(1000);
            b.h.shift(sq("g3"), sq("g1"), 200);
            b.h.wait(500);
        }
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 2);
        CHECK(b.r.alerts[1].count == 2);
        CHECK(b.r.alerts[1].penalty == "loss");
    }
    SECTION("opponent has a lone king: draw") {
        Board b;
        b.start("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
        for (int i = 0; i < 2; ++i) {
            b.h.shift(sq("g1"), sq("g2"), 200);
            b.h.wait(100);
            b.h.press(Color::White);
            b.h.wait(1000);
            b.h.shift(sq("g2"), sq("g1"), 200);
            b.h.wait(500);
        }
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 2);
        CHECK(b.r.alerts[1].penalty == "draw");
    }
}

TEST_CASE("7.5.3 pressing the clock without moving is an illegal move (2023), ignored otherwise") {
    for (bool rule : {true, false}) {
        ReconConfig cfg;
        cfg.rules.press_without_move_illegal = rule;
        Board b(cfg);
        b.start();
        b.h.press(Color::White);
        b.h.wait(1500);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == (rule ? 1 : 0));
        if (rule) CHECK(b.r.alerts[0].article == "7.5.3");
    }
}

TEST_CASE("7.5.1 --illegal-feedback immediate alerts the illegal move when it is made") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReconConfig cfg;
        cfg.illegal_immediate = true;
        Board b(cfg, id);
        b.start();
        b.h.shift(sq("g1"), sq("g3"), 200);
        b.h.wait(800);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        b.h.press(Color::White);  // completing it does not count it twice
        b.h.wait(1000);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
    }
}

TEST_CASE("7.5.2 a pawn left on the last rank becomes a queen (identity board)") {
    Board b({}, true);
    b.start("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    b.h.shift(sq("a7"), sq("a8"), 200);
    b.h.wait(100);
    b.h.press(Color::White);
    b.h.wait(1000);
    b.r.feed(b.h);
    REQUIRE(b.r.made == std::vector<std::string>{"a7a8q"});
    REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
    CHECK(b.r.alerts[0].article == "7.5.2");
}

TEST_CASE("7.4 a displaced piece raises position_mismatch with its squares, cleared when restored") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReconConfig cfg;
        cfg.mismatch_grace_ms = 2000;
        Board b(cfg, id);
        b.start();
        b.move("e2", "e4", Color::White);
        b.h.shift(sq("d2"), sq("e2"), 100);  // knocked sideways (no move of anyone)
        b.h.wait(1000);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::PositionMismatch) == 0);  // within the grace period
        b.h.wait(1500);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::PositionMismatch) == 1);
        CHECK(b.r.alerts[0].squares == (bb(sq("d2")) | bb(sq("e2"))));
        b.h.shift(sq("e2"), sq("d2"), 100);
        b.h.wait(500);
        b.r.feed(b.h);
        bool cleared = false;
        for (const ReconEvent& e : b.r.all)
            if (const auto* a = std::get_if<AlertEvent>(&e)) cleared = cleared || a->cleared;
        CHECK(cleared);
        b.move("e7", "e5", Color::Black);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4", "e7e5"});
        REQUIRE(b.r.count(AlertKind::PositionMismatch) == 1);
        REQUIRE(b.r.alerts.size() == 1);
    }
}

namespace {

/// The non-cleared and cleared position_mismatch alerts of a run.
std::pair<int, int> mismatches(const Run& r) {
    int raised = 0, cleared = 0;
    for (const ReconEvent& e : r.all)
        if (const auto* a = std::get_if<AlertEvent>(&e))
            if (a->kind == AlertKind::PositionMismatch) (a->cleared ? cleared : raised) += 1;
    return {raised, cleared};
}

} // namespace

// A piece knocked over lies on its side: an occupancy board (and a DGT board) reads its square
// as empty, which looks like a piece in a hand. No hand holds a piece across its own clock
// press: a piece missing when a move is completed and still missing after the grace is alerted.
// Without a clock the turn changes only with the next move: made with the piece still lying,
// the board is no legal move and position_mismatch follows after the grace.
TEST_CASE("7.4 a piece knocked over and still off the board after the press raises position_mismatch, cleared when set up again") {
    for (bool id : {false, true}) {
        for (bool clock : {true, false}) {
            INFO("identity " << id << " clock " << clock);
            ReconConfig cfg;
            cfg.clock = clock;
            cfg.mismatch_grace_ms = 2000;
            Board b(cfg, id);
            b.start();
            b.move("e2", "e4", Color::White, false);
            b.h.lift(sq("g2"));  // the g-pawn falls over as the hand leaves
            b.h.wait(100);
            if (clock) b.h.press(Color::White);
            else b.move("e7", "e5", Color::Black, false);
            b.h.wait(1500);
            b.r.feed(b.h);
            CHECK(mismatches(b.r).first == 0);  // within the grace: it may be in a hand
            b.h.wait(1000);
            b.r.feed(b.h);
            REQUIRE(mismatches(b.r).first == 1);
            const AlertEvent& a = b.r.alerts.back();
            CHECK(a.kind == AlertKind::PositionMismatch);
            CHECK(a.article == "7.4");
            CHECK((a.squares & bb(sq("g2"))) != 0);
            if (clock) CHECK(a.squares == bb(sq("g2")));
            b.h.place(sq("g2"), Piece::WPawn);
            b.h.wait(500);
            b.r.feed(b.h);
            CHECK(mismatches(b.r).second == 1);
            if (clock) b.move("e7", "e5", Color::Black);
            CHECK(b.r.made == std::vector<std::string>{"e2e4", "e7e5"});
            CHECK(b.r.alerts.size() == 1);
        }
    }
}

// The opponent's piece knocked over by the player's hand, and the opponent moves before anyone
// sets it up: the missing piece is alerted (not the move: it is legal), the game goes on, and
// the alert clears once the piece stands again.
TEST_CASE("7.4 the next move made while a knocked-over piece lies: position_mismatch for it, the move recorded, cleared when set up") {
    for (bool id : {false, true}) {
        for (bool early : {true, false}) {
            INFO("identity " << id << ", reply within the grace " << early);
            ReconConfig cfg;
            cfg.mismatch_grace_ms = 2000;
            Board b(cfg, id);
            b.start();
            b.move("e2", "e4", Color::White, false);
            b.h.lift(sq("h7"));  // Black's h-pawn knocked over by White's hand
            b.h.wait(100);
            b.h.press(Color::White);
            b.h.wait(early ? 600 : 2600);
            b.move("d7", "d5", Color::Black);  // the reply, h7 still lying
            b.h.wait(2000);
            b.r.feed(b.h);
            CHECK(b.r.made == std::vector<std::string>{"e2e4", "d7d5"});
            CHECK(b.r.completed == std::vector<int>{1, 2});
            REQUIRE(b.r.alerts.size() == 1);
            CHECK(b.r.alerts[0].kind == AlertKind::PositionMismatch);
            CHECK(b.r.alerts[0].squares == bb(sq("h7")));
            CHECK(mismatches(b.r).second == 0);
            b.h.place(sq("h7"), Piece::BPawn);
            b.h.wait(500);
            b.r.feed(b.h);
            CHECK(mismatches(b.r) == std::pair<int, int>{1, 1});
            b.move("g1", "f3", Color::White);
            CHECK(b.r.made == std::vector<std::string>{"e2e4", "d7d5", "g1f3"});
            CHECK(b.r.alerts.size() == 1);
        }
    }
}

TEST_CASE("7.6 the board set back to an earlier position keeps the game's moves until the arbiter takes them back") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.move("e2", "e4", Color::White);
        b.move("e7", "e5", Color::Black);
        b.move("g1", "f3", Color::White);
        // The board set back to the position after 1.e4: the board alone deletes nothing, and
        // after the grace the position_mismatch (7.4) names the earlier position it shows.
        b.h.shift(sq("f3"), sq("g1"), 200);
        b.h.wait(200);
        b.h.shift(sq("e5"), sq("e7"), 200);
        b.h.wait(6000);
        b.r.feed(b.h);
        CHECK(b.r.takebacks.empty());
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4", "e7e5", "g1f3"});
        CHECK(b.r.rec.plies_completed() == 3);
        Position after_e4 = Position::startpos();
        after_e4.make_move(move_from_uci(after_e4, "e2e4"));
        REQUIRE(b.r.alerts.size() == 1);
        CHECK(b.r.alerts[0].kind == AlertKind::PositionMismatch);
        CHECK(b.r.alerts[0].article == "7.4");
        CHECK(b.r.alerts[0].earlier_ply == 1);
        CHECK(b.r.alerts[0].earlier_fen == after_e4.fen());
        // The arbiter's TAKEBACK to ply 1 (the daemon resumes the reconstruction there).
        b.r.take(b.r.rec.resume_game(after_e4, false, b.h.now()));
        b.h.wait(200);
        b.r.feed(b.h);
        b.move("c7", "c5", Color::Black);
        REQUIRE(b.r.made == std::vector<std::string>{"", "c7c5"});  // plies counted from the game's start
        CHECK(b.r.rec.position().fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        CHECK(b.r.rec.plies_completed() == 2);
        CHECK(b.r.alerts.size() == 1);
    }
}

TEST_CASE("6.2.1 the next move completes an uncompleted one, and is itself a move out of turn") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.move("e2", "e4", Color::White, false);  // no press
        b.move("g1", "f3", Color::White, false);  // White again
        b.h.wait(500);
        b.r.feed(b.h);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4"});
        REQUIRE(b.r.completed == std::vector<int>{1});
        bool by_next_move = false;
        for (const ReconEvent& e : b.r.all)
            if (const auto* m = std::get_if<MoveEvent>(&e))
                by_next_move = by_next_move || m->completed == Completion::NextMove;
        CHECK(by_next_move);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.alerts[0].player == Color::White);
    }
}

TEST_CASE("7.5.1 moving out of turn is an illegal move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.move("e2", "e4", Color::White);
        b.move("d2", "d4", Color::White, false);
        b.h.wait(500);
        b.r.feed(b.h);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4"});
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.alerts[0].text == "a move out of turn");
    }
}

TEST_CASE("6.2.1 with --clock none a move is completed when the opponent's next move is made") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReconConfig cfg;
        cfg.clock = false;
        Board b(cfg, id);
        b.start();
        b.move("e2", "e4", Color::White, false);
        REQUIRE(b.r.completed.empty());
        b.move("e7", "e5", Color::Black, false);
        REQUIRE(b.r.completed == std::vector<int>{1});
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4", "e7e5"});
    }
}

TEST_CASE("6.2.1 a move that ends the game is completed without a press") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        b.move("a1", "a8", Color::White, false);
        b.h.wait(500);
        b.r.feed(b.h);
        REQUIRE(b.r.made == std::vector<std::string>{"a1a8"});
        REQUIRE(b.r.completed == std::vector<int>{1});
        REQUIRE(b.r.results.size() == 1);
        CHECK(b.r.results[0].result == "1-0");
        CHECK(b.r.results[0].termination == "checkmate");
        CHECK_FALSE(b.r.rec.in_game());
    }
}

TEST_CASE("6.9 a flag fall is alerted: loss, or a draw when the opponent cannot mate") {
    SECTION("loss") {
        Board b;
        b.start();
        b.h.flag(Color::White);
        b.h.wait(10);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::Flag) == 1);
        CHECK(b.r.alerts[0].article == "6.9");
        CHECK(b.r.alerts[0].penalty == "loss");
    }
    SECTION("draw") {
        Board b;
        b.start("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        b.h.flag(Color::Black);
        b.h.wait(10);
        b.r.feed(b.h);
        REQUIRE(b.r.count(AlertKind::Flag) == 1);
        CHECK(b.r.alerts[0].penalty == "loss");
        Board c;
        c.start("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        c.h.flag(Color::White);
        c.h.wait(10);
        c.r.feed(c.h);
        CHECK(c.r.alerts[0].penalty == "draw");
    }
}

TEST_CASE("9.2 a threefold repetition is alerted as claimable to the arbiter") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        const char* shuffle[][2] = {{"g1", "f3"}, {"g8", "f6"}, {"f3", "g1"}, {"f6", "g8"}};
        for (int round = 0; round < 2; ++round)
            for (int i = 0; i < 4; ++i)
                b.move(shuffle[i][0], shuffle[i][1], i % 2 ? Color::Black : Color::White);
        REQUIRE(b.r.made.size() == 8);
        REQUIRE(b.r.count(AlertKind::DrawClaimable) == 1);
        CHECK(b.r.alerts[0].article == "9.2");
    }
}

TEST_CASE("6.2.1 two moves made before the press: a fast reply before the first move was completed") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.h.shift(sq("e2"), sq("e4"), 150);
        b.h.wait(60);  // the reply starts before White's move has settled or been pressed
        b.h.shift(sq("e7"), sq("e5"), 150);
        b.finish(Color::Black);
        REQUIRE(b.r.made == std::vector<std::string>{"e2e4", "e7e5"});
        REQUIRE(b.r.completed == std::vector<int>{1, 2});
        REQUIRE(b.r.irregularities() == 0);
    }
}

TEST_CASE("7.6 the arbiter sets the board back several moves at once: the game returns there") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        const char* moves[][2] = {{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}, {"b8", "c6"}, {"f1", "c4"}};
        Position after_two = Position::startpos();
        for (int i = 0; i < 5; ++i) {
            b.move(moves[i][0], moves[i][1], i % 2 ? Color::Black : Color::White);
            if (i < 2) after_two.make_move(move_from_uci(after_two, std::string(moves[i][0]) + moves[i][1]));
        }
        REQUIRE(b.r.made.size() == 5);
        b.h.setup(after_two);  // one board scan: the position after 1.e4 e5
        b.h.wait(800);
        b.r.feed(b.h);
        CHECK(b.r.takebacks.empty());  // the board's word alone deletes no completed move
        REQUIRE(b.r.made.size() == 5);
        // The arbiter's TAKEBACK to ply 2: the game goes on from there.
        b.r.take(b.r.rec.resume_game(after_two, false, b.h.now()));
        b.h.wait(200);
        b.r.feed(b.h);
        b.move("d2", "d4", Color::White);
        REQUIRE(b.r.made == std::vector<std::string>{"", "", "d2d4"});
        CHECK(b.r.rec.position().fen() == "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
        REQUIRE(b.r.irregularities() == 0);
    }
}

TEST_CASE("7.5.2 on an occupancy-only board a pawn left on the last rank is an assumed queen") {
    // The board cannot tell the pawn from a queen: the promotion is recorded with a queen
    // marked assumed (docs/reconstruction.md); identity boards see the pawn (test above).
    Board b({}, false);
    b.start("4k3/P6p/8/8/8/8/8/4K3 w - - 0 1");
    b.move("a7", "a8", Color::White);
    REQUIRE(b.r.made == std::vector<std::string>{"a7a8q"});
    bool assumed = false;
    for (const ReconEvent& e : b.r.all)
        if (const auto* m = std::get_if<MoveEvent>(&e)) assumed = assumed || m->promotion_assumed;
    CHECK(assumed);
    CHECK(b.r.irregularities() == 0);
}
