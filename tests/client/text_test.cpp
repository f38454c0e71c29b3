// The text eboardctl prints (client/text.hpp): events as lines, replies as lines.
#include <catch2/catch.hpp>

#include "client/text.hpp"

using namespace eboard::client;

TEST_CASE("eboardctl text: events as lines, move numbers from the FEN") {
    const ojson move{{"class", "MOVE"},   {"board", "t1"},    {"game", "g1"},
                     {"ply", 3},          {"san", "Nf3"},     {"status", "completed"},
                     {"fen", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
                     {"clock", {{"white_ms", 5399500}, {"black_ms", 5400000}}}};
    CHECK(describe(move) == "t1 g1  2. Nf3 (completed)  white 1:29:59  black 1:30:00");
    ojson black = move;
    black["fen"] = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    CHECK(move_number(black) == "1... ");
    black["fen"] = "not a fen";
    CHECK(move_number(black) == "3. "); // the ply when the FEN does not tell
    CHECK(describe({{"class", "RESULT"}, {"board", "t1"}, {"result", "1-0"}, {"termination", "resignation"},
                    {"confirmed", true}}) == "t1  RESULT 1-0 resignation (confirmed)");
    CHECK(describe({{"class", "BOARD"}, {"board", "t1"}, {"state", "connected"}, {"driver", "dgt"}}) ==
          "t1  board connected (dgt)");
    CHECK(describe({{"class", "BOARD"}, {"board", "t1"}, {"state", "connected"}, {"driver", "dgt"},
                    {"battery", {{"percent", 12}, {"charging", true}}}}) == "t1  board connected (dgt)  battery 12% charging");
    CHECK(describe({{"class", "NEW"}, {"x", 1}}) == "{\"class\":\"NEW\",\"x\":1}");
    CHECK(clock_text(-5) == "0:00:00");
}

TEST_CASE("eboardctl text: replies as lines") {
    CHECK(reply_text({{"class", "OK"}, {"request", "TAKEBACK"}, {"game", "g1"}}) == "ok (game g1)\n");
    CHECK(reply_text({{"class", "OK"}}) == "ok\n");
    CHECK(reply_text({{"class", "BOARDS"},
                      {"boards", {{{"board", "t1"}, {"state", "connected"}, {"game", "g1"}, {"ply", 4}},
                                  {{"board", "t2"}, {"state", "disconnected"}}}}}) ==
          "t1\tconnected\tg1 ply 4\nt2\tdisconnected\t-\n");
    CHECK(reply_text({{"class", "GAMES"},
                      {"games", {{{"game", "g1"}, {"board", "t1"}, {"result", "*"}, {"plies", 10}, {"ended", false}}}}}) ==
          "g1\tt1\t*\t10 plies\tin progress\n");
    CHECK(reply_text({{"class", "OK"}, {"board", "late"}, {"attached", false}}) == "late already open\n");
    CHECK(reply_text({{"class", "OK"}, {"board", "late"}, {"detached", true}}) == "late detached\n");
    CHECK(reply_text({{"class", "INFO"}, {"text", "Weiss 1:30:00"}}) == "Weiss 1:30:00\n");
}
