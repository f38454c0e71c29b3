// A board that shows an earlier position of the game (issue 19): the board's word alone never
// deletes a completed move. An illegal move that recreates an earlier position is an illegal move
// (Art. 7.5.1), a board set back by hand is displaced pieces (7.4), both alerted with the earlier
// position they match; only the arbiter takes moves back (TAKEBACK, SET_POSITION), or the
// players their last move where the profile says so (game.players-take-back).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

/// The raised alerts of one kind.
std::vector<AlertEvent> alerts_of(const Run& r, AlertKind k) {
    std::vector<AlertEvent> out;
    for (const AlertEvent& a : r.alerts)
        if (a.kind == k) out.push_back(a);
    return out;
}

// The endgame of issue 19 (after ply 99 of a real tournament game): the white knight goes
// f3-h2-g4-f2 while the black king steps d6-d7 and back, so that after ply 7 (White to move)
// the illegal Nf2-f3 puts the start position of the test back on the board.
constexpr const char* kEndgame = "8/8/3k3p/2p3p1/2P5/3BKNPP/8/r7 b - - 28 50";
constexpr const char* kEndgameMoves[][2] = {{"d6", "d7"}, {"f3", "h2"}, {"d7", "d6"}, {"h2", "g4"},
                                            {"d6", "d7"}, {"g4", "f2"}, {"d7", "d6"}};

void play_endgame(Board& b) {
    b.start(kEndgame);
    for (int i = 0; i < 7; ++i)
        b.move(kEndgameMoves[i][0], kEndgameMoves[i][1], i % 2 ? Color::White : Color::Black);
    REQUIRE(b.r.made.size() == 7);
    REQUIRE(b.r.completed.back() == 7);
}

/// The illegal move from -> to by White, the clock pressed; returns the press time.
TimeMs illegal_press(Board& b, const char* from, const char* to) {
    b.h.shift(sq(from), sq(to), 200);
    b.h.wait(100);
    const TimeMs pressed = b.h.now();
    b.h.press(Color::White);
    b.h.wait(1500);
    b.r.feed(b.h);
    return pressed;
}

} // namespace

TEST_CASE("7.5.1 an illegal move that recreates an earlier position is an illegal move, never a takeback") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        // Another illegal move in the same position, for the latency it is alerted with.
        TimeMs control_latency = 0;
        {
            Board c({}, id);
            play_endgame(c);
            const TimeMs pressed = illegal_press(c, "f2", "f1");
            const auto ill = alerts_of(c.r, AlertKind::IllegalMove);
            REQUIRE(ill.size() == 1);
            CHECK_FALSE(ill[0].earlier_ply.has_value());
            control_latency = ill[0].t_ms - pressed;
        }
        Board b({}, id);
        play_endgame(b);
        const TimeMs pressed = illegal_press(b, "f2", "f3");
        CHECK(b.r.takebacks.empty());
        CHECK(b.r.made.size() == 7);
        CHECK(b.r.rec.plies_completed() == 7);
        const auto ill = alerts_of(b.r, AlertKind::IllegalMove);
        REQUIRE(ill.size() == 1);
        CHECK(ill[0].article == "7.5.1");
        CHECK(ill[0].player == Color::White);
        CHECK(ill[0].count == 1);
        CHECK(ill[0].squares == (bb(sq("f2")) | bb(sq("f3"))));
        CHECK(ill[0].earlier_ply == 0);
        CHECK(ill[0].earlier_fen == kEndgame);
        CHECK(ill[0].text.find("after ply 0") != std::string::npos);
        CHECK(ill[0].t_ms - pressed == control_latency);
        // The arbiter restores the position before the illegal move; the game goes on.
        b.h.shift(sq("f3"), sq("f2"), 200);
        b.h.wait(800);
        b.r.feed(b.h);
        b.move("f2", "g4", Color::White);
        CHECK(b.r.made.size() == 8);
        CHECK(b.r.made.back() == "f2g4");
        CHECK(b.r.completed.back() == 8);
        CHECK(b.r.takebacks.empty());
        CHECK(b.r.count(AlertKind::IllegalMove) == 1);
        CHECK(b.r.count(AlertKind::PositionMismatch) == 0);
    }
}

