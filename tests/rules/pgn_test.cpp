// PGN standard (1994): reader, export-format writer, clock commands of the PGN supplement.
#include "rules/notation.hpp"
#include "rules/pgn.hpp"

#include <catch2/catch.hpp>

#include "tests/support/test_io.hpp"
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace eboard;

namespace {

using eboard::test::slurp;

std::vector<std::filesystem::path> game_files() {
    std::vector<std::filesystem::path> files;
    const auto dir = std::filesystem::path(EBOARD_REPO_DATA) / "games";
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() == ".pgn") files.push_back(e.path());
    }
    return files;
}

void same_line(const std::vector<GameMove>& a, const std::vector<GameMove>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("ply " << i + 1 << " " << a[i].san);
        CHECK(a[i].move == b[i].move);
        CHECK(a[i].san == b[i].san);
        CHECK(a[i].clock_ms == b[i].clock_ms);
        CHECK(a[i].emt_ms == b[i].emt_ms);
        CHECK(a[i].nags == b[i].nags);
        CHECK(a[i].comment == b[i].comment);
        REQUIRE(a[i].variations.size() == b[i].variations.size());
        for (std::size_t v = 0; v < a[i].variations.size(); ++v) {
            CHECK(a[i].variations[v].comment == b[i].variations[v].comment);
            same_line(a[i].variations[v].moves, b[i].variations[v].moves);
        }
    }
}

/// The movetext lines of a written game (after the first empty line).
std::vector<std::string> movetext_lines(const std::string& pgn) {
    std::vector<std::string> lines;
    std::istringstream in(pgn);
    std::string line;
    bool movetext = false;
    while (std::getline(in, line)) {
        if (movetext) lines.push_back(line);
        if (line.empty()) movetext = true;
    }
    return lines;
}

GameRecord small_game() {
    GameRecord g;
    g.set_tag("TimeControl", "40/5400+30:1800+30");
    g.set_tag("White", "Anna");
    g.set_tag("Event", "Club championship");
    g.set_tag("Black", "Olga");
    Position pos = Position::startpos();
    std::int64_t clock = 5'400'000;
    for (const char* san : {"e4", "e5", "Nf3", "Nc6", "Bb5"}) {
        auto m = parse_move(pos, san);
        REQUIRE(m);
        GameMove mv = make_game_move(pos, *m);
        mv.clock_ms = clock;
        clock -= 61'000;
        pos.make_move(*m);
        g.moves.push_back(std::move(mv));
    }
    g.moves[2].comment = "the main line";
    return g;
}

} // namespace

TEST_CASE("PGN 8.1.1 export format: Seven Tag Roster first, in order, then the other tags") {
    const std::string pgn = write_pgn(small_game());
    CHECK(pgn == "[Event \"Club championship\"]\n"
                 "[Site \"?\"]\n"
                 "[Date \"????.??.??\"]\n"
                 "[Round \"?\"]\n"
                 "[White \"Anna\"]\n"
                 "[Black \"Olga\"]\n"
                 "[Result \"*\"]\n"
                 "[TimeControl \"40/5400+30:1800+30\"]\n"
                 "\n"
                 "1. e4 {[%clk 1:30:00]} 1... e5 {[%clk 1:28:59]} 2. Nf3 {[%clk 1:27:58] the main\n"
                 "line} 2... Nc6 {[%clk 1:26:57]} 3. Bb5 {[%clk 1:25:56]} *\n");
}

