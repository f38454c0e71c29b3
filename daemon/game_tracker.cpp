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

// The record's line: the Laws' game under the board's profile. Its automatic ends are the
// reconstruction's to find and announce (RESULT); the record only follows the moves, so it
// runs no dead-position test of its own.
Game record_line(const Profile& profile, Position start) {
    return Game(profile, std::move(start), {});
}

} // namespace

GameTracker::GameTracker(Game line, std::string board, std::string game, std::string start_fen)
    : line_(std::move(line)), board_(std::move(board)), game_(std::move(game)),
      start_fen_(std::move(start_fen)), first_to_move_(line_.side_to_move()) {}

Expected<GameTracker> GameTracker::start(const std::string& board, const std::string& game,
                                         const std::string& fen, const Profile& profile) {
    auto pos = read_fen(fen);
    if (!pos) return Error{"bad position: " + pos.error().message};
    std::string normal = pos->fen();
    return GameTracker(record_line(profile, std::move(*pos)), board, game, std::move(normal));
}

void GameTracker::push(Move m, bool completed) {
    const Position& before = position();
    Row row{to_san(before, m), to_uci(before, m), {}, completed};
    // A line that a rule ended (checkmate, 9.6) and the arbiter let go on follows the board.
    (void)line_.play_on(m);  // legal: the callers checked it
    rows_.push_back(std::move(row));
}

void GameTracker::push_stood(Position after, std::string san, std::string uci) {
    rows_.push_back(Row{std::move(san), std::move(uci), after.fen(), true});
    base_ = plies();
    line_ = record_line(line_.profile(), std::move(after));
}

Expected<GameTracker> GameTracker::resume(const StoredGame& record, const Profile& profile) {
    auto t = start(record.board, record.id, record.start_fen, profile);
    if (!t) return t.error();
    for (const auto& m : record.moves) {
        if (m.illegal_stands) {
            auto stood = read_fen(m.fen, t->position().chess960());
            if (!stood) return Error{"game " + record.id + ": ply " + std::to_string(m.ply) + ": " + stood.error().message};
            t->push_stood(std::move(*stood), m.san, m.uci);
            continue;
        }
        const Move move = move_from_uci(t->position(), m.uci);
        if (move.is_none())
            return Error{"game " + record.id + ": ply " + std::to_string(m.ply) + " (" + m.uci +
                         ") does not replay"};
        t->push(move, m.completed);
    }
    return t;
}

Expected<bool> GameTracker::rebuild(int ply) {
    auto pos = read_fen(start_fen_, position().chess960());
    if (!pos) return pos.error();
    std::vector<Row> rows = std::move(rows_);
    rows_.clear();
    base_ = 0;
    line_ = record_line(line_.profile(), std::move(*pos));
    for (int i = 0; i < ply; ++i) {
        Row& r = rows[static_cast<std::size_t>(i)];
        if (!r.stood_fen.empty()) {
            auto stood = read_fen(r.stood_fen, position().chess960());
            if (!stood) return Error{"ply " + std::to_string(i + 1) + ": " + stood.error().message};
            push_stood(std::move(*stood), std::move(r.san), std::move(r.uci));
            continue;
        }
        const Move m = move_from_uci(position(), r.uci);
        if (m.is_none()) return Error{"ply " + std::to_string(i + 1) + " (" + r.uci + ") does not replay"};
        push(m, r.completed);
    }
    return true;
}

Expected<bool> GameTracker::take_back(int ply) {
    const int n = plies();
    if (ply < 0 || ply > n)
        return Error{"cannot take back to ply " + std::to_string(ply) + ": the game has " +
                     std::to_string(n) + " plies"};
    // The line takes back its own moves; before its start (an illegal move that stood) the
    // game is replayed from its start position.
    if (ply < base_) return rebuild(ply);
    (void)line_.take_back_to(ply - base_);
    rows_.resize(static_cast<std::size_t>(ply));
    return true;
}

std::string GameTracker::fen_after(int ply) const {
    if (ply < 0 || ply > plies()) return {};
    if (ply == 0) return start_fen_;
    if (ply >= base_) return line_.position_at(ply - base_).fen();
    // Before the line's start: a copy of the record replayed to that ply.
    GameTracker copy(record_line(line_.profile(), line_.start_position()), board_, game_, start_fen_);
    copy.rows_ = rows_;
    if (auto ok = copy.rebuild(ply); !ok) return {};
    return copy.position().fen();
}

std::vector<std::string> GameTracker::fens() const {
    std::vector<std::string> out(static_cast<std::size_t>(plies()) + 1);
    Position p = line_.position().copy();
    for (int ply = plies(); ply >= base_; --ply) {
        out[static_cast<std::size_t>(ply)] = p.fen();
        if (ply > base_) p.unmake_move();
    }
    for (int ply = 1; ply < base_; ++ply) out[static_cast<std::size_t>(ply)] = fen_after(ply); // before an A.5.2 line
    out[0] = start_fen_;
    return out;
}

Expected<MoveEvent> GameTracker::play(int ply, Move move, Completion how,
                                      std::optional<MoveClock> clock) {
    if (ply < 1 || ply > plies() + 1)
        return Error{"ply " + std::to_string(ply) + " does not follow ply " + std::to_string(plies())};
    if (ply <= plies()) {
        auto back = take_back(ply - 1);
        if (!back) return back.error();
    }
    if (!position().is_legal(move)) return Error{"not a legal move in " + position().fen()};
    push(move, how != Completion::None);
    MoveEvent e;
    e.board = board_;
    e.game = game_;
    e.ply = ply;
    e.move = move;
    e.san = rows_.back().san;
    e.uci = rows_.back().uci;
    e.fen = position().fen();
    e.completed = how;
    e.clock = clock;
    return e;
}

Expected<MoveEvent> GameTracker::complete(int ply, Completion how, std::optional<MoveClock> clock) {
    if (ply != plies() || ply == 0)
        return Error{"ply " + std::to_string(ply) + " is not the last move made"};
    Row& r = rows_.back();
    if (!r.stood_fen.empty()) return Error{"ply " + std::to_string(ply) + " is an illegal move that stood"};
    r.completed = true;
    MoveEvent e;
    e.board = board_;
    e.game = game_;
    e.ply = ply;
    e.move = line_.moves().back();
    e.san = r.san;
    e.uci = r.uci;
    e.fen = position().fen();
    e.completed = how == Completion::None ? Completion::Recorded : how;
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
    auto stood = read_fen(fen, position().chess960());
    if (!stood) return Error{"the position after the illegal move: " + stood.error().message};
    RecordedMove m;
    m.ply = ply;
    m.san = from.name() + "-" + to.name();
    m.uci = from.name() + to.name();
    m.fen = stood->fen();
    m.completed = true;
    m.illegal_stands = true;
    push_stood(std::move(*stood), m.san, m.uci);
    return m;
}

} // namespace eboard::daemon
