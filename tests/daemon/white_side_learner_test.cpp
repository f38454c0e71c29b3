// daemon/white_side.hpp: which side of the clock is White's, learnt from the clock and the board
// (--white-side auto), without a daemon, a driver or a clock.
#include <catch2/catch.hpp>

#include "daemon/white_side.hpp"

using namespace eboard;
using namespace eboard::daemon;
using drivers::ClockSide;
using Learner = WhiteSideLearner;

namespace {

Learner::Game at_start(Color first = Color::White) { return {true, 0, 0, first}; }
Learner::Game after_plies(int plies) { return {true, plies, plies, Color::White}; }

drivers::ClockLever lever(TimeMs t, ClockSide high) { return {t, high}; }

drivers::ClockReport report(TimeMs t, ClockSide lever_high) {
    drivers::ClockReport r;
    r.t_ms = t;
    r.lever_high = lever_high;
    return r;
}

// The sides learnt, in order ("left"/"right", "!" when it changed).
std::vector<std::string> learnt(const std::vector<Learner::Action>& actions) {
    std::vector<std::string> out;
    for (const auto& a : actions)
        if (const auto* l = std::get_if<Learner::Learnt>(&a))
            out.push_back(std::string(l->white == ClockSide::Left ? "left" : "right") + (l->changed ? "!" : ""));
    return out;
}

// The presses to feed, in order.
std::vector<LeverPressed> presses(const std::vector<Learner::Action>& actions) {
    std::vector<LeverPressed> out;
    for (const auto& a : actions)
        if (const auto* p = std::get_if<LeverPressed>(&a)) out.push_back(*p);
    return out;
}

} // namespace

TEST_CASE("white side learner: a configured side is never learnt, and the press is the player's whose side went down") {
    Learner right(WhiteSide::Right);
    CHECK(right.known());
    CHECK(right.color_of(ClockSide::Right) == Color::White);
    CHECK(right.side_of(Color::Black) == ClockSide::Left);
    CHECK(learnt(right.clock_report(report(0, ClockSide::Left), at_start())).empty());
    // White presses his own (right) side down: the left side goes up.
    const auto a = right.lever(lever(100, ClockSide::Left), at_start());
    CHECK(learnt(a).empty());
    REQUIRE(presses(a).size() == 1);
    CHECK(presses(a)[0].t_ms == 100);
    CHECK(presses(a)[0].by == Color::White);
}

TEST_CASE("white side learner: the lever's high side before the first move is White's, said once") {
    Learner s(WhiteSide::Auto);
    CHECK_FALSE(s.known());
    CHECK(s.color_of(ClockSide::Left) == Color::White); // until a side is known
    s.game_begins(std::nullopt);
    CHECK(learnt(s.clock_report(report(0, ClockSide::Right), at_start())) == std::vector<std::string>{"right!"});
    CHECK(s.color_of(ClockSide::Right) == Color::White);
    CHECK(learnt(s.clock_report(report(1000, ClockSide::Right), at_start())) == std::vector<std::string>{"right"});
}

TEST_CASE("white side learner: a start position with Black to move reads the lever the other way round") {
    Learner s(WhiteSide::Auto);
    s.game_begins(std::nullopt);
    CHECK(learnt(s.clock_report(report(0, ClockSide::Right), at_start(Color::Black))) ==
          std::vector<std::string>{"left!"});
    CHECK(s.color_of(ClockSide::Right) == Color::Black);
}

TEST_CASE("white side learner: after the first move the lever teaches nothing") {
    Learner s(WhiteSide::Auto);
    s.game_begins(std::nullopt);
    CHECK(s.clock_report(report(0, ClockSide::Right), after_plies(1)).empty());
    CHECK(s.game_started(ClockSide::Right, after_plies(1)).empty());
    CHECK_FALSE(s.known());
}

