#include "daemon/game_tracker.hpp"

#include "rules/notation.hpp"

namespace eboard::daemon {

namespace {

// Standard chess first; a castling field only Chess960 explains reads as Chess960.
Expected<Position> read_fen(const std::string& fen) {
    auto standard = Position::from_fen(fen, false);
    if (standard) return standard;
    auto c960 = Position::from_fen(fen, true);
    if (c960) return c960;
    return standard.error();
}

} // namespace

GameTracker::GameTracker(Position pos, std::string board, std::string game, std::string start_fen)
    : pos_(std::move(pos)), board_(std::move(board)), game_(std::move(game)),
      start_fen_(std::move(start_fen)) {}

Expected<GameTracker> GameTracker::start(const std::string& board, const std::string& game,
                                         const std::string& fen) {
    auto pos = read_fen(fen);
    if (!pos) return Error{"bad position: " + pos.error().message};
    std::string normal = pos->fen();
    return GameTracker(std::move(*pos), board, game, std::move(normal));
}

Expected<GameTracker> GameTracker::resume(const GameRecord& record) {
    auto t = start(record.board, record.id, record.start_fen);
    if (!t) return t.error();
    for (const auto& m : record.moves) {
        const Move move = move_from_uci(t->pos_, m.uci);
        if (move.is_none())
            return Error{"game " + record.id + ": ply " + std::to_string(m.ply) + " (" + m.uci +
                         ") does not replay"};
        t->pos_.make_move(move);
        ++t->plies_;
    }
    (void)t->take_back(t->plies_); // sets the last move's SAN/UCI for complete()
    return t;
}

Expected<MoveEvent> GameTracker::play(int ply, Move move, bool completed,
                                      std::optional<MoveClock> clock) {
    if (ply < 1 || ply > plies_ + 1)
        return Error{"ply " + std::to_string(ply) + " does not follow ply " + std::to_string(plies_)};
    if (ply <= plies_) {
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
    ++plies_;
    e.fen = pos_.fen();
    e.completed = completed;
    e.clock = clock;
    last_san_ = e.san;
    last_uci_ = e.uci;
    return e;
}

Expected<MoveEvent> GameTracker::complete(int ply, std::optional<MoveClock> clock) {
    if (ply != plies_ || plies_ == 0)
        return Error{"ply " + std::to_string(ply) + " is not the last move made"};
    MoveEvent e;
    e.board = board_;
    e.game = game_;
    e.ply = ply;
    e.san = last_san_;
    e.uci = last_uci_;
    e.fen = pos_.fen();
    e.completed = true;
    e.clock = clock;
    return e;
}

Expected<bool> GameTracker::take_back(int ply) {
    if (ply < 0 || ply > plies_)
        return Error{"cannot take back to ply " + std::to_string(ply) + ": the game has " +
                     std::to_string(plies_) + " plies"};
    while (plies_ > ply) {
        pos_.unmake_move();
        --plies_;
    }
    // SAN/UCI of the move now last, for complete().
    last_san_.clear();
    last_uci_.clear();
    if (plies_ > 0) {
        const Move last = pos_.last_move();
        pos_.unmake_move();
        last_san_ = to_san(pos_, last);
        last_uci_ = to_uci(pos_, last);
        pos_.make_move(last);
    }
    return true;
}

std::optional<ResultEvent> GameTracker::result_by_rule() const {
    if (pos_.is_checkmate()) {
        const bool white_mated = pos_.side_to_move() == Color::White;
        return ResultEvent{board_, game_, white_mated ? "0-1" : "1-0", "checkmate", false};
    }
    if (pos_.is_stalemate()) return ResultEvent{board_, game_, "1/2-1/2", "stalemate", false};
    return std::nullopt;
}

} // namespace eboard::daemon
