#include <catch2/catch.hpp>

#include "daemon/events.hpp"

using namespace eboard::daemon;
using eboard::AlertKind;
using eboard::Color;
using eboard::MoveClock;
using eboard::Piece;
using eboard::Square;

namespace {
ResultEvent result_event(const char* board, const char* game, const char* result, const char* termination,
                         bool confirmed) {
    ResultEvent r;
    r.board = board;
    r.game = game;
    r.result = result;
    r.termination = termination;
    r.confirmed = confirmed;
    return r;
}

/// The squares named, as a Bitboard (a1=0 .. h8=63).
eboard::Bitboard squares(std::initializer_list<const char*> names) {
    eboard::Bitboard b = 0;
    for (const char* n : names) b |= eboard::Bitboard{1} << Square::parse(n).index();
    return b;
}
} // namespace

TEST_CASE("events: VERSION is the first line's shape, proto_major 1") {
    CHECK(to_line(version_event()) ==
          "{\"class\":\"VERSION\",\"release\":\"" + version_event().release +
              "\",\"proto_major\":1,\"proto_minor\":" + std::to_string(kProtoMinor) + "}\n");
}

TEST_CASE("events: exact JSON of each class") {
    CHECK(to_line(BoardEvent{"table1", true, "dgt"}) ==
          "{\"class\":\"BOARD\",\"board\":\"table1\",\"state\":\"connected\",\"driver\":\"dgt\"}\n");
    CHECK(to_line(BoardEvent{"table1", false, "dgt"}).find("\"state\":\"disconnected\"") != std::string::npos);
    CHECK(to_line(GameEvent::of("t", "g1", GameEvent::Kind::Start, "8/8/8/8/8/8/8/K6k w - - 0 1")) ==
          "{\"class\":\"GAME\",\"board\":\"t\",\"game\":\"g1\",\"event\":\"start\",\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\"}\n");
    // Our additive take-back (proto_minor 1): the ply the game is back at.
    CHECK(to_line(GameEvent::of("t", "g1", GameEvent::Kind::Takeback, "8/8/8/8/8/8/8/K6k w - - 0 1", 0)) ==
          "{\"class\":\"GAME\",\"board\":\"t\",\"game\":\"g1\",\"event\":\"takeback\",\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\",\"ply\":0}\n");
    CHECK(to_line(TouchEvent{{0, Square::parse("e2"), true, Piece::WPawn}, "t", "g1"}) ==
          "{\"class\":\"TOUCH\",\"board\":\"t\",\"game\":\"g1\",\"square\":\"e2\",\"action\":\"lift\",\"piece\":\"P\"}\n");
    const MoveEvent m = MoveEvent::of("t", "g1", 1, "e4", "e2e4", "fen", true, MoveClock{5399000, 5400000});
    CHECK(to_line(m) ==
          "{\"class\":\"MOVE\",\"board\":\"t\",\"game\":\"g1\",\"ply\":1,\"san\":\"e4\",\"uci\":\"e2e4\","
          "\"fen\":\"fen\",\"status\":\"completed\",\"clock\":{\"white_ms\":5399000,\"black_ms\":5400000}}\n");
    CHECK(to_line(result_event("t", "g1", "1-0", "checkmate", false)) ==
          "{\"class\":\"RESULT\",\"board\":\"t\",\"game\":\"g1\",\"result\":\"1-0\",\"termination\":\"checkmate\",\"confirmed\":false}\n");
    AlertEvent a;
    a.board = "t";
    a.game = "g1";
    a.kind = AlertKind::IllegalMove;
    a.article = "7.5.1";
    a.text = "illegal move";
    a.ply = 12;
    a.player = Color::White;
    a.count = 1;
    a.penalty = "+2min";
    a.fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
    CHECK(to_line(a) ==
          "{\"class\":\"ALERT\",\"board\":\"t\",\"game\":\"g1\",\"kind\":\"illegal_move\",\"article\":\"7.5.1\","
          "\"text\":\"illegal move\",\"ply\":12,\"player\":\"white\",\"count\":1,\"penalty\":\"+2min\","
          "\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\"}\n");
    AlertEvent flag;
    flag.board = "t";
    flag.game = "g1";
    flag.kind = AlertKind::Flag;
    flag.article = "6.9";
    flag.text = "White's flag fell";
    flag.player = Color::White;
    flag.result = "0-1";
    CHECK(to_line(flag) ==
          "{\"class\":\"ALERT\",\"board\":\"t\",\"game\":\"g1\",\"kind\":\"flag\",\"article\":\"6.9\","
          "\"text\":\"White's flag fell\",\"player\":\"white\",\"result\":\"0-1\"}\n");
}

