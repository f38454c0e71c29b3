// Issue 4's done criterion for DGT: the driver decodes the emulator's output into the board the
// emulator holds after every move of every game in ../shared/data/games (the 438-game lichess
// sample and the Chess960 file included), both orientations. The board model and the real
// driver are wired byte for byte on simulated time (Loopback), so the whole collection takes
// seconds; dgt_emulator_test.cpp plays a subset over a pty with a real session.
#include "harness.hpp"
#include "pgn_moves.hpp"

#include "drivers/emu/board_emu.hpp"

#include <algorithm>
#include <filesystem>

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
    const std::vector<BoardState> boards = game_boards(g);
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

TEST_CASE("dgt emu: every move of every game in shared/data/games, both orientations") {
    std::vector<std::string> files;
    for (const auto& f : std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DATA) + "/games"))
        if (f.path().extension() == ".pgn") files.push_back(f.path().filename().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 8);
    std::size_t games = 0, moves = 0;
    for (const auto& name : files) {
        const auto all = read_pgn_games(std::string(EBOARD_SHARED_DATA) + "/games/" + name, 100000);
        REQUIRE_FALSE(all.empty());
        for (std::size_t i = 0; i < all.size(); ++i) {
            for (const bool rotated : {false, true}) {
                INFO(name << " game " << i + 1 << (rotated ? " rotated" : ""));
                REQUIRE(play_direct(all[i], rotated) == static_cast<int>(all[i].san.size()));
            }
            ++games;
            moves += all[i].san.size();
        }
    }
    CHECK(games == 475);
    WARN(games << " games, " << moves << " moves, both orientations");
}
