// eboard-perft's counts (the rules core) against Debian's stockfish `go perft` on positions
// reached by random legal moves from the reference files: every move's subtree must agree.
// Skipped, with the reason printed, when stockfish is not installed.
#include <catch2/catch.hpp>

#include <iostream>

#include "bench/uci_engine.hpp"
#include "perft_files.hpp"
#include "rules/position.hpp"

using namespace eboard;

TEST_CASE("perft divide agrees with stockfish on random positions from the perft files") {
    const std::string path = bench::find_stockfish();
    if (path.empty()) {
        WARN("stockfish not installed: cross-check skipped (apt-get install stockfish)");
        return;
    }
    auto sf = bench::UciEngine::start(path);
    REQUIRE(sf.has_value());
    REQUIRE(sf->send("uci"));
    REQUIRE(sf->wait_for("uciok").has_value());

    std::uint64_t seed = 0x243F6A8885A308D3ULL; // fixed: the same positions every run
    const auto next = [&seed](std::uint64_t n) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return (seed >> 33) % n;
    };
    int compared = 0;
    for (const auto& file : test::kPerftFiles) {
        const auto cases = test::perft_file(file.name);
        for (int k = 0; k < 6; ++k) {
            const auto& c = cases[next(cases.size())];
            auto loaded = test::load_reference_position(c.fen, file.chess960);
            REQUIRE(loaded.has_value());
            Position p = std::move(loaded).value();
            const int plies = static_cast<int>(next(12));
            for (int i = 0; i < plies; ++i) {
                const MoveList moves = p.legal_moves();
                if (moves.empty()) break;
                p.make_move(moves[next(moves.size())]);
            }
            const std::string fen = p.fen();
            INFO(file.name << ":" << c.line << " after " << plies << " plies: " << fen);
            const auto theirs = sf->perft(fen, 3, p.chess960());
            REQUIRE(theirs.ok);
            std::uint64_t ours_total = 0;
            std::size_t moves_seen = 0;
            for (const Move m : p.legal_moves()) {
                const std::string uci = to_uci(p, m);
                p.make_move(m);
                const std::uint64_t n = perft(p, 2);
                p.unmake_move();
                ours_total += n;
                ++moves_seen;
                bool found = false;
                for (const auto& [sf_uci, sf_n] : theirs.divide)
                    if (sf_uci == uci) {
                        found = true;
                        INFO("move " << uci);
                        CHECK(sf_n == n);
                    }
                CHECK(found);
            }
            CHECK(moves_seen == theirs.divide.size());
            CHECK(ours_total == theirs.nodes);
            ++compared;
        }
    }
    CHECK(compared == 30);
}