TEST_CASE("events: fields without a value are left out, never null") {
    const std::string touch = to_line(TouchEvent{{0, Square::parse("e2"), false, Piece::None}, "t", "g1"});
    CHECK(touch.find("piece") == std::string::npos);
    CHECK(touch.find("null") == std::string::npos);
    const std::string made = to_line(MoveEvent::of("t", "g1", 1, "e4", "e2e4", "f", false, std::nullopt));
    CHECK(made.find("clock") == std::string::npos);
    CHECK(made.find("\"status\":\"made\"") != std::string::npos);
    AlertEvent a;
    a.board = "t";
    a.kind = AlertKind::BoardDisconnected;
    a.article = "";
    a.text = "gone";
    const std::string alert = to_line(a);
    CHECK(alert.find("game") == std::string::npos);
    CHECK(alert.find("ply") == std::string::npos);
    CHECK(alert.find("squares") == std::string::npos);
    CHECK(alert.find("null") == std::string::npos);
}

TEST_CASE("events: JSON reads back to the same event") {
    const MoveEvent m = MoveEvent::of("t", "g1", 7, "Nf3", "g1f3", "fen", true, MoveClock{1, 2});
    auto back = event_from_json(to_json(m));
    REQUIRE(back.has_value());
    CHECK(to_line(*back) == to_line(m));
    AlertEvent a;
    a.board = "t";
    a.game = "g";
    a.kind = AlertKind::PositionMismatch;
    a.article = "7.4";
    a.text = "x";
    a.squares = squares({"e2", "e4"});
    a.fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
    auto back2 = event_from_json(to_json(a));
    REQUIRE(back2.has_value());
    CHECK(to_line(*back2) == to_line(a));
    const GameEvent tb = GameEvent::of("t", "g", GameEvent::Kind::Takeback, "fen", 4);
    auto back3 = event_from_json(to_json(tb));
    REQUIRE(back3.has_value());
    CHECK(to_line(*back3) == to_line(tb));
    const TouchEvent touch{{0, Square::parse("g8"), true, Piece::BKnight}, "t", "g"};
    auto back4 = event_from_json(to_json(touch));
    REQUIRE(back4.has_value());
    CHECK(to_line(*back4) == to_line(touch));
    const ResultEvent result = result_event("t", "g", "1/2-1/2", "agreement", true);
    auto back5 = event_from_json(to_json(result));
    REQUIRE(back5.has_value());
    CHECK(to_line(*back5) == to_line(result));
    // proto_minor 6: a resignation that stands on an undecided winnability answer says so.
    ResultEvent undecided = result_event("t", "g", "0-1", "resignation", true);
    undecided.winnability = "undecided";
    CHECK(to_line(undecided) == "{\"class\":\"RESULT\",\"board\":\"t\",\"game\":\"g\",\"result\":\"0-1\","
                                "\"termination\":\"resignation\",\"confirmed\":true,\"winnability\":\"undecided\"}\n");
    auto back6 = event_from_json(to_json(undecided));
    REQUIRE(back6.has_value());
    CHECK(to_line(*back6) == to_line(undecided));
    CHECK(to_json(result).count("winnability") == 0);  // decided: left out
    CHECK_FALSE(event_from_json(nlohmann::ordered_json::parse(
                                    "{\"class\":\"TOUCH\",\"square\":\"z9\",\"action\":\"lift\"}"))
                    .has_value());
    CHECK_FALSE(event_from_json(nlohmann::ordered_json::parse("{\"class\":\"MOVE\"}")).has_value());
    // An ALERT kind the vocabulary does not have is named, not taken as some other kind.
    const auto unknown = event_from_json(nlohmann::ordered_json::parse(
        "{\"class\":\"ALERT\",\"kind\":\"meteor\",\"article\":\"\",\"text\":\"x\"}"));
    REQUIRE_FALSE(unknown.has_value());
    CHECK(unknown.error().message.find("meteor") != std::string::npos);
    CHECK_FALSE(event_from_json(nlohmann::ordered_json::parse("[1,2]")).has_value());
    CHECK_FALSE(event_from_json(nlohmann::ordered_json::parse("{\"class\":\"NOPE\"}")).has_value());
}

TEST_CASE("events: BOARD battery (proto_minor 7): percent and charging, absent when unknown, read back") {
    BoardEvent b{"t1", true, "chessnut", Battery{84, false}};
    CHECK(to_line(b) == "{\"class\":\"BOARD\",\"board\":\"t1\",\"state\":\"connected\",\"driver\":\"chessnut\","
                        "\"battery\":{\"percent\":84,\"charging\":false}}\n");
    auto back = event_from_json(to_json(b));
    REQUIRE(back.has_value());
    CHECK(to_line(*back) == to_line(b));
    b.battery = Battery{15, true};
    back = event_from_json(to_json(b));
    REQUIRE(back.has_value());
    REQUIRE(std::get<BoardEvent>(*back).battery.has_value());
    CHECK(*std::get<BoardEvent>(*back).battery == Battery{15, true});
    CHECK(to_json(BoardEvent{"t1", true, "dgt"}).count("battery") == 0);
    CHECK_FALSE(event_from_json(nlohmann::ordered_json::parse(
                                    "{\"class\":\"BOARD\",\"state\":\"connected\",\"battery\":\"84%\"}"))
                    .has_value());
    CHECK(kProtoMinor == 7);
}
