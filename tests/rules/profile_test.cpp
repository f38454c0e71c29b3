// Rules profiles (rules/profile.hpp, docs/profiles.md): the built-ins, the text format, its
// errors, inheritance and the supervision sections, checked against the articles of docs/profiles.md.
#include "rules/profile.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace eboard;

namespace {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The source of the built-in profiles, as a user would find them.
std::string profile_file(std::string_view name) {
    // tests/rules/ -> rules/profiles/ in the same checkout. EBOARD_TEST_DATA is absolute;
    // __FILE__ is not when ccache's base_dir rewrites the compiler's paths.
    const std::filesystem::path here = std::filesystem::path(EBOARD_TEST_DATA).parent_path();
    return (here / "../../rules/profiles" / (std::string(name) + ".profile")).string();
}

Profile builtin(std::string_view name, bool supervised = false) {
    auto p = builtin_profile(name, supervised);
    INFO(name << ": " << (p ? std::string() : p.error().message));
    REQUIRE(p);
    return p.value();
}

Error parse_error(std::string_view text) {
    auto p = parse_profile(text);
    REQUIRE_FALSE(p);
    return p.error();
}

} // namespace

TEST_CASE("every built-in profile name of eboardd(8) loads, supervised or not") {
    const std::vector<std::string_view> expected = {
        "fide-2023",       "fide-2023-rapid", "fide-2023-blitz", "fide-2005",
        "fide-2005-rapid", "fide-2005-blitz", "fide-2001",       "club-2014"};
    CHECK(builtin_profile_names() == expected);
    for (std::string_view name : builtin_profile_names()) {
        for (bool supervised : {false, true}) {
            const Profile p = builtin(name, supervised);
            CHECK(p.name == name);
            CHECK(p.supervised == supervised);
            CHECK_FALSE(p.title.empty());
        }
    }
    CHECK(builtin_profile_names().front() == "fide-2023"); // the default of --rules
    const auto unknown = builtin_profile("fide-2024");
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().message.find("fide-2023-blitz") != std::string::npos);
}

TEST_CASE("profile loading from file equals the built-in") {
    for (std::string_view name : builtin_profile_names()) {
        const std::string text = read_text_file(profile_file(name));
        CHECK(builtin_profile_text(name) == std::string_view(text));
        for (bool supervised : {false, true}) {
            auto from_file = parse_profile(text, supervised);
            REQUIRE(from_file);
            CHECK(from_file.value() == builtin(name, supervised));
        }
    }
}

TEST_CASE("to_text writes a complete profile that reads back equal") {
    for (std::string_view name : builtin_profile_names()) {
        for (bool supervised : {false, true}) {
            const Profile p = builtin(name, supervised);
            const std::string text = to_text(p);
            CHECK(text.find("inherit") == std::string::npos);
            auto back = parse_profile(text, supervised);
            INFO(text);
            REQUIRE(back);
            CHECK(back.value() == p);
        }
    }
}

