// Stored games shared by the tests of the PGN export and of the tools that read its output.
#pragma once

#include "daemon/stored_game.hpp"

namespace eboard::daemon::test {

/// A.5.2 (2023): 1. e4 e5, then White's illegal Ke1-e3 stands (Black did not claim it and
/// replied), then ...Nc6 and White Kd3 (not completed); 0-1 by resignation. White is "A".
inline StoredGame illegal_move_stood_game() {
    StoredGame g;
    g.tags.white = "A";
    g.result = "0-1";
    g.termination = "resignation";
    g.moves.push_back({1, "e4", "e2e4", "", true, MoveClock{60000, 60000}, {}, false});
    g.moves.push_back({2, "e5", "e7e5", "", true, MoveClock{60000, 59000}, {"illegal move by White"}, false});
    g.moves.push_back({3, "e1-e3", "e1e3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq - 0 2",
                       true, std::nullopt, {}, true});
    g.moves.push_back({4, "Nc6", "b8c6", "", true, MoveClock{50000, 58000}, {}, false});
    g.moves.push_back({5, "Kd3", "e3d3", "", false, std::nullopt, {}, false});
    return g;
}

} // namespace eboard::daemon::test
