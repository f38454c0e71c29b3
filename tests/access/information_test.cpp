// D.2.10.4 [23] / F2.9 d [05]: information only on request (clocks, number of moves) and what a
// player at a tactile board may ask besides (last moves, piece list, square, rank, file), and
// the spoken alerts (D.2.9 boards differ, 6.9 flag, 7.4 displaced pieces, 7.5 illegal move).
#include "access/alerts.hpp"
#include "access/information.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace eboard;
using namespace eboard::access;

namespace {

/// The game 1.e4 e5 2.Nf3 Nc6 3.Bb5 from the start position, with its history.
Position ruy_lopez() {
    Position pos = Position::startpos();
    for (const char* u : {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}) {
        const Move m = move_from_uci(pos, u);
        REQUIRE_FALSE(m.is_none());
        pos.make_move(m);
    }
    return pos;
}

} // namespace

TEST_CASE("D.2.10.4 the time used by both players, on request") {
    CHECK(clocks_text(5400000, 3599999, Vocabulary::AppendixD) ==
          "Weiß 1 Stunde 30 Minuten 0 Sekunden, Schwarz 59 Minuten 59 Sekunden");
    CHECK(clocks_text(7201000, 61000, Vocabulary::English) ==
          "White 2 hours 1 second, Black 1 minute 1 second");
    CHECK(clocks_text(0, -5, Vocabulary::Dutch) == "wit 0 seconden, zwart 0 seconden");
    CHECK(time_words(3600000 + 120000, Vocabulary::Afrikaans) == "1 uur 2 minute 0 sekondes");
    CHECK(time_words(1000, Vocabulary::French) == "1 seconde");
    CHECK(time_words(2500, Vocabulary::German) == "2 Sekunden");
}

TEST_CASE("D.2.10.4 the number of moves, on request") {
    const Position pos = ruy_lopez();
    CHECK(moves_text(pos, Vocabulary::AppendixD) == "Zug 3, Schwarz am Zug");
    CHECK(moves_text(pos, Vocabulary::English) == "move 3, Black to move");
    CHECK(moves_text(Position::startpos(), Vocabulary::French) == "coup 1, trait aux blancs");
}

TEST_CASE("D.2.10.4 the last moves, oldest first, each with its number and side") {
    const Position pos = ruy_lopez();
    CHECK(last_moves_text(pos, 2) ==
          "Zug 2, Schwarz: Springer Cesar sechs. Zug 3, Weiß: Läufer Bella fünf.");
    CHECK(last_moves_text(pos, 1, {Vocabulary::English, false}) == "move 3, White: bishop b5.");
    CHECK(last_moves_text(pos, 99, {Vocabulary::English, false})
              .starts_with("move 1, White: pawn e4."));
    CHECK(last_moves_text(Position::startpos(), 3, {Vocabulary::Dutch, false}) ==
          "nog geen zetten");
}

TEST_CASE("D.2.10.4 the whole position as a piece list") {
    auto pos = Position::from_fen("4k3/8/8/8/8/8/4P3/R3K2R w KQ - 0 1");
    REQUIRE(pos);
    CHECK(position_text(*pos, Vocabulary::AppendixD) ==
          "Weiß: König Eva eins, Turm Anna eins, Turm Hector eins, Bauer Eva zwei. "
          "Schwarz: König Eva acht.");
    CHECK(position_text(*pos, Vocabulary::English) ==
          "White: king e1, rook a1, rook h1, pawn e2. Black: king e8.");
}

TEST_CASE("D.2.10.4 what stands on a square, a scan of a rank or a file") {
    const Position pos = ruy_lopez();
    CHECK(square_text(pos, Square::parse("b5"), Vocabulary::AppendixD) ==
          "Bella fünf, weißer Läufer");
    CHECK(square_text(pos, Square::parse("d4"), Vocabulary::Dutch) == "d4, leeg");
    CHECK(square_text(pos, Square::parse("f3"), Vocabulary::Dutch) == "f3, wit paard");
    CHECK(rank_text(pos, 4, Vocabulary::AppendixD) == "Reihe fünf: Bella fünf, weißer Läufer, "
                                                      "Eva fünf, schwarzer Bauer");
    CHECK(rank_text(pos, 3, Vocabulary::English) == "rank 4: e4, white pawn");
    CHECK(file_text(pos, 2, Vocabulary::French) ==
          "colonne c: c1, fou blanc, c2, pion blanc, c6, cavalier noir, "
          "c7, pion noir, c8, fou noir");
    CHECK(rank_text(Position::startpos(), 3, Vocabulary::German) == "Reihe 4: leer");
}

