// App. C / PGN 8.2.3: every move of every game in data/games read, played and printed
// again gives the same SAN.
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

struct Counts {
    int games = 0;
    int moves = 0;
};

/// Checks the moves of a line (and its variations): printed SAN equals the SAN written.
void check_line(const std::vector<GameMove>& moves, Counts& n) {
    for (const GameMove& mv : moves) {
        ++n.moves;
        INFO("move " << mv.written);
        if (mv.move.is_none()) { // a null move (ChessBase "Z0") is written "--"
            CHECK(mv.san == "--");
            continue;
        }
        CHECK(bare_san(mv.san) == bare_san(mv.written));
        // Where the source marks check or mate, the printed SAN marks the same.
        const char last = mv.written.empty() ? ' ' : mv.written.back();
        if (last == '+' || last == '#') CHECK(mv.san.back() == last);
        for (const Variation& v : mv.variations) check_line(v.moves, n);
    }
}

} // namespace

TEST_CASE("App. C SAN round trip on every move of every game in data/games") {
    const std::filesystem::path dir = std::filesystem::path(EBOARD_REPO_DATA) / "games";
    REQUIRE(std::filesystem::is_directory(dir));
    Counts total;
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".pgn") continue;
        ++files;
        const std::string text = slurp(entry.path());
        PgnReadOptions opts;
        opts.keep_variations = true;
        PgnReader reader(text, opts);
        Counts n;
        while (auto game = reader.next()) {
            INFO(entry.path().filename().string() << " game " << n.games + 1);
            if (!game->has_value()) {
                FAIL_CHECK(game->error().message << " at " << game->error().line << ":"
                                                 << game->error().column);
                continue;
            }
            ++n.games;
            check_line(game->value().moves, n);
        }
        CHECK(n.games > 0);
        total.games += n.games;
        total.moves += n.moves;
    }
    CHECK(files >= 8);
    CHECK(total.games >= 475);
    CHECK(total.moves >= 30000);
    WARN("SAN round trip: " << files << " files, " << total.games << " games, " << total.moves
                            << " moves");
}

TEST_CASE("Guidelines II Chess960 SAN round trip (cutechess fischerandom games)") {
    const std::string text =
        slurp(std::filesystem::path(EBOARD_REPO_DATA) / "games" / "cutechess-fischerrandom.pgn");
    PgnReader reader(text);
    int games = 0, castlings = 0;
    while (auto game = reader.next()) {
        REQUIRE(game->has_value());
        const GameRecord& g = game->value();
        CHECK(g.chess960);
        auto pos = g.start_position();
        REQUIRE(pos);
        CHECK(pos->chess960());
        for (const GameMove& mv : g.moves) {
            CHECK(bare_san(mv.san) == bare_san(mv.written));
            if (mv.move.is_castling()) ++castlings;
        }
        ++games;
    }
    CHECK(games == 4);
    CHECK(castlings > 0);
}
