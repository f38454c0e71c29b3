// The ruling on a flag fall (rules/flag_ruling.hpp): Art. 6.4 quota, 6.9 draw test, the club's
// material rule, claim-only regimes (docs/profiles.md, `flag.*`).
#include "rules/flag_ruling.hpp"

#include <catch2/catch.hpp>

using namespace eboard;

namespace {

Profile builtin(std::string_view name) {
    auto p = builtin_profile(name, false);
    REQUIRE(p);
    return p.value();
}

Position fen(const char* text) {
    auto p = Position::from_fen(text);
    REQUIRE(p);
    return std::move(p.value());
}

TimeControl tc(const char* text) {
    auto t = parse_time_control(text);
    REQUIRE(t);
    return t.value();
}

} // namespace

TEST_CASE("6.9 a flag fall loses when the opponent can still checkmate") {
    const Position pos = Position::startpos();
    const FlagRuling r = rule_flag_fall(builtin("fide-2023"), pos, Color::White, Winnability::Winnable,
                                        tc("5400+30"), {5000000, 4000000});
    CHECK(r.result == "0-1");
    CHECK(r.article == "6.9");
    CHECK(r.text.find("White's flag fell after 2 completed moves") != std::string::npos);
    CHECK(r.visible_to_players);
    CHECK_FALSE(r.claim_only);
}

TEST_CASE("6.9 a flag fall is a draw when the opponent cannot checkmate by any series of legal moves") {
    // Black has a bare king: White's flag falls, Black cannot win.
    const Position pos = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 60");
    const FlagRuling r = rule_flag_fall(builtin("fide-2023"), pos, Color::White, Winnability::Unwinnable,
                                        TimeControl{}, {});
    CHECK(r.result == "1/2-1/2");
    CHECK(r.text.find("Black cannot checkmate") != std::string::npos);
}

TEST_CASE("club Art. 3: with only K+N the opponent cannot win on time, though he could mate") {
    // K+N against K+P can mate (a helpmate), so FIDE 2005 says loss; the club says draw.
    const Position pos = fen("4k3/8/8/8/8/5n2/4P3/4K3 w - - 0 60");
    const FlagRuling fide = rule_flag_fall(builtin("fide-2005"), pos, Color::White, Winnability::Winnable,
                                           TimeControl{}, {});
    CHECK(fide.result == "0-1");
    CHECK(fide.article == "6.10");
    const FlagRuling club = rule_flag_fall(builtin("club-2014"), pos, Color::White, Winnability::Winnable,
                                           TimeControl{}, {});
    CHECK(club.result == "1/2-1/2");
    CHECK(club.article == "6.10, club 3");
    CHECK(club.text.find("has only KN") != std::string::npos);
}

TEST_CASE("B7 2005 rapid: a flag counts only on the opponent's claim, nothing for the players") {
    const FlagRuling r = rule_flag_fall(builtin("fide-2005-rapid"), Position::startpos(), Color::Black,
                                        Winnability::Winnable, TimeControl{}, {});
    CHECK(r.result == "1-0");
    CHECK(r.claim_only);
    CHECK_FALSE(r.visible_to_players);
    CHECK(r.text.find("only on White's claim") != std::string::npos);
}

TEST_CASE("6.4 the quota completed and the next period's time not added: the flag decides nothing") {
    // 2 moves in 60 s, then 30 s for the rest. White completed both moves; after the second
    // the clock showed 5 s: it did not add the 30 s of the next period.
    const TimeControl two = tc("2/60:30");
    const FlagRuling r = rule_flag_fall(builtin("fide-2023"), Position::startpos(), Color::White,
                                        Winnability::Winnable, two, {40000, 5000});
    CHECK(r.result.empty());
    CHECK(r.text.find("quota of 2 moves of period 1 was completed") != std::string::npos);
    // The clock added it (it showed 35 s after move 2): the flag of period 2 loses.
    const FlagRuling lost = rule_flag_fall(builtin("fide-2023"), Position::startpos(), Color::White,
                                           Winnability::Winnable, two, {40000, 35000, 1000});
    CHECK(lost.result == "0-1");
    CHECK(lost.text.find("period 2 of 2/60:30") != std::string::npos);
    // The quota not completed yet: period 1's flag loses.
    const FlagRuling early = rule_flag_fall(builtin("fide-2023"), Position::startpos(), Color::White,
                                            Winnability::Winnable, two, {40000});
    CHECK(early.result == "0-1");
}

TEST_CASE("6.9 a flag fall where the opponent's winnability is undecided: a loss, and the text says so") {
    const Position pos = fen("8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 60");
    const FlagRuling r = rule_flag_fall(builtin("fide-2023"), pos, Color::Black, Winnability::Undetermined,
                                        TimeControl{}, {});
    CHECK(r.result == "1-0");
    CHECK(r.text.find("whether White can still checkmate was not decided") != std::string::npos);
    const FlagRuling known = rule_flag_fall(builtin("fide-2023"), pos, Color::Black, Winnability::Winnable,
                                            TimeControl{}, {});
    CHECK(known.text.find("not decided") == std::string::npos);
}
