// Issue 4's done criterion for DGT: the driver decodes the emulator's output into the board the
// emulator holds after every move of every game in data/games (the 438-game lichess
// sample and the Chess960 file included), both orientations. The board model and the real
// driver are wired byte for byte on simulated time (Loopback), so the whole collection takes
// seconds; dgt_emulator_test.cpp plays a subset over a pty with a real session.
#include "game_sweep.hpp"
#include "harness.hpp"

#include "drivers/emu/board_emu.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::dgt;

namespace {

/// The player's hands on the board model, at the link's simulated time.
struct Hands {
    emu::DgtBoardEmu& board;
    Loopback& link;
    void lift(Square s) { board.lift(s, link.now); }
    void place(Square s, Piece p) { board.place(s, p, link.now); }
};

/// Plays `g` on the board model standing `rotated`; after every move the driver's board must
/// be the emulator's. Returns the moves matched.
int play_direct(const PgnGame& g, bool rotated) {
    const std::vector<BoardReading> boards = game_boards(g);
    REQUIRE(boards.size() == g.san.size() + 1);
    emu::DgtEmulatorOptions eo;
    eo.position = boards.front();
    eo.rotated = rotated;
    emu::DgtBoardEmu board(eo);
    DgtOptions o;
    o.startup_delay_ms = 0;
    // Auto orientation needs a (Chess960) start position; a game set up from a middle-game FEN
    // is played with the orientation configured, as a user would.
    if (!g.fen.empty() && !g.chess960) o.orientation = rotated ? Orientation::Rotated : Orientation::Normal;
    DgtDriver driver(o);
    Loopback link(board, driver);
    REQUIRE(link.run_until([&] { return driver.ready() && driver.board() == boards.front(); }, 5000));
    CHECK(driver.rotated() == rotated);
    Hands hands{board, link};
    int matched = 0;
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << g.san[i - 1]);
        play_on_board(hands, boards[i - 1], boards[i]);
        REQUIRE(link.run_until([&] { return driver.board() == boards[i]; }, 1000));
        CHECK(board.position() == boards[i]);
        ++matched;
    }
    return matched;
}

} // namespace

TEST_CASE("dgt emu: every move of every game in data/games, both orientations") {
    const SweepCount swept = sweep_shared_games([](const PgnGame& g, bool rotated) {
        REQUIRE(play_direct(g, rotated) == static_cast<int>(g.san.size()));
    });
    CHECK(swept.games == 475);
    WARN(swept.games << " games, " << swept.moves << " moves, both orientations");
}
