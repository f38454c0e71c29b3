#include "daemon/board_session.hpp"

#include "daemon/log.hpp"
#include "daemon/rules_profile.hpp"
#include "daemon/winnability_worker.hpp"
#include "rules/result_check.hpp"

#include <algorithm>

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

const char* color_name(Color c) { return c == Color::White ? "white" : "black"; }

std::size_t index_of(Color c) { return c == Color::White ? 0 : 1; }

} // namespace

BoardSession::BoardSession(BoardConfig board, const Config& global, Recorder& recorder)
    : board_(std::move(board)), global_(&global), recorder_(recorder) {
    load_configured_rules();
}

void BoardSession::load_configured_rules() {
    rules_name_ = board_rules(*global_, board_);
    auto p = load_profile(rules_name_, global_->supervised);
    if (!p) {
        // Daemon::open refuses such a configuration; a SIGHUP reload keeps the old rules.
        log_error("board " + board_.name + ": " + p.error().message);
        if (!profile_) profile_ = std::make_shared<const Profile>(*builtin_profile("fide-2023", global_->supervised));
        return;
    }
    // Unchanged rules keep their object: the device link rebuilds its reconstruction only when
    // they change.
    if (!profile_ || !(*profile_ == *p)) profile_ = std::make_shared<const Profile>(std::move(*p));
    time_control_ = board_time_control(*global_, board_);
}

void BoardSession::reconfigure(BoardConfig board, const Config& global) {
    board_ = std::move(board);
    global_ = &global;
    if (!game_) load_configured_rules(); // a game in progress keeps its rules
}

std::string BoardSession::driver() const { return board_.uri.substr(0, board_.uri.find(':')); }

void BoardSession::set_connected(bool connected, std::int64_t now_ms) {
    if (connected == connected_) return;
    connected_ = connected;
    update_live([&](BoardLive& l) {
        if (connected) l.ever_connected = true;
        else l.battery.reset();
    });
    publish(BoardEvent{board_.name, connected, driver(), live_.battery}, now_ms);
    if (!connected && game_) {
        // Moves made while the board is away are not seen. When it is back, the position on
        // it is checked against the game: pieces found on other squares are the
        // irregularity of [23] 7.6 ([05] 7.5, [01] 7.4), hence that article.
        AlertEvent a;
        a.board = board_.name;
        a.game = game_->game();
        a.kind = AlertKind::BoardDisconnected;
        a.article = profile_->articles.wrong_squares;
        a.ply = game_->plies();
        a.text = "the board " + board_.name + " is disconnected after ply " + std::to_string(game_->plies()) +
                 "; the game resumes when it is back and its position is checked against the game";
        publish(a, now_ms);
    }
}

void BoardSession::set_battery(Battery battery, std::int64_t now_ms) {
    if (live_.battery == battery) return;
    update_live([&](BoardLive& l) { l.battery = battery; });
    if (connected_) publish(BoardEvent{board_.name, true, driver(), battery}, now_ms);
}

PgnTags BoardSession::tags() const {
    PgnTags t;
    t.event = board_.event.empty() ? global_->event : board_.event;
    t.site = board_.site.empty() ? global_->site : board_.site;
    t.round = board_.round;
    t.white = board_.white;
    t.black = board_.black;
    t.board = board_.name;
    t.time_control = time_control_;
    return t;
}

void BoardSession::adopt_game(GameTracker tracker) {
    game_.emplace(std::move(tracker));
    white_side_.clear();
    illegal_counts_ = {};
    illegal_plies_ = {};
    pending_.reset();
}