TEST_CASE("PGN supplement [%clk] and [%emt]: read into ms per move, written back") {
    auto g = read_pgn_game("[Event \"x\"]\n\n1. e4 { [%clk 0:05:00] } 1... e5 {[%clk 0:04:59.9] "
                           "[%emt 0:00:03] fast} 2. Nf3 {[%clk bad]} *\n");
    REQUIRE(g);
    REQUIRE(g->moves.size() == 3);
    CHECK(g->moves[0].clock_ms == 300'000);
    CHECK(g->moves[0].comment.empty());
    CHECK(g->moves[1].clock_ms == 299'900);
    CHECK(g->moves[1].emt_ms == 3'000);
    CHECK(g->moves[1].comment == "fast");
    CHECK_FALSE(g->moves[2].clock_ms);
    CHECK(g->moves[2].comment == "[%clk bad]");
    const std::string out = write_pgn(*g);
    CHECK(out.find("1... e5 {[%clk 0:04:59.9] [%emt 0:00:03] fast}") != std::string::npos);
    CHECK(format_clock(5'400'000) == "1:30:00");
    CHECK(format_clock(61'250) == "0:01:01.25");
    CHECK(parse_clock("1:30:00") == 5'400'000);
    CHECK(parse_clock("12:34") == 754'000);
    CHECK_FALSE(parse_clock("1:60:00"));
    CHECK_FALSE(parse_clock(""));
}

TEST_CASE("PGN [%clk] split over two comments, or formed when a command is taken out: read as "
          "a clock, and the game written reads back the same (fuzz_pgn finding)") {
    // "{[%clk 0:05:01}" then ";] ..." : neither comment holds a whole command, the move's
    // comment does; "[%clk [%clk 0:01:00]0:02:00]" holds a second one once the first is out.
    for (const char* movetext : {"1. e4 {[%clk 0:05:01} ;] rest\n{[%clk 0:00:52]} *\n",
                                 "1. e4 {[%clk [%clk 0:01:00]0:02:00] rest} *\n"}) {
        CAPTURE(movetext);
        auto g = read_pgn_game(std::string("[Event \"x\"]\n\n") + movetext);
        REQUIRE(g);
        REQUIRE(g->moves.size() == 1);
        CHECK(g->moves[0].comment == "rest");
        const std::string out = write_pgn(*g);
        auto again = read_pgn_game(out);
        REQUIRE(again);
        CHECK(again->moves[0].clock_ms == g->moves[0].clock_ms);
        CHECK(write_pgn(*again) == out);
    }
}

TEST_CASE("PGN writer output re-read gives the same game, every game of data/games") {
    int games = 0;
    for (const auto& file : game_files()) {
        const std::string text = slurp(file);
        PgnReadOptions opts;
        opts.keep_variations = true;
        PgnReader reader(text, opts);
        while (auto game = reader.next()) {
            REQUIRE(game->has_value());
            const GameRecord& a = game->value();
            const std::string written = write_pgn(a);
            INFO(file.filename().string() << "\n" << written);
            auto again = read_pgn_game(written, opts);
            REQUIRE(again);
            const GameRecord& b = again.value();
            CHECK(b.start_fen == a.start_fen);
            CHECK(b.chess960 == a.chess960);
            CHECK(b.result == a.result);
            CHECK(b.comment == a.comment);
            // Every tag survives; the Seven Tag Roster is completed with "?" where missing.
            for (const Tag& t : a.tags) {
                if (t.name == "Result") continue;
                REQUIRE(b.tag(t.name) != nullptr);
                CHECK(*b.tag(t.name) == t.value);
            }
            same_line(a.moves, b.moves);
            CHECK(write_pgn(b) == written);
            ++games;
        }
    }
    CHECK(games >= 475);
}

TEST_CASE("PGN 8.2.1 export movetext lines stay under 80 columns") {
    std::size_t longest = 0;
    int lines = 0;
    for (const auto& file : game_files()) {
        const std::string text = slurp(file);
        PgnReadOptions opts;
        opts.keep_variations = true;
        PgnReader reader(text, opts);
        while (auto game = reader.next()) {
            REQUIRE(game->has_value());
            for (const std::string& line : movetext_lines(write_pgn(game->value()))) {
                CHECK(line.size() < 80);
                CHECK(line.find('\r') == std::string::npos);
                longest = std::max(longest, line.size());
                ++lines;
            }
        }
    }
    CHECK(lines > 1000);
    CHECK(longest >= 70); // the lines are filled, not broken after every move
}

TEST_CASE("PGN reader: comments, NAGs, move numbers, suffix annotations, results") {
    auto g = read_pgn_game("[Event \"x\"]\n[Result \"1-0\"]\n\n"
                           "{game comment} 1.e4 $1 e5!? ; rest of the line\n"
                           "2. Nf3 Nc6 3... a3?? {wrong number, ignored} 1-0\n");
    REQUIRE(g);
    CHECK(g->comment == "game comment");
    REQUIRE(g->moves.size() == 5);
    CHECK(g->moves[0].nags == std::vector<int>{1});
    CHECK(g->moves[1].nags == std::vector<int>{5});
    CHECK(g->moves[1].comment == "rest of the line");
    CHECK(g->moves[1].written == "e5");
    CHECK(g->moves[4].nags == std::vector<int>{4});
    CHECK(g->result == "1-0");
    const std::string out = write_pgn(*g);
    CHECK(out.find("{game comment} 1. e4 $1 e5 $5 {rest of the line} 2. Nf3 Nc6 3. a3 $4") !=
          std::string::npos);
}

TEST_CASE("PGN 8.2.5 variations skipped by default, kept and checked on request") {
    const char* text = "[Event \"x\"]\n\n1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3) d6) "
                       "(1... e6) 2. Nf3 *\n";
    auto skipped = read_pgn_game(text);
    REQUIRE(skipped);
    REQUIRE(skipped->moves.size() == 3);
    CHECK(skipped->moves[1].variations.empty());

    PgnReadOptions keep;
    keep.keep_variations = true;
    auto kept = read_pgn_game(text, keep);
    REQUIRE(kept);
    const auto& vars = kept->moves[1].variations;
    REQUIRE(vars.size() == 2);
    REQUIRE(vars[0].moves.size() == 3);
    CHECK(vars[0].moves[0].san == "c5");
    CHECK(vars[0].moves[0].comment == "Sicilian");
    REQUIRE(vars[0].moves[1].variations.size() == 1);
    CHECK(vars[0].moves[1].variations[0].moves[0].san == "c3");
    CHECK(vars[1].moves[0].san == "e6");
    CHECK(write_pgn(*kept).find("1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3) 2... d6) (1... e6) "
                                "2. Nf3 *") != std::string::npos);

    std::string deep = "[Event \"x\"]\n\n1. e4";
    for (int i = 0; i < 200; ++i) deep += " (1. d4";
    deep += std::string(200, ')') + " *";
    auto nested = read_pgn_game(deep, keep);
    REQUIRE_FALSE(nested);
    CHECK(nested.error().message == "variations nested too deeply");
    CHECK(read_pgn_game(deep)); // skipped variations have no such limit
    PgnReadOptions k2 = keep;
    auto bad = read_pgn_game("[Event \"x\"]\n\n1. e4 e5 (1... Ke7) *\n", k2);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().line == 3);
    CHECK(bad.error().column == 16);
}

TEST_CASE("PGN 9.7 SetUp/FEN: numbering from the FEN, written back with SetUp") {
    auto g =
        read_pgn_game("[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]"
                      "\n\n40... Kd7 41. e4 Kc6 *\n");
    REQUIRE(g);
    CHECK(g->start_fen == "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
    CHECK(g->tag("FEN") == nullptr);
    const std::string out = write_pgn(*g);
    CHECK(out.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n") !=
          std::string::npos);
    CHECK(out.find("\n40... Kd7 41. e4 Kc6 *\n") != std::string::npos);

    auto bad = read_pgn_game("[Event \"x\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2K w - - 0 1\"]\n\n*\n");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("bad FEN tag") == 0);
}

TEST_CASE("PGN Variant Chess960 / Fischerandom: read, castling, written as Variant Chess960") {
    auto g = read_pgn_game("[Event \"x\"]\n[Variant \"fischerandom\"]\n"
                           "[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n"
                           "1. O-O-O O-O *\n");
    REQUIRE(g);
    CHECK(g->chess960);
    CHECK(g->tag("Variant") == nullptr);
    REQUIRE(g->moves.size() == 2);
    CHECK(g->moves[0].move == Move::castling(Square::parse("b1"), Square::parse("a1")));
    CHECK(g->moves[1].move == Move::castling(Square::parse("b8"), Square::parse("h8")));
    const std::string out = write_pgn(*g);
    CHECK(out.find("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN ") != std::string::npos);
    auto again = read_pgn_game(out);
    REQUIRE(again);
    CHECK(again->chess960);

    auto atomic = read_pgn_game("[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n");
    REQUIRE_FALSE(atomic);
    CHECK(atomic.error().message == "unsupported variant 'Atomic'");
    CHECK(atomic.error().line == 2);
}

TEST_CASE("PGN malformed games give line and column, the reader recovers at the next game") {
    const std::string text =
        "[Event \"one\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
        "[Event \"two\"]\n[Site \"x\"]\n\n1. e4 e5\n2. Nf3 Nf6 3. Nxe5 Qe7 4. Qx7 *\n\n"
        "[Event \"three\"]\n[Site \"unterminated]\n\n1. d4 *\n\n"
        "[Event \"four\"]\n\n1. c4 {never closed\n\n"
        "[Event \"five\"]\n\n1. Nf3 )\n"
        "[Event \"six\"]\n\n1. d4 d5 1/2-1/2\n";
    PgnReader reader(text);
    auto g1 = reader.next();
    REQUIRE(g1);
    REQUIRE(g1->has_value());
    CHECK(*g1->value().tag("Event") == "one");

    auto g2 = reader.next();
    REQUIRE(g2);
    REQUIRE_FALSE(g2->has_value());
    CHECK(g2->error().line == 9);
    CHECK(g2->error().column == 28); // the x of Qx7
    CHECK(g2->error().message.find("Qx7") != std::string::npos);

    auto g3 = reader.next();
    REQUIRE(g3);
    REQUIRE_FALSE(g3->has_value());
    CHECK(g3->error().message == "unterminated tag value");
    CHECK(g3->error().line == 12);
    CHECK(g3->error().column == 7);

    auto g4 = reader.next();
    REQUIRE(g4);
    REQUIRE_FALSE(g4->has_value());
    CHECK(g4->error().message == "unterminated comment");
    CHECK(g4->error().line == 18);
    CHECK(g4->error().column == 7);

    auto g5 = reader.next();
    REQUIRE(g5);
    REQUIRE_FALSE(g5->has_value());
    CHECK(g5->error().line == 22);
    CHECK(g5->error().column == 8);

    auto g6 = reader.next();
    REQUIRE(g6);
    REQUIRE(g6->has_value());
    CHECK(*g6->value().tag("Event") == "six");
    CHECK(g6->value().result == "1/2-1/2");
    CHECK_FALSE(reader.next());
}

TEST_CASE("PGN reader from a stream yields game after game") {
    std::istringstream in("[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n"
                          "\n% an escape line\n[Event \"c\"]\n\n*");
    PgnReader reader(in);
    std::vector<std::size_t> plies;
    while (auto g = reader.next()) {
        REQUIRE(g->has_value());
        plies.push_back(g->value().moves.size());
    }
    CHECK(plies == std::vector<std::size_t>{1, 2, 0});
    CHECK_FALSE(read_pgn_game("  \n\n"));
}

TEST_CASE("PGN null moves -- and Z0 are read and written as --") {
    auto g = read_pgn_game("[Event \"x\"]\n\n1. e4 Z0 2. d4 -- 3. Nf3 *\n");
    REQUIRE(g);
    REQUIRE(g->moves.size() == 5);
    CHECK(g->moves[1].move.is_none());
    CHECK(write_pgn(*g).find("1. e4 -- 2. d4 -- 3. Nf3 *") != std::string::npos);
    auto check = read_pgn_game("[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4 3. -- *\n");
    REQUIRE_FALSE(check);
    CHECK(check.error().message == "null move while in check");
}

TEST_CASE("PGN tag values with quotes and backslashes are escaped and read back") {
    GameRecord g;
    g.set_tag("Event", "The \"big\" one \\ 2026");
    g.set_tag("Annotator", "line\nbreak");
    const std::string out = write_pgn(g);
    CHECK(out.find("[Event \"The \\\"big\\\" one \\\\ 2026\"]") != std::string::npos);
    auto back = read_pgn_game(out);
    REQUIRE(back);
    CHECK(*back->tag("Event") == "The \"big\" one \\ 2026");
    CHECK(*back->tag("Annotator") == "line break");
    CHECK(back->moves.empty());
    CHECK(back->result == "*");
}