TEST_CASE("9.2 two fast moves that recreate an earlier position are moves, not a takeback") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        const char* moves[][2] = {{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}, {"g8", "f6"}};
        for (int i = 0; i < 4; ++i) b.move(moves[i][0], moves[i][1], i % 2 ? Color::Black : Color::White);
        // 3.Ng1 Ng8 seen in one board scan (a slow poll): the position after ply 2 again.
        Position again = Position::startpos();
        for (const char* u : {"e2e4", "e7e5"}) again.make_move(move_from_uci(again, u));
        b.h.setup(again);
        b.h.wait(800);
        b.r.feed(b.h);
        CHECK(b.r.takebacks.empty());
        CHECK(b.r.made == std::vector<std::string>{"e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"});
        CHECK(b.r.irregularities() == 0);
    }
}

TEST_CASE("4.7 a made move not completed that is put back is taken back: one ply, the last") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        Board b({}, id);
        b.start();
        b.move("e2", "e4", Color::White);
        b.move("e7", "e5", Color::Black, false);  // made, not completed
        b.h.wait(400);
        b.r.feed(b.h);
        REQUIRE(b.r.made.size() == 2);
        b.h.shift(sq("e5"), sq("e7"), 200);
        b.h.wait(800);
        b.r.feed(b.h);
        REQUIRE(b.r.takebacks.size() == 1);
        CHECK(b.r.takebacks[0].ply == 1);
        CHECK(b.r.made == std::vector<std::string>{"e2e4"});
        CHECK(b.r.irregularities() == 0);
    }
}

TEST_CASE("profile game.players-take-back: the players take back the last move by the board, one ply only") {
    for (bool id : {false, true}) {
        INFO("identity " << id);
        ReconConfig cfg;
        cfg.rules.players_take_back = true;
        Board b(cfg, id);
        b.start();
        const char* moves[][2] = {{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}, {"d7", "d6"}, {"f1", "c4"}};
        for (int i = 0; i < 5; ++i) b.move(moves[i][0], moves[i][1], i % 2 ? Color::Black : Color::White);
        // The last move, completed, set back: the players' takeback.
        b.h.shift(sq("c4"), sq("f1"), 200);
        b.h.wait(800);
        b.r.feed(b.h);
        REQUIRE(b.r.takebacks.size() == 1);
        CHECK(b.r.takebacks[0].ply == 4);
        CHECK(b.r.made.size() == 4);
        // Two more plies at once: not the last move; alerted, nothing deleted.
        b.h.shift(sq("d6"), sq("d7"), 200);
        b.h.wait(200);
        b.h.shift(sq("f3"), sq("g1"), 200);
        b.h.wait(6000);
        b.r.feed(b.h);
        CHECK(b.r.takebacks.size() == 1);
        CHECK(b.r.made.size() == 4);
        const auto mm = alerts_of(b.r, AlertKind::PositionMismatch);
        REQUIRE(mm.size() == 1);
        CHECK(mm[0].earlier_ply == 2);
    }
}

// Every illegal move of the games that recreates an earlier position of its game: one piece of
// the side to move put, against the rules, on the square where it stood in that earlier
// position, everything else as there. Repetitive endgames are where these come from.
namespace {

struct Recreation {
    const PgnGame* game;
    int ply;       ///< the illegal move is made after this many plies
    int earlier;   ///< the earlier ply whose position it recreates
    Square from, to;
};

std::vector<Recreation> recreations(const std::vector<PgnGame>& games) {
    std::vector<Recreation> out;
    for (const PgnGame& g : games) {
        Position p = g.start();
        std::vector<std::array<Piece, 64>> boards;
        auto snap = [&p] {
            std::array<Piece, 64> b{};
            for (int s = 0; s < 64; ++s) b[static_cast<std::size_t>(s)] = p.piece_on(Square(s));
            return b;
        };
        boards.push_back(snap());
        for (Move m : g.moves) {
            p.make_move(m);
            boards.push_back(snap());
        }
        Position q = g.start();
        for (int n = 1; n < static_cast<int>(boards.size()); ++n) {
            q.make_move(g.moves[static_cast<std::size_t>(n - 1)]);
            const auto& now = boards[static_cast<std::size_t>(n)];
            for (int k = n - 2; k >= 0; --k) {
                const auto& then = boards[static_cast<std::size_t>(k)];
                Square from = Square::none(), to = Square::none();
                int diffs = 0;
                for (int s = 0; s < 64 && diffs <= 2; ++s) {
                    const auto i = static_cast<std::size_t>(s);
                    if (now[i] == then[i]) continue;
                    ++diffs;
                    if (now[i] != Piece::None && then[i] == Piece::None) from = Square(s);
                    if (now[i] == Piece::None && then[i] != Piece::None) to = Square(s);
                }
                if (diffs != 2 || from == Square::none() || to == Square::none()) continue;
                if (now[static_cast<std::size_t>(from.index())] != then[static_cast<std::size_t>(to.index())])
                    continue;
                if (color_of(now[static_cast<std::size_t>(from.index())]) != q.side_to_move()) continue;
                bool legal = false;
                for (Move m : q.legal_moves()) legal = legal || (m.from() == from && m.to() == to);
                if (legal) continue;
                out.push_back(Recreation{&g, n, k, from, to});
                break;  // the latest earlier position is the one the board is matched with
            }
        }
    }
    return out;
}

} // namespace

