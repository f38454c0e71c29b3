// D.2.10.4 [23]: information on request through the DGT3000's five buttons (back, minus, run,
// plus, ok): buttons 0..3 answer at once, ok opens a spoken menu for the whole position, one
// square, a rank or a file. Every transition of every level; the wraps at both ends; the
// timeout from the presses' own times; the start square. Expected answers are built with
// information.cpp's public texts; the prompt words are written here literally (Appendix D
// German and English), not taken from vocabulary.cpp.
#include "access/button_menu.hpp"
#include "access/information.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace eboard;
using namespace eboard::access;

namespace {

using Level = ButtonMenu::Level;

/// The game after the UCI moves from the start position, with its history.
Position game(std::initializer_list<const char*> moves) {
    Position pos = Position::startpos();
    for (const char* u : moves) {
        const Move m = move_from_uci(pos, u);
        REQUIRE_FALSE(m.is_none());
        pos.make_move(m);
    }
    return pos;
}

/// Presses buttons on one menu, the clock advancing 1 s per press, and says what each press
/// would say (answers without clock times, in the menu's vocabulary).
struct Presser {
    ButtonMenu menu;
    Vocabulary v;
    const Position& pos;
    std::int64_t now = 1000;
    Presser(Vocabulary voc, const Position& p) : menu(voc), v(voc), pos(p) {}

    std::optional<MenuReply> raw(int button) { return raw_at(button, now += 1000); }
    std::optional<MenuReply> raw_at(int button, std::int64_t at) {
        now = at;
        return menu.press(button, at, pos);
    }
    /// What the press says ("" for nothing).
    std::string operator()(int button) { return text(raw(button)); }
    std::string at(int button, std::int64_t ms) { return text(raw_at(button, ms)); }
    [[nodiscard]] std::string text(const std::optional<MenuReply>& r) const {
        if (!r) return {};
        if (r->request)
            return answer_info_request(*r->request, pos, std::nullopt, std::nullopt, {v, false});
        return r->prompt;
    }
};

constexpr int kBack = kKeyBack, kMinus = kKeyMinus, kRun = kKeyRun, kPlus = kKeyPlus, kOk = kKeyOk;

} // namespace

TEST_CASE("D.2.10.4 clock buttons with the menu closed: 0..3 answer at once, ok opens the menu") {
    const Position pos = game({"e2e4", "e7e5", "g1f3"});
    Presser p(Vocabulary::AppendixD, pos);
    auto r = p.raw(0);
    REQUIRE(r);
    REQUIRE(r->request);
    CHECK(r->request->kind == InfoRequest::Kind::Clocks);
    CHECK_FALSE(r->menu); // an ordinary answer: never dropped from the speech queue
    r = p.raw(1);
    REQUIRE((r && r->request));
    CHECK(r->request->kind == InfoRequest::Kind::Moves);
    r = p.raw(2);
    REQUIRE((r && r->request));
    CHECK(r->request->kind == InfoRequest::Kind::Last);
    CHECK(r->request->count == 1);
    r = p.raw(3);
    REQUIRE((r && r->request));
    CHECK(r->request->kind == InfoRequest::Kind::Last);
    CHECK(r->request->count == 4);
    CHECK(p(1) == "Zug 2, Schwarz am Zug");
    CHECK(p.menu.level() == Level::Closed);
    // Buttons the clock does not have say nothing.
    CHECK_FALSE(p.raw(5));
    CHECK_FALSE(p.raw(-1));
    CHECK(p.menu.level() == Level::Closed);
    // ok: the menu, with its first item.
    r = p.raw(kOk);
    REQUIRE(r);
    CHECK_FALSE(r->request);
    CHECK(r->prompt == "Menü, Stellung");
    CHECK(r->menu);
    CHECK(p.menu.level() == Level::Items);
    CHECK(p.menu.item() == ButtonMenu::Item::Position);
    // No button outside 0..4 changes it either.
    CHECK_FALSE(p.raw(7));
    CHECK(p.menu.level() == Level::Items);
}

