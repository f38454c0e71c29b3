// Test support for the reconstructor tests: feeding event streams, summarising the output,
// and reading the games of data/games (rules/pgn.hpp PgnReader).
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "rules/handling.hpp"
#include "rules/notation.hpp"
#include "rules/pgn.hpp"
#include "rules/reconstruction.hpp"

namespace eboard::test {

/// Everything a reconstructor said, with the game as it stands (made moves by ply, takebacks
/// applied) and the completed plies.
struct Run {
    explicit Run(ReconConfig cfg = {}) : rec(std::move(cfg)) {}
    Reconstructor rec;
    std::vector<ReconEvent> all;
    std::vector<std::string> made;       ///< uci of the game's moves by ply-1
    std::vector<int> completed;          ///< completed plies in order
    std::vector<AlertEvent> alerts;      ///< raised alerts (not the "cleared" ones)
    std::vector<TouchEvent> touches;
    std::vector<ResultEvent> results;
    std::vector<TakebackEvent> takebacks;
    int games_started = 0;
    int replaced = 0;

    void take(const std::vector<ReconEvent>& evs) {
        for (const ReconEvent& e : evs) {
            all.push_back(e);
            if (const auto* m = std::get_if<MoveEvent>(&e)) {
                if (m->completed == Completion::None) {
                    made.resize(static_cast<std::size_t>(m->ply));
                    made.back() = m->uci;
                    if (m->replaces) ++replaced;
                } else {
                    completed.push_back(m->ply);
                }
            } else if (const auto* a = std::get_if<AlertEvent>(&e)) {
                if (!a->cleared) alerts.push_back(*a);
            } else if (const auto* t = std::get_if<TouchEvent>(&e)) {
                touches.push_back(*t);
            } else if (const auto* r = std::get_if<ResultEvent>(&e)) {
                results.push_back(*r);
            } else if (const auto* tb = std::get_if<TakebackEvent>(&e)) {
                takebacks.push_back(*tb);
                made.resize(static_cast<std::size_t>(tb->ply));
            } else if (const auto* g = std::get_if<GameEvent>(&e)) {
                if (g->kind == GameEvent::Kind::Start) {
                    ++games_started;
                    made.clear();
                    completed.clear();
                }
            }
        }
    }
    void feed(const std::vector<SensorEvent>& evs) {
        for (const SensorEvent& e : evs) take(rec.feed(e));
    }
    void feed(BoardHands& h) { feed(h.take_events()); }

    /// Alerts of one kind.
    [[nodiscard]] int count(AlertKind k) const {
        int n = 0;
        for (const AlertEvent& a : alerts) n += a.kind == k ? 1 : 0;
        return n;
    }
    /// Alerts about irregularities (everything but draw_claimable and dead_position, which
    /// real games legitimately produce).
    [[nodiscard]] int irregularities() const {
        return count(AlertKind::IllegalMove) + count(AlertKind::TouchMove) +
               count(AlertKind::PositionMismatch) + count(AlertKind::Flag);
    }
    [[nodiscard]] std::string alert_list() const {
        std::string s;
        for (const AlertEvent& a : alerts)
            s += std::string(to_string(a.kind)) + " " + a.article + " ply " +
                 std::to_string(a.ply.value_or(0)) + ": " + a.text + "\n";
        return s;
    }
};

/// One game of a PGN file: the start position and the moves.
struct PgnGame {
    std::string fen;  ///< empty = standard start
    bool chess960 = false;
    std::vector<Move> moves;
    [[nodiscard]] Position start() const {
        if (fen.empty()) return Position::startpos();
        return std::move(Position::from_fen(fen, chess960).value());
    }
    /// The Scharnagl number when the start is a Chess960 start array, else -1.
    [[nodiscard]] int chess960_number() const {
        if (!chess960) return -1;
        std::string f = start().fen();
        for (int n = 0; n < 960; ++n)
            if (Position::chess960_start(n).fen() == f) return n;
        return -1;
    }
};

/// Every readable game of a PGN file (rules/pgn.hpp PgnReader); games the reader rejects are
/// counted in `*unreadable` when given.
inline std::vector<PgnGame> read_pgn_file(const std::string& path, int* unreadable = nullptr) {
    std::ifstream in(path);
    PgnReader reader(in);
    std::vector<PgnGame> games;
    while (auto g = reader.next()) {
        if (!*g || !(*g)->start_position()) {
            if (unreadable) ++*unreadable;
            continue;
        }
        PgnGame game;
        game.fen = (*g)->start_fen;
        game.chess960 = (*g)->chess960;
        for (const GameMove& m : (*g)->moves) {
            if (m.move.is_none()) break;  // a null move: the game as played ends before it
            game.moves.push_back(m.move);
        }
        if (!game.moves.empty()) games.push_back(std::move(game));
    }
    return games;
}

inline std::vector<std::string> uci_list(const Position& start, const std::vector<Move>& moves) {
    Position p = start.copy();
    std::vector<std::string> out;
    for (Move m : moves) {
        out.push_back(to_uci(p, m));
        p.make_move(m);
    }
    return out;
}

/// Moves from UCI text ("e2e4 e7e5 ...") played from `start`.
inline std::vector<Move> moves_from_uci(const Position& start, const std::string& text) {
    Position p = start.copy();
    std::vector<Move> out;
    std::istringstream in(text);
    std::string u;
    while (in >> u) {
        Move m = move_from_uci(p, u);
        if (m.is_none()) break;
        out.push_back(m);
        p.make_move(m);
    }
    return out;
}

inline Square sq(const char* name) { return Square::parse(name); }

/// Handling without variety: no slides, bounces, adjusting or varied orders.
inline HandlingOptions plain_hands(bool identity) {
    HandlingOptions o;
    o.identity = identity;
    o.vary_orders = o.slides = o.bounce = o.jadoube = false;
    return o;
}

/// Starts the game of `r` at `fen` (an arbiter's position) and sets it up with `h`.
inline void start_at(Run& r, BoardHands& h, const char* fen, bool chess960 = false) {
    Position p = std::move(Position::from_fen(fen, chess960).value());
    r.take(r.rec.start_game(p, h.now()));
    h.setup(p);
    h.wait(400);
    r.feed(h);
}

/// A reconstructor and a pair of plain hands over one board.
struct Board {
    Run r;
    BoardHands h;
    explicit Board(ReconConfig cfg = {}, bool identity = false)
        : r(std::move(cfg)), h(plain_hands(identity)) {}
    /// Sets up the standard start position, or `fen` as an arbiter's start.
    void start(const char* fen = nullptr) {
        Position p = fen ? std::move(Position::from_fen(fen).value()) : Position::startpos();
        if (fen) r.take(r.rec.start_game(p, h.now()));
        h.setup(p);
        h.wait(400);
        r.feed(h);
    }
    /// The piece on `from` to `to`, then (if `press`) the clock pressed by `c`.
    void move(const char* from, const char* to, Color c, bool press = true) {
        h.shift(sq(from), sq(to), 200);
        h.wait(100);
        if (press) finish(c);
        else r.feed(h);
    }
    /// The clock pressed by `c`.
    void finish(Color c) {
        h.wait(100);
        h.press(c);
        h.wait(100);
        r.feed(h);
    }
};

} // namespace eboard::test