TEST_CASE("7.5.1 every illegal move of the games that recreates an earlier position: alerted as any other, no completed move lost") {
    std::vector<PgnGame> games;
    for (const char* f : {"lichess-db-sample.pgn", "ushenina-girya-2013.pgn", "anastasian-lewis.pgn",
                          "carlsen-grischuk-linares.pgn", "nepomniachtchi-liren-game1.pgn"})
        for (PgnGame& g : read_pgn_file(std::string(EBOARD_REPO_DATA) + "/games/" + f))
            if (g.fen.empty()) games.push_back(std::move(g));
    const std::vector<Recreation> cases = recreations(games);
    INFO(cases.size() << " illegal moves that recreate an earlier position");
    REQUIRE(cases.size() >= 50);
    const TimeMs bound = ReconConfig{}.press_grace_ms + plain_hands(false).tick_ms;
    int checked = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Recreation& c = cases[i];
        const bool id = i % 2 == 1;
        INFO("case " << i << ": after ply " << c.ply << ", " << c.from.name() << "-" << c.to.name()
                     << " recreates ply " << c.earlier << ", identity " << id);
        Board b({}, id);
        b.start();
        Position p = Position::startpos();
        for (int k = 0; k < c.ply; ++k) {
            const Move m = c.game->moves[static_cast<std::size_t>(k)];
            b.h.play(p, m);
            p.make_move(m);
        }
        b.h.wait(400);
        b.r.feed(b.h);
        if (!b.r.rec.in_game() || b.r.made.size() != static_cast<std::size_t>(c.ply) ||
            b.r.rec.plies_completed() != c.ply)
            continue;  // the game ended on the way (a draw by the 9.6 rules): nothing to judge
        const auto before = b.r.alerts.size();
        const Color mover = p.side_to_move();
        b.h.shift(c.from, c.to, 200);
        b.h.wait(100);
        const TimeMs pressed = b.h.now();
        b.h.press(mover);
        b.h.wait(1500);
        b.r.feed(b.h);
        REQUIRE(b.r.takebacks.empty());
        REQUIRE(b.r.rec.plies_completed() == c.ply);
        REQUIRE(b.r.made.size() == static_cast<std::size_t>(c.ply));
        std::vector<AlertEvent> raised(b.r.alerts.begin() + static_cast<std::ptrdiff_t>(before), b.r.alerts.end());
        REQUIRE(raised.size() == 1);
        CHECK(raised[0].kind == AlertKind::IllegalMove);
        CHECK(raised[0].t_ms - pressed <= bound);
        CHECK(raised[0].earlier_ply >= c.earlier);
        // The arbiter restores the position; the game's next move is recorded.
        b.h.shift(c.to, c.from, 200);
        b.h.wait(800);
        b.r.feed(b.h);
        if (c.ply < static_cast<int>(c.game->moves.size())) {
            b.h.play(p, c.game->moves[static_cast<std::size_t>(c.ply)]);
            b.h.wait(1000);
            b.r.feed(b.h);
            if (b.r.rec.in_game()) {
                CHECK(b.r.made.size() == static_cast<std::size_t>(c.ply + 1));
                CHECK(b.r.rec.plies_completed() == c.ply + 1);
            }
        }
        CHECK(b.r.takebacks.empty());
        ++checked;
    }
    CHECK(checked * 10 >= static_cast<int>(cases.size()) * 9);
}