TEST_CASE("D.2.10.4 button menu items: minus and plus step and wrap, run repeats, back closes") {
    const Position pos = game({"e2e4"});
    SECTION("Appendix D words") {
        Presser p(Vocabulary::AppendixD, pos);
        CHECK(p(kOk) == "Menü, Stellung");
        CHECK(p(kPlus) == "Feld");
        CHECK(p(kPlus) == "Reihe");
        CHECK(p(kPlus) == "Linie");
        CHECK(p(kPlus) == "Stellung"); // wrapped at the end
        CHECK(p(kMinus) == "Linie");   // wrapped at the start
        CHECK(p(kMinus) == "Reihe");
        CHECK(p.menu.item() == ButtonMenu::Item::Rank);
        CHECK(p(kRun) == "Menü, Reihe");
        CHECK(p(kMinus) == "Feld");
        CHECK(p(kMinus) == "Stellung");
        CHECK(p(kBack) == "Menü Ende");
        CHECK(p.menu.level() == Level::Closed);
        // Closed: button 0 is the clocks again, ok opens at the first item again.
        const auto r = p.raw(0);
        REQUIRE((r && r->request));
        CHECK(r->request->kind == InfoRequest::Kind::Clocks);
        CHECK(p(kPlus) == "Zug 1, Weiß: Bauer Eva vier.");
        CHECK(p(kOk) == "Menü, Stellung");
    }
    SECTION("English words") {
        Presser p(Vocabulary::English, pos);
        CHECK(p(kOk) == "menu, position");
        CHECK(p(kPlus) == "square");
        CHECK(p(kPlus) == "rank");
        CHECK(p(kPlus) == "file");
        CHECK(p(kPlus) == "position");
        CHECK(p(kMinus) == "file");
        CHECK(p(kRun) == "menu, file");
        CHECK(p(kBack) == "menu closed");
    }
    SECTION("French words") {
        Presser p(Vocabulary::French, pos);
        CHECK(p(kOk) == "menu, position");
        CHECK(p(kPlus) == "case");
        CHECK(p(kPlus) == "rangée");
        CHECK(p(kPlus) == "colonne");
        CHECK(p(kBack) == "menu fermé");
    }
    SECTION("every vocabulary has a word for each item and the closing") {
        for (const Vocabulary v : kVocabularies) {
            Presser p(v, pos);
            std::set<std::string> said;
            said.insert(p(kOk));
            for (int i = 0; i < 3; ++i) said.insert(p(kPlus));
            said.insert(p(kBack));
            INFO(vocabulary_code(v));
            CHECK(said.size() == 5);
            CHECK_FALSE(said.count(""));
        }
    }
}

TEST_CASE("D.2.10.4 button menu: the whole position, and the menu closes") {
    const Position pos = game({"e2e4", "e7e5", "g1f3"});
    Presser p(Vocabulary::AppendixD, pos);
    CHECK(p(kOk) == "Menü, Stellung");
    const auto r = p.raw(kOk);
    REQUIRE((r && r->request));
    CHECK(r->menu);
    CHECK(p.text(r) == position_text(pos, Vocabulary::AppendixD));
    CHECK(p.menu.level() == Level::Closed);
    CHECK(p(kOk) == "Menü, Stellung");
    CHECK(p(kMinus) == "Linie");
    CHECK(p(kPlus) == "Stellung");
    CHECK(p(kOk) == position_text(pos, Vocabulary::AppendixD));
}

TEST_CASE("D.2.10.4 button menu: a rank scan from the last move's rank, stepped with wraps") {
    const Position pos = game({"e2e4", "e7e5", "g1f3"}); // last arrival f3: the third rank
    const Vocabulary v = Vocabulary::AppendixD;
    Presser p(v, pos);
    CHECK(p(kOk) == "Menü, Stellung");
    CHECK(p(kPlus) == "Feld");
    CHECK(p(kPlus) == "Reihe");
    CHECK(p(kOk) == rank_text(pos, 2, v));
    CHECK(p(kOk) == "Reihe drei: Felix drei, weißer Springer"); // written out once
    CHECK(p.menu.level() == Level::Rank);
    CHECK(p(kRun) == rank_text(pos, 2, v));
    CHECK(p(kOk) == rank_text(pos, 2, v));
    for (int r = 3; r <= 7; ++r) CHECK(p(kPlus) == rank_text(pos, r, v));
    CHECK(p(kPlus) == rank_text(pos, 0, v)); // wrapped at the eighth rank
    CHECK(p(kPlus) == rank_text(pos, 1, v));
    CHECK(p(kMinus) == rank_text(pos, 0, v));
    CHECK(p(kMinus) == rank_text(pos, 7, v)); // wrapped at the first rank
    CHECK(p(kMinus) ==
          "Reihe sieben: Anna sieben, schwarzer Bauer, Bella sieben, schwarzer Bauer, "
          "Cesar sieben, schwarzer Bauer, David sieben, schwarzer Bauer, Felix sieben, "
          "schwarzer Bauer, Gustav sieben, schwarzer Bauer, Hector sieben, schwarzer Bauer");
    CHECK(p(kBack) == "Reihe");
    CHECK(p.menu.level() == Level::Items);
    CHECK(p.menu.item() == ButtonMenu::Item::Rank);
    // Chosen again: from the start rank again.
    CHECK(p(kOk) == rank_text(pos, 2, v));
    CHECK(p(kBack) == "Reihe");
    CHECK(p(kBack) == "Menü Ende");
}

