// The announcer of one board: moves made announced from the line the events tell (D.2.1),
// only the configured side's moves, moves taken back and made again, a game joined late.
#include "access/announcer.hpp"

#include <catch2/catch.hpp>

using namespace eboard;
using namespace eboard::access;

namespace {

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The FEN after playing `ucis` from the start.
std::string fen_after(std::initializer_list<const char*> ucis) {
    Position p = Position::startpos();
    for (const char* u : ucis) p.make_move(move_from_uci(p, u));
    return p.fen();
}

std::string said(const std::optional<Spoken>& s) {
    return s ? s->text : "(nothing)";
}

} // namespace

TEST_CASE("D.2.1 every move made is announced from the position before it") {
    Announcer a;
    a.game_started(kStart);
    CHECK(said(a.move_made(1, "e2e4", fen_after({"e2e4"}))) == "Bauer Eva vier");
    auto s = a.move_made(2, "d7d5", fen_after({"e2e4", "d7d5"}));
    REQUIRE(s);
    CHECK(s->text == "Bauer David fünf");
    CHECK(s->language == "de");
    CHECK_FALSE(s->important);
    CHECK(said(a.move_made(3, "e4d5", fen_after({"e2e4", "d7d5", "e4d5"}))) ==
          "Bauer Eva schlägt David fünf");
    CHECK(a.answer(*parse_info_request("last 2")).text ==
          "Zug 1, Schwarz: Bauer David fünf. Zug 2, Weiß: Bauer Eva schlägt David fünf.");
}

TEST_CASE("D.2.1 a move taken back before completion and made again is announced again") {
    Announcer a({{Vocabulary::English, false}, SpokenSides::Both, true});
    a.game_started(kStart);
    CHECK(said(a.move_made(1, "e2e4", fen_after({"e2e4"}))) == "pawn e4");
    CHECK(said(a.move_made(1, "d2d4", fen_after({"d2d4"}))) == "pawn d4");
    CHECK(said(a.move_made(2, "d7d5", fen_after({"d2d4", "d7d5"}))) == "pawn d5");
    CHECK(a.position().fen() == fen_after({"d2d4", "d7d5"}));
}

TEST_CASE("D.2.1 only the opponent's moves, when so configured") {
    Announcer a({{Vocabulary::AppendixD, false}, SpokenSides::Black, true});
    a.game_started(kStart);
    CHECK_FALSE(a.move_made(1, "g1f3", fen_after({"g1f3"})));
    CHECK(said(a.move_made(2, "g8f6", fen_after({"g1f3", "g8f6"}))) == "Springer Felix sechs");
    Announcer none({{Vocabulary::AppendixD, false}, SpokenSides::None, true});
    none.game_started(kStart);
    CHECK_FALSE(none.move_made(1, "g1f3", fen_after({"g1f3"})));
    CHECK(spoken_sides_from_text("white") == SpokenSides::White);
    CHECK_FALSE(spoken_sides_from_text("left"));
}

TEST_CASE("A game joined late: the piece and its square, then the line from the board's FEN") {
    Announcer a;
    a.game_started(kStart);
    // Ply 5 without plies 1..4: no position before it is known.
    const std::string fen = fen_after({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"});
    CHECK(said(a.move_made(5, "f1b5", fen)) == "Läufer Bella fünf");
    CHECK(
        said(a.move_made(6, "a7a6", fen_after({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}))) ==
        "Bauer Anna sechs");
    CHECK(a.answer(*parse_info_request("moves")).text == "Zug 4, Weiß am Zug");
}

TEST_CASE("D.2.10.4 clock request answered with the times of the last completed move") {
    Announcer a({{Vocabulary::English, false}, SpokenSides::Both, true});
    a.game_started(kStart);
    CHECK(a.answer(*info_request_for_button(0)).text == "move 1, White to move");
    a.clock_times(5400000, 5395000);
    CHECK(a.answer(*info_request_for_button(0)).text ==
          "White 1 hour 30 minutes 0 seconds, Black 1 hour 29 minutes 55 seconds");
}

TEST_CASE("Alerts are spoken as important, unless alerts are off") {
    Announcer a;
    const std::vector<Square> sq = {Square::parse("a1")};
    auto s = a.alert("both_boards_differ", sq, std::nullopt);
    REQUIRE(s);
    CHECK(s->important);
    CHECK(s->text == "Bretter verschieden: Anna eins");
    CHECK_FALSE(a.alert("draw_claimable", {}, std::nullopt));
    Announcer quiet({{}, SpokenSides::Both, false});
    CHECK_FALSE(quiet.alert("illegal_move", {}, std::nullopt));
}
