#include "daemon/device_link.hpp"

#include <boost/asio/post.hpp>

#include "daemon/log.hpp"
#include "daemon/recorder.hpp"
#include "drivers/core/session.hpp"
#include "rules/recon_profile.hpp"
#include "rules/winnable.hpp"

#include <fstream>
#include <sstream>

namespace eboard::daemon {
namespace asio = boost::asio;
using drivers::ClockSide;

namespace {

constexpr int kTickMs = 50;          // Tick to the reconstructor (settle and grace periods)
constexpr int kPollMs = 20;          // device thread: longest wait for input
constexpr int kReconnectMs = 1000;   // device absent: try again after

std::vector<std::string> square_names(Bitboard b) {
    std::vector<std::string> out;
    for (int s = 0; s < 64; ++s)
        if (b & (Bitboard{1} << s)) out.push_back(Square(s).name());
    return out;
}

// Text for the clock's display (DGT3000: 8 ASCII characters; the driver adapts it to an XL).
std::string clock_text_for(const eboard::AlertEvent& a) {
    switch (a.kind) {
    case AlertKind::IllegalMove: return "illegal";
    case AlertKind::Flag: return "flag";
    default: return "";
    }
}

} // namespace

DeviceLink::DeviceLink(asio::io_context& io, BoardSession& session, const Config& config)
    : io_(io), session_(session), config_(config), recon_(recon_config()), tick_(io) {
    if (config.white_side == WhiteSide::Left) white_side_ = ClockSide::Left;
    if (config.white_side == WhiteSide::Right) white_side_ = ClockSide::Right;
}

DeviceLink::~DeviceLink() {
    *alive_ = false;
    stop();
}

ReconConfig DeviceLink::recon_config() const {
    ReconConfig c;
    // The board's rules profile: built in by name, else a profile file (checked at start).
    const std::string name = board_rules(config_, session_.board_config());
    auto profile = builtin_profile(name, config_.supervised);
    if (!profile) {
        std::ifstream in(name);
        std::ostringstream text;
        text << in.rdbuf();
        profile = parse_profile(text.str(), config_.supervised);
    }
    if (profile) c.rules = recon_rules_from_profile(*profile);
    else log_warning("board " + session_.name() + ": rules '" + name + "': " + profile.error().message +
                     "; FIDE 2023 rules used");
    // Art. 5.2.2, 6.9, 7.5.5: whether the opponent can still checkmate, by any legal moves.
    c.can_mate = [](const Position& pos, Color side) {
        switch (can_checkmate(pos, side)) {
        case Winnability::Winnable: return MateAbility::Can;
        case Winnability::Unwinnable: return MateAbility::Cannot;
        default: return MateAbility::Unknown;
        }
    };
    c.clock = config_.clock == ClockMode::Board;
    c.tactile = session_.board_config().access.tactile; // App. D.2.2-D.2.3 (speech_config.hpp)
    c.illegal_immediate = config_.illegal_feedback == IllegalFeedback::Immediate;
    c.mismatch_grace_ms = static_cast<TimeMs>(config_.mismatch_grace_s * 1000.0);
    return c;
}

void DeviceLink::start() {
    // A game taken up from the store: the reconstruction starts from it, and the board is
    // checked against it before any move counts.
    restart_game();
    arm_tick();
    stop_ = false;
    thread_ = std::thread([this] { device_thread(); });
}

void DeviceLink::stop() {
    tick_.cancel();
    stop_ = true;
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void DeviceLink::arm_tick() {
    tick_.expires_after(std::chrono::milliseconds(kTickMs));
    tick_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
        if (ec || !*alive) return;
        feed(Tick{drivers::steady_now_ms()});
        arm_tick();
    });
}

void DeviceLink::device_thread() {
    const std::string uri = session_.board_config().uri;
    bool reported = false;
    while (!stop_) {
        auto sink = [this, alive = alive_](const drivers::DriverEvent& e) {
            asio::post(io_, [this, alive, e] {
                if (*alive) on_driver_event(e);
            });
        };
        auto device = drivers::open_device(uri, sink);
        if (!device) {
            if (!reported) log_warning("board " + session_.name() + ": " + device.error().message +
                                       "; retrying every second");
            reported = true;
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, std::chrono::milliseconds(kReconnectMs), [this] { return stop_.load(); });
            continue;
        }
        reported = false;
        (*device)->start();
        while (!stop_ && (*device)->poll(kPollMs)) {
            std::vector<std::function<void(drivers::Driver&)>> commands;
            {
                std::lock_guard lock(mutex_);
                commands.swap(commands_);
            }
            for (auto& c : commands) c((*device)->driver());
        }
    }
}

void DeviceLink::queue_command(std::function<void(drivers::Driver&)> command) {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
}

Color DeviceLink::color_of_side(ClockSide side) const {
    const ClockSide white = white_side_.value_or(ClockSide::Left);
    return side == white ? Color::White : Color::Black;
}

