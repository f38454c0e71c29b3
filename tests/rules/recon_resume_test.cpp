// Reconstructor::resume_game: a game already recorded is taken up (a restarted daemon, a
// board attached again) and the board's first reading is checked against it: the same
// position resumes, one legal move of it is made (Art. 4.7), anything else is a
// position_mismatch ([23] 7.4) until put right; a move made but not completed when the
// game was recorded is completed by the press (6.2.1).
#include <catch2/catch.hpp>

#include "tests/rules/recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

Position after(const char* fen, std::initializer_list<const char*> ucis) {
    Position p = std::move(Position::from_fen(fen).value());
    for (const char* u : ucis) p.make_move(move_from_uci(p, u));
    return p;
}

/// A full reading of `p` (identity or occupancy only).
BoardSnapshot reading(const Position& p, bool identity, TimeMs t) {
    BoardSnapshot s{t, {}};
    for (int i = 0; i < 64; ++i) {
        const Piece piece = p.piece_on(Square(i));
        s.board[static_cast<std::size_t>(i)] =
            identity ? SquareReading::of(piece) : SquareReading{piece != Piece::None, Piece::None};
    }
    return s;
}

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

} // namespace

TEST_CASE("6.2.1 a resumed game whose last move was made, not completed: the press completes it") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        const Position p = after(kStart, {"e2e4", "e7e5", "g1f3"});
        r.take(r.rec.resume_game(p, true, 0));
        CHECK(r.made.empty()); // announced when it was made: not again
        CHECK(r.rec.plies_made() == 3); // plies count from the game's start: its moves were replayed
        CHECK(r.rec.plies_completed() == 2);
        r.feed({reading(p, id, 100), LeverPressed{300, Color::White}, Tick{2000}});
        CHECK(r.completed == std::vector<int>{3});
        CHECK(r.irregularities() == 0);
        CHECK(r.touches.empty()); // the board showed the game: nothing was lifted or placed
    }
}

TEST_CASE("4.7 a resumed game: a move made while the board was not seen is made from its first reading") {
    SECTION("a quiet move, occupancy only and identity") {
        for (bool id : {false, true}) {
            INFO("identity " << id);
            Run r;
            const Position p = after(kStart, {"e2e4", "e7e5"});
            r.take(r.rec.resume_game(p, false, 0));
            r.feed({reading(after(kStart, {"e2e4", "e7e5", "g1f3"}), id, 100), Tick{2000}});
            CHECK(r.made == std::vector<std::string>{"", "", "g1f3"});
            CHECK(r.irregularities() == 0);
        }
    }
    SECTION("a capture on a board that tells the pieces apart") {
        Run r;
        const Position p = after(kStart, {"e2e4", "d7d5"});
        r.take(r.rec.resume_game(p, false, 0));
        r.feed({reading(after(kStart, {"e2e4", "d7d5", "e4d5"}), true, 100), Tick{2000},
                LeverPressed{2100, Color::White}, Tick{3000}});
        CHECK(r.made == std::vector<std::string>{"", "", "e4d5"});
        CHECK(r.completed == std::vector<int>{3});
        CHECK(r.irregularities() == 0);
    }
}

TEST_CASE("7.4 a resumed game: a first reading that no legal move explains is a position_mismatch until put right") {
    Run r(ReconConfig{});
    const Position p = after(kStart, {"e2e4", "e7e5"});
    r.take(r.rec.resume_game(p, false, 0));
    // The knight b1 knocked onto b3, where it cannot go.
    BoardSnapshot bad = reading(p, true, 100);
    bad.board[static_cast<std::size_t>(Square::at(1, 0).index())] = SquareReading{};                // b1 empty
    bad.board[static_cast<std::size_t>(Square::at(1, 2).index())] = SquareReading::of(Piece::WKnight); // on b3
    r.feed({bad, Tick{10000}});
    CHECK(r.made.empty());
    REQUIRE(r.count(AlertKind::PositionMismatch) == 1);
    CHECK(r.alerts.back().squares == ((Bitboard{1} << Square::at(1, 0).index()) | (Bitboard{1} << Square::at(1, 2).index())));
    // Put back; the game goes on.
    r.feed({reading(p, true, 10100), reading(after(kStart, {"e2e4", "e7e5", "g1f3"}), true, 10500),
            Tick{12000}});
    CHECK(r.made == std::vector<std::string>{"", "", "g1f3"});
    CHECK(r.count(AlertKind::PositionMismatch) == 1);
}

