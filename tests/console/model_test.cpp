// The console's state (console/model.hpp) from the events of a game, as eboardd writes them.
#include "console/model.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;

namespace {
const char* const kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const char* const kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const char* const kAfterE5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

json move(int ply, const char* san, const char* status, const char* fen, const json& clock = nullptr) {
    json m{{"class", "MOVE"}, {"board", "t1"}, {"game", "g1"}, {"ply", ply}, {"san", san}, {"uci", "x"},
           {"fen", fen}, {"status", status}};
    if (!clock.is_null()) m["clock"] = clock;
    return m;
}
} // namespace

TEST_CASE("6.2.1 the console follows a game: moves made then completed, the side to move's clock counting") {
    eboard::console::Model m("eboardd");
    CHECK(m.apply({{"class", "BOARD"}, {"board", "t1"}, {"state", "connected"}, {"driver", "dgt"}}, 0, 0) == "t1");
    CHECK(m.apply({{"class", "GAME"}, {"board", "t1"}, {"game", "g1"}, {"event", "start"}, {"fen", kStart}}, 0, 0));
    CHECK_FALSE(m.apply({{"class", "TOUCH"}, {"board", "t1"}, {"game", "g1"}, {"square", "e2"}, {"action", "lift"}}, 0, 0));
    m.apply(move(1, "e4", "made", kAfterE4), 100, 0);
    auto b = m.board_json("t1", 100);
    CHECK(b["fen"] == kAfterE4);
    CHECK(b["moves"][0]["status"] == "made");
    CHECK_FALSE(b.contains("clock"));
    m.apply(move(1, "e4", "completed", kAfterE4, {{"white_ms", 300000}, {"black_ms", 300000}}), 1000, 0);
    b = m.board_json("t1", 3500);
    REQUIRE(b["moves"].size() == 1);
    CHECK(b["moves"][0]["status"] == "completed");
    CHECK(b["clock"]["running"] == "black");
    CHECK(b["clock"]["black_ms"] == 297500); // counted down 2.5 s since the completed move
    CHECK(b["clock"]["white_ms"] == 300000);
    m.apply(move(2, "e5", "completed", kAfterE5, {{"white_ms", 300000}, {"black_ms", 296000}}), 5000, 0);
    b = m.board_json("t1", 6000);
    CHECK(b["clock"]["running"] == "white");
    CHECK(b["clock"]["white_ms"] == 299000);
    CHECK(b["fen"] == kAfterE5);

    // The result stops the clock where it stood.
    m.apply({{"class", "RESULT"}, {"board", "t1"}, {"game", "g1"}, {"result", "1-0"}, {"termination", "resignation"},
             {"confirmed", true}},
            7000, 0);
    b = m.board_json("t1", 60000);
    CHECK(b["result"] == "1-0");
    CHECK(b["clock"]["running"].is_null());
    CHECK(b["clock"]["white_ms"] == 298000);
}

TEST_CASE("7.5.1 an illegal move's alert stays open until acknowledged, with its count and penalty") {
    eboard::console::Model m("eboardd");
    m.apply({{"class", "GAME"}, {"board", "t1"}, {"game", "g1"}, {"event", "start"}, {"fen", kStart}}, 0, 0);
    m.apply({{"class", "ALERT"}, {"board", "t1"}, {"game", "g1"}, {"kind", "illegal_move"}, {"article", "7.5.1"},
             {"text", "illegal move"}, {"ply", 3}, {"count", 1}, {"penalty", "+2min"}, {"player", "white"},
             {"fen", "internal"}},
            10, 1'700'000'000'000);
    auto a = m.board_json("t1", 10)["alerts"];
    REQUIRE(a.size() == 1);
    CHECK(a[0]["kind"] == "illegal_move");
    CHECK(a[0]["count"] == 1);
    CHECK(a[0]["penalty"] == "+2min");
    CHECK(a[0]["open"] == true);
    CHECK(a[0]["time"] == 1'700'000'000'000);
    CHECK_FALSE(a[0].contains("fen"));
    const auto id = a[0]["id"].get<std::uint64_t>();
    CHECK_FALSE(m.acknowledge("t1", id + 1));
    CHECK(m.acknowledge("t1", id));
    CHECK_FALSE(m.acknowledge("t1", id)); // already closed
    CHECK(m.board_json("t1", 10)["alerts"][0]["open"] == false);

    m.apply({{"class", "ALERT"}, {"board", "t1"}, {"game", "g1"}, {"kind", "touch_move"}, {"article", "4.3"},
             {"text", "t"}},
            20, 0);
    m.close_alerts("t1");
    // (Held in a variable: a range-for over a temporary's member would read freed memory.)
    const auto closed = m.board_json("t1", 20);
    for (const auto& x : closed["alerts"]) CHECK(x["open"] == false);

    // A flag fall the full search could not decide (proto_minor 5): the page is told so.
    m.apply({{"class", "ALERT"}, {"board", "t1"}, {"game", "g1"}, {"kind", "flag"}, {"article", "6.9"},
             {"text", "white's flag fell"}, {"winnability", "undecided"}},
            30, 0);
    const auto flag = m.board_json("t1", 30)["alerts"].back();
    CHECK(flag["kind"] == "flag");
    CHECK(flag["winnability"] == "undecided");
}

