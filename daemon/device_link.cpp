#include "daemon/device_link.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstdio>

#include "daemon/driver_options.hpp"
#include "daemon/log.hpp"
#include "daemon/recorder.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/core/session.hpp"
#include "rules/flag_ruling.hpp"
#include "rules/game.hpp"
#include "rules/recon_profile.hpp"
#include "rules/time_control.hpp"
#include "rules/winnable.hpp"

namespace eboard::daemon {
namespace asio = boost::asio;
using drivers::ClockSide;

namespace {

// Whether the board's driver drives a clock (the DGT board's DGT3000/XL): asked of a driver
// object, which does no I/O when created. On a board without one a move is completed by the
// next move, as with --clock none (eboardd(8)).
bool driver_has_clock(const std::string& uri) {
    const drivers::DriverInfo* info = drivers::find_driver(uri_driver(uri));
    if (!info) return true;
    const auto driver = info->create({});
    return !driver || driver->clock() != nullptr;
}

// White's first move, if the board shows the standard start position (Art. 2.3) with it made;
// a square's identity counts where the board reports one. In the board's numbering (a board
// standing the other way round is not recognised).
std::optional<Move> first_move_shown(const BoardReading& board) {
    const Position start = Position::startpos();
    for (const Move m : start.legal_moves()) {
        Position after = start.copy();
        after.make_move(m);
        bool same = true;
        for (int s = 0; s < 64 && same; ++s) {
            const SquareReading& r = board[static_cast<std::size_t>(s)];
            const Piece p = after.piece_on(Square(s));
            same = r.occupied == (p != Piece::None) && (r.piece == Piece::None || r.piece == p);
        }
        if (same) return m;
    }
    return std::nullopt;
}

// The texts a clock shows for an illegal move: a DGT3000 shows 8 ASCII characters, a DGT XL
// six seven-segment digits (dgt.md 12.1, 12.4; the XL has no 'a' that reads well after
// "illeg", so it stops there).
constexpr const char* kIllegalDgt3000 = "illegal";
constexpr const char* kIllegalXl = "illeg";

// The move (per player) from which the game is in a quickplay finish, 0 for never: the last
// period, in which all remaining moves are made in a fixed time, when it has no increment and
// no delay ([01]/[05] Art. 10, [23] Guidelines III) and the profile has one (not in blitz).
int quickplay_from_move(const Profile& profile, const std::string& tc_text) {
    if (!profile.quickplay_allowed) return 0;
    auto tc = parse_time_control(tc_text);
    if (!tc || tc->kind != TimeControl::Kind::Periods || tc->periods.empty()) return 0;
    const TimePeriod& last = tc->periods.back();
    if (last.moves != 0 || last.increment_ms != 0 || last.delay_ms != 0) return 0;
    return tc->first_move_of_period(static_cast<int>(tc->periods.size()) - 1);
}

MateAbility mate_ability_of(Winnability w) {
    switch (w) {
    case Winnability::Winnable: return MateAbility::Can;
    case Winnability::Unwinnable: return MateAbility::Cannot;
    default: return MateAbility::Unknown;
    }
}

} // namespace

DeviceLink::DeviceLink(asio::io_context& io, Deadlines& deadlines, BoardSession& session, const Config& config)
    : io_(io), session_(session), config_(config), recon_(recon_config()),
      deadline_(deadlines, [this](std::int64_t now) { on_deadline(now); }), device_(session.name()),
      sides_(config.white_side) {
    recon_profile_ = session_.shared_profile();
}

DeviceLink::~DeviceLink() {
    *alive_ = false;
    // cancel() and join() throw only on a broken invariant (the device thread destroying its
    // own link); a destructor must not throw, so say it and go on.
    try {
        stop();
    } catch (const std::exception& e) {
        char line[256]; // not a std::string: building one could throw again
        std::snprintf(line, sizeof line, "device link not stopped cleanly: %s", e.what());
        log_error(line);
    }
}

ReconConfig DeviceLink::recon_config() const {
    ReconConfig c;
    c.rules = recon_rules_from_profile(session_.profile());
    // Art. 5.2.2, 6.9, 7.5.5: whether the opponent can still checkmate, by any legal moves.
    c.can_mate = [](const Position& pos, Color side) { return mate_ability_of(can_checkmate(pos, side)); };
    // The in-depth check of a suspected dead position (5.2.2) runs on the loop: bounded.
    c.can_mate_deep = [](const Position& pos, Color side) {
        return mate_ability_of(can_checkmate_on_loop(pos, side));
    };
    c.clock = config_.clock == ClockMode::Board && driver_has_clock(session_.board_config().uri);
    c.quickplay_finish = quickplay_from_move(session_.profile(), session_.time_control()) == 1;
    c.tactile = session_.board_config().access.tactile; // App. D.2.2-D.2.3 (speech_config.hpp)
    c.illegal_immediate = config_.illegal_feedback == IllegalFeedback::Immediate;
    c.mismatch_grace_ms = static_cast<TimeMs>(config_.mismatch_grace_s * 1000.0);
    return c;
}

void DeviceLink::start() {
    // A game taken up from the store: the reconstruction starts from it, and the board is
    // checked against it before any move counts.
    restart_game();
    auto events = [this, alive = alive_](const drivers::DriverEvent& e) {
        asio::post(io_, [this, alive, e] {
            if (*alive) on_driver_event(e);
        });
    };
    auto learned = [this, alive = alive_](BoardSettings settings) {
        if (!on_learned_) return;
        asio::post(io_, [this, alive, s = std::move(settings)] {
            if (*alive) on_learned_(s);
        });
    };
    device_.start(session_.board_config().uri, std::move(events), std::move(learned));
}

void DeviceLink::stop() {
    request_stop();
    join();
}

void DeviceLink::request_stop() {
    *alive_ = false; // on the loop's thread: what the device thread still posts is dropped
    deadline_.set(std::nullopt);
    device_.request_stop();
}

void DeviceLink::join() { device_.join(); }

void DeviceLink::on_deadline(std::int64_t now) {
    // While the board is away its time stands still for the reconstruction: a piece that was
    // in the air when it went is not a mismatch. Its next input sets the deadline again.
    if (session_.connected()) feed(Tick{now});
}

void DeviceLink::arm_deadline() {
    if (device_.stopping()) return;
    deadline_.set(recon_.next_deadline());
}

void DeviceLink::on_driver_event(const drivers::DriverEvent& event) {
    // --clock none (eboardd(8)): the clock attached to the board is not used. Its lever,
    // times and flags are not read, so a move is completed by the next move made or by the end
    // of the game (Art. 6.2.1), MOVE has no clock times, and no command goes to the clock.
    if (config_.clock == ClockMode::None &&
        (std::holds_alternative<drivers::ClockLever>(event) || std::holds_alternative<drivers::ClockReport>(event) ||
         std::holds_alternative<drivers::ClockInfo>(event)))
        return;
    const std::int64_t now = wall_clock_ms();
    if (const auto* link = std::get_if<drivers::LinkStatus>(&event)) {
        // A new driver session (or none): its board and lever are still to be read.
        board_read_ = false;
        unchecked_lever_.reset();
        sides_.link_changed();
        // The driver's session starts in the normal orientation; it says so if it turns round.
        if (session_.live().driver_rotated) session_.update_live([](BoardLive& l) { l.driver_rotated = false; });
        if (!link->connected) {
            clock_connected_ = false;
            clock_model_ = drivers::ClockModel::None;
            last_times_.reset();
            session_.set_clock_times(std::nullopt);
            session_.update_live([](BoardLive& l) { l.clock.reset(); });
        }
        session_.set_connected(link->connected, now);
        // Its timers go on with its next input (the fresh board dump after start-up).
        return;
    }
    if (const auto* c = std::get_if<SquareChange>(&event)) {
        session_.update_live([&](BoardLive& l) {
            if (!l.sensors) l.sensors = BoardReading{};
            l.sensors->set(c->square, c->reading);
        });
        feed(*c);
    } else if (const auto* snap = std::get_if<BoardSnapshot>(&event)) {
        session_.update_live([&](BoardLive& l) { l.sensors = snap->board; });
        if (first_reading_ && !session_.game() && !recon_.in_game()) begin_with_first_move(*snap);
        first_reading_ = false;
        feed(*snap);
        board_read_ = true;
        if (unchecked_lever_) {
            const drivers::ClockReport t = *unchecked_lever_;
            unchecked_lever_.reset();
            lever_first_seen(t);
        }
    } else if (const auto* lever = std::get_if<drivers::ClockLever>(&event)) {
        // --white-side: the press of a player, or (auto, before the first move) one held until
        // the board shows whether it was the first mover's or the clock being set up.
        apply(sides_.lever(*lever, side_game()));
    } else if (const auto* t = std::get_if<drivers::ClockReport>(&event)) {
        on_clock_times(*t);
    } else if (const auto* b = std::get_if<ClockButton>(&event)) {
        // While a pawn can promote, the buttons choose the piece (Reconstructor); otherwise
        // they ask for information ([23] D.2.10.4, the speech sink).
        bool promotion = false;
        if (recon_.in_game())
            for (const Move m : recon_.position().legal_moves())
                promotion = promotion || m.kind() == Move::Kind::Promotion;
        feed(*b);
        if (!promotion && session_.on_clock_button) session_.on_clock_button(b->button, b->t_ms);
    } else if (const auto* info = std::get_if<drivers::ClockInfo>(&event)) {
        clock_model_ = info->model;
        clock_connected_ = info->model != drivers::ClockModel::None;
    } else if (const auto* device = std::get_if<drivers::DeviceInfo>(&event)) {
        // The serial number names the board to clients across restarts (kept in the store).
        if (!device->serial.empty() && device->serial != session_.live().serial) {
            session_.update_live([&](BoardLive& l) { l.serial = device->serial; });
            if (on_learned_) on_learned_(BoardSettings{{"serial", device->serial}});
        }
    } else if (const auto* o = std::get_if<drivers::BoardOrientation>(&event)) {
        if (o->rotated != session_.live().driver_rotated)
            session_.update_live([&](BoardLive& l) { l.driver_rotated = o->rotated; });
    } else if (const auto* battery = std::get_if<drivers::BatteryInfo>(&event)) {
        session_.set_battery(Battery{std::clamp(battery->percent, 0, 100), battery->charging}, now);
    } else if (const auto* done = std::get_if<drivers::ClockCommandDone>(&event)) {
        if (!done->ok) log_warning("board " + session_.name() + ": clock command failed: " + done->error);
    }
}

void DeviceLink::on_clock_times(const drivers::ClockReport& t) {
    clock_connected_ = t.connected;
    if (!t.connected) {
        last_times_.reset();
        session_.set_clock_times(std::nullopt);
        session_.update_live([](BoardLive& l) { l.clock.reset(); });
        return;
    }
    const bool first = !last_times_;
    const auto previous = last_times_;
    last_times_ = t;
    // Before the first move the lever shows whose clock runs (auto). A report whose lever moved
    // is followed by its press (ClockLever, after the times it shows): the press decides.
    const bool press_follows = previous && previous->connected && previous->lever_high != t.lever_high;
    if (!press_follows) apply(sides_.clock_report(t, side_game()));
    const Color left = sides_.color_of(ClockSide::Left);
    eboard::ClockTimes ct;
    ct.t_ms = t.t_ms;
    ct.white_ms = left == Color::White ? t.left_ms : t.right_ms;
    ct.black_ms = left == Color::White ? t.right_ms : t.left_ms;
    ct.running = t.running && t.turn != ClockSide::None;
    ct.running_side = sides_.color_of(t.turn);
    session_.set_clock_times(MoveClock{ct.white_ms, ct.black_ms});
    session_.update_live([&](BoardLive& l) {
        l.clock = ct;
        l.clock_at_ms = wall_clock_ms();
    });
    feed(ct);
    // A flag is read from the clock (Art. 6.1): report the moment it shows, once.
    auto fell = [&](bool now_flag, bool before) { return now_flag && (first || !before); };
    if (fell(t.left_flag, previous && previous->left_flag))
        feed(FlagFall{t.t_ms, sides_.color_of(ClockSide::Left)});
    if (fell(t.right_flag, previous && previous->right_flag))
        feed(FlagFall{t.t_ms, sides_.color_of(ClockSide::Right)});
    // The lever is checked against the board's full reading: a time report that comes
    // before it (the board still in the update mode of the daemon's previous run) waits.
    if (first && board_read_) lever_first_seen(t);
    else if (first) unchecked_lever_ = t;
}

void DeviceLink::lever_first_seen(const drivers::ClockReport& t) {
    // The driver reports lever changes from its first time report on; a press made before it
    // (while the daemon was down, or the board away) is only in the lever's position.
    const ClockSide down = t.lever_high == ClockSide::Left    ? ClockSide::Right
                           : t.lever_high == ClockSide::Right ? ClockSide::Left
                                                              : ClockSide::None;
    const auto& game = session_.game();
    if (down == ClockSide::None || !sides_.known() || !game || !recon_.in_game()) return;
    const Color by = sides_.color_of(down);
    // His side may be down since an illegal move of his at this turn (7.5.1): the move he
    // makes after it is completed by the next move, not by that press.
    const int turn = game->position().side_to_move() == by ? game->plies() + 1 : game->plies();
    if (turn > 0 && session_.last_illegal_ply(by) >= turn) return;
    const std::vector<ReconEvent> out = recon_.lever_seen(by, t.t_ms);
    for (const auto& r : out) handle(r);
    arm_deadline(); // a press taken from the lever runs the press grace
}

void DeviceLink::feed(const SensorEvent& e) {
    // Copy: handling may restart the reconstruction, which invalidates its output vector.
    const std::vector<ReconEvent> out = recon_.feed(e);
    for (const auto& r : out) handle(r);
    // A press held before the first move is decided by the first touch after it; fed after
    // this input's events, so that it follows what the board showed.
    apply(sides_.after_input(side_game()));
    arm_deadline(); // the reconstruction's next timer, if one runs (handling may restart it)
    if (recon_.rotated() != session_.live().flipped)
        session_.update_live([&](BoardLive& l) { l.flipped = recon_.rotated(); });
}

void DeviceLink::handle_move(const eboard::MoveEvent& m, std::int64_t now) {
    const std::optional<MoveClock>& clock = m.clock;
    const bool completed = m.is_completed();
    const auto& game = session_.game();
    const int ply = m.ply + ply_offset_;
    Expected<bool> ok = true;
    if (completed && !m.replaces && game && game->plies() == ply && game->position().last_move() == m.move)
        ok = session_.complete(ply, m.completed, clock, now);
    else
        ok = session_.move(ply, m.move, m.completed, clock, now);
    if (!ok) log_warning("board " + session_.name() + ": move not recorded: " + ok.error().message);
    if (completed) update_quickplay();
    // A move after an illegal one: the irregularity is over, the clock shows the times again.
    clear_clock_text();
}

void DeviceLink::handle_alert(const eboard::AlertEvent& a, std::int64_t now) {
    if (a.kind == AlertKind::PositionMismatch && a.cleared) {
        clear_clock_text();
        return;
    }
    AlertEvent out;
    static_cast<eboard::AlertEvent&>(out) = a;
    // The reconstruction counts plies from its line's start (ply_offset_).
    if (out.ply && *out.ply > 0) *out.ply += ply_offset_;
    else out.ply.reset();
    // The board shows an earlier position: the arbiter decides.
    if (out.earlier_ply) *out.earlier_ply += ply_offset_;
    const auto& game = session_.game();
    // Said for the kinds where someone is answerable (the offender, the flag's owner); the
    // count and the penalty only of an illegal move.
    if (a.kind != AlertKind::IllegalMove && a.kind != AlertKind::Flag && a.kind != AlertKind::TouchMove)
        out.player.reset();
    if (a.kind != AlertKind::IllegalMove) {
        out.count.reset();
        out.penalty.clear();
    }
    if ((a.kind == AlertKind::IllegalMove || a.kind == AlertKind::PositionMismatch) && game)
        out.fen = game->position().fen(); // the position to restore
    if (a.kind == AlertKind::Flag && game && a.player) {
        // Art. 6.4 then 6.9 with the profile's draw rules (club Art. 3 material rule). The
        // quick answer first; where it leaves the opponent open and the ruling depends on it,
        // the full mode on the worker, and the ALERT when it answers (docs/winnability.md).
        const Color flagged = *a.player;
        auto tc = parse_time_control(session_.time_control());
        auto rule = [this, flagged, tc = tc ? *tc : TimeControl{}, readings = session_.clock_readings(flagged),
                     pos = game->position().copy()](AlertEvent& alert, Winnability opponent) {
            const FlagRuling ruling = rule_flag_fall(session_.profile(), pos, flagged, opponent, tc, readings);
            if (!ruling.article.empty()) alert.article = ruling.article;
            alert.text = ruling.text;
            alert.result = ruling.result;
            // A win that stands only because the full mode could not prove the draw.
            if (opponent == Winnability::Undetermined && session_.profile().flag_draw_if_cannot_mate &&
                !ruling.result.empty() && ruling.result != "1/2-1/2")
                alert.winnability = "undecided";
        };
        const Winnability quick = can_checkmate(game->position(), ~flagged);
        if (quick != Winnability::Undetermined || !session_.profile().flag_draw_if_cannot_mate) {
            rule(out, quick);
        } else {
            if (!winnability_) winnability_ = std::make_unique<WinnabilityWorker>(io_);
            winnability_->ask(game->position().copy(), ~flagged,
                              [this, alive = alive_, out, rule = std::make_shared<decltype(rule)>(std::move(rule)),
                               game_id = session_.game_id(), now](Winnability full) mutable {
                                  // The game may have been replaced while the search ran.
                                  if (!*alive || session_.game_id() != game_id) return;
                                  (*rule)(out, full);
                                  session_.alert(out, now);
                              });
            return;
        }
    }
    session_.alert(out, now);
    // The players learn of an illegal move when the profile lets them (never in claim-only
    // regimes: it would tip off the claimant; docs/profiles.md). A flag is not shown: the
    // clock shows its own flag, and its times are the evidence (6.10.1).
    if (a.kind == AlertKind::IllegalMove && session_.profile().illegal_visible_to_players)
        show_on_clock(kIllegalDgt3000, kIllegalXl);
}

void DeviceLink::handle(const ReconEvent& event) {
    const std::int64_t now = wall_clock_ms();
    if (const auto* t = std::get_if<eboard::TouchEvent>(&event)) {
        if (!session_.game()) return;
        if (session_.game()->plies() == 0) {
            sides_.touched_at_start(t->t_ms);
        }
        session_.recorder().publish(TouchEvent{*t, session_.name(), session_.game_id()}, now);
    } else if (const auto* m = std::get_if<eboard::MoveEvent>(&event)) {
        handle_move(*m, now);
    } else if (const auto* a = std::get_if<eboard::AlertEvent>(&event)) {
        handle_alert(*a, now);
    } else if (const auto* g = std::get_if<eboard::GameEvent>(&event)) {
        if (restarting_ || g->kind != eboard::GameEvent::Kind::Start) return;
        ply_offset_ = 0;
        auto id = session_.new_game(g->fen, now);
        if (!id) {
            log_warning("board " + session_.name() + ": no new game: " + id.error().message);
            return;
        }
        clear_clock_text();
        keep_white_side();
        const bool lever_known = last_times_ && last_times_->connected;
        apply(sides_.game_started(lever_known ? last_times_->lever_high : ClockSide::None, side_game()));
        // New rules (SIGHUP) apply from this game on: the reconstruction starts it again
        // under them, from the same start position.
        if (session_.shared_profile() != recon_profile_) restart_game();
    } else if (const auto* r = std::get_if<eboard::ResultEvent>(&event)) {
        (void)session_.result(r->result, r->termination, false, now);
    } else if (const auto* tb = std::get_if<TakebackEvent>(&event)) {
        auto ok = session_.take_back(tb->ply + ply_offset_, now);
        if (!ok) log_warning("board " + session_.name() + ": take back: " + ok.error().message);
    } else if (const auto* st = std::get_if<IllegalMoveStands>(&event)) {
        auto ok = session_.illegal_stands(st->ply + ply_offset_, st->from, st->to, st->fen, now);
        if (!ok) log_warning("board " + session_.name() + ": illegal move that stands: " + ok.error().message);
    }
}

void DeviceLink::restart_game() {
    const auto& game = session_.game();
    if (!game) return;
    keep_white_side();
    // The rules of this game (a resumed game keeps those it started with).
    if (session_.shared_profile() != recon_profile_) {
        recon_ = Reconstructor(recon_config());
        recon_profile_ = session_.shared_profile();
        // The new reconstruction has not seen the board yet: ask for a full reading.
        device_.queue([](drivers::Driver& d) { d.request_board_dump(); });
    }
    // The board is checked against the game, a move made but not completed included (its
    // press completes it). The reconstruction replays the moves the game's position
    // remembers: those since the start, or since the last illegal move that stood.
    const bool uncompleted = !game->last_completed() && game->position().history_size() > 0;
    ply_offset_ = game->line_start();
    restarting_ = true;
    const std::vector<ReconEvent> out =
        recon_.resume_game(game->position(), uncompleted, drivers::steady_now_ms());
    for (const auto& r : out) handle(r);
    restarting_ = false;
    update_quickplay();
    // The 7.5.5 ladder goes on from the illegal moves already recorded in this game.
    recon_.set_illegal_count(Color::White, session_.illegal_count(Color::White));
    recon_.set_illegal_count(Color::Black, session_.illegal_count(Color::Black));
    arm_deadline();
}

void DeviceLink::begin_with_first_move(const BoardSnapshot& snap) {
    const std::optional<Move> first = first_move_shown(snap.board);
    if (!first) return;
    // The daemon was down when the game began (not started yet, or killed before it recorded
    // the start): the game starts from the start position with this move made (Art. 4.7), as
    // a game resumed with its last move made; its press, or the lever, completes it (6.2.1).
    Position after = Position::startpos();
    after.make_move(*first);
    log_notice("board " + session_.name() + ": shows the start position with " + to_uci(Position::startpos(), *first) +
               " made: the game starts from the start position");
    const std::vector<ReconEvent> out = recon_.resume_game(after, true, snap.t_ms);
    for (const auto& r : out) handle(r); // GAME start
    if (!session_.game()) return;
    if (auto ok = session_.move(1, *first, Completion::None, std::nullopt, wall_clock_ms()); !ok)
        log_warning("board " + session_.name() + ": move not recorded: " + ok.error().message);
    arm_deadline();
}

void DeviceLink::keep_white_side() {
    if (!session_.game()) return;
    const std::string& kept = session_.white_side();
    sides_.game_begins(kept == "left"    ? std::optional(ClockSide::Left)
                       : kept == "right" ? std::optional(ClockSide::Right)
                                         : std::nullopt);
}

void DeviceLink::apply(const std::vector<WhiteSideLearner::Action>& actions) {
    for (const auto& action : actions) {
        if (const auto* press = std::get_if<LeverPressed>(&action)) {
            feed(*press);
            continue;
        }
        const auto& learnt = std::get<WhiteSideLearner::Learnt>(action);
        const char* side = learnt.white == ClockSide::Left ? "left" : "right";
        if (learnt.changed)
            log_info("board " + session_.name() + ": White plays on the " + side + " of the clock (" + learnt.how + ")");
        if (session_.game()) session_.set_white_side(side);
    }
}

WhiteSideLearner::Game DeviceLink::side_game() const {
    const auto& game = session_.game();
    if (!game) return {};
    return {true, game->plies(), recon_.plies_made(), game->first_to_move()};
}

void DeviceLink::update_quickplay() {
    const auto& game = session_.game();
    const int from = quickplay_from_move(session_.profile(), session_.time_control());
    if (!game || from <= 1) return;
    // Both players are in the last period once each has made the moves before it.
    if (std::min(game->moves_by(Color::White), game->moves_by(Color::Black)) + 1 >= from)
        recon_.set_quickplay_finish(true);
}

void DeviceLink::show_on_clock(const std::string& dgt3000, const std::string& xl) {
    if (!clock_connected_) return;
    const std::string text = clock_model_ == drivers::ClockModel::DgtXl ? xl : dgt3000;
    clock_text_shown_ = true;
    device_.queue([text](drivers::Driver& d) {
        if (auto* c = d.clock()) c->show_text(text, true);
    });
}

void DeviceLink::clear_clock_text() {
    if (!clock_text_shown_) return;
    clock_text_shown_ = false;
    if (!clock_connected_) return;
    device_.queue([](drivers::Driver& d) {
        if (auto* c = d.clock()) c->end_display();
    });
}

Expected<bool> DeviceLink::set_clock(std::int64_t white_ms, std::int64_t black_ms) {
    if (!clock_connected_) return Error{"board " + session_.name() + " has no clock connected"};
    const ClockSide white = sides_.side_of(Color::White);
    const std::int64_t left = white == ClockSide::Left ? white_ms : black_ms;
    const std::int64_t right = white == ClockSide::Left ? black_ms : white_ms;
    // Set and run: if the clock was running, the clock of the player to move in the game runs
    // (after an illegal move is put right that is the offender's again, 7.5.1); without a game
    // the side that ran. A stopped clock stays stopped.
    drivers::ClockRun run = drivers::ClockRun::None;
    if (last_times_ && last_times_->running) {
        ClockSide runs = last_times_->turn;
        if (session_.game()) runs = sides_.side_of(session_.game()->position().side_to_move());
        run = runs == ClockSide::Left    ? drivers::ClockRun::Left
              : runs == ClockSide::Right ? drivers::ClockRun::Right
                                         : drivers::ClockRun::None;
    }
    clock_text_shown_ = false; // the clock shows the new times
    device_.queue([left, right, run](drivers::Driver& d) {
        if (auto* c = d.clock()) c->set_and_run(left, right, run);
    });
    return true;
}

Expected<PenaltyOutcome> DeviceLink::penalty(bool apply) {
    const auto pending = session_.pending_illegal();
    if (!pending) return Error{"no illegal move awaits a decision on board " + session_.name()};
    const std::int64_t now = wall_clock_ms();
    if (!apply) {
        session_.penalty_decided("decline", now);
        return PenaltyOutcome{"declined", {}};
    }
    const Color offender = pending->player;
    const std::string& p = pending->penalty;
    std::string res;
    std::string winnability;
    if (p == "loss") res = offender == Color::White ? "0-1" : "1-0";
    if (p == "draw") res = "1/2-1/2";
    if (p == "win-claim" && session_.game()) {
        // [05] C3: the opponent claims the win; a draw if he cannot checkmate.
        // A win that stands only because the full mode decided nothing says so (issue 25).
        const Winnability w = can_checkmate_on_loop(session_.game()->position(), ~offender);
        res = w == Winnability::Unwinnable ? "1/2-1/2" : offender == Color::White ? "0-1" : "1-0";
        if (w == Winnability::Undetermined) winnability = "undecided";
    }
    if (!res.empty()) {
        session_.penalty_decided("apply", now);
        auto ok = session_.result(res, std::string(to_string(Termination::IllegalMoves)), true, now, winnability);
        if (!ok) return ok.error();
        return PenaltyOutcome{p, winnability};
    }
    // "+2min", "+1min": time added to the opponent's clock ([23] 7.5.5, A.3), set and run.
    std::int64_t bonus_ms = 0;
    if (p.size() > 4 && p[0] == '+' && p.compare(p.size() - 3, 3, "min") == 0)
        bonus_ms = std::stoll(p.substr(1, p.size() - 4)) * 60000;
    if (bonus_ms == 0) return Error{"the profile prescribes no penalty for this illegal move ('" + p + "')"};
    if (!last_times_) return Error{"board " + session_.name() + ": the clock's times are not known"};
    const Color left = sides_.color_of(ClockSide::Left);
    std::int64_t white = left == Color::White ? last_times_->left_ms : last_times_->right_ms;
    std::int64_t black = left == Color::White ? last_times_->right_ms : last_times_->left_ms;
    (offender == Color::White ? black : white) += bonus_ms;
    auto ok = set_clock(white, black);
    if (!ok) return ok.error();
    session_.penalty_decided("apply", now);
    return PenaltyOutcome{p, {}};
}

} // namespace eboard::daemon