TEST_CASE("6.2.1 a resumed game: a press made while nobody listened, seen in the lever, completes the move") {
    SECTION("the move was recorded made, not completed") {
        Run r;
        const Position p = after(kStart, {"e2e4", "e7e5", "g1f3"});
        r.take(r.rec.resume_game(p, true, 0));
        r.feed({reading(p, true, 100)});
        r.take(r.rec.lever_seen(Color::White, 200));
        CHECK(r.completed == std::vector<int>{3});
        r.feed({Tick{8000}});
        CHECK(r.irregularities() == 0);
    }
    SECTION("the move was made while nobody watched (the board's first reading shows it)") {
        for (bool id : {false, true}) {
            INFO("identity " << id);
            Run r;
            const Position p = after(kStart, {"e2e4", "e7e5"});
            r.take(r.rec.resume_game(p, false, 0));
            // A bishop that could have gone further: the move waits to settle when the lever is read.
            r.feed({reading(after(kStart, {"e2e4", "e7e5", "f1c4"}), id, 100)});
            r.take(r.rec.lever_seen(Color::White, 150));
            CHECK(r.made == std::vector<std::string>{"", "", "f1c4"});
            CHECK(r.completed == std::vector<int>{3});
            r.feed({Tick{8000}});
            CHECK(r.irregularities() == 0);
        }
    }
}

TEST_CASE("6.2.1 a resumed game: a lever down since the player's previous press completes nothing") {
    SECTION("the opponent is to move and has not moved") {
        Run r;
        const Position p = after(kStart, {"e2e4", "e7e5"});
        r.take(r.rec.resume_game(p, false, 0));
        r.feed({reading(p, true, 100)});
        r.take(r.rec.lever_seen(Color::Black, 200)); // Black pressed after e5, as recorded
        r.feed({reading(after(kStart, {"e2e4", "e7e5", "g1f3"}), true, 400), Tick{8000}});
        CHECK(r.made == std::vector<std::string>{"", "", "g1f3"});
        CHECK(r.completed.empty()); // White has not pressed yet
        CHECK(r.irregularities() == 0);
    }
    SECTION("the player on move, the board showing no move of his: not a press without a move (7.5.3)") {
        Run r;
        const Position p = after(kStart, {"e2e4", "e7e5"});
        r.take(r.rec.resume_game(p, false, 0));
        r.feed({reading(p, true, 100)});
        r.take(r.rec.lever_seen(Color::White, 200));
        r.feed({Tick{8000}});
        CHECK(r.completed.empty());
        CHECK(r.irregularities() == 0);
    }
}

TEST_CASE("9.2 a resumed game counts the repetitions of the positions before it was resumed") {
    // Nf3 Nf6 Ng1 Ng8 twice: the start position has stood three times after ply 8. The game is
    // resumed after ply 7 (a restarted daemon, an arbiter's take-back): the board's Ng8 makes the
    // third occurrence, claimable under 9.2, which only the moves before the resumption show.
    const Position p = after(kStart, {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"});
    for (bool with_history : {true, false}) {
        INFO("history " << with_history);
        Run r;
        const Position from = with_history ? p.copy() : std::move(Position::from_fen(p.fen()).value());
        r.take(r.rec.resume_game(from, false, 0));
        r.feed({reading(p, true, 100), Tick{1000},
                reading(after(kStart, {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}), true, 2000),
                Tick{4000}});
        REQUIRE(r.made.back() == "f6g8");
        CHECK(r.made.size() == (with_history ? 8U : 1U));
        // Without the history the reconstruction cannot know: the claim exists only with it.
        CHECK(r.count(AlertKind::DrawClaimable) == (with_history ? 1 : 0));
        CHECK(r.irregularities() == 0);
    }
}

TEST_CASE("7.4 a resumed game whose last move was made, not completed: a piece held later is no piece knocked over") {
    // The made move is made again before the board is seen: none of the mover's pieces is off
    // the board for it. Later, with the game gone on, the player holding a piece over the board
    // for longer than the grace is thinking, not a knocked-over piece (seen under --simulate
    // resumed after kill -9 in that window).
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        const Position p = after(kStart, {"e2e4", "e7e5", "g1f3"});
        r.take(r.rec.resume_game(p, true, 0));
        BoardSnapshot held = reading(after(kStart, {"e2e4", "e7e5", "g1f3", "b8c6"}), id, 3000);
        held.board[static_cast<std::size_t>(Square::at(5, 0).index())] = SquareReading{};  // f1 in the hand
        r.feed({reading(p, id, 100), LeverPressed{300, Color::White},
                reading(after(kStart, {"e2e4", "e7e5", "g1f3", "b8c6"}), id, 1500), LeverPressed{2000, Color::Black},
                held, Tick{3000 + 4000}});
        CHECK(r.made == std::vector<std::string>{"", "", "", "b8c6"});
        CHECK(r.irregularities() == 0);
        CHECK(r.count(AlertKind::PositionMismatch) == 0);
    }
}
