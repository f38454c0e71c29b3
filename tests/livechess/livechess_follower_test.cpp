// LiveChessFollower (daemon/livechess_api.hpp): a LiveChess feed's `start` and `san` as the
// board's game goes on: the list grows by the moves made, starts anew on a new game, a
// take-back or a corrected move, and after a setup from the position set up once the game is
// there.
#include <catch2/catch.hpp>

#include "daemon/livechess_api.hpp"
#include "rules/notation.hpp"
#include "rules/position.hpp"

using namespace eboard;
using namespace eboard::daemon;

namespace {

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

GameTracker new_game(const std::string& id) {
    auto g = GameTracker::start("b", id, kStart);
    REQUIRE(g);
    return std::move(*g);
}

/// Makes `san` (made, not completed) as ply `ply` of `g`.
void make(GameTracker& g, int ply, const std::string& san) {
    auto before = Position::from_fen(g.fen_after(ply - 1)); // a replaced ply: before it
    REQUIRE(before);
    auto m = parse_move(*before, san);
    REQUIRE(m);
    REQUIRE(g.play(ply, *m, Completion::None, std::nullopt));
}

struct Seen {
    std::string start;
    std::vector<std::string> san;
    std::string reached;
};

Seen follow(LiveChessFollower& f, const GameTracker* g) {
    Seen s;
    f.follow(g, s.start, s.san, s.reached);
    return s;
}

} // namespace

TEST_CASE("follower: the moves made since the game's start, one list while it grows") {
    LiveChessFollower f;
    CHECK(follow(f, nullptr).start == kStart); // no game: the start position, no moves
    GameTracker g = new_game("g1");
    make(g, 1, "e4");
    make(g, 2, "e5");
    Seen s = follow(f, &g);
    CHECK(s.start == kStart);
    CHECK(s.san == std::vector<std::string>{"e4", "e5"});
    CHECK(s.reached == g.position().fen());
    make(g, 3, "Nf3");
    CHECK(follow(f, &g).san == std::vector<std::string>{"e4", "e5", "Nf3"});
}

TEST_CASE("follower: a take-back or a corrected move starts a new list, so does a new game") {
    LiveChessFollower f;
    GameTracker g = new_game("g1");
    make(g, 1, "e4");
    make(g, 2, "e5");
    make(g, 3, "Nf3");
    (void)follow(f, &g);
    const std::string after_e5 = g.fen_after(2);
    make(g, 3, "Bc4"); // ply 3 replaced
    Seen s = follow(f, &g);
    CHECK(s.start == after_e5);
    CHECK(s.san == std::vector<std::string>{"Bc4"});
    REQUIRE(g.take_back(1));
    s = follow(f, &g);
    CHECK(s.start == g.fen_after(1));
    CHECK(s.san.empty());
    GameTracker next = new_game("g2");
    make(next, 1, "d4");
    s = follow(f, &next);
    CHECK(s.start == kStart);
    CHECK(s.san == std::vector<std::string>{"d4"});
}

TEST_CASE("follower: after a setup the list starts at that position, once the game is there") {
    LiveChessFollower f;
    GameTracker g = new_game("g1");
    make(g, 1, "e4");
    (void)follow(f, &g);
    // The position on the board now: an empty list from it at once.
    const std::string now = g.position().fen();
    f.setup(now, "g1", g.plies());
    Seen s = follow(f, &g);
    CHECK(s.start == now);
    CHECK(s.san.empty());
    make(g, 2, "c5");
    CHECK(follow(f, &g).san == std::vector<std::string>{"c5"});
    // A position the game has not reached since (its start is too far back): an empty list
    // from it until a new game starts there.
    make(g, 3, "Nf3");
    f.setup(kStart, "g1", g.plies());
    make(g, 4, "d6");
    s = follow(f, &g);
    CHECK(s.start == kStart);
    CHECK(s.san.empty());
    CHECK(s.reached == kStart);
    GameTracker next = new_game("g2");
    CHECK(follow(f, &next).san.empty());
    make(next, 1, "c4");
    s = follow(f, &next);
    CHECK(s.start == kStart);
    CHECK(s.san == std::vector<std::string>{"c4"});
}
