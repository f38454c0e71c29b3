// `eboardctl trf PAIRINGS`: a store that eboardd's Store API wrote (games of two boards, one
// set up again without a move), served by eboardd, exported on the hall's pairings as TRF16 and
// read back: the same standings through standings/ and through eboard-standings as the
// hand-computed ones (tests/support/round_robin_trf.hpp). Usage errors: exit 2.
#include <catch2/catch.hpp>

#include "daemon/store.hpp"
#include "tests/daemon/harness.hpp"
#include "tests/support/round_robin_trf.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// A game of two moves on `board` with `result` (confirmed, ended); "" leaves it without a move
// and unfinished.
void store_game(daemon::Store& store, const std::string& board, const std::string& result, std::int64_t t) {
    auto id = store.create_game(board, kStart, {}, "fide-2023", t);
    REQUIRE(id);
    if (result.empty()) return;
    using daemon::MoveEvent;
    REQUIRE(store.record(MoveEvent::of(board, *id, 1, "e4", "e2e4",
                                       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", true, std::nullopt), t));
    REQUIRE(store.record(MoveEvent::of(board, *id, 2, "e5", "e7e5",
                                       "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", true, std::nullopt), t));
    daemon::ResultEvent r;
    r.board = board;
    r.game = *id;
    r.result = result;
    r.termination = "arbiter";
    r.confirmed = true;
    REQUIRE(store.record(r, t));
    REQUIRE(store.record(daemon::GameEvent::of(board, *id, daemon::GameEvent::Kind::End, ""), t));
}

} // namespace

TEST_CASE("eboardctl trf: the store's games on the pairings, as TRF16 that eboard-standings ranks") {
    TempDir dir("eboardctl-trf");
    {
        auto store = daemon::Store::open(dir.path / "state");
        REQUIRE(store);
        std::int64_t t = 1772704800000; // 2026-03-05
        for (const auto& g : rr::kGames) {
            const std::string board = g.board == 1 ? "t1" : "t2";
            if (&g == &rr::kGames[2]) store_game(**store, board, "", ++t); // set up again: not counted
            store_game(**store, board, g.result, ++t);
        }
    }
    const std::string pairings = (dir.path / "pairings.csv").string();
    std::ofstream(pairings) << rr::pairings("pi1/t1", "pi1/t2");
    const std::string socket = (dir.path / "s").string();
    ReadyDaemon eboardd(dir.path, config_args(dir.path, "", {"--socket", socket}));
    const std::string ctl = eboardctl_bin() + " --socket " + socket + " trf " + pairings;

    const CommandResult out = run_command(ctl + " --event 'Club RR' --start-date 2026/03/05");
    REQUIRE(out.status == 0);
    const auto file = standings::read_trf(out.out);
    REQUIRE(file);
    CHECK(file->header("012") == "Club RR");
    CHECK(file->header("042") == "2026/03/05");
    CHECK(file->header("XXR") == "3");
    rr::check_standings(out.out, (dir.path / "export.trf").string());

    // Usage errors: no file, a file that is not pairings, two hosts without --host.
    CHECK(run_command(eboardctl_bin() + " --socket " + socket + " trf 2>/dev/null").status == 2);
    CHECK(run_command(ctl + ".missing 2>/dev/null").status == 2);
    std::ofstream(pairings, std::ios::trunc) << rr::pairings("pi1/t1", "pi2/t2");
    const std::string err = (dir.path / "err").string();
    CHECK(run_command(ctl + " 2>" + err).status == 2);
    CHECK(slurp(err).find("more than one host") != std::string::npos);
    // --host names this eboardd's: pi2's board (round 1 board 2 and the later ones) has no game here.
    const CommandResult one = run_command(ctl + " --host pi1");
    REQUIRE(one.status == 0);
    const auto part = standings::read_trf(one.out);
    REQUIRE(part);
    CHECK(part->players.at(0).rounds.at(0) == standings::RoundEntry{2, 'w', '1'});
    // Bravo: board 2 is pi2's; the forfeit of round 3 needs no board.
    CHECK(part->players.at(2).rounds ==
          std::vector<standings::RoundEntry>{{}, {}, {2, 'w', '+'}});
}