TEST_CASE("profile parse errors give line and column") {
    SECTION("unknown key") {
        const Error e = parse_error("inherit = fide-2023\n\n  flag.acter = claim\n");
        CHECK(e.line == 3);
        CHECK(e.column == 3);
        CHECK(e.message == "unknown key 'flag.acter'");
    }
    SECTION("bad boolean points at the value") {
        const Error e = parse_error("inherit = fide-2005\nrecording.required = maybe\n");
        CHECK(e.line == 2);
        CHECK(e.column == 22);
        CHECK(e.message == "expected yes or no");
    }
    SECTION("bad ladder item points at the item") {
        const Error e = parse_error("inherit = fide-2023\nillegal.ladder = +2min, +0min\n");
        CHECK(e.line == 2);
        CHECK(e.column == 25);
        CHECK(e.message == "expected +1min .. +60min");
    }
    SECTION("bad time control points inside it") {
        const Error e = parse_error("inherit = club-2014\ntime.control = 5400+x\n");
        CHECK(e.line == 2);
        CHECK(e.column > 15);
    }
    SECTION("line without =") {
        const Error e = parse_error("inherit = fide-2023\n# fine\nflag.actor claim\n");
        CHECK(e.line == 3);
        CHECK(e.column == 1);
        CHECK(e.message == "expected key = value");
    }
    SECTION("key set twice") {
        const Error e =
            parse_error("inherit = fide-2023\nflag.actor = claim\nflag.actor = arbiter\n");
        CHECK(e.line == 3);
        CHECK(e.message == "key 'flag.actor' set twice");
    }
    SECTION("unknown section") {
        const Error e = parse_error("inherit = fide-2023\n[arbitered]\n");
        CHECK(e.line == 2);
        CHECK(e.column == 1);
    }
    SECTION("unknown parent") {
        const Error e = parse_error("name = x\ninherit = fide-1997\n");
        CHECK(e.line == 2);
        CHECK(e.column == 11);
        CHECK(e.message.find("unknown profile to inherit 'fide-1997'") == 0);
    }
    SECTION("a root profile must set every key") {
        const Error e = parse_error("name = tiny\nedition = 2023\n");
        CHECK(e.line == 3);
        CHECK(e.message.find("missing key 'title'") == 0);
    }
    SECTION("empty value, range and enum") {
        CHECK(parse_error("inherit = fide-2023\ntitle =\n").message == "missing value");
        const Error r = parse_error("inherit = fide-2023\ntime.category-minutes = [60, 10]\n");
        CHECK(r.message == "the upper bound is below the lower bound");
        CHECK(r.column == 30);
        const Error en = parse_error("inherit = fide-2023\nflag.both = sometimes\n");
        CHECK(en.message.find("expected one of: play-on draw") == 0);
        CHECK(en.column == 13);
    }
    SECTION("control characters are refused, not crashed on") {
        const Error e = parse_error(std::string_view("inherit = fide-2023\nti\0tle = x\n", 24));
        CHECK(e.line == 2);
        CHECK(e.column == 3);
    }
}

TEST_CASE("club-2014 inherits fide-2005 and overrides what the club regulation says") {
    const Profile fide = builtin("fide-2005");
    const Profile club = builtin("club-2014");
    CHECK(club.edition == Edition::Fide2005);
    CHECK(club.category == Category::Standard);
    // Art. 3: 90 min + 10 s; lone K, K+N, K+B cannot win on time.
    CHECK(format_time_control(club.time_control) == "5400+10");
    CHECK(club.flag_cannot_win_with == std::vector<std::string>{"K", "KN", "KB"});
    CHECK(club.flag_draw_if_cannot_mate); // the FIDE test stays
    // Art. 6: taken back if pointed out before the next move, else it stands.
    CHECK(club.illegal_actor == Actor::ArbiterOrClaim);
    CHECK(club.illegal_stands_if_unclaimed);
    CHECK(club.articles.illegal_move == "7.4, club 6");
    CHECK_FALSE(club.recording_required); // Art. 4
    // Everything else is the 2005 Laws (Art. 20).
    Profile same = club;
    same.name = fide.name;
    same.title = fide.title;
    same.time_control = fide.time_control;
    same.flag_cannot_win_with = fide.flag_cannot_win_with;
    same.articles.flag = fide.articles.flag;
    same.illegal_actor = fide.illegal_actor;
    same.illegal_stands_if_unclaimed = fide.illegal_stands_if_unclaimed;
    same.articles.illegal_move = fide.articles.illegal_move;
    same.recording_required = fide.recording_required;
    CHECK(same == fide);
}

TEST_CASE("9.6 automatic draws exist only in the 2023 profiles") {
    for (std::string_view name : builtin_profile_names()) {
        const Profile p = builtin(name);
        const bool y2023 = p.edition == Edition::Fide2023;
        CHECK(p.automatic_repetitions == (y2023 ? 5 : 0));
        CHECK(p.automatic_moves == (y2023 ? 75 : 0));
        CHECK(p.claim_repetitions == 3);
        CHECK(p.claim_moves == 50);
        CHECK(p.repetition_castling ==
              (y2023 ? RepetitionCastling::Permanent : RepetitionCastling::TemporaryOrPermanent));
    }
    CHECK(builtin("fide-2023").mate_prevails);
}

