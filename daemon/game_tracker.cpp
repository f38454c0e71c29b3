#include "daemon/game_tracker.hpp"

#include "rules/notation.hpp"

namespace eboard::daemon {

namespace {

// Standard chess first; a castling field only Chess960 explains reads as Chess960.
Expected<Position> read_fen(const std::string& fen, bool chess960_hint = false) {
    if (chess960_hint) {
        if (auto c960 = Position::from_fen(fen, true)) return c960;
    }
    auto standard = Position::from_fen(fen, false);
    if (standard) return standard;
    auto c960 = Position::from_fen(fen, true);
    if (c960) return c960;
    return standard.error();
}

} // namespace

GameTracker::GameTracker(Position pos, std::string board, std::string game, std::string start_fen)
    : pos_(std::move(pos)), board_(std::move(board)), game_(std::move(game)),
      start_fen_(std::move(start_fen)), first_to_move_(pos_.side_to_move()) {}

Expected<GameTracker> GameTracker::start(const std::string& board, const std::string& game,
                                         const std::string& fen) {
    auto pos = read_fen(fen);
    if (!pos) return Error{"bad position: " + pos.error().message};
    std::string normal = pos->fen();
    return GameTracker(std::move(*pos), board, game, std::move(normal));
}

Expected<GameTracker> GameTracker::resume(const StoredGame& record) {
    auto t = start(record.board, record.id, record.start_fen);
    if (!t) return t.error();
    for (const auto& m : record.moves) {
        if (m.illegal_stands) {
            auto stood = read_fen(m.fen, t->pos_.chess960());
            if (!stood) return Error{"game " + record.id + ": ply " + std::to_string(m.ply) + ": " + stood.error().message};
            t->pos_ = stood->copy();
            t->rows_.push_back(Row{m.san, m.uci, m.fen, std::move(*stood), true});
            continue;
        }
        const Move move = move_from_uci(t->pos_, m.uci);
        if (move.is_none())
            return Error{"game " + record.id + ": ply " + std::to_string(m.ply) + " (" + m.uci +
                         ") does not replay"};
        t->pos_.make_move(move);
        t->rows_.push_back(Row{m.san, m.uci, m.fen, std::nullopt, m.completed});
    }
    return t;
}

Expected<bool> GameTracker::rebuild(int ply) {
    auto pos = read_fen(start_fen_, pos_.chess960());
    if (!pos) return pos.error();
    for (int i = 0; i < ply; ++i) {
        const Row& r = rows_[static_cast<std::size_t>(i)];
        if (r.stood) {
            *pos = r.stood->copy();
            continue;
        }
        const Move m = move_from_uci(*pos, r.uci);
        if (m.is_none()) return Error{"ply " + std::to_string(i + 1) + " (" + r.uci + ") does not replay"};
        pos->make_move(m);
    }
    pos_ = std::move(*pos);
    rows_.resize(static_cast<std::size_t>(ply));
    return true;
}

Expected<bool> GameTracker::take_back(int ply) {
    const int n = plies();
    if (ply < 0 || ply > n)
        return Error{"cannot take back to ply " + std::to_string(ply) + ": the game has " +
                     std::to_string(n) + " plies"};
    // make_move remembers its moves, unless an illegal move that stood reset the position.
    bool plain = true;
    for (int i = ply; i < n; ++i) plain = plain && !rows_[static_cast<std::size_t>(i)].stood;
    if (!plain || pos_.history_size() < static_cast<std::size_t>(n - ply)) return rebuild(ply);
    while (plies() > ply) {
        pos_.unmake_move();
        rows_.pop_back();
    }
    return true;
}

std::string GameTracker::fen_after(int ply) const {
    if (ply < 0 || ply > plies()) return {};
    return ply == 0 ? start_fen_ : rows_[static_cast<std::size_t>(ply - 1)].fen;
}

Expected<MoveEvent> GameTracker::play(int ply, Move move, bool completed,
                                      std::optional<MoveClock> clock) {
    if (ply < 1 || ply > plies() + 1)
        return Error{"ply " + std::to_string(ply) + " does not follow ply " + std::to_string(plies())};
    if (ply <= plies()) {
        auto back = take_back(ply - 1);
        if (!back) return back.error();
    }
    if (!pos_.is_legal(move)) return Error{"not a legal move in " + pos_.fen()};
    MoveEvent e;
    e.board = board_;
    e.game = game_;
    e.ply = ply;
    e.san = to_san(pos_, move);
    e.uci = to_uci(pos_, move);
    pos_.make_move(move);
    e.fen = pos_.fen();
    e.completed = completed;
    e.clock = clock;
    rows_.push_back(Row{e.san, e.uci, e.fen, std::nullopt, completed});
    return e;
}

Expected<MoveEvent> GameTracker::complete(int ply, std::optional<MoveClock> clock) {
    if (ply != plies() || ply == 0)
        return Error{"ply " + std::to_string(ply) + " is not the last move made"};
    Row& r = rows_.back();
    if (r.stood) return Error{"ply " + std::to_string(ply) + " is an illegal move that stood"};
    r.completed = true;
    MoveEvent e;
    e.board = board_;
    e.game = game_;
    e.ply = ply;
    e.san = r.san;
    e.uci = r.uci;
    e.fen = r.fen;
    e.completed = true;
    e.clock = clock;
    return e;
}

Expected<RecordedMove> GameTracker::illegal_stands(int ply, Square from, Square to,
                                                   const std::string& fen) {
    if (ply < 1 || ply > plies() + 1)
        return Error{"ply " + std::to_string(ply) + " does not follow ply " + std::to_string(plies())};
    if (ply <= plies()) {
        auto back = take_back(ply - 1);
        if (!back) return back.error();
    }
    auto stood = read_fen(fen, pos_.chess960());
    if (!stood) return Error{"the position after the illegal move: " + stood.error().message};
    RecordedMove m;
    m.ply = ply;
    m.san = from.name() + "-" + to.name();
    m.uci = from.name() + to.name();
    m.fen = stood->fen();
    m.completed = true;
    m.illegal_stands = true;
    pos_ = stood->copy();
    rows_.push_back(Row{m.san, m.uci, m.fen, std::move(*stood), true});
    return m;
}

} // namespace eboard::daemon