TEST_CASE("D.2.10.4 button menu: a file scan from the last move's file, stepped with wraps") {
    const Position pos = game({"e2e4", "e7e5", "g1f3"}); // f3: the f-file
    const Vocabulary v = Vocabulary::English;
    Presser p(v, pos);
    CHECK(p(kOk) == "menu, position");
    CHECK(p(kMinus) == "file");
    CHECK(p(kOk) == file_text(pos, 5, v));
    CHECK(p(kOk) == "file f: f1, white bishop, f2, white pawn, f3, white knight, f7, black pawn, "
                    "f8, black bishop");
    CHECK(p.menu.level() == Level::File);
    CHECK(p(kRun) == file_text(pos, 5, v));
    CHECK(p(kPlus) == file_text(pos, 6, v));
    CHECK(p(kPlus) == file_text(pos, 7, v));
    CHECK(p(kPlus) == file_text(pos, 0, v));  // wrapped at h
    CHECK(p(kMinus) == file_text(pos, 7, v)); // and back over a
    for (int f = 6; f >= 0; --f) CHECK(p(kMinus) == file_text(pos, f, v));
    CHECK(p(kMinus) == file_text(pos, 7, v)); // wrapped at a
    CHECK(p(kBack) == "file");
    CHECK(p.menu.level() == Level::Items);
    CHECK(p(kBack) == "menu closed");
    CHECK(p.menu.level() == Level::Closed);
}

TEST_CASE("D.2.10.4 button menu: a square chosen by its file, then walked along the file") {
    const Position pos = game({"e2e4", "e7e5", "g1f3"});
    const Vocabulary v = Vocabulary::AppendixD;
    Presser p(v, pos);
    CHECK(p(kOk) == "Menü, Stellung");
    CHECK(p(kPlus) == "Feld");
    // The file choice, from the last move's file.
    CHECK(p(kOk) == "Felix");
    CHECK(p.menu.level() == Level::FileChoice);
    CHECK(p(kRun) == "Felix");
    CHECK(p(kPlus) == "Gustav");
    CHECK(p(kPlus) == "Hector");
    CHECK(p(kPlus) == "Anna");    // wrapped at h
    CHECK(p(kMinus) == "Hector"); // wrapped at a
    CHECK(p(kMinus) == "Gustav");
    CHECK(p(kMinus) == "Felix");
    CHECK(p(kMinus) == "Eva");
    // Taken: the walk starts on the last move's rank, on that file.
    CHECK(p(kOk) == square_text(pos, Square::parse("e3"), v));
    CHECK(p.menu.level() == Level::SquareWalk);
    CHECK(p(kPlus) == "Eva vier, weißer Bauer");
    CHECK(p(kPlus) == square_text(pos, Square::parse("e5"), v));
    CHECK(p(kRun) == square_text(pos, Square::parse("e5"), v));
    CHECK(p(kOk) == square_text(pos, Square::parse("e5"), v));
    for (const char* s : {"e6", "e7", "e8"})
        CHECK(p(kPlus) == square_text(pos, Square::parse(s), v));
    CHECK(p(kPlus) == "Eva eins, weißer König");     // wrapped at the eighth rank
    CHECK(p(kMinus) == "Eva acht, schwarzer König"); // wrapped at the first rank
    CHECK(p(kMinus) == square_text(pos, Square::parse("e7"), v));
    // back: the file choice, where it was; another file keeps the rank walked to.
    CHECK(p(kBack) == "Eva");
    CHECK(p.menu.level() == Level::FileChoice);
    CHECK(p(kMinus) == "David");
    CHECK(p(kOk) == "David sieben, schwarzer Bauer");
    CHECK(p(kBack) == "David");
    // back again: the items, at Feld; back once more closes.
    CHECK(p(kBack) == "Feld");
    CHECK(p.menu.level() == Level::Items);
    CHECK(p.menu.item() == ButtonMenu::Item::Square);
    // Chosen again: the file choice starts from the last move's file again.
    CHECK(p(kOk) == "Felix");
    CHECK(p(kBack) == "Feld");
    CHECK(p(kBack) == "Menü Ende");
    CHECK(p.menu.level() == Level::Closed);
}

