// Replay of a real DGT session (data/dgt/record.txt, see its README) into move
// reconstruction: the recorded chunks go through the driver's own code path for bytes (the
// record parser of drivers/emu, the core Framer with the DGT FrameRule, board_from_codes), and
// each board dump (one per second while a game was played) is fed as a board snapshot to an
// identity-board reconstructor without a clock, as the daemon feeds a BoardSnapshot.
#include <catch2/catch.hpp>

#include "drivers/core/framer.hpp"
#include "drivers/dgt/protocol.hpp"
#include "drivers/emu/replay.hpp"
#include "tests/rules/recon_support.hpp"
#include "tests/support/test_io.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

/// The board dumps (message 0x86) the board sent, in order, as reconstructor input.
std::vector<BoardReading> board_dumps(const std::string& path) {
    auto log = drivers::emu::parse_record_log(slurp(path));
    REQUIRE(log.has_value());
    const drivers::dgt::FrameRule rule;
    drivers::Framer framer(rule, drivers::trace_channel("test"));
    std::vector<BoardReading> dumps;
    auto on_packet = [&](std::span<const std::uint8_t> p) {
        if (p[0] != drivers::dgt::msg::board_dump) return;
        std::span<const std::uint8_t, 64> codes(p.data() + 3, 64);
        BoardReading b = drivers::dgt::board_from_codes(codes, false);
        BoardReading r{};
        for (int s = 0; s < 64; ++s) {
            SquareReading x = b.at(Square(s));
            r[static_cast<std::size_t>(s)] = SquareReading{x.occupied, x.piece};
        }
        dumps.push_back(r);
    };
    for (const auto& exchange : log.value())
        for (const auto& chunk : exchange.chunks) framer.push(chunk, on_packet);
    CHECK(framer.stats().garbage_bytes == 0);
    return dumps;
}

} // namespace

TEST_CASE("DGT record.txt replays into its game: 1.a4 e5 2.Nf3 Nc6 3.d3 a5 4.c4 Qf6 ...") {
    auto dumps = board_dumps(std::string(EBOARD_REPO_DATA) + "/dgt/record.txt");
    REQUIRE(dumps.size() == 178);
    std::size_t distinct = 1;
    for (std::size_t k = 1; k < dumps.size(); ++k) distinct += dumps[k] == dumps[k - 1] ? 0u : 1u;
    CHECK(distinct == 56);

    ReconConfig cfg;
    cfg.clock = false;
    Run r(cfg);
    TimeMs t = 0;
    for (const BoardReading& d : dumps) {
        r.take(r.rec.feed(BoardSnapshot{t, d}));
        for (int k = 1; k < 10; ++k) r.take(r.rec.feed(Tick{t + 100 * k}));
        t += 1000;
    }
    REQUIRE(r.games_started == 1);
    INFO(r.alert_list());
    CHECK(r.alerts.empty());
    // The game, recorded as the daemon records it (PGN export format, rules/pgn.hpp).
    GameRecord rec;
    Position p = Position::startpos();
    for (const std::string& u : r.made) {
        Move m = move_from_uci(p, u);
        REQUIRE_FALSE(m.is_none());
        rec.moves.push_back(make_game_move(p, m));
        p.make_move(m);
    }
    REQUIRE(r.results.size() == 1);
    rec.result = r.results[0].result;
    std::string pgn = write_pgn(rec);
    INFO(pgn);
    // Intermediate states between polls (a capture's victim gone before the capturer lands,
    // queenside castling with the king put down first, recaptures over several polls) are
    // not moves: 36 plies, the last a black queen landing on c2 with mate.
    CHECK(pgn.find("1. a4 e5 2. Nf3 Nc6 3. d3 a5 4. c4 Qf6 5. Nc3 d6 6. Qd2 Be7 7. e4 Bg4") !=
          std::string::npos);
    CHECK(pgn.find("12. O-O-O b5") != std::string::npos);
    CHECK(pgn.find("18. bxc7 Qc2# 0-1") != std::string::npos);
    CHECK(r.results[0].termination == "checkmate");
    auto back = read_pgn_game(pgn);
    REQUIRE(back.has_value());
    CHECK(back->moves.size() == 36);
}
