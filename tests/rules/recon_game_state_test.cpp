// Game state from the board: new games on a start position (standard, Chess960), a board set
// up the other way round, the DGT kings-in-the-centre result signal, and the visually impaired
// player's tactile board (App. D.2.2-D.2.3), and dead positions (5.2.2).
#include <catch2/catch.hpp>

#include <fstream>

#include "recon_support.hpp"
#include "rules/winnable.hpp"

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
            if (g->kind == GameEvent::Kind::Start) return g;
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

TEST_CASE("new game: any Chess960 start position is recognised, either way round") {
    // Identity boards tell the array (and the orientation); occupancy-only boards cannot (every
    // array has the same occupancy): the arbiter configures the number.
    for (int n : {0, 1, 359, 517, 519, 700, 959}) {
        for (bool id : {false, true}) {
            for (bool rotated : {false, true}) {
                INFO("array " << n << " identity " << id << " rotated " << rotated);
                ReconConfig cfg;
                if (!id) cfg.chess960_number = n;
                Run r(cfg);
                BoardHands h(plain(id, rotated));
                Position start = Position::chess960_start(n);
                h.setup(start);
                h.wait(100);
                r.feed(h);
                REQUIRE(r.games_started == 1);
                const GameEvent* g = first_start(r);
                REQUIRE(g != nullptr);
                CHECK(g->chess960_number == n);
                CHECK(g->fen == start.fen());
                CHECK(r.rec.position().chess960());
                // The first move: a knight (every array has two) or a pawn.
                Move first = Move::none();
                for (Move m : start.legal_moves())
                    if (type_of(start.moved_piece(m)) == PieceType::Knight) first = m;
                h.play(start, first);
                h.wait(100);
                r.feed(h);
                REQUIRE(r.made == std::vector<std::string>{to_uci(start, first)});
                CHECK(r.rec.rotated() == rotated);
            }
        }
    }
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
            // The players' declaration: a resignation, or a draw agreed (one vocabulary with
            // the RESULT event, rules/game.hpp).
            CHECK(r.results[0].termination == (std::string(c.result) == "1/2-1/2" ? "agreement" : "resignation"));
            REQUIRE(r.irregularities() == 0);
        }
    }
}

TEST_CASE("DGT kings in the centre: pieces taken off the centre squares first still signal the result") {
    // A real recording: 1.d4 e6, then the white d4 pawn taken off the board and the kings set
    // on e4 and d5 (1-0). Players clear the centre squares to give the signal.
    struct Case { const char* wk; const char* bk; const char* result; };
    for (Case c : {Case{"e4", "d5", "1-0"}, Case{"d4", "e5", "0-1"}, Case{"e4", "e5", "1/2-1/2"}}) {
        for (bool id : {false, true}) {
            Run r;
            BoardHands h(plain(id));
            h.setup(Position::startpos());
            h.wait(100);
            h.shift(sq("d2"), sq("d4"), 150);
            h.wait(100);
            h.press(Color::White);
            h.wait(300);
            h.shift(sq("e7"), sq("e6"), 150);
            h.wait(100);
            h.press(Color::Black);
            h.wait(300);
            h.lift(sq("d4"));  // off the board, into the player's hand
            h.wait(200);
            h.shift(sq("e1"), sq(c.wk), 200);
            h.wait(100);
            h.shift(sq("e8"), sq(c.bk), 200);
            h.wait(8000);  // longer than any grace: no position_mismatch either
            r.feed(h);
            INFO(c.wk << " " << c.bk << " identity " << id);
            REQUIRE(r.made == std::vector<std::string>{"d2d4", "e7e6"});
            REQUIRE(r.results.size() == 1);
            CHECK(r.results[0].result == c.result);
            REQUIRE(r.irregularities() == 0);
        }
    }
}

TEST_CASE("App. D.2.2-D.2.3 tactile board: taken out of its hole is a touch, put into another makes the move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReconConfig cfg;
        cfg.tactile = true;
        Run r(cfg);
        BoardHands h(plain(id));
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
        h.press(Color::White);
        h.wait(100);
        h.shift(sq("e7"), sq("e5"), 200);
        h.wait(100);
        h.press(Color::Black);
        h.wait(100);
        // A sliding piece that could go further is made at once too (nothing slides on a
        // tactile board): the bishop into g5.
        h.lift(sq("c1"));
        h.wait(300);
        h.place(sq("g5"), Piece::WBishop);
        h.wait(60);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"d2d4", "e7e5", "c1g5"});
        // A capture: the captured piece out of its hole, the capturer into it.
        h.press(Color::White);
        h.wait(100);
        h.lift(sq("d4"));
        h.wait(200);
        h.lift(sq("e5"));
        h.wait(200);
        h.place(sq("d4"), Piece::BPawn);
        h.wait(60);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"d2d4", "e7e5", "c1g5", "e5d4"});
        REQUIRE(r.irregularities() == 0);
    }
}

