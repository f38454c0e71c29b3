// Boards that send their whole board in each report (BoardSnapshot: a Chessnut reports on every
// change; a host that reads late gets several changes in one report): a sensor bounce across
// two reports is no touch, and the changes of one report have no order the reconstruction may
// hold against the player (Art. 4.3/4.4, 2023 numbering).
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

/// A board reporting its 64 squares, as the reconstruction gets it from a Chessnut driver.
struct ReportingBoard {
    Run r;
    BoardReading board{};
    bool identity;

    /// The game starts at `fen`, which stands on the board (reported at t = 0).
    ReportingBoard(const char* fen, bool id) : identity(id) {
        Position p = std::move(Position::from_fen(fen).value());
        r.take(r.rec.start_game(p, 0));
        for (int s = 0; s < 64; ++s) set(Square(s), p.piece_on(Square(s)));
        report(0);
        r.take(r.rec.feed(Tick{400}));
        r.touches.clear();  // the set-up
    }
    /// A square as the board reads it (occupancy only unless identity).
    void set(Square s, Piece p) {
        board[static_cast<std::size_t>(s.index())] =
            p == Piece::None ? SquareReading::empty() : identity ? SquareReading::of(p) : SquareReading::unknown();
    }
    void set(const char* s, Piece p) { set(sq(s), p); }
    /// One report of the whole board at `t` (ms), then time runs on to `t` + 500.
    void report(TimeMs t, bool settle = false) {
        r.take(r.rec.feed(BoardSnapshot{t, board}));
        if (settle) r.take(r.rec.feed(Tick{t + 500}));
    }
};

// After 1.e4 c5 2.c4 Nc6 3.Ne2 (Molinari-Bordais 1979), Black to play 3...Nf6.
constexpr const char* kBeforeNf6 = "r1bqkbnr/pp1ppppp/2n5/2p5/2P1P3/8/PP1PNPPP/RNBQKB1R b KQkq - 2 3";

} // namespace

TEST_CASE("4.3 a sensor bounce of the queen across two board reports is not a touch") {
    // The Chessnut reports the queen's square empty and, 5 ms later, the queen back together with
    // the knight lifted; then the knight lands on f6.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReportingBoard b(kBeforeNf6, id);
        b.set("d8", Piece::None);
        b.report(1000);
        b.set("d8", Piece::BQueen);
        b.set("g8", Piece::None);
        b.report(1005);
        b.set("f6", Piece::BKnight);
        b.report(1300, true);
        REQUIRE(b.r.made == std::vector<std::string>{"g8f6"});
        CHECK(b.r.irregularities() == 0);
        for (const TouchEvent& t : b.r.touches) CHECK(t.square != sq("d8"));
    }
}

TEST_CASE("4.3.1 the queen lifted and put back in separate board reports, then the knight moved, raises touch_move") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReportingBoard b(kBeforeNf6, id);
        b.set("d8", Piece::None);
        b.report(1000);
        b.set("d8", Piece::BQueen);
        b.report(1200);
        b.set("g8", Piece::None);
        b.report(1500);
        b.set("f6", Piece::BKnight);
        b.report(1800, true);
        REQUIRE(b.r.made == std::vector<std::string>{"g8f6"});
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        CHECK(b.r.alerts[0].article == "4.3");
        CHECK(b.r.alerts[0].squares == bb(sq("d8")));
        CHECK(b.r.alerts[0].player == Color::Black);
    }
}

TEST_CASE("4.3.1 the queen put back and the knight lifted in one board report: the put-back comes first") {
    // The board saw the queen lifted (200 ms, a touch); the report that shows her back also shows
    // the knight gone. The TOUCH events give the put-back before the lift, and 4.3.1 still holds:
    // the queen was touched first.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReportingBoard b(kBeforeNf6, id);
        b.set("d8", Piece::None);
        b.report(1000);
        b.set("d8", Piece::BQueen);
        b.set("g8", Piece::None);
        b.report(1200);
        b.set("f6", Piece::BKnight);
        b.report(1500, true);
        REQUIRE(b.r.made == std::vector<std::string>{"g8f6"});
        std::vector<std::string> order;
        for (const TouchEvent& t : b.r.touches)
            order.push_back(std::string(t.lift ? "lift " : "place ") + t.square.name());
        CHECK(order == std::vector<std::string>{"lift d8", "place d8", "lift g8", "place f6"});
        REQUIRE(b.r.count(AlertKind::TouchMove) == 1);
        CHECK(b.r.alerts[0].squares == bb(sq("d8")));
    }
}