TEST_CASE("white side learner: without a lever read, the first press is the first mover's and completes his move") {
    Learner s(WhiteSide::Auto);
    s.game_begins(std::nullopt);
    // White's first move is made; he presses his side (right) down, the left goes up.
    const auto a = s.lever(lever(500, ClockSide::Left), after_plies(1));
    CHECK(learnt(a) == std::vector<std::string>{"right!"});
    REQUIRE(presses(a).size() == 1);
    CHECK(presses(a)[0].by == Color::White);
    // The next press is Black's, and teaches nothing.
    const auto b = s.lever(lever(900, ClockSide::Right), after_plies(2));
    CHECK(learnt(b).empty());
    REQUIRE(presses(b).size() == 1);
    CHECK(presses(b)[0].by == Color::Black);
}

TEST_CASE("white side learner: a press before any touch is held, and a touch within the board's lag makes it the first mover's") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Left); // kept with the game
    CHECK(s.lever(lever(1000, ClockSide::Right), at_start()).empty());
    CHECK(s.after_input(at_start()).empty()); // no touch yet: still held
    s.touched_at_start(1000 + kBoardLagMs);
    const auto a = s.after_input(at_start());
    CHECK(learnt(a).empty());
    REQUIRE(presses(a).size() == 1);
    CHECK(presses(a)[0].t_ms == 1000); // the press's own time
    CHECK(presses(a)[0].by == Color::White);
}

TEST_CASE("white side learner: a held press with a touch later than the board's lag was the clock being set up") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Left);
    // The clock is being set up (the arbiter turns the lever): its high side, right, is the
    // side whose clock will run, the first mover's.
    CHECK(s.lever(lever(1000, ClockSide::Right), at_start()).empty());
    s.touched_at_start(1000 + kBoardLagMs + 1);
    const auto a = s.after_input(at_start());
    CHECK(presses(a).empty());
    CHECK(learnt(a) == std::vector<std::string>{"right!"});
    CHECK(s.color_of(ClockSide::Right) == Color::White);
}

TEST_CASE("white side learner: a held press with no touch until a time report after the board's lag was the set-up") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Left);
    CHECK(s.lever(lever(1000, ClockSide::Right), at_start()).empty());
    CHECK(s.clock_report(report(1000 + kBoardLagMs, ClockSide::Right), at_start()).empty()); // within the lag
    const auto a = s.clock_report(report(1001 + kBoardLagMs, ClockSide::Right), at_start());
    CHECK(presses(a).empty());
    CHECK(learnt(a) == std::vector<std::string>{"right!", "right"}); // the press, then the report's lever
}

TEST_CASE("white side learner: of two presses before any touch, the first was the set-up") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Left);
    CHECK(s.lever(lever(1000, ClockSide::Right), at_start()).empty());
    const auto a = s.lever(lever(1100, ClockSide::Left), at_start());
    CHECK(learnt(a) == std::vector<std::string>{"right!"});
    CHECK(presses(a).empty()); // the second is held in turn
}

TEST_CASE("white side learner: once a piece was touched, a press before the first move is not held") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Left);
    s.touched_at_start(900);
    const auto a = s.lever(lever(1000, ClockSide::Right), at_start());
    REQUIRE(presses(a).size() == 1);
    CHECK(presses(a)[0].by == Color::White);
}

TEST_CASE("white side learner: a new driver session forgets a held press") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Left);
    CHECK(s.lever(lever(1000, ClockSide::Right), at_start()).empty());
    s.link_changed();
    s.touched_at_start(1100);
    CHECK(s.after_input(at_start()).empty());
}

TEST_CASE("white side learner: a game without a kept side has the earlier side stand in, and learns its own") {
    Learner s(WhiteSide::Auto);
    s.game_begins(ClockSide::Right);
    s.game_begins(std::nullopt); // the next game, nothing stored with it yet
    CHECK(s.known());
    CHECK(s.color_of(ClockSide::Right) == Color::White);
    // Learning the same side again is news for this game.
    CHECK(learnt(s.game_started(ClockSide::Right, at_start())) == std::vector<std::string>{"right!"});
}
