#include "daemon/board_session.hpp"

#include "daemon/log.hpp"

namespace eboard::daemon {

namespace {

// FEN without the move counters (fields 1-4), to recognise a position of the game.
std::string fen_core(const std::string& fen) {
    std::size_t pos = 0;
    for (int field = 0; field < 4 && pos != std::string::npos; ++field) {
        pos = fen.find(' ', pos);
        if (pos != std::string::npos && field < 3) ++pos;
    }
    return pos == std::string::npos ? fen : fen.substr(0, pos);
}

} // namespace

BoardSession::BoardSession(BoardConfig board, const Config& global, Recorder& recorder)
    : board_(std::move(board)), global_(&global), recorder_(recorder) {}

void BoardSession::reconfigure(BoardConfig board, const Config& global) {
    board_ = std::move(board);
    global_ = &global;
}

std::string BoardSession::driver() const { return board_.uri.substr(0, board_.uri.find(':')); }

void BoardSession::set_connected(bool connected, std::int64_t now_ms) {
    if (connected == connected_) return;
    connected_ = connected;
    publish(BoardEvent{board_.name, connected, driver()}, now_ms);
    if (!connected && game_) {
        AlertEvent a;
        a.board = board_.name;
        a.game = game_->game();
        a.kind = "board_disconnected";
        a.article = "";
        a.text = "the board " + board_.name + " is disconnected; the game resumes when it is back";
        publish(a, now_ms);
    }
}

PgnTags BoardSession::tags() const {
    PgnTags t;
    t.event = board_.event.empty() ? global_->event : board_.event;
    t.site = board_.site.empty() ? global_->site : board_.site;
    t.round = board_.round;
    t.white = board_.white;
    t.black = board_.black;
    t.board = board_.name;
    t.time_control = board_time_control(*global_, board_);
    return t;
}

Expected<bool> BoardSession::resume(const std::string& game_id) {
    auto record = recorder_.store().load(game_id);
    if (!record) return record.error();
    auto tracker = GameTracker::resume(*record);
    if (!tracker) return tracker.error();
    game_.emplace(std::move(*tracker));
    log_info("board " + board_.name + ": resumed game " + game_id + " after ply " +
             std::to_string(game_->plies()));
    return true;
}

Expected<std::string> BoardSession::new_game(const std::string& fen, std::int64_t now_ms) {
    const std::string start = fen.empty() ? std::string(kStandardFen) : fen;
    auto check = GameTracker::start(board_.name, "", start);
    if (!check) return check.error();
    if (game_) {
        const std::string old = game_->game();
        publish(GameEvent{board_.name, old, false, game_->position().fen()}, now_ms);
        game_.reset();
    }
    auto id = recorder_.store().create_game(board_.name, check->start_fen(), tags(),
                                            board_rules(*global_, board_), now_ms);
    if (!id) return id.error();
    auto tracker = GameTracker::start(board_.name, *id, start);
    if (!tracker) return tracker.error();
    game_.emplace(std::move(*tracker));
    publish(GameEvent{board_.name, *id, true, game_->start_fen()}, now_ms);
    return *id;
}

Expected<bool> BoardSession::move(int ply, Move m, bool completed, std::optional<MoveClock> clock,
                                  std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto e = game_->play(ply, m, completed, clock);
    if (!e) return e.error();
    if (!publish(*e, now_ms)) return Error{"the store failed; move not recorded"};
    return true;
}

Expected<bool> BoardSession::complete(int ply, std::optional<MoveClock> clock, std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto e = game_->complete(ply, clock);
    if (!e) return e.error();
    if (!publish(*e, now_ms)) return Error{"the store failed; move not recorded"};
    return true;
}

Expected<bool> BoardSession::result(const std::string& res, const std::string& termination,
                                    bool confirmed, std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    publish(ResultEvent{board_.name, game_->game(), res, termination, confirmed}, now_ms);
    if (confirmed) {
        publish(GameEvent{board_.name, game_->game(), false, game_->position().fen()}, now_ms);
        game_.reset();
    }
    return true;
}

Expected<bool> BoardSession::take_back(int ply, std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto ok = game_->take_back(ply);
    if (!ok) return ok;
    auto stored = recorder_.store().take_back(game_->game(), ply);
    if (!stored) return stored;
    (void)recorder_.store().record_note(board_.name, game_->game(), "TAKEBACK",
                                        "{\"ply\":" + std::to_string(ply) + "}", now_ms);
    (void)recorder_.write_pgn(game_->game());
    return true;
}

Expected<bool> BoardSession::set_position(const std::string& fen, std::int64_t now_ms) {
    auto check = GameTracker::start(board_.name, "", fen);
    if (!check) return check.error();
    if (game_) {
        // One of the game's own positions: a restoration, so take the game back to it.
        auto record = recorder_.store().load(game_->game());
        if (record) {
            const std::string want = fen_core(check->start_fen());
            for (int ply = static_cast<int>(record->moves.size()); ply >= 0; --ply) {
                const std::string have = ply == 0 ? record->start_fen
                                                  : record->moves[static_cast<std::size_t>(ply - 1)].fen;
                if (fen_core(have) == want) return take_back(ply, now_ms);
            }
        }
    }
    auto id = new_game(fen, now_ms);
    if (!id) return id.error();
    return true;
}

void BoardSession::alert(AlertEvent a, std::int64_t now_ms) {
    a.board = board_.name;
    if (a.game.empty() && game_) a.game = game_->game();
    publish(a, now_ms);
}

ojson BoardSession::status_json() const {
    ojson j{{"board", board_.name},
            {"uri", board_.uri},
            {"driver", driver()},
            {"state", connected_ ? "connected" : "disconnected"}};
    if (game_) {
        j["game"] = game_->game();
        j["ply"] = game_->plies();
        j["fen"] = game_->position().fen();
    }
    return j;
}

} // namespace eboard::daemon
