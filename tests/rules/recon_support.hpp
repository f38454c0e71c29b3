// Test support for the reconstructor tests: feeding event streams, summarising the output,
// and reading the games of ../shared/data/games (a small PGN movetext reader on top of
// rules/notation.hpp parse_move; rules/pgn.hpp will replace it once it is on main).
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "rules/handling.hpp"
#include "rules/notation.hpp"
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
                if (g->start) {
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
                 std::to_string(a.ply) + ": " + a.text + "\n";
        return s;
    }
};

/// One game of a PGN file: the start position and the moves.
struct PgnGame {
    std::string fen;  ///< empty = standard start
    bool chess960 = false;
    std::vector<std::string> san;
    [[nodiscard]] Position start() const {
        if (fen.empty()) return Position::startpos();
        auto p = Position::from_fen(fen, chess960);
        return p ? std::move(p.value()) : Position::startpos();
    }
    /// The moves as Move values; stops at the first unreadable one.
    [[nodiscard]] std::vector<Move> moves() const {
        Position p = start();
        std::vector<Move> out;
        for (const std::string& s : san) {
            auto m = parse_move(p, s);
            if (!m) break;
            out.push_back(*m);
            p.make_move(*m);
        }
        return out;
    }
};

/// Reads every game of a PGN file (tags FEN and Variant; comments, variations, NAGs skipped).
inline std::vector<PgnGame> read_pgn_file(const std::string& path) {
    std::ifstream in(path);
    std::vector<PgnGame> games;
    std::string line;
    PgnGame g;
    bool in_moves = false;
    int brace = 0, paren = 0;
    auto flush = [&] {
        if (!g.san.empty()) games.push_back(g);
        g = PgnGame{};
        in_moves = false;
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (brace == 0 && !line.empty() && line[0] == '[') {
            if (in_moves) flush();
            auto q1 = line.find('"'), q2 = line.rfind('"');
            std::string val = q1 != std::string::npos && q2 > q1 ? line.substr(q1 + 1, q2 - q1 - 1) : "";
            if (line.rfind("[FEN ", 0) == 0) g.fen = val;
            if (line.rfind("[Variant ", 0) == 0)
                g.chess960 = val.find("960") != std::string::npos ||
                             val.find("andom") != std::string::npos;
            continue;
        }
        std::string tok;
        auto emit = [&] {
            if (tok.empty()) return;
            std::string t = tok;
            tok.clear();
            if (t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") return;
            if (t[0] == '$') return;
            auto dot = t.find_last_of('.');
            if (dot != std::string::npos) t = t.substr(dot + 1);
            if (t.empty() || (t[0] >= '0' && t[0] <= '9' && t.find('-') == std::string::npos))
                return;
            in_moves = true;
            g.san.push_back(t);
        };
        for (char c : line) {
            if (c == '{') { emit(); ++brace; continue; }
            if (c == '}') { if (brace) --brace; continue; }
            if (brace) continue;
            if (c == ';') break;
            if (c == '(') { emit(); ++paren; continue; }
            if (c == ')') { if (paren) --paren; continue; }
            if (paren) continue;
            if (c == ' ' || c == '\t') emit();
            else tok += c;
        }
        emit();
    }
    flush();
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

} // namespace eboard::test