TEST_CASE("illegal-move ladders per edition (7.4 b 2005, 7.5.5 2023, 10.3 2001)") {
    const Profile y23 = builtin("fide-2023");
    CHECK(y23.illegal_penalty(1).text() == "+2min");
    CHECK(y23.illegal_penalty(2).text() == "loss");
    CHECK(y23.illegal_loss_draw_if_cannot_mate);
    CHECK(y23.press_without_move_illegal); // 7.5.3
    CHECK(y23.articles.illegal_move == "7.5.1");

    const Profile y05 = builtin("fide-2005");
    CHECK(y05.illegal_penalty(1).text() == "+2min");
    CHECK(y05.illegal_penalty(2).text() == "+2min");
    CHECK(y05.illegal_penalty(3).text() == "loss");
    CHECK(y05.illegal_penalty(4).text() == "loss"); // the last rung repeats
    CHECK_FALSE(y05.illegal_loss_draw_if_cannot_mate);
    CHECK_FALSE(y05.press_without_move_illegal);
    CHECK(y05.articles.illegal_move == "7.4");
    CHECK(y05.illegal_penalty(0).kind == Penalty::Kind::None);

    const Profile y01 = builtin("fide-2001");
    CHECK(y01.illegal_penalty(1).kind == Penalty::Kind::None); // standard play: none
    CHECK(y01.illegal_penalty(1, true).text() == "+2min");     // quickplay finish, 10.3
    CHECK(y01.illegal_penalty(3, true).text() == "loss");
    CHECK(y01.articles.illegal_move_quickplay == "10.3");
}

TEST_CASE("rapid and blitz profiles know the supervised and unsupervised cases") {
    SECTION("2023 rapid: A.3 one minute; A.4 arbiter; A.5.2 an unclaimed illegal move stands") {
        const Profile sup = builtin("fide-2023-rapid", true);
        const Profile unsup = builtin("fide-2023-rapid", false);
        for (const Profile* p : {&sup, &unsup}) {
            CHECK(p->illegal_penalty(1).text() == "+1min");
            CHECK(p->illegal_penalty(2).text() == "loss");
            CHECK(p->incorrect_claim_opponent_minutes == 1);
            CHECK(p->flag_actor == Actor::Arbiter); // A.5.5: the arbiter announces it
        }
        CHECK(sup.illegal_actor == Actor::Arbiter);
        CHECK_FALSE(sup.illegal_stands_if_unclaimed);
        CHECK(unsup.illegal_actor == Actor::ArbiterOrClaim);
        CHECK(unsup.illegal_stands_if_unclaimed);
    }
    SECTION("2023 blitz: B.2 competition rules, B.3 as unsupervised rapid") {
        const Profile sup = builtin("fide-2023-blitz", true);
        const Profile unsup = builtin("fide-2023-blitz", false);
        CHECK(sup.illegal_penalty(1).text() == "+2min");
        CHECK_FALSE(sup.illegal_stands_if_unclaimed);
        CHECK(unsup.illegal_penalty(1).text() == "+1min");
        CHECK(unsup.illegal_stands_if_unclaimed);
        CHECK_FALSE(unsup.quickplay_allowed);
    }
    SECTION("2005 rapid: claim only, the arbiter silent (B6, B7), both flags draw (B9)") {
        const Profile p = builtin("fide-2005-rapid");
        CHECK(p.illegal_actor == Actor::Claim);
        CHECK(p.illegal_stands_if_unclaimed);
        CHECK_FALSE(p.illegal_visible_to_players);
        CHECK(p.flag_actor == Actor::Claim);
        CHECK_FALSE(p.flag_visible_to_players);
        CHECK(p.both_flags == BothFlags::Draw);
        CHECK(p.illegal_penalty(3).text() == "loss");
        CHECK(builtin("fide-2005-rapid", true) == [&] {
            Profile q = p;
            q.supervised = true;
            return q;
        }());
    }
    SECTION("2005 blitz: the opponent may claim a win (C3)") {
        const Profile p = builtin("fide-2005-blitz");
        CHECK(p.illegal_penalty(1).kind == Penalty::Kind::WinClaim);
        CHECK(p.illegal_loss_draw_if_cannot_mate);
        CHECK(p.articles.illegal_move == "C3");
    }
}