ClockSide DeviceLink::side_of(Color c) const {
    const ClockSide white = white_side_.value_or(ClockSide::Left);
    const ClockSide black = white == ClockSide::Left ? ClockSide::Right : ClockSide::Left;
    return c == Color::White ? white : black;
}

void DeviceLink::on_driver_event(const drivers::DriverEvent& event) {
    const std::int64_t now = wall_clock_ms();
    if (const auto* link = std::get_if<drivers::LinkStatus>(&event)) {
        session_.set_connected(link->connected, now);
        if (link->connected) restart_game();
        return;
    }
    if (const auto* c = std::get_if<drivers::SquareChanged>(&event)) {
        feed(SquareChange{c->at_ms, c->square, SquareReading{c->reading.occupied, c->reading.piece}});
    } else if (const auto* d = std::get_if<drivers::BoardDump>(&event)) {
        BoardSnapshot snap{d->at_ms, {}};
        for (int s = 0; s < 64; ++s) {
            const auto r = d->board.at(Square(s));
            snap.board[static_cast<std::size_t>(s)] = SquareReading{r.occupied, r.piece};
        }
        feed(snap);
    } else if (const auto* lever = std::get_if<drivers::ClockLever>(&event)) {
        // The player presses his own side down, so the other side goes up (dgt.md 13).
        const ClockSide pressed = lever->high == ClockSide::Left    ? ClockSide::Right
                                  : lever->high == ClockSide::Right ? ClockSide::Left
                                                                    : ClockSide::None;
        if (pressed == ClockSide::None) return;
        if (!white_side_ && session_.game() && session_.game()->plies() <= 1) {
            // --white-side auto: the first press of a game completes White's first move.
            white_side_ = pressed;
            log_info("board " + session_.name() + ": White plays on the " +
                     (pressed == ClockSide::Left ? "left" : "right") + " of the clock");
        }
        feed(LeverPressed{lever->at_ms, color_of_side(pressed)});
    } else if (const auto* t = std::get_if<drivers::ClockTimes>(&event)) {
        clock_connected_ = t->connected;
        if (!t->connected) return;
        const bool first = !last_times_;
        const auto previous = last_times_;
        last_times_ = *t;
        const Color left = color_of_side(ClockSide::Left);
        eboard::ClockTimes ct;
        ct.t_ms = t->at_ms;
        ct.white_ms = left == Color::White ? t->left_ms : t->right_ms;
        ct.black_ms = left == Color::White ? t->right_ms : t->left_ms;
        ct.running = t->running && t->turn != ClockSide::None;
        ct.running_side = color_of_side(t->turn);
        feed(ct);
        auto fell = [&](bool now_flag, bool before) { return now_flag && (first || !before); };
        if (fell(t->left_flag, previous && previous->left_flag))
            feed(FlagFall{t->at_ms, color_of_side(ClockSide::Left)});
        if (fell(t->right_flag, previous && previous->right_flag))
            feed(FlagFall{t->at_ms, color_of_side(ClockSide::Right)});
    } else if (const auto* b = std::get_if<drivers::ClockButton>(&event)) {
        // While a pawn can promote, the buttons choose the piece (Reconstructor); otherwise
        // they ask for information ([23] D.2.10.4, the speech sink).
        bool promotion = false;
        if (recon_.in_game())
            for (const Move m : recon_.position().legal_moves())
                promotion = promotion || m.kind() == Move::Kind::Promotion;
        feed(eboard::ClockButton{b->at_ms, b->button});
        if (!promotion && session_.on_clock_button) session_.on_clock_button(b->button);
    } else if (const auto* info = std::get_if<drivers::ClockInfo>(&event)) {
        clock_connected_ = info->model != drivers::ClockModel::None;
    } else if (const auto* done = std::get_if<drivers::ClockCommandDone>(&event)) {
        if (!done->ok) log_warning("board " + session_.name() + ": clock command failed: " + done->error);
    }
}

void DeviceLink::feed(const SensorEvent& e) {
    // Copy: handling may restart the reconstruction, which invalidates its output vector.
    const std::vector<ReconEvent> out = recon_.feed(e);
    for (const auto& r : out) handle(r);
}