Expected<bool> BoardSession::resume(const std::string& game_id) {
    auto record = recorder_.store().load(game_id);
    if (!record) return record.error();
    auto p = load_profile(record->rules, global_->supervised);
    if (!p) return Error{"game " + game_id + ": rules " + p.error().message};
    auto tracker = GameTracker::resume(*record, *p);
    if (!tracker) return tracker.error();
    adopt_game(std::move(*tracker));
    if (!profile_ || !(*profile_ == *p)) profile_ = std::make_shared<const Profile>(std::move(*p));
    rules_name_ = record->rules;
    time_control_ = record->tags.time_control;
    white_side_ = record->white_side;
    // The illegal moves so far (the 7.5.5 ladder goes on) and one the arbiter has not
    // decided on yet.
    ojson last_move;
    for (const auto& line : recorder_.store().game_events(game_id)) {
        const ojson j = ojson::parse(line, nullptr, false);
        if (!j.is_object()) continue;
        if (j.value("class", "") == "MOVE") last_move = j.value("status", "") == "completed" ? j : ojson();
        // A PENALTY note; those written before it carried its class have only "decision".
        if (j.value("class", "") == "PENALTY" || (!j.contains("class") && j.contains("decision"))) {
            pending_.reset();
            continue;
        }
        if (j.value("class", "") != "ALERT" || j.value("kind", "") != "illegal_move") continue;
        const std::string player = j.value("player", "");
        if (player != "white" && player != "black") continue;
        const Color c = player == "white" ? Color::White : Color::Black;
        illegal_counts_[index_of(c)] = j.value("count", illegal_counts_[index_of(c)] + 1);
        illegal_plies_[index_of(c)] = j.value("ply", 0);
        pending_ = PendingIllegal{c, illegal_counts_[index_of(c)], j.value("penalty", "")};
    }
    log_info("board " + board_.name + ": resumed game " + game_id + " after ply " +
             std::to_string(game_->plies()));
    // The PGN is rewritten after the store's commit: a daemon killed in between left it a
    // move behind the store. Written again from the store (a no-op without --pgn-dir).
    (void)recorder_.write_pgn(game_id);
    // Every event is recorded before it is announced: a daemon killed between the two never
    // said the game's last completed move. It is said again, from the store; a client that had
    // it sees the same ply again, which replaces the line from that ply with itself
    // (docs/client-api.md "Notes on events"). Only while it is the game's last move (not taken
    // back since) and nothing was made after it. (A move made is not said again: the board
    // shows it, and its press or the next move completes it.)
    if (!last_move.is_null() && last_move.value("ply", 0) == game_->plies() &&
        last_move.value("fen", "") == game_->position().fen())
        if (auto e = event_from_json(last_move)) recorder_.announce(*e);
    return true;
}

void BoardSession::set_white_side(const std::string& side) {
    if (!game_ || side == white_side_) return;
    white_side_ = side;
    recorder_.submit([game = game_->game(), side](Store& store) { return store.set_white_side(game, side); });
}

Expected<std::string> BoardSession::new_game(const std::string& fen, std::int64_t now_ms) {
    const std::string start = fen.empty() ? std::string(kStandardFen) : fen;
    auto check = GameTracker::start(board_.name, "", start);
    if (!check) return check.error();
    if (game_) {
        const std::string old = game_->game();
        publish(GameEvent::of(board_.name, old, GameEvent::Kind::End, game_->position().fen()), now_ms);
        game_.reset();
    }
    load_configured_rules(); // SIGHUP changes apply from here
    auto id = recorder_.store().create_game(board_.name, check->start_fen(), tags(), rules_name_, now_ms);
    if (!id) return id.error();
    auto tracker = GameTracker::start(board_.name, *id, start, *profile_);
    if (!tracker) return tracker.error();
    adopt_game(std::move(*tracker));
    publish(GameEvent::of(board_.name, *id, GameEvent::Kind::Start, game_->start_fen()), now_ms);
    return *id;
}

Expected<bool> BoardSession::move(int ply, Move m, Completion how, std::optional<MoveClock> clock,
                                  std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto e = game_->play(ply, m, how, clock);
    if (!e) return e.error();
    publish(*e, now_ms);
    return true;
}

Expected<bool> BoardSession::complete(int ply, Completion how, std::optional<MoveClock> clock,
                                      std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto e = game_->complete(ply, how, clock);
    if (!e) return e.error();
    publish(*e, now_ms);
    return true;
}

Expected<bool> BoardSession::illegal_stands(int ply, Square from, Square to, const std::string& fen,
                                            std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto row = game_->illegal_stands(ply, from, to, fen);
    if (!row) return row.error();
    const std::string game = game_->game();
    recorder_.submit([board = board_.name, game, stood = *row, now_ms](Store& store) {
        return store.record_stands(board, game, stood, now_ms);
    }, game);
    pending_.reset(); // unclaimed: nothing left for the arbiter to decide
    log_notice("board " + board_.name + ": the illegal move " + row->san + " at ply " + std::to_string(ply) +
               " stands; the game continues from " + row->fen);
    return true;
}

Expected<std::string> BoardSession::check_result_command(const std::string& res,
                                                         const std::string& termination) const {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    // The request's vocabulary was checked by the command reader (commands.cpp).
    const std::optional<Result> r = result_from_pgn(res);
    const std::optional<Termination> t = termination_from_string(termination);
    if (!r || !t) return std::string();
    const Position& pos = game_->position();
    // Asked only where the answer decides (a resignation under 5.1.2): an undecided answer
    // lets the result pass, and the RESULT says so.
    bool undecided = false;
    const auto can_mate = [&undecided](const Position& p, Color side) {
        const Winnability w = can_checkmate_on_loop(p, side);
        undecided = w == Winnability::Undetermined;
        return w;
    };
    auto ok = eboard::check_result_command(*profile_, game_so_far(pos, game_->plies(), game_->first_to_move()), *r,
                                           *t, can_mate);
    if (!ok) return ok.error();
    return std::string(undecided ? "undecided" : "");
}

