// Winnability of small and locked positions, named after the Laws (2023): Art. 5.2.2 (dead
// position), 6.9 (flag fall: lost only if the opponent "can checkmate ... by any possible series
// of legal moves"), 1.4.1 / 5.2.1 (a mate or stalemate already on the board).
#include <catch2/catch.hpp>

#include <string>

#include "rules/winnable.hpp"
#include "rules/winnable_detail.hpp"

using namespace eboard;

namespace {

Position fen(const std::string& text) {
    auto p = Position::from_fen(text);
    INFO(text);
    REQUIRE(p.has_value());
    return std::move(p).value();
}

Winnability quick(const std::string& text, Color side) {
    return can_checkmate(fen(text), side, WinnableMode::Quick);
}
Winnability full(const std::string& text, Color side) {
    return can_checkmate(fen(text), side, WinnableMode::Full);
}

} // namespace

TEST_CASE("6.9 a lone king can never checkmate, the queen's side can") {
    const std::string p = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    CHECK(quick(p, Color::Black) == Winnability::Unwinnable);
    CHECK(full(p, Color::White) == Winnability::Winnable);
    CHECK(insufficient_mating_material(fen(p), Color::Black));
    CHECK_FALSE(insufficient_mating_material(fen(p), Color::White));
}

TEST_CASE("6.9 king and knight against a lone king cannot checkmate: dead position") {
    const std::string p = "4k3/8/8/8/8/8/8/4KN2 w - - 0 1";
    CHECK(quick(p, Color::White) == Winnability::Unwinnable);
    CHECK(is_dead_position(fen(p)));
    CHECK(winnability_label(fen(p)) == "--");
}

TEST_CASE("6.9 king and bishop against a lone king cannot checkmate: dead position") {
    CHECK(is_dead_position(fen("4k3/8/8/8/8/8/8/4KB2 b - - 0 1")));
}

TEST_CASE("6.9 a knight cannot mate even with queens helping, the queen can") {
    const std::string p = "4k3/8/8/3q4/8/8/8/4KN2 w - - 0 1";
    CHECK(quick(p, Color::White) == Winnability::Unwinnable);
    CHECK(full(p, Color::Black) == Winnability::Winnable);
}

TEST_CASE("6.9 king and knight against king and knight can be helpmated") {
    const std::string p = "4k1n1/8/8/8/8/8/8/4KN2 w - - 0 1";
    CHECK_FALSE(insufficient_mating_material(fen(p), Color::White));
    CHECK(quick(p, Color::White) != Winnability::Unwinnable);
    CHECK(full(p, Color::White) == Winnability::Winnable);
    CHECK(full(p, Color::Black) == Winnability::Winnable);
}

TEST_CASE("6.9 king and bishop against king and pawn can be helpmated (the pawn blocks)") {
    const std::string p = "7k/7p/8/8/8/8/8/4K1B1 w - - 0 1";
    CHECK(quick(p, Color::White) != Winnability::Unwinnable);
    CHECK(full(p, Color::White) == Winnability::Winnable);
}

TEST_CASE("5.2.2 bishops of both sides all on squares of one colour: dead position") {
    const std::string p = "4k3/4b3/8/8/8/4B3/8/2B1K3 w - - 0 1";
    CHECK(winnability_label(fen(p)) == "--");
    CHECK(is_dead_position(fen(p)));
}

TEST_CASE("5.2.2 bishops on opposite colours are not a dead position") {
    const std::string p = "4k3/3b4/8/8/8/8/8/2B1K3 w - - 0 1";
    CHECK_FALSE(is_dead_position(fen(p), WinnableMode::Full));
    CHECK(winnability_label(fen(p), WinnableMode::Full) == "WB");
}