TEST_CASE("5.2.2 a capture that leaves a dead position ends the game at once") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardHands h(plain(id));
        Position p = std::move(Position::from_fen("4k3/8/8/8/8/8/3n4/4K3 w - - 0 60").value());
        r.take(r.rec.start_game(p, 0));
        h.setup(p);
        h.wait(400);
        h.lift(sq("d2"));
        h.wait(200);
        h.shift(sq("e1"), sq("d2"), 200);
        h.wait(400);  // no press: the move that ends the game is completed by it (6.2.1)
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"e1d2"});
        REQUIRE(r.completed == std::vector<int>{1});
        REQUIRE(r.results.size() == 1);
        CHECK(r.results[0].result == "1/2-1/2");
        CHECK(r.results[0].termination == "dead_position");
        CHECK(r.results[0].article == "5.2.2");
        CHECK(r.count(AlertKind::DeadPosition) == 0);  // proven: a result, not an alert
        CHECK_FALSE(r.rec.in_game());
    }
}

TEST_CASE("5.2.2 a locked position proven dead by the in-depth check ends the game") {
    // Every pawn blocked, the white bishop shut in, the white king between a1 and b1: material
    // decides nothing, the quick check cannot prove it, the full check can (rules/winnable.hpp;
    // since issue 25 the quick check proves the chain this test had before). It runs once the
    // players have shuffled for ten moves each.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardHands h(plain(id));
        Position p =
            std::move(Position::from_fen("6k1/8/8/8/8/1p1p4/1P1P4/1KB5 w - - 17 40").value());
        r.take(r.rec.start_game(p, 0));
        h.setup(p);
        h.wait(400);
        for (const char* u : {"b1a1", "g8g7", "a1b1"}) {
            Move m = move_from_uci(p, u);
            h.play(p, m);
            p.make_move(m);
        }
        h.wait(400);
        r.feed(h);
        REQUIRE(r.made == std::vector<std::string>{"b1a1", "g8g7", "a1b1"});
        REQUIRE(r.results.size() == 1);
        CHECK(r.results[0].termination == "dead_position");
        CHECK(r.results[0].article == "5.2.2");
        CHECK(r.count(AlertKind::DeadPosition) == 0);
    }
}

TEST_CASE("5.2.2 dead_suspect_moves 0 turns the in-depth check and its alert off") {
    ReconConfig cfg;
    cfg.rules.dead_suspect_moves = 0;
    cfg.can_mate_deep = [](const Position&, Color) {
        FAIL("the in-depth check must not run");
        return MateAbility::Unknown;
    };
    Run r(cfg);
    BoardHands h(plain(false));
    Position p =
        std::move(Position::from_fen("6k1/8/8/8/8/1p1p4/1P1P4/1KB5 w - - 30 40").value());
    r.take(r.rec.start_game(p, 0));
    h.setup(p);
    h.wait(400);
    Move m = move_from_uci(p, "b1a1");
    h.play(p, m);
    h.wait(400);
    r.feed(h);
    REQUIRE(r.made == std::vector<std::string>{"b1a1"});
    CHECK(r.results.empty());
    CHECK(r.alerts.empty());
}

// The check after every move uses WinnableMode::Static (no helpmate search, off the clock-press
// path): it must reach the same dead-position verdict as Quick on real game positions and on
// the community's test positions, or a dead position would go unnoticed.
TEST_CASE("5.2.2 the per-move dead-position check (Static) agrees with Quick on every game and chasolver position") {
    int positions = 0;
    auto same = [&](const Position& p) {
        ++positions;
        INFO(p.fen());
        CHECK(is_dead_position(p, WinnableMode::Static) == is_dead_position(p, WinnableMode::Quick));
    };
    for (const char* f : {"anastasian-lewis.pgn", "carlsen-grischuk-linares.pgn",
                          "cutechess-fischerrandom.pgn", "kasparov-deep-blue-1997.pgn",
                          "lichess-db-sample.pgn", "molinari-bordais-1979.pgn",
                          "nepomniachtchi-liren-game1.pgn", "ushenina-girya-2013.pgn"})
        for (const PgnGame& g : read_pgn_file(std::string(EBOARD_REPO_DATA) + "/games/" + f)) {
            Position p = g.start();
            same(p);
            for (Move m : g.moves) {
                p.make_move(m);
                same(p);
            }
        }
    std::ifstream in(std::string(EBOARD_REPO_DATA) + "/deadpos/chasolver_positions.txt");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;  // "LABEL FEN": the FEN after the label
        auto p = Position::from_fen(line.substr(line.find(' ') + 1), false, FenMaterial::Composed);
        if (p) same(p.value());
    }
    CHECK(positions > 30000);
}
