// The TRF16 reader and writer: fixed columns, the 10-column round blocks, unknown records
// kept, errors with line and column, write(read(x)) reading back the same.
#include "support.hpp"

using namespace standings_test;
using eboard::standings::read_trf;
using eboard::standings::write_trf;

namespace {

const std::string kHeader = "012 Test\nXXZ an unknown code, kept\n092 Swiss System\n";

} // namespace

TEST_CASE("TRF16: the fields of a 001 record are read from their columns") {
    const auto f = read_trf(kHeader + player(1, "Müller, Jörg", 2105, {{2, 'w', '1'}, kHalfBye, kNone, {2, 'b', '+'}}) +
                            player(2, "Smith, John", 0, {{1, 'b', '0'}, kZeroBye, kNone, {1, 'w', '-'}}));
    REQUIRE(f);
    REQUIRE(f->players.size() == 2);
    const auto& p = f->players[0];
    CHECK(p.startno == 1);
    CHECK(p.sex == 'm');
    CHECK(p.name == "Müller, Jörg");  // columns counted in characters, not bytes
    CHECK(p.rating == 2105);
    CHECK(p.federation == "BEL");
    REQUIRE(p.rounds.size() == 4);
    CHECK(p.rounds[0] == eboard::standings::RoundEntry{2, 'w', '1'});
    CHECK(p.rounds[1] == eboard::standings::RoundEntry{0, '-', 'H'});
    CHECK(p.rounds[2] == eboard::standings::RoundEntry{});
    CHECK(p.rounds[3] == eboard::standings::RoundEntry{2, 'b', '+'});
    CHECK(f->players[1].rating == 0);
    CHECK(f->header("XXZ") == "an unknown code, kept");
    CHECK(f->header("012") == "Test");
}

TEST_CASE("TRF16: write(read(x)) reads back the same, byte for byte on a file in canonical form") {
    for (const char* name : {"club_season_2014.trf", "swiss_two_absences_2024.trf",
                             "rr_withdrawal_after_round_1.trf"}) {
        INFO(name);
        const std::string text = read_data(name);
        const auto f = read_trf(text);
        REQUIRE(f);
        CHECK(write_trf(f.value()) == text);
        const auto again = read_trf(write_trf(f.value()));
        REQUIRE(again);
        CHECK(again.value() == f.value());
    }
}

TEST_CASE("TRF16: a file not in canonical form (CRLF, blank lines, short blocks) reads back equal") {
    const std::string text = "\xEF\xBB\xBF" "012 Crlf\n\n" +
                             player(1, "A", 1500, {{2, 'w', '='}}) + player(2, "B", 1400, {{1, 'b', '='}});
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const auto f = read_trf(crlf);
    REQUIRE(f);
    const auto again = read_trf(write_trf(f.value()));
    REQUIRE(again);
    CHECK(again.value() == f.value());
}

TEST_CASE("TRF16: the standings of a file and of its rewrite are the same") {
    const std::string text = read_data("club_season_2014.trf");
    const auto f = read_trf(text);
    REQUIRE(f);
    const auto a = standings_of(text, "", "club-2014");
    const auto b = standings_of(write_trf(f.value()), "", "club-2014");
    CHECK(eboard::standings::format_json(a) == eboard::standings::format_json(b));
}

namespace {

eboard::Error error_of(const std::string& text) {
    const auto f = read_trf(text);
    REQUIRE_FALSE(f);
    return f.error();
}

} // namespace

TEST_CASE("TRF16: errors name the line and the column of the field") {
    const std::string one = player(1, "A", 1500, {{2, 'w', '1'}});
    const std::string two = player(2, "B", 1500, {{1, 'b', '0'}});
    SECTION("a starting number that is not a number") {
        std::string bad = one;
        bad[6] = 'x';
        const auto e = error_of(kHeader + bad + two);
        CHECK(e.line == 4);
        CHECK(e.column == 5);
    }
    SECTION("an unknown result code") {
        std::string bad = one;
        bad[98] = '9';  // column 99: the first round's result
        const auto e = error_of(kHeader + bad + two);
        CHECK(e.line == 4);
        CHECK(e.column == 99);
        CHECK(e.message.find("result") != std::string::npos);
    }
    SECTION("an unknown colour") {
        std::string bad = one;
        bad[96] = 'x';
        CHECK(error_of(kHeader + bad + two).column == 97);
    }
    SECTION("an opponent who is not in the file") {
        const auto e = error_of(kHeader + player(1, "A", 0, {{7, 'w', '1'}}));
        CHECK(e.column == 92);
        CHECK(e.message.find("not a player") != std::string::npos);
    }
    SECTION("the two sides of a game disagree") {
        const auto e = error_of(kHeader + one + player(2, "B", 0, {{1, 'b', '1'}}));
        CHECK(e.line == 4);
        CHECK(e.message.find("other side") != std::string::npos);
    }
    SECTION("a starting number used twice") {
        const auto e = error_of(kHeader + one + two + player(2, "C", 0, {}));
        CHECK(e.line == 6);
        CHECK(e.message.find("line 5") != std::string::npos);
    }
    SECTION("a bye with an opponent, a game without one") {
        CHECK(error_of(kHeader + player(1, "A", 0, {{2, '-', 'H'}}) + player(2, "B", 0, {})).column == 92);
        CHECK(error_of(kHeader + player(1, "A", 0, {{0, 'w', '1'}})).column == 92);
    }
    SECTION("a record without a code") {
        CHECK(error_of("12\n").line == 1);
        CHECK(error_of("012Name\n").column == 1);
    }
    SECTION("a control character") {
        const auto e = error_of("012 a\x01" "b\n");
        CHECK(e.column == 6);
    }
}

TEST_CASE("TRF16: XXR, XXS and 092 set rounds, scoring and format") {
    const std::string ok = "042 2026/04/01\n092 Swiss System\nXXR 5\nXXS W=3 D=1 FW=3 PAB=3 HPB=1\n" +
                           player(1, "A", 0, {{2, 'w', '1'}, kPab}) +
                           player(2, "B", 0, {{1, 'b', '0'}, kHalfBye});
    const auto f = read_trf(ok);
    REQUIRE(f);
    std::vector<std::string> notes;
    const auto t = eboard::standings::tournament_of(f.value(), notes);
    REQUIRE(t);
    CHECK(t->rounds == 5);
    CHECK(t->edition == eboard::standings::Edition::C07_2026);
    CHECK_FALSE(t->round_robin);
    CHECK(eboard::standings::score_of(t.value(), t->players[0]) == 6.0);
    CHECK(eboard::standings::score_of(t.value(), t->players[1]) == 1.0);
    const auto bad = read_trf("XXS W=three\n");
    REQUIRE(bad);
    CHECK_FALSE(eboard::standings::tournament_of(bad.value(), notes));
}
