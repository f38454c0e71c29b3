// Illegal moves and displaced pieces under each built-in rules profile (rules/profiles,
// recon_rules_from_profile): the article, the count and the penalty of the illegal_move alert
// (Art. 7.5, App. A/B and the quickplay finish), whether an unclaimed illegal move stands ([05] B6/C3,
// [23] A.5.2, club Art. 6), and the article of position_mismatch ([01]/[05] 7.3, [23] 7.4).
#include <catch2/catch.hpp>

#include "recon_support.hpp"
#include "rules/recon_profile.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

ReconConfig config(const char* profile, bool supervised = false) {
    ReconConfig c;
    c.rules = recon_rules_from_profile(builtin_profile(profile, supervised).value());
    return c;
}

/// White's knight to g3 (it cannot go there), the clock pressed; with `restore`, put back.
void illegal_knight(Board& b, bool restore = true, const char* from = "g1", const char* to = "g3") {
    b.h.shift(sq(from), sq(to), 200);
    b.h.wait(100);
    b.h.press(Color::White);
    b.h.wait(1000);
    if (restore) {
        b.h.shift(sq(to), sq(from), 200);
        b.h.wait(500);
    }
    b.r.feed(b.h);
}

std::vector<std::string> penalties(const Run& r) {
    std::vector<std::string> out;
    for (const AlertEvent& a : r.alerts)
        if (a.kind == AlertKind::IllegalMove) out.push_back(a.penalty);
    return out;
}

const IllegalMoveStands* stands(const Run& r) {
    const IllegalMoveStands* st = nullptr;
    for (const ReconEvent& e : r.all)
        if (const auto* x = std::get_if<IllegalMoveStands>(&e)) st = x;
    return st;
}

} // namespace

TEST_CASE("[01] 7.4 standard play: an illegal move has no penalty, 10.3 quickplay finish: +2, +2, loss") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        SECTION("standard play") {
            Board b(config("fide-2001"), id);
            b.start();
            illegal_knight(b);
            illegal_knight(b);
            REQUIRE(b.r.count(AlertKind::IllegalMove) == 2);
            CHECK(b.r.alerts[1].article == "7.4");
            CHECK(b.r.alerts[1].count == 2);
            CHECK(penalties(b.r) == std::vector<std::string>{"", ""});
        }
        SECTION("the quickplay finish from the start (ReconConfig::quickplay_finish)") {
            ReconConfig cfg = config("fide-2001");
            cfg.quickplay_finish = true;
            Board b(cfg, id);
            b.start();
            for (int i = 0; i < 3; ++i) illegal_knight(b);
            REQUIRE(b.r.count(AlertKind::IllegalMove) == 3);
            CHECK(b.r.alerts[0].article == "10.3");
            CHECK(penalties(b.r) == std::vector<std::string>{"+2min", "+2min", "loss"});
        }
        SECTION("the quickplay finish starting during the game counts its own illegal moves") {
            Board b(config("fide-2001"), id);
            b.start();
            illegal_knight(b);
            b.r.rec.set_quickplay_finish(true);
            illegal_knight(b);
            REQUIRE(b.r.count(AlertKind::IllegalMove) == 2);
            CHECK(b.r.alerts[1].count == 2);
            CHECK(b.r.alerts[1].article == "10.3");
            CHECK(penalties(b.r) == std::vector<std::string>{"", "+2min"});
        }
    }
}

TEST_CASE("[05] 7.4 b: +2 min, +2 min, then loss (fide-2005)") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b(config("fide-2005"), id);
        b.start();
        for (int i = 0; i < 3; ++i) illegal_knight(b);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 3);
        CHECK(b.r.alerts[2].article == "7.4");
        CHECK(penalties(b.r) == std::vector<std::string>{"+2min", "+2min", "loss"});
        // 7.5.3 is a 2023 rule: a press without a move is only logged.
        b.h.press(Color::White);
        b.h.wait(1500);
        b.r.feed(b.h);
        CHECK(b.r.count(AlertKind::IllegalMove) == 3);
    }
}

TEST_CASE("[23] A.4 supervised rapid (--supervised): +1 min, and the position must be restored") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReconConfig cfg = config("fide-2023-rapid", true);
        cfg.mismatch_grace_ms = 2000;
        Board b(cfg, id);
        b.start();
        illegal_knight(b, false);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.alerts[0].article == "7.5.1");
        CHECK(b.r.alerts[0].penalty == "+1min");
        b.move("e7", "e5", Color::Black);  // the opponent plays on: it does not stand
        b.h.wait(3000);
        b.r.feed(b.h);
        CHECK(stands(b.r) == nullptr);
        CHECK(b.r.made.empty());
        REQUIRE(b.r.count(AlertKind::PositionMismatch) == 1);
        CHECK(b.r.alerts.back().article == "7.5.1");
    }
}

