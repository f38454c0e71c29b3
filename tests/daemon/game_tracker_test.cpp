// The daemon's record of a game (daemon/game_tracker.hpp): the positions of every ply.
#include <catch2/catch.hpp>

#include "daemon/game_tracker.hpp"
#include "rules/notation.hpp"

using namespace eboard;
using namespace eboard::daemon;

namespace {

void play(GameTracker& g, const char* san) {
    auto m = parse_move(g.position(), san);
    REQUIRE(m);
    REQUIRE(g.play(g.plies() + 1, *m, Completion::Clock, std::nullopt));
}

} // namespace

TEST_CASE("A.5.2 the positions of every ply, before and after an illegal move that stood, in one walk back") {
    auto started = GameTracker::start("t1", "g1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    REQUIRE(started);
    GameTracker& g = *started;
    play(g, "e4");
    play(g, "e5");
    // 2.Nb1-b5, an illegal move that stands: a new line starts after ply 3.
    REQUIRE(g.illegal_stands(3, Square::parse("b1"), Square::parse("b5"),
                             "rnbqkbnr/pppp1ppp/8/1N2p3/4P3/8/PPPP1PPP/R1BQKBNR b KQkq - 1 2"));
    CHECK(g.line_start() == 3);
    play(g, "a6");
    play(g, "Nf3");
    REQUIRE(g.plies() == 5);
    const auto fens = g.fens();
    REQUIRE(fens.size() == 6);
    for (int ply = 0; ply <= 5; ++ply) {
        INFO("ply " << ply);
        CHECK(fens[static_cast<std::size_t>(ply)] == g.fen_after(ply));
        CHECK_FALSE(fens[static_cast<std::size_t>(ply)].empty());
    }
    CHECK(fens[3] == "rnbqkbnr/pppp1ppp/8/1N2p3/4P3/8/PPPP1PPP/R1BQKBNR b KQkq - 1 2");
    CHECK(fens[5] == g.position().fen());
}
