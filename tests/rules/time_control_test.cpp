#include "rules/time_control.hpp"

#include <catch2/catch.hpp>

using namespace eboard;

TEST_CASE("PGN 9.6.1 TimeControl multi-period 40/5400+30:1800+30 (Art. 6.3.1 index example)") {
    auto tc = parse_time_control("40/5400+30:1800+30");
    REQUIRE(tc);
    CHECK(tc->kind == TimeControl::Kind::Periods);
    REQUIRE(tc->periods.size() == 2);
    CHECK(tc->periods[0] == TimePeriod{40, 5'400'000, 30'000, 0});
    CHECK(tc->periods[1] == TimePeriod{0, 1'800'000, 30'000, 0});
    CHECK(format_time_control(*tc) == "40/5400+30:1800+30");
    CHECK(tc->period_of_move(1) == 0);
    CHECK(tc->period_of_move(40) == 0);
    CHECK(tc->period_of_move(41) == 1);
    CHECK(tc->period_of_move(300) == 1);
    CHECK(tc->first_move_of_period(1) == 41);
}

TEST_CASE("PGN 9.6.1 TimeControl three periods of the 2023 World Championship") {
    auto tc = parse_time_control("40/7200:20/3600:900+30");
    REQUIRE(tc);
    REQUIRE(tc->periods.size() == 3);
    CHECK(tc->periods[0] == TimePeriod{40, 7'200'000, 0, 0});
    CHECK(tc->periods[1] == TimePeriod{20, 3'600'000, 0, 0});
    CHECK(tc->periods[2] == TimePeriod{0, 900'000, 30'000, 0});
    CHECK(tc->period_of_move(60) == 1);
    CHECK(tc->period_of_move(61) == 2);
    CHECK(tc->first_move_of_period(2) == 61);
    CHECK(format_time_control(*tc) == "40/7200:20/3600:900+30");
}

TEST_CASE("PGN 9.6.1 TimeControl single period, increment, repeating quota") {
    auto a = parse_time_control("5400+30");
    REQUIRE(a);
    CHECK(a->periods == std::vector<TimePeriod>{{0, 5'400'000, 30'000, 0}});
    auto b = parse_time_control("300");
    REQUIRE(b);
    CHECK(b->periods == std::vector<TimePeriod>{{0, 300'000, 0, 0}});
    auto c = parse_time_control("40/9000");
    REQUIRE(c);
    CHECK(c->period_of_move(81) == 0); // the last period repeats
    CHECK(format_time_control(*c) == "40/9000");
}

TEST_CASE("PGN 9.6.1 TimeControl unknown, none and sandclock") {
    auto u = parse_time_control("?");
    REQUIRE(u);
    CHECK(u->kind == TimeControl::Kind::Unknown);
    CHECK(format_time_control(*u) == "?");
    auto n = parse_time_control("-");
    REQUIRE(n);
    CHECK(n->kind == TimeControl::Kind::None);
    CHECK(format_time_control(*n) == "-");
    auto s = parse_time_control("*180");
    REQUIRE(s);
    CHECK(s->kind == TimeControl::Kind::Sandclock);
    CHECK(s->periods.at(0).time_ms == 180'000);
    CHECK(format_time_control(*s) == "*180");
}

TEST_CASE("TimeControl fractions of a second (cutechess 10+0.05) and delay (Art. 6.3.2)") {
    auto f = parse_time_control("10+0.05");
    REQUIRE(f);
    CHECK(f->periods.at(0) == TimePeriod{0, 10'000, 50, 0});
    CHECK(format_time_control(*f) == "10+0.05");
    auto d = parse_time_control("5400d30");
    REQUIRE(d);
    CHECK(d->periods.at(0) == TimePeriod{0, 5'400'000, 0, 30'000});
    CHECK(format_time_control(*d) == "5400d30");
    auto both = parse_time_control("40/5400+30d5:900.5");
    REQUIRE(both);
    CHECK(format_time_control(*both) == "40/5400+30d5:900.5");
}

TEST_CASE("TimeControl errors name the column") {
    struct Case {
        const char* text;
        int column;
    };
    for (const Case c :
         {Case{"", 1}, Case{"40/", 4}, Case{"40/5400+", 9}, Case{"5400x", 5}, Case{"0/300", 1},
          Case{"300:40/300", 4}, Case{"40/300:", 8}, Case{"*", 2}, Case{"*180:60", 5},
          Case{"1.2345", 6}, Case{"abc", 1}, Case{"99999999999", 10}, Case{"40/300: 60", 8}}) {
        INFO(c.text);
        auto tc = parse_time_control(c.text);
        REQUIRE_FALSE(tc);
        CHECK(tc.error().column == c.column);
        CHECK_FALSE(tc.error().message.empty());
    }
}