TEST_CASE("[23] A.5.2 unsupervised rapid: an unclaimed illegal move stands once the opponent moves") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b(config("fide-2023-rapid", false), id);
        b.start();
        illegal_knight(b, false);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.alerts[0].article == "7.5.1, A.5.2");
        CHECK(b.r.alerts[0].penalty == "+1min");
        b.move("e7", "e5", Color::Black);
        const IllegalMoveStands* st = stands(b.r);
        REQUIRE(st != nullptr);
        CHECK(st->ply == 1);
        CHECK(st->from == sq("g1"));
        CHECK(st->to == sq("g3"));
        REQUIRE(b.r.made.size() == 2);
        CHECK(b.r.made[1] == "e7e5");
        b.move("g3", "e4", Color::White);  // the knight plays on from g3
        REQUIRE(b.r.made.size() == 3);
        CHECK(b.r.made[2] == "g3e4");
        CHECK(b.r.rec.plies_made() == 3);
        CHECK(b.r.irregularities() == 1);
    }
}

TEST_CASE("[23] B.2 supervised blitz: +2 min, then the second illegal move loses") {
    Board b(config("fide-2023-blitz", true));
    b.start();
    illegal_knight(b);
    illegal_knight(b);
    CHECK(penalties(b.r) == std::vector<std::string>{"+2min", "loss"});
    CHECK(b.r.alerts[0].article == "7.5.1");
}

TEST_CASE("[05] B6 rapid: the illegal move is completed by the press and, unclaimed, stands") {
    Board b(config("fide-2005-rapid"));
    b.start();
    illegal_knight(b, false);
    REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
    CHECK(b.r.alerts[0].article == "B6");
    CHECK(b.r.alerts[0].penalty == "+2min");
    b.move("e7", "e5", Color::Black);
    CHECK(stands(b.r) != nullptr);
    CHECK(b.r.made.size() == 2);
}

TEST_CASE("[05] C3 blitz: the opponent may claim a win, a draw if he cannot mate, unclaimed it stands") {
    SECTION("the opponent can mate: win-claim") {
        Board b(config("fide-2005-blitz"));
        b.start();
        illegal_knight(b, false);
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.alerts[0].article == "C3");
        CHECK(b.r.alerts[0].penalty == "win-claim");
        b.move("e7", "e5", Color::Black);
        CHECK(stands(b.r) != nullptr);
    }
    SECTION("the opponent has a lone king: draw") {
        Board b(config("fide-2005-blitz"));
        b.start("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
        illegal_knight(b, true, "g1", "g2");
        REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.alerts[0].penalty == "draw");
    }
}

TEST_CASE("club Art. 6: an illegal move not pointed out before the next move stands") {
    Board b(config("club-2014"));
    b.start();
    illegal_knight(b, false);
    REQUIRE(b.r.count(AlertKind::IllegalMove) == 1);
    CHECK(b.r.alerts[0].article == "7.4, club 6");
    CHECK(b.r.alerts[0].penalty == "+2min");  // 7.4 b through Art. 20 (docs/profiles.md)
    b.move("e7", "e5", Color::Black);
    CHECK(stands(b.r) != nullptr);
    REQUIRE(b.r.made.size() == 2);
    CHECK(b.r.made[1] == "e7e5");
}

TEST_CASE("7.4 displaced pieces: position_mismatch names the profile's article ([01]/[05] 7.3)") {
    struct Case {
        const char* profile;
        const char* article;
    };
    for (Case c : {Case{"fide-2001", "7.3"}, Case{"fide-2005", "7.3"}, Case{"club-2014", "7.3"},
                   Case{"fide-2023", "7.4"}}) {
        for (bool id : {false, true}) {
            INFO(c.profile << " identity " << id);
            ReconConfig cfg = config(c.profile);
            cfg.mismatch_grace_ms = 1000;
            Board b(cfg, id);
            b.start();
            b.move("e2", "e4", Color::White);
            b.h.shift(sq("d2"), sq("e2"), 100);  // knocked sideways (no move of anyone)
            b.h.wait(1500);
            b.h.shift(sq("e2"), sq("d2"), 100);
            b.h.wait(300);
            b.r.feed(b.h);
            REQUIRE(b.r.alerts.size() == 1);
            REQUIRE(b.r.count(AlertKind::PositionMismatch) == 1);
            CHECK(b.r.alerts[0].article == c.article);
            int cleared = 0;
            for (const ReconEvent& e : b.r.all)
                if (const auto* a = std::get_if<AlertEvent>(&e))
                    if (a->cleared && a->article == c.article) ++cleared;
            CHECK(cleared == 1);
        }
    }
}