TEST_CASE("D.2.10.4 requests as the client API writes them, and the clock buttons") {
    auto r = parse_info_request("last 3");
    REQUIRE(r);
    CHECK(r->kind == InfoRequest::Kind::Last);
    CHECK(r->count == 3);
    r = parse_info_request(" square e4 ");
    REQUIRE(r);
    CHECK(r->square == Square::parse("e4"));
    r = parse_info_request("file h");
    REQUIRE(r);
    CHECK(r->index == 7);
    r = parse_info_request("rank 1");
    REQUIRE(r);
    CHECK(r->index == 0);
    CHECK(parse_info_request("clocks"));
    CHECK(parse_info_request("moves"));
    CHECK(parse_info_request("position"));
    CHECK(parse_info_request("square z9").error().message == "bad square 'z9'");
    CHECK(parse_info_request("rank 9").error().message == "bad rank '9'");
    CHECK(parse_info_request("file k").error().message == "bad file 'k'");
    CHECK(parse_info_request("last 0").error().message == "bad count '0'");
    CHECK(parse_info_request("weather").error().message == "unknown request 'weather'");
    CHECK(parse_info_request("").error().message == "unknown request ''");

    CHECK(info_request_for_button(0)->kind == InfoRequest::Kind::Clocks);
    CHECK(info_request_for_button(1)->kind == InfoRequest::Kind::Moves);
    CHECK(info_request_for_button(2)->count == 1);
    CHECK(info_request_for_button(3)->count == 4);
    CHECK_FALSE(info_request_for_button(4)); // ok opens the menu (button_menu_test.cpp)
    CHECK_FALSE(info_request_for_button(5));
    CHECK_FALSE(info_request_for_button(-1));

    const Position pos = ruy_lopez();
    CHECK(answer_info_request(*info_request_for_button(0), pos, 60000, 1000,
                              {Vocabulary::English, false}) ==
          "White 1 minute 0 seconds, Black 1 second");
    // No clock: the move count answers a clock request.
    CHECK(answer_info_request(*info_request_for_button(0), pos, std::nullopt, std::nullopt,
                              {Vocabulary::English, false}) == "move 3, Black to move");
}

TEST_CASE("D.2.9 boards differ is spoken with the squares, 6.9 flag with the side") {
    const std::vector<Square> squares = {Square::parse("e4"), Square::parse("d5")};
    CHECK(alert_text("both_boards_differ", squares, std::nullopt, Vocabulary::AppendixD) ==
          "Bretter verschieden: Eva vier, David fünf");
    CHECK(alert_text("both_boards_differ", squares, std::nullopt, Vocabulary::English) ==
          "boards differ: e4, d5");
    CHECK(alert_text("boards_agree", {}, std::nullopt, Vocabulary::Dutch) == "borden weer gelijk");
    CHECK(alert_text("flag", {}, Color::Black, Vocabulary::French) == "drapeau tombé, noirs");
    CHECK(alert_text("flag", {}, Color::White, Vocabulary::Afrikaans) == "vlag geval, wit");
    CHECK(alert_text("illegal_move", {}, std::nullopt, Vocabulary::German) == "Regelwidriger Zug");
    CHECK(alert_text("position_mismatch", squares, std::nullopt, Vocabulary::English) ==
          "piece displaced: e4, d5");
    // Arbiter matters that are not the player's to hear are not spoken.
    CHECK(alert_text("touch_move", squares, std::nullopt, Vocabulary::English).empty());
    CHECK_FALSE(alert_is_spoken("draw_claimable"));
    CHECK(alert_is_spoken("both_boards_differ"));
}
