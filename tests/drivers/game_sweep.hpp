// Issue 4's done criterion for a board driver: every move of every game in
// data/games (the 438-game lichess sample and the Chess960 file included), in both
// orientations. The sweep is the same for every driver; what one game is played on differs.
#pragma once

#include "pgn_moves.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace eboard::drivers::test {

/// How much a sweep went through.
struct SweepCount {
    std::size_t games = 0;
    std::size_t moves = 0; ///< SAN moves of those games (each played in both orientations)
};

/// Calls `play(game, rotated)` for every game of every .pgn file of data/games
/// (files in name order, at least 8), standing normally then rotated, under an INFO naming the
/// file, the game's number (1-based) and the orientation for the assertions `play` makes.
inline SweepCount sweep_shared_games(const std::function<void(const PgnGame& game, bool rotated)>& play) {
    std::vector<std::string> files;
    for (const auto& f : std::filesystem::directory_iterator(std::string(EBOARD_REPO_DATA) + "/games"))
        if (f.path().extension() == ".pgn") files.push_back(f.path().filename().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 8);
    SweepCount count;
    for (const auto& name : files) {
        const auto all = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/" + name, 100000);
        REQUIRE_FALSE(all.empty());
        for (std::size_t i = 0; i < all.size(); ++i) {
            for (const bool rotated : {false, true}) {
                INFO(name << " game " << i + 1 << (rotated ? " rotated" : ""));
                play(all[i], rotated);
            }
            ++count.games;
            count.moves += all[i].san.size();
        }
    }
    return count;
}

} // namespace eboard::drivers::test