// Random hands over a board in a game (legal moves handled the human way, presses by either
// player, pieces put anywhere, the board set to an earlier position of the game, the game's
// position put back): the board's word never deletes a completed move, and a takeback on the
// board is one ply, the last.
TEST_CASE("7.4 property: no sequence of board readings without the arbiter shortens the game by more than one ply") {
    for (bool players_take_back : {false, true}) {
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            const bool id = seed % 2 == 0;
            INFO("seed " << seed << ", identity " << id << ", players-take-back " << players_take_back);
            ReconConfig cfg;
            cfg.rules.players_take_back = players_take_back;
            Run r(cfg);
            HandlingOptions o;
            o.seed = seed;
            o.identity = id;
            o.clock = false;
            BoardHands h(o);
            std::mt19937_64 rng(seed * 7919);
            auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
            h.setup(Position::startpos());
            h.wait(400);
            r.feed(h);
            std::vector<std::string> fens{Position::startpos().fen()};  // by ply, as the game stands
            int completed_max = 0;
            for (int step = 0; step < 60 && r.rec.in_game(); ++step) {
                const int made_before = r.rec.plies_made();
                const std::size_t events_before = r.all.size();
                const Position& game = r.rec.position();
                switch (pick(7)) {
                case 0:
                case 1: {  // a legal move, perhaps pressed; the game's position put back first
                    const MoveList ml = game.legal_moves();
                    if (ml.empty()) break;
                    const Position p = game.copy();
                    bool shows = true;
                    for (int s = 0; s < 64; ++s) shows = shows && h.on(Square(s)) == p.piece_on(Square(s));
                    if (!shows) {
                        h.setup(p.copy());
                        h.wait(400);
                    }
                    h.play(p, ml[static_cast<std::size_t>(pick(static_cast<int>(ml.size())))]);
                    h.wait(400);
                    if (pick(3) != 0) h.press(p.side_to_move());
                    break;
                }
                case 2:  // a press by either player
                    h.press(pick(2) ? Color::White : Color::Black);
                    break;
                case 3: {  // a piece put on an empty square
                    std::vector<Square> full, empty;
                    for (int s = 0; s < 64; ++s) (h.on(Square(s)) != Piece::None ? full : empty).push_back(Square(s));
                    if (full.empty() || empty.empty()) break;  // never with two kings on the board
                    h.shift(full[static_cast<std::size_t>(pick(static_cast<int>(full.size())))],
                            empty[static_cast<std::size_t>(pick(static_cast<int>(empty.size())))], 150);
                    break;
                }
                case 4:  // the board set to an earlier position of the game (not the start)
                    if (fens.size() > 2) {
                        const int k = 1 + pick(static_cast<int>(fens.size()) - 2);
                        h.setup(Position::from_fen(fens[static_cast<std::size_t>(k)]).value());
                    }
                    break;
                case 5:  // the game's position put back
                    h.setup(game.copy());
                    break;
                default:
                    break;
                }
                h.wait(TimeMs{200} + pick(6000));
                r.feed(h);
                for (std::size_t e = events_before; e < r.all.size(); ++e) {
                    if (const auto* g = std::get_if<GameEvent>(&r.all[e]); g && g->kind == GameEvent::Kind::Start) {
                        fens.assign(1, g->fen);
                        completed_max = 0;
                    } else if (const auto* m = std::get_if<MoveEvent>(&r.all[e])) {
                        if (m->completed == Completion::None) {
                            fens.resize(static_cast<std::size_t>(m->ply));
                            fens.push_back(m->fen);
                        } else {
                            completed_max = std::max(completed_max, m->ply);
                        }
                    } else if (const auto* tb = std::get_if<TakebackEvent>(&r.all[e])) {
                        INFO("takeback to ply " << tb->ply << " of " << made_before << " made");
                        CHECK(tb->ply == made_before - 1);
                        if (!players_take_back) CHECK(tb->ply >= completed_max);
                        completed_max = std::min(completed_max, tb->ply);
                        fens.resize(static_cast<std::size_t>(tb->ply) + 1);
                    }
                }
                REQUIRE(r.rec.plies_made() >= completed_max);
            }
        }
    }
}