TEST_CASE("D.2.10.4 button menu: 30 s after the previous press the menu is closed") {
    const Position pos = game({"e2e4"});
    Presser p(Vocabulary::AppendixD, pos);
    CHECK(kMenuTimeoutMs == 30000);
    CHECK(p.at(kOk, 100000) == "Menü, Stellung");
    CHECK(p.at(kPlus, 129999) == "Feld");  // 29,999 ms later: still in the menu
    CHECK(p.at(kPlus, 159999) == "Reihe"); // exactly 30 s: still (more than 30 s closes)
    CHECK(p.at(kOk, 160000) == rank_text(pos, 3, Vocabulary::AppendixD));
    // 30,001 ms later: closed, the press is the plain button (3: the last four plies).
    const auto r = p.raw_at(kPlus, 190001);
    REQUIRE((r && r->request));
    CHECK(r->request->kind == InfoRequest::Kind::Last);
    CHECK(r->request->count == 4);
    CHECK_FALSE(r->menu);
    CHECK(p.menu.level() == Level::Closed);
    // ok long after a menu left open deep down: opens it afresh at the first item.
    CHECK(p.at(kOk, 200000) == "Menü, Stellung");
    CHECK(p.at(kPlus, 201000) == "Feld");
    CHECK(p.at(kOk, 202000) == "Eva");
    CHECK(p.at(kOk, 400000) == "Menü, Stellung");
    // A press timed before the previous one (the driver's time began again): closed too.
    CHECK(p.at(kPlus, 401000) == "Feld");
    const auto back = p.raw_at(kBack, 5000);
    REQUIRE((back && back->request));
    CHECK(back->request->kind == InfoRequest::Kind::Clocks);
    // close(): a new game; no word, the next press is the plain button.
    CHECK(p(kOk) == "Menü, Stellung");
    p.menu.close();
    CHECK(p.menu.level() == Level::Closed);
    CHECK(p(kMinus) == "Zug 1, Schwarz am Zug");
}

TEST_CASE("D.2.10.4 button menu: the start square is the last move's arrival, else e1") {
    CHECK(ButtonMenu::start_square(Position::startpos()) == Square::parse("e1"));
    CHECK(ButtonMenu::start_square(game({"e2e4"})) == Square::parse("e4"));
    CHECK(ButtonMenu::start_square(game({"e2e4", "g8f6"})) == Square::parse("f6"));
    // Castling: the king's arrival square (the move is stored as king takes rook).
    const Position castled = game({"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1"});
    CHECK(ButtonMenu::start_square(castled) == Square::parse("g1"));
    // A position set up without moves (a FEN): e1.
    const Position set = Position::from_fen("4k3/8/8/3p4/8/8/8/4K3 b - - 0 40").value();
    CHECK(ButtonMenu::start_square(set) == Square::parse("e1"));
    Presser p(Vocabulary::English, set);
    CHECK(p(kOk) == "menu, position");
    CHECK(p(kPlus) == "square");
    CHECK(p(kOk) == "e");
    CHECK(p(kOk) == "e1, white king");
    CHECK(p(kBack) == "e");
    CHECK(p(kBack) == "square");
    CHECK(p(kPlus) == "rank");
    CHECK(p(kOk) == "rank 1: e1, white king");
    CHECK(p(kBack) == "rank");
    CHECK(p(kPlus) == "file");
    CHECK(p(kOk) == file_text(set, 4, Vocabulary::English));
    CHECK(p(kMinus) == "file d: d5, black pawn");
}