TEST_CASE("4.3.1 two own pieces lifted in one board report: the order is unknown, no touch_move") {
    // Queen and knight both gone in one report (square order would put the queen, d8, first);
    // the queen comes back and the knight goes to f6.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReportingBoard b(kBeforeNf6, id);
        b.set("d8", Piece::None);
        b.set("g8", Piece::None);
        b.report(1000);
        b.set("d8", Piece::BQueen);
        b.report(1300);
        b.set("f6", Piece::BKnight);
        b.report(1600, true);
        REQUIRE(b.r.made == std::vector<std::string>{"g8f6"});
        CHECK(b.r.irregularities() == 0);
    }
}

TEST_CASE("4.4.2 queenside castling seen in one board report: king and rook lifted together, no touch_move") {
    // Square order would have the rook (a1) lifted before the king (e1): "rook first".
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReportingBoard b("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", id);
        b.set("a1", Piece::None);
        b.set("e1", Piece::None);
        b.set("c1", Piece::WKing);
        b.set("d1", Piece::WRook);
        b.report(1000, true);
        REQUIRE(b.r.made.size() == 1);
        CHECK(b.r.made[0] == "e1c1");
        CHECK(b.r.irregularities() == 0);
    }
}

namespace {

/// An identity board in `fen`, one report with `squares` set as they now read: the move made
/// is `uci`, and nothing irregular was seen.
void made_in_one_report(const char* fen, std::initializer_list<std::pair<const char*, Piece>> squares,
                        const std::string& uci) {
    ReportingBoard b(fen, true);
    for (const auto& [square, piece] : squares) b.set(square, piece);
    b.report(1000, true);
    CHECK(b.r.made == std::vector<std::string>{uci});
    CHECK(b.r.irregularities() == 0);
}

} // namespace

TEST_CASE("3.7.4 4.7.1 4.7.3 en passant, a capture and a capturing promotion each in one board report are made") {
    SECTION("en passant") {
        made_in_one_report("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
                           {{"e5", Piece::None}, {"d5", Piece::None}, {"d6", Piece::WPawn}}, "e5d6");
    }
    SECTION("capture, identity changes on the target") {
        made_in_one_report("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", {{"f3", Piece::None}, {"e5", Piece::WKnight}},
                           "f3e5");
    }
    SECTION("promotion with capture, underpromotion read from the board") {
        made_in_one_report("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", {{"b7", Piece::None}, {"a8", Piece::WKnight}},
                           "b7a8n");
    }
}

TEST_CASE("new game: the first board report stands at once, a move begun within the bounce time starts from it") {
    // A DGT board's dump at start-up and the player's first lift 5 ms later: the dump is the
    // board as it stands (nothing to filter), so the start position is seen and 1.e4 is made.
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Run r;
        BoardSnapshot start{100, {}};
        const Position p = Position::startpos();
        for (int s = 0; s < 64; ++s) {
            const Piece piece = p.piece_on(Square(s));
            start.board[static_cast<std::size_t>(s)] =
                piece == Piece::None ? SquareReading::empty() : id ? SquareReading::of(piece) : SquareReading::unknown();
        }
        r.feed({start, SquareChange{105, sq("e2"), SquareReading::empty()},
                SquareChange{110, sq("e4"), id ? SquareReading::of(Piece::WPawn) : SquareReading::unknown()},
                Tick{1000}});
        CHECK(r.games_started == 1);
        CHECK(r.made == std::vector<std::string>{"e2e4"});
    }
}