TEST_CASE("a take-back, a correction, a hub's host, a late subscriber and the board order") {
    eboard::console::Model m("eboard-hub");
    auto with_host = [](json e) {
        e["host"] = "pi1";
        return e;
    };
    m.apply(with_host({{"class", "GAME"}, {"board", "t1"}, {"game", "g1"}, {"event", "start"}, {"fen", kStart}}), 0, 0);
    m.apply(with_host(move(1, "e4", "completed", kAfterE4)), 0, 0);
    m.apply(with_host(move(2, "e5", "completed", kAfterE5)), 0, 0);
    REQUIRE(m.board("pi1/t1"));
    CHECK(m.board("t1") == nullptr);
    m.apply(with_host({{"class", "GAME"}, {"board", "t1"}, {"game", "g1"}, {"event", "takeback"}, {"ply", 1},
                       {"fen", kAfterE4}}),
            0, 0);
    CHECK(m.board_json("pi1/t1", 0)["moves"].size() == 1);
    CHECK(m.board_json("pi1/t1", 0)["fen"] == kAfterE4);
    m.apply(with_host(move(1, "d4", "made", kStart)), 0, 0); // a correction of ply 1
    CHECK(m.board_json("pi1/t1", 0)["moves"][0]["san"] == "d4");

    // Joined in mid-game: a move of a game it never saw start replaces the old game.
    m.apply(with_host({{"class", "MOVE"}, {"board", "t1"}, {"game", "g2"}, {"ply", 7}, {"san", "Nf3"}, {"fen", kStart},
                       {"status", "made"}}),
            0, 0);
    CHECK(m.board_json("pi1/t1", 0)["game"] == "g2");
    CHECK(m.board_json("pi1/t1", 0)["moves"].size() == 1);

    m.set_pairing("pi2/a", "Board 1", 1, 3, "Carlsen, Magnus", "Ding, Liren");
    m.apply(with_host({{"class", "BOARD"}, {"board", "b0"}, {"state", "connected"}, {"driver", "emu-dgt"},
                       {"battery", {{"percent", 84}, {"charging", false}}}}),
            0, 0);
    const auto s = m.state_json(false, 0);
    CHECK(s["server"] == "eboard-hub");
    CHECK(s["logged_in"] == false);
    REQUIRE(s["boards"].size() == 3);
    CHECK(s["boards"][0]["id"] == "pi2/a"); // numbered first
    CHECK(s["boards"][0]["white"] == "Carlsen, Magnus");
    CHECK(s["boards"][0]["state"] == "disconnected");
    CHECK(s["boards"][1]["id"] == "pi1/b0");
    CHECK(s["boards"][1]["battery"] == json{{"percent", 84}, {"charging", false}, {"low", false}});
    CHECK(s["boards"][2]["id"] == "pi1/t1");
    CHECK_FALSE(m.apply(json::parse("[1,2]"), 0, 0));
    CHECK_FALSE(m.apply({{"class", "MOVE"}}, 0, 0));
}

TEST_CASE("a board's battery from its BOARD events, low at 15 % and below, gone when unknown") {
    eboard::console::Model m("eboardd");
    const auto board = [&](json battery) {
        json e{{"class", "BOARD"}, {"board", "t1"}, {"state", "connected"}, {"driver", "dgt"}};
        if (!battery.is_null()) e["battery"] = std::move(battery);
        REQUIRE(m.apply(e, 0, 0) == std::optional<std::string>("t1"));
        return m.board_json("t1", 0);
    };
    CHECK_FALSE(board(nullptr).contains("battery"));
    CHECK(board({{"percent", 16}, {"charging", false}})["battery"] ==
          json{{"percent", 16}, {"charging", false}, {"low", false}});
    CHECK(board({{"percent", 15}, {"charging", false}})["battery"]["low"] == true);
    CHECK(board({{"percent", 3}, {"charging", true}})["battery"] == json{{"percent", 3}, {"charging", true}, {"low", true}});
    // A BOARD without it (the board went away, or reports none): no longer shown.
    CHECK_FALSE(board(nullptr).contains("battery"));
    CHECK_FALSE(board("84%").contains("battery")); // not the event's shape: ignored
}