Expected<bool> BoardSession::result(const std::string& res, const std::string& termination,
                                    bool confirmed, std::int64_t now_ms, const std::string& winnability) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    ResultEvent r;
    r.board = board_.name;
    r.game = game_->game();
    r.result = res;
    r.termination = termination;
    r.confirmed = confirmed;
    r.winnability = winnability;
    publish(r, now_ms);
    if (confirmed) {
        publish(GameEvent::of(board_.name, game_->game(), GameEvent::Kind::End, game_->position().fen()),
                now_ms);
        game_.reset();
        pending_.reset();
    }
    return true;
}

Expected<bool> BoardSession::take_back(int ply, std::int64_t now_ms) {
    if (!game_) return Error{"board " + board_.name + " has no game in progress"};
    auto ok = game_->take_back(ply);
    if (!ok) return ok;
    // One transaction drops the later moves with the event (Store::record); the PGN is
    // rewritten and the clients learn that the line is shorter now.
    publish(GameEvent::of(board_.name, game_->game(), GameEvent::Kind::Takeback, game_->position().fen(), ply), now_ms);
    return true;
}

Expected<bool> BoardSession::set_position(const std::string& fen, std::int64_t now_ms) {
    auto check = GameTracker::start(board_.name, "", fen);
    if (!check) return check.error();
    if (game_) {
        // One of the game's own positions: a restoration, so take the game back to it.
        const std::string want = fen_core(check->start_fen());
        const auto fens = game_->fens();
        for (int ply = game_->plies(); ply >= 0; --ply)
            if (fen_core(fens[static_cast<std::size_t>(ply)]) == want) return take_back(ply, now_ms);
    }
    auto id = new_game(fen, now_ms);
    if (!id) return id.error();
    return true;
}

void BoardSession::alert(AlertEvent a, std::int64_t now_ms) {
    a.board = board_.name;
    if (a.game.empty() && game_) a.game = game_->game();
    if (a.kind == AlertKind::IllegalMove && a.player && game_) {
        const Color c = *a.player;
        illegal_counts_[index_of(c)] = a.count.value_or(illegal_counts_[index_of(c)] + 1);
        illegal_plies_[index_of(c)] = a.ply.value_or(0);
        pending_ = PendingIllegal{c, illegal_counts_[index_of(c)], a.penalty};
    }
    publish(a, now_ms);
}

void BoardSession::penalty_decided(const std::string& decision, std::int64_t now_ms) {
    if (!pending_) return;
    // "class" too: resume() reads the game's events back by it (a decided penalty stays decided).
    const ojson note{{"class", "PENALTY"}, {"decision", decision}, {"player", color_name(pending_->player)},
                     {"penalty", pending_->penalty}};
    recorder_.submit([board = board_.name, game = game_id(), text = note.dump(), now_ms](Store& store) {
        return store.record_note(board, game, "PENALTY", text, now_ms);
    });
    pending_.reset();
}

std::vector<std::int64_t> BoardSession::clock_readings(Color color) const {
    std::vector<std::int64_t> out;
    if (!game_) return out;
    auto record = recorder_.store().load(game_->game());
    if (!record) return out;
    for (const auto& m : record->moves) {
        if (m.illegal_stands || !m.completed || !m.clock) continue;
        if (game_->mover_of(m.ply) == color)
            out.push_back(color == Color::White ? m.clock->white_ms : m.clock->black_ms);
    }
    return out;
}

ojson BoardSession::status_json() const {
    ojson j{{"board", board_.name},
            {"uri", board_.uri},
            {"driver", driver()},
            {"state", connected_ ? "connected" : "disconnected"},
            {"rules", rules_name_}};
    if (!time_control_.empty()) j["time_control"] = time_control_;
    if (game_) {
        j["game"] = game_->game();
        j["ply"] = game_->plies();
        j["fen"] = game_->position().fen();
    }
    if (clock_) j["clock"] = ojson{{"white_ms", clock_->white_ms}, {"black_ms", clock_->black_ms}};
    if (live_.battery) j["battery"] = battery_json(*live_.battery);
    return j;
}

} // namespace eboard::daemon
