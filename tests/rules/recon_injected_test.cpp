// A real game handled the human way with irregularities injected at chosen plies: every
// injected irregularity raises its alert exactly once, and the game still comes out exactly.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("injected irregularities in a real game each raise their alert once") {
    auto games = read_pgn_file(std::string(EBOARD_SHARED_DATA) + "/games/kasparov-deep-blue-1997.pgn");
    REQUIRE(!games.empty());
    const PgnGame& g = games[0];
    Position start = g.start();
    std::vector<Move> moves = g.moves();
    REQUIRE(moves.size() > 24);
    for (bool identity : {false, true}) {
        HandlingOptions o;
        o.seed = 7;
        o.identity = identity;
        ReconConfig cfg;
        cfg.mismatch_grace_ms = 3000;
        Run r(cfg);
        BoardHands h(o);
        h.setup(start);
        h.wait(500);
        Position p = start.copy();
        for (std::size_t i = 0; i < moves.size(); ++i) {
            Move m = moves[i];
            Color us = p.side_to_move();
            if (i == 4) {
                // 4.3.1: an own piece that can move is lifted and put back, another is moved.
                for (Move x : p.legal_moves()) {
                    if (x.from() == m.from()) continue;
                    Piece pc = p.piece_on(x.from());
                    h.lift(x.from());
                    h.wait(300);
                    h.place(x.from(), pc);
                    h.wait(300);
                    break;
                }
            }
            if (i == 9) {
                // 7.5.1: the piece to move goes to a square it cannot reach, the clock is
                // pressed, the position is restored, then the real move (same piece: 4.3 kept).
                Square bad = Square::none();
                for (int s = 0; s < 64 && !bad.valid(); ++s) {
                    bool reach = false;
                    for (Move x : p.legal_moves())
                        reach = reach || (x.from() == m.from() && x.to() == Square(s));
                    if (p.piece_on(Square(s)) == Piece::None && !reach) bad = Square(s);
                }
                h.shift(m.from(), bad, 200);
                h.wait(200);
                h.press(us);
                h.wait(1200);
                h.shift(bad, m.from(), 200);
                h.wait(400);
            }
            if (i == 19) {
                // 7.5.3: the clock pressed without a move.
                h.press(us);
                h.wait(1500);
            }
            HandlingOptions& ho = h.options();
            bool clock = ho.clock;
            if (i == 14) ho.clock = false;
            h.play(p, m);
            ho.clock = clock;
            if (i == 14) {
                // 7.4: a piece knocked onto an empty neighbour square before the press.
                for (int s = 0; s < 64; ++s) {
                    Square from(s);
                    if (h.on(from) == Piece::None) continue;
                    Square to = from.file() < 7 ? Square(s + 1) : Square(s - 1);
                    if (h.on(to) != Piece::None) continue;
                    h.shift(from, to, 100);
                    h.wait(4000);
                    h.shift(to, from, 100);
                    break;
                }
                h.wait(300);
                h.press(us);
            }
            p.make_move(m);
        }
        h.wait(1500);
        r.feed(h);
        INFO("identity " << identity << "\n" << r.alert_list());
        CHECK(r.made == uci_list(start, moves));
        CHECK(r.count(AlertKind::TouchMove) == 1);
        CHECK(r.count(AlertKind::IllegalMove) == 2);
        CHECK(r.count(AlertKind::PositionMismatch) == 1);
        CHECK(r.count(AlertKind::Flag) == 0);
    }
}
