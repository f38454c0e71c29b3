// Perft against the published counts of every position in data/perft/, each to the
// deepest listed depth whose count fits a node budget (all depths: bench_perft --all).
#include <catch2/catch.hpp>

#include "perft_files.hpp"
#include "rules/position.hpp"

using namespace eboard;

namespace {

/// Checks every listed depth of every position whose count is <= budget; returns the nodes
/// visited. Each position must have at least one such depth.
std::uint64_t check_file(const char* name, bool chess960, std::uint64_t budget) {
    std::uint64_t visited = 0;
    for (const auto& c : test::perft_file(name)) {
        INFO(name << ":" << c.line << " " << c.id << " " << c.fen);
        auto pos = test::load_reference_position(c.fen, chess960);
        REQUIRE(pos.has_value());
        const std::string before = pos->fen();
        int checked = 0;
        for (const auto& [depth, count] : c.counts) {
            if (count > budget) continue;
            INFO("depth " << depth);
            CHECK(perft(*pos, depth) == count);
            visited += count;
            ++checked;
        }
        CHECK(checked > 0);
        CHECK(pos->fen() == before); // make/unmake restored the position
    }
    return visited;
}

} // namespace

TEST_CASE("perft classic6: the six CPW positions, up to 5M nodes each") {
    CHECK(check_file("classic6.perft", false, 5'000'000) > 0);
}
TEST_CASE("perft perftsuite.epd, up to 5M nodes each") {
    CHECK(check_file("perftsuite.epd", false, 5'000'000) > 0);
}
TEST_CASE("perft tricky positions (promotions, en passant pins, castling through check)") {
    CHECK(check_file("tricky.perft", false, 5'000'000) > 0);
}
TEST_CASE("perft Chess960: all 960 positions, up to 500k nodes each (Guidelines II castling)") {
    CHECK(check_file("chess960.perft", true, 500'000) > 0);
}
TEST_CASE("perft random positions, up to 100k nodes each") {
    CHECK(check_file("random.perft", false, 100'000) > 0);
}

TEST_CASE("perft depth 0 is 1 and the start position has 20 moves") {
    Position p = Position::startpos();
    CHECK(perft(p, 0) == 1);
    CHECK(perft(p, 1) == 20);
    CHECK(perft(p, 3) == 8902);
}

TEST_CASE("Chess960 start positions: Scharnagl 518 is the standard array") {
    const Position p = Position::chess960_start(518);
    CHECK(p.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(p.chess960());
    CHECK(Position::chess960_start(0).fen() ==
          "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    CHECK(Position::chess960_start(959).fen() ==
          "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1");
    CHECK(Position::chess960_start(960 + 518).fen() == p.fen());
}