TEST_CASE("incorrect claims, flag fall and both flags per edition") {
    const Profile y23 = builtin("fide-2023");
    const Profile y05 = builtin("fide-2005");
    const Profile y01 = builtin("fide-2001");
    CHECK(y23.incorrect_claim_opponent_minutes == 2); // 9.5.3
    CHECK_FALSE(y23.incorrect_claim_cut_claimant);
    CHECK(y05.incorrect_claim_opponent_minutes == 3); // 9.5 b
    CHECK(y05.incorrect_claim_cut_claimant);
    CHECK(y01.incorrect_claim_opponent_minutes == 0);
    CHECK(y23.articles.flag == "6.9");
    CHECK(y05.articles.flag == "6.10");
    CHECK(y01.articles.flag == "6.9");
    CHECK(y23.both_flags == BothFlags::DrawInLastPeriodWithoutIncrement);
    CHECK(y05.both_flags == BothFlags::DrawInLastPeriod);
    CHECK(y01.both_flags == BothFlags::DrawInQuickplay);
    CHECK(y23.next_move_completes);
    CHECK_FALSE(y05.next_move_completes);
    CHECK(y23.resignation_draw_if_cannot_mate);
    CHECK(y23.agreement_min_moves == 1);
}

TEST_CASE("a time control outside the category is warned about (A.1, B.1, B1, C1)") {
    auto tc = [](std::string_view s) {
        auto t = parse_time_control(s);
        REQUIRE(t);
        return t.value();
    };
    const Profile blitz23 = builtin("fide-2023-blitz");
    CHECK_FALSE(blitz23.time_control_warning(tc("300+3")));   // 5 + 3 = 8 min
    CHECK_FALSE(blitz23.time_control_warning(tc("600")));     // exactly 10: blitz
    const auto w = blitz23.time_control_warning(tc("600+1")); // 11 min
    REQUIRE(w);
    CHECK(w->find("fide-2023-blitz") != std::string::npos);
    CHECK(w->find("B.1") != std::string::npos);
    const Profile rapid23 = builtin("fide-2023-rapid");
    CHECK(rapid23.time_control_warning(tc("600")));          // 10 is not rapid in 2023
    CHECK_FALSE(rapid23.time_control_warning(tc("900+10"))); // 25 min
    CHECK(rapid23.time_control_warning(tc("3600")));         // 60 is standard
    CHECK_FALSE(builtin("fide-2005-rapid").time_control_warning(tc("900"))); // 15: rapid in 2005
    CHECK(builtin("fide-2005-blitz").time_control_warning(tc("900")));
    const Profile std23 = builtin("fide-2023");
    CHECK_FALSE(std23.time_control_warning(tc("40/5400+30:1800+30")));
    CHECK(std23.time_control_warning(tc("300")));
    CHECK_FALSE(std23.time_control_warning(tc("?")));
    CHECK_FALSE(builtin("fide-2001").time_control_warning(tc("60"))); // 2001: no categories
    const Profile club = builtin("club-2014");
    CHECK_FALSE(club.time_control_warning(club.time_control));
}

TEST_CASE("a user profile inherits a built-in and supervision sections override") {
    const char* text = "inherit = fide-2023-rapid\n"
                       "name = my-rapid\n"
                       "illegal.ladder = +1min, +1min, loss   # our own ladder\n"
                       "flag.cannot-win-with = KB, K, KNN\n"
                       "[unsupervised]\n"
                       "illegal.visible-to-players = no\n";
    auto unsup = parse_profile(text, false);
    REQUIRE(unsup);
    CHECK(unsup->name == "my-rapid");
    CHECK(unsup->illegal_penalty(2).text() == "+1min");
    CHECK(unsup->illegal_penalty(3).text() == "loss");
    CHECK(unsup->flag_cannot_win_with == std::vector<std::string>{"KB", "K", "KNN"});
    CHECK_FALSE(unsup->illegal_visible_to_players);
    CHECK(unsup->illegal_stands_if_unclaimed); // from the parent's [unsupervised]
    auto sup = parse_profile(text, true);
    REQUIRE(sup);
    CHECK(sup->illegal_visible_to_players);
    CHECK_FALSE(sup->illegal_stands_if_unclaimed);
    auto nameless = parse_profile("inherit = fide-2023\n");
    REQUIRE(nameless);
    CHECK(nameless->name == "custom");
}