TEST_CASE("5.2.2 a locked pawn chain the kings cannot cross: dead position") {
    CHECK(winnability_label(fen("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")) == "--");
    CHECK(winnability_label(fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -")) == "--");
}

TEST_CASE("5.2.2 a chain with a door stays winnable") {
    // The d-pawns are gone: kings and pieces can pass, so nothing may be called dead.
    const std::string p = "8/8/4k3/1p3p1p/1P3P1P/4K3/8/8 w - - 0 1";
    CHECK(quick(p, Color::White) != Winnability::Unwinnable);
    CHECK(quick(p, Color::Black) != Winnability::Unwinnable);
}

TEST_CASE("1.4.1 a checkmate on the board is won by the side that gave it") {
    const std::string p = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    CHECK(quick(p, Color::Black) == Winnability::Winnable);
    CHECK(quick(p, Color::White) == Winnability::Unwinnable);
    CHECK(winnability_label(fen(p)) == "-B");
}

TEST_CASE("5.2.1 a stalemate on the board: nobody can checkmate any more") {
    CHECK(winnability_label(fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == "--");
}

TEST_CASE("the initial position is winnable for both sides") {
    CHECK(winnability_label(Position::startpos(), WinnableMode::Full) == "WB");
    CHECK_FALSE(is_dead_position(Position::startpos()));
}

TEST_CASE("5.2.2 pieces that can never move or be taken: dead (reachability analysis)") {
    // White's king is walled in on a1 by its b2-pawn and Black's a2/b3 pawns; the bishop runs
    // on dark squares only and Black's pawns never move: nobody can ever give mate.
    const std::string p = "k7/8/8/8/8/1pB5/pP6/K7 w - - 0 1";
    CHECK(winnable_detail::reach_unwinnable(fen(p), Color::White));
    CHECK(winnable_detail::reach_unwinnable(fen(p), Color::Black));
    CHECK(winnability_label(fen(p), WinnableMode::Full) == "--");
}

TEST_CASE("5.2.2 a small reachable set walked completely: dead (closure search)") {
    // White's king and h-pawn shuffle on the h-file; Black's king walks the open board.
    const std::string p = "8/8/6p1/6P1/6PK/6P1/6PP/6k1 w - - 0 1";
    Position pw = fen(p);
    CHECK(winnable_detail::closure_search(pw, Color::White, 20000, 1000000) ==
          Winnability::Unwinnable);
    CHECK(winnable_detail::closure_search(pw, Color::Black, 20000, 1000000) ==
          Winnability::Unwinnable);
    CHECK(winnability_label(fen(p), WinnableMode::Full) == "--");
}

TEST_CASE("the closure search finds a helpmate when one exists") {
    Position p = fen("7k/8/6K1/8/8/8/Q7/8 w - - 0 1");
    CHECK(winnable_detail::closure_search(p, Color::White, 20000, 1000000) ==
          Winnability::Winnable);
    CHECK(p.fen() == "7k/8/6K1/8/8/8/Q7/8 w - - 0 1");  // restored
}

TEST_CASE("6.9 full mode finds short helpmates in game positions, quick mode does not search them") {
    CHECK(winnability_label(Position::startpos(), WinnableMode::Full) == "WB");
    // After 1.e4 e5 2.Nf3 Nc6: still both.
    const Position open = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    CHECK(winnability_label(open, WinnableMode::Full) == "WB");
    // Issue 25: quick mode (>= 700,000 positions/s) runs no helpmate search on open
    // positions; a helpmate of the opening costs about 100 moves made (~20 µs).
    CHECK(winnability_label(Position::startpos(), WinnableMode::Quick) == "??");
    CHECK(winnability_label(open, WinnableMode::Quick) == "??");
}

TEST_CASE("6.9 king and queen or king and rook against a lone king: decided in quick mode too") {
    for (const char* p : {"8/8/4k3/8/8/3K4/3R4/8 w - - 0 1", "8/8/4k3/8/8/3K4/3R4/8 b - - 0 1",
                          "3k4/8/8/8/8/8/3K4/3Q4 w - - 0 1", "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1",
                          // the lone king may take the rook, but need not
                          "8/8/8/8/8/8/1kR5/7K b - - 0 1"}) {
        INFO(p);
        CHECK(quick(p, Color::White) == Winnability::Winnable);
        CHECK(quick(p, Color::Black) == Winnability::Unwinnable);
        CHECK(winnability_label(fen(p), WinnableMode::Quick) == "W-");
        CHECK(full(p, Color::White) == Winnability::Winnable);
    }
    // The lone king in check from the queen beside it, nowhere else to go: he must take it.
    const std::string taken = "k7/1Q6/8/8/8/8/8/7K b - - 0 1";
    CHECK(winnability_label(fen(taken), WinnableMode::Quick) == "--");
    CHECK(full(taken, Color::White) == Winnability::Unwinnable);
    // Other material is left to the analyses and searches (a pawn may block the mating net).
    CHECK(quick("8/8/4k3/8/8/3K4/3R2P1/8 w - - 0 1", Color::White) == Winnability::Undetermined);
}

TEST_CASE("6.9 the helpmate search finds a mate with king and rook and restores the position") {
    Position p = fen("8/8/4k3/8/8/3K4/3R4/8 w - - 0 1");
    winnable_detail::SearchStats stats;
    winnable_detail::SearchLimits limits;
    limits.last_depth = 128;
    limits.total_nodes = 100000;
    limits.stats = &stats;
    CHECK(winnable_detail::helpmate_search(p, Color::White, limits) == Winnability::Winnable);
    CHECK(stats.nodes > 0);
    CHECK(stats.nodes <= limits.total_nodes);
    CHECK(p.fen() == "8/8/4k3/8/8/3K4/3R4/8 w - - 0 1");
}

// WinnableMode::Static (the reconstruction's check after every move): the static analyses of
// Quick prove what they prove, and no helpmate search runs (since issue 25 Quick runs none
// either: both leave the start position open, Full finds its helpmates).
TEST_CASE("5.2.2 Static mode proves material and locked draws without searching") {
    CHECK(can_checkmate(fen("8/8/8/4k3/8/8/3BK3/8 w - - 0 1"), Color::White, WinnableMode::Static) ==
          Winnability::Unwinnable);
    CHECK(is_dead_position(fen("8/8/8/4k3/8/8/3BK3/8 w - - 0 1"), WinnableMode::Static));
    CHECK(can_checkmate(fen("8/8/8/4k3/8/8/3QK3/8 w - - 0 1"), Color::White, WinnableMode::Static) ==
          Winnability::Winnable);  // K+Q v K by rule
    const Position start = Position::startpos();
    CHECK(can_checkmate(start, Color::White, WinnableMode::Quick) == Winnability::Undetermined);
    CHECK(can_checkmate(start, Color::White, WinnableMode::Static) == Winnability::Undetermined);
    CHECK(can_checkmate(start, Color::White, WinnableMode::Full) == Winnability::Winnable);
}
