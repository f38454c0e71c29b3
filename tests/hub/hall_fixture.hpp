// The contract's messages of the tournament hall (interfaces.md, "The tournament hall"), made from
// real games as eboardd publishes them: topic `eboard/v1/<host>/<board>/<class>`, payload the
// event's JSON (daemon/events.hpp to_json, as on --events) plus `host`.
#pragma once

#include "daemon/events.hpp"
#include "rules/pgn.hpp"
#include "rules/position.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hubtest {

struct Msg {
    std::string topic;
    std::string payload;
};

inline std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// The message eboardd publishes for `e` on `host`.
inline Msg message(const std::string& host, const eboard::daemon::Event& e) {
    auto j = eboard::daemon::to_json(e);
    j["host"] = host;
    return {"eboard/v1/" + host + "/" + eboard::daemon::event_board(e) + "/" + lower(eboard::daemon::event_class(e)),
            j.dump()};
}

/// The first game of a PGN file of the repository's data/games.
inline eboard::GameRecord real_game(const std::string& file) {
    std::ifstream in(std::string(EBOARD_REPO_DATA) + "/games/" + file);
    std::stringstream s;
    s << in.rdbuf();
    auto g = eboard::read_pgn_game(s.str());
    REQUIRE(g);
    return *g;
}

/// A move of a game: SAN, UCI, FEN after it, the clock after it.
struct Ply {
    int ply = 0;
    std::string san, uci, fen;
    eboard::MoveClock clock{};
};

/// The first `plies` moves of `record` (all with -1) with clock readings that go down.
inline std::vector<Ply> plies_of(const eboard::GameRecord& record, int plies = -1) {
    std::vector<Ply> out;
    auto pos = record.start_position().value();
    std::int64_t white = 5400000, black = 5400000;
    for (const auto& gm : record.moves) {
        if (plies >= 0 && static_cast<int>(out.size()) >= plies) break;
        Ply p;
        p.ply = static_cast<int>(out.size()) + 1;
        p.san = gm.san;
        p.uci = eboard::to_uci(pos, gm.move);
        (pos.side_to_move() == eboard::Color::White ? white : black) -= 7000 + 1000 * (p.ply % 5);
        pos.make_move(gm.move);
        p.fen = pos.fen();
        p.clock = eboard::MoveClock{white, black};
        out.push_back(std::move(p));
    }
    return out;
}

/// MOVE made then MOVE completed of `p`.
inline std::vector<Msg> move_messages(const std::string& host, const std::string& board, const std::string& game,
                                      const Ply& p) {
    using eboard::daemon::MoveEvent;
    return {message(host, MoveEvent::of(board, game, p.ply, p.san, p.uci, p.fen, false, std::nullopt)),
            message(host, MoveEvent::of(board, game, p.ply, p.san, p.uci, p.fen, true, p.clock))};
}

/// GAME start of a standard game.
inline Msg game_start(const std::string& host, const std::string& board, const std::string& game) {
    using eboard::daemon::GameEvent;
    return message(host, GameEvent::of(board, game, GameEvent::Kind::Start, eboard::Position::startpos().fen()));
}

/// RESULT `result` with `termination`.
inline Msg result(const std::string& host, const std::string& board, const std::string& game, const std::string& r,
                  const std::string& termination, bool confirmed) {
    eboard::daemon::ResultEvent e;
    e.board = board;
    e.game = game;
    e.result = r;
    e.termination = termination;
    e.confirmed = confirmed;
    return message(host, e);
}

/// Every message of a game: start, each move made and completed, and (when `r` is not empty)
/// the result confirmed and the end.
inline std::vector<Msg> game_messages(const std::string& host, const std::string& board, const std::string& game,
                                      const std::vector<Ply>& plies, const std::string& r = "") {
    std::vector<Msg> out{game_start(host, board, game)};
    for (const auto& p : plies)
        for (auto& m : move_messages(host, board, game, p)) out.push_back(std::move(m));
    if (!r.empty()) {
        out.push_back(result(host, board, game, r, "resignation", true));
        using eboard::daemon::GameEvent;
        out.push_back(message(host, GameEvent::of(board, game, GameEvent::Kind::End, plies.empty() ? "" : plies.back().fen)));
    }
    return out;
}

/// The SAN moves and `[%clk]` readings (ms) of the main lines of every record in `pgn`, joined.
struct Line {
    std::vector<std::string> san;
    std::vector<std::int64_t> clk;
    std::string result;
};
inline std::vector<Line> lines_of(const std::string& pgn) {
    std::vector<Line> out;
    eboard::PgnReader reader(pgn);
    while (auto g = reader.next()) {
        REQUIRE(*g);
        Line l;
        for (const auto& m : (*g)->moves) {
            l.san.push_back(m.san);
            l.clk.push_back(m.clock_ms.value_or(-1));
        }
        l.result = (*g)->result;
        out.push_back(std::move(l));
    }
    return out;
}

} // namespace hubtest