void DeviceLink::handle(const ReconEvent& event) {
    const std::int64_t now = wall_clock_ms();
    if (const auto* t = std::get_if<eboard::TouchEvent>(&event)) {
        if (!session_.game()) return;
        TouchEvent out{session_.name(), session_.game_id(), t->square.name(), t->lift, std::nullopt};
        if (t->piece != Piece::None) out.piece = piece_to_char(t->piece);
        (void)session_.recorder().publish(out, now);
    } else if (const auto* m = std::get_if<eboard::MoveEvent>(&event)) {
        std::optional<MoveClock> clock;
        if (m->has_clock) clock = MoveClock{m->white_ms, m->black_ms};
        const bool completed = m->completed != Completion::None;
        const auto& game = session_.game();
        Expected<bool> ok = true;
        if (completed && !m->replaces && game && game->plies() == m->ply &&
            game->position().last_move() == m->move)
            ok = session_.complete(m->ply, clock, now);
        else
            ok = session_.move(m->ply, m->move, completed, clock, now);
        if (!ok) log_warning("board " + session_.name() + ": move not recorded: " + ok.error().message);
        else if (on_recorded && completed)
            on_recorded(MoveEvent{session_.name(), session_.game_id(), m->ply, "", m->uci, m->fen, true, clock});
    } else if (const auto* a = std::get_if<eboard::AlertEvent>(&event)) {
        if (a->kind == AlertKind::PositionMismatch && a->cleared) return;
        AlertEvent out;
        out.kind = to_string(a->kind);
        out.article = a->article;
        out.text = a->text;
        if (a->ply > 0) out.ply = a->ply;
        if (a->kind == AlertKind::IllegalMove) {
            out.count = a->count;
            if (!a->penalty.empty()) out.penalty = a->penalty;
            last_illegal_ = Illegal{a->player, a->penalty};
        }
        out.squares = square_names(a->squares);
        session_.alert(out, now);
        const std::string text = clock_text_for(*a);
        if (!text.empty() && clock_connected_)
            queue_command([text](drivers::Driver& d) {
                if (auto* c = d.clock()) c->show_text(text, true);
            });
    } else if (const auto* g = std::get_if<eboard::GameEvent>(&event)) {
        if (restarting_) return;
        if (g->start) {
            auto id = session_.new_game(g->fen, now);
            if (!id) log_warning("board " + session_.name() + ": no new game: " + id.error().message);
        }
    } else if (const auto* r = std::get_if<eboard::ResultEvent>(&event)) {
        (void)session_.result(r->result, r->termination, false, now);
        if (on_recorded) on_recorded(ResultEvent{session_.name(), session_.game_id(), r->result, r->termination, false});
    } else if (const auto* tb = std::get_if<TakebackEvent>(&event)) {
        auto ok = session_.take_back(tb->ply, now);
        if (!ok) log_warning("board " + session_.name() + ": take back: " + ok.error().message);
    }
}

void DeviceLink::restart_game() {
    const auto& game = session_.game();
    if (!game) return;
    restarting_ = true;
    const std::vector<ReconEvent> out = recon_.start_game(game->position(), drivers::steady_now_ms());
    for (const auto& r : out) handle(r);
    restarting_ = false;
}

Expected<bool> DeviceLink::set_clock(std::int64_t white_ms, std::int64_t black_ms) {
    if (!clock_connected_) return Error{"board " + session_.name() + " has no clock connected"};
    const ClockSide white = side_of(Color::White);
    const std::int64_t left = white == ClockSide::Left ? white_ms : black_ms;
    const std::int64_t right = white == ClockSide::Left ? black_ms : white_ms;
    // Set and run: the side whose turn it is keeps running (none before the first move).
    drivers::ClockRun run = drivers::ClockRun::None;
    if (last_times_ && last_times_->running)
        run = last_times_->turn == ClockSide::Left    ? drivers::ClockRun::Left
              : last_times_->turn == ClockSide::Right ? drivers::ClockRun::Right
                                                      : drivers::ClockRun::None;
    queue_command([left, right, run](drivers::Driver& d) {
        if (auto* c = d.clock()) c->set_and_run(left, right, run);
    });
    return true;
}

Expected<std::string> DeviceLink::penalty(bool apply) {
    if (!last_illegal_) return Error{"no illegal move to penalise on board " + session_.name()};
    const Illegal illegal = *last_illegal_;
    last_illegal_.reset();
    if (!apply) return std::string("declined");
    const std::int64_t now = wall_clock_ms();
    if (illegal.penalty == "loss" || illegal.penalty == "draw") {
        const std::string res = illegal.penalty == "draw"          ? "1/2-1/2"
                                : illegal.player == Color::White ? "0-1"
                                                                 : "1-0";
        auto ok = session_.result(res, "rules infraction", true, now);
        if (!ok) return ok.error();
        return illegal.penalty;
    }
    // "+2min", "+1min": time added to the opponent's clock (Art. 7.5.5), set and run.
    std::int64_t bonus_ms = 0;
    if (illegal.penalty.size() > 4 && illegal.penalty[0] == '+' &&
        illegal.penalty.compare(illegal.penalty.size() - 3, 3, "min") == 0)
        bonus_ms = std::stoll(illegal.penalty.substr(1, illegal.penalty.size() - 4)) * 60000;
    if (bonus_ms == 0) return Error{"the profile prescribes no time penalty ('" + illegal.penalty + "')"};
    if (!last_times_) return Error{"the clock's times are not known yet"};
    const Color left = color_of_side(ClockSide::Left);
    std::int64_t white = left == Color::White ? last_times_->left_ms : last_times_->right_ms;
    std::int64_t black = left == Color::White ? last_times_->right_ms : last_times_->left_ms;
    (illegal.player == Color::White ? black : white) += bonus_ms;
    auto ok = set_clock(white, black);
    if (!ok) return ok.error();
    return illegal.penalty;
}

} // namespace eboard::daemon
