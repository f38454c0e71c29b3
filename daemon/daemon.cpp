#include "daemon/daemon.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/board_attach.hpp"
#include "daemon/board_link.hpp"
#include "daemon/console.hpp"
#include "daemon/device_link.hpp"
#include "daemon/driver_options.hpp"
#include "daemon/emu_board.hpp"
#include "daemon/emu_player.hpp"
#include "daemon/simulation.hpp"
#include "drivers/core/trace.hpp"
#include "daemon/rules_profile.hpp"
#include "rules/game.hpp"
#include "rules/time_control.hpp"
#include "daemon/log.hpp"
#include "daemon/notify.hpp"

namespace eboard::daemon {

namespace {
// At exit, how long the boards closed by DETACH get to end their device thread.
constexpr int kRetiredExitWaitMs = 2000;
// At exit, how long the clients get to read the output queued for them (the last MOVE, the
// GAME end): after the boards' clean exit (up to 1 s), inside the 2 s a SIGTERM may take.
constexpr std::chrono::milliseconds kClientDrain{500};
} // namespace

Daemon::Daemon(Config config)
    : config_(std::move(config)), signals_(io_, SIGINT, SIGTERM, SIGHUP), watchdog_(io_), status_timer_(io_) {}

Daemon::~Daemon() {
    if (simulation_) simulation_->stop();
    for (auto& e : emulated_)
        if (e.player) e.player->stop();
    for (auto& l : links_) l->stop();
    links_.clear();
    abandon_retired(kRetiredExitWaitMs);
    simulation_.reset();
    if (server_) server_->close();
    if (events_owned_ && events_fd_ >= 0) ::close(events_fd_);
}

BoardSession* Daemon::find_board(const std::string& name) {
    for (auto& b : boards_)
        if (b->name() == name || b->board_config().uri == name) return b.get();
    return nullptr;
}

Expected<bool> Daemon::open_events_sink() {
    if (config_.events.empty()) return true;
    if (config_.events == "-") {
        events_fd_ = STDOUT_FILENO;
    } else {
        events_fd_ = ::open(config_.events.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (events_fd_ < 0)
            return Error{"--events: cannot open " + config_.events + ": " + std::strerror(errno)};
        events_owned_ = true;
    }
    // One write(2) per line: each line is out of the process as soon as it is written.
    auto write_line = [fd = events_fd_](const std::string& line) {
        std::size_t done = 0;
        while (done < line.size()) {
            const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            done += static_cast<std::size_t>(n);
        }
    };
    write_line(to_line(version_event()));
    recorder_->add_sink([write_line](const Event&, const std::string& line) { write_line(line); });
    return true;
}

Expected<bool> Daemon::open_speech() {
    // Its own ALERTs (both_boards_differ) are published after the event that caused them.
    auto sink = SpeechSink::open(config_, [this](AlertEvent a) {
        boost::asio::post(io_, [this, a = std::move(a)]() mutable {
            if (BoardSession* board = find_board(a.board)) board->alert(std::move(a), wall_clock_ms());
        });
    });
    if (!sink) return sink.error();
    speech_ = std::move(*sink);
    // INFO clocks: what the clock shows now, not the times of the last completed move.
    speech_->set_clock_now([this](const std::string& name) -> std::optional<MoveClock> {
        const BoardSession* board = find_board(name);
        return board ? board->clock_times() : std::nullopt;
    });
    log_info(speech_->note());
    // A move made is said at once, before the store's fsync (D.2.3; recorder.hpp says why).
    recorder_->add_sink([this](const Event& e, const std::string&) { speech_->observe(e); },
                        Recorder::Delivery::OnPublish);
    return true;
}

BoardLink* Daemon::link_of(const BoardSession* board) {
    for (std::size_t i = 0; i < boards_.size() && i < links_.size(); ++i)
        if (boards_[i].get() == board) return links_[i].get();
    return nullptr;
}

Expected<bool> Daemon::open_simulation() {
    // A fresh state directory unless one is given, so that every demo starts a new game.
    if (config_.state_dir.empty() && !std::getenv("STATE_DIRECTORY")) {
        char tmpl[] = "/tmp/eboardd-simulate-XXXXXX";
        if (!::mkdtemp(tmpl)) return Error{std::string("--simulate: mkdtemp: ") + std::strerror(errno)};
        config_.state_dir = tmpl;
    }
    if (config_.pgn_dir.empty()) config_.pgn_dir = resolve_state_dir(config_) + "/pgn";
    auto sim = Simulation::open(*config_.simulate, config_.speed, config_.clock == ClockMode::Board);
    if (!sim) return sim.error();
    simulation_ = std::move(*sim);
    config_.boards.insert(config_.boards.begin(), simulation_->board());
    return true;
}

Expected<bool> Daemon::prepare_emulators() {
    for (auto& b : config_.boards)
        if (auto ok = prepare_emulator(b); !ok) return ok;
    return true;
}

Expected<bool> Daemon::prepare_emulator(BoardConfig& b) {
    auto uri = parse_emu_uri(b.uri);
    if (!uri) return Error{"board " + b.name + ": " + uri.error().message};
    if (!*uri) return true;
    Emulated e{b.name, (*uri)->kind, nullptr, nullptr};
    if (!(*uri)->pgn.empty()) {
        auto player = EmuPlayer::open((*uri)->pgn, config_.speed);
        if (!player) return Error{"board " + b.name + ": " + player.error().message};
        e.player = std::move(*player);
        // The game's time control, unless the board has one.
        if (board_time_control(config_, b).empty()) b.time_control = e.player->time_control();
    }
    emulated_.push_back(std::move(e));
    return true;
}

Expected<bool> Daemon::open_emulators() {
    for (std::size_t i = 0; i < emulated_.size(); ++i)
        if (auto ok = open_emulator(i); !ok) return ok;
    return true;
}

Expected<bool> Daemon::open_emulator(std::size_t index) {
    Emulated& e = emulated_[index];
    BoardSession* board = find_board(e.board);
    if (!board) return true;
    // The pieces stand where the board's game is (a resumed game), else where the PGN's
    // game starts, else in the standard start position.
    Position shown = Position::startpos();
    int from_ply = 0;
    if (board->game()) {
        shown = board->game()->position().copy();
        from_ply = board->game()->plies();
    } else if (e.player) {
        shown = e.player->start_position().copy();
    }
    auto emulator = EmuBoard::create(e.kind, shown, clock_start_ms(board->time_control()));
    if (!emulator) return Error{"board " + e.board + ": " + emulator.error().message};
    e.emulator = std::move(*emulator);
    if (e.player && board->game() && !e.player->passes_through(shown, from_ply)) {
        log_notice("board " + e.board + ": the resumed game is not the PGN's game; nobody plays it");
        e.player.reset();
    }
    if (e.player) {
        recorder_->add_sink([player = e.player.get(), name = e.board](const Event& ev, const std::string&) {
            if (event_board(ev) == name) player->observe(ev);
        });
    }
    if (auto* link = dynamic_cast<DeviceLink*>(link_of(board)))
        link->set_opener([emulator = e.emulator.get(), options = driver_options(*board, false)](
                             drivers::DeviceSession::EventSink sink) {
            return emulator->open_session(std::move(sink), options);
        });
    return true;
}

void Daemon::start_player(std::size_t index) {
    Emulated& e = emulated_[index];
    if (!e.player || !e.emulator) return;
    const BoardSession* board = find_board(e.board);
    const bool resumed = board && board->game();
    e.player->start(*e.emulator, resumed ? board->game()->plies() : 0, resumed);
}

void Daemon::add_board(const BoardConfig& b) {
    boards_.push_back(std::make_unique<BoardSession>(b, config_, *recorder_));
    boards_.back()->on_clock_button = [this, name = b.name](int button, std::int64_t at_ms) {
        speech_->clock_button(name, button, at_ms);
    };
    auto link = std::make_unique<DeviceLink>(io_, deadlines_, *boards_.back(), config_);
    // What the driver learnt comes back from the store when the board is opened (an emu-
    // board's opener is set again by open_emulator), and goes to it when it learns more.
    link->set_opener([uri = b.uri, options = driver_options(*boards_.back(), true)](drivers::DeviceSession::EventSink sink) {
        return drivers::open_device(uri, std::move(sink), options);
    });
    link->on_learned([this, name = b.name](const BoardSettings& settings) {
        recorder_->submit([name, settings](Store& store) -> Expected<bool> {
            for (const auto& [key, value] : settings)
                if (auto ok = store.set_board_setting(name, key, value); !ok) return ok;
            return true;
        });
        log_info("board " + name + ": saved what its driver learnt (" + std::to_string(settings.size()) + " settings)");
    });
    links_.push_back(std::move(link));
}

drivers::DriverOptions Daemon::driver_options(const BoardSession& board, bool say) {
    auto learned = options_from_settings(board.board_config().uri, board.name(), store_->board_settings(board.name()),
                                         resolve_state_dir(config_));
    auto configured = configured_driver_options(config_, board.board_config());
    if (!configured) { // checked before the board was added: cannot happen
        log_error(configured.error().message);
        return learned;
    }
    DriverParams overridden;
    auto options = merge_driver_options(std::move(learned), *configured, overridden);
    if (say)
        for (const auto& [key, was] : overridden)
            log_notice("board " + board.name() + ": driver option " + key + "=" + options.params[key] +
                       " as configured, not the learnt " + was);
    return options;
}

void Daemon::resume_games(const BoardSession* only) {
    for (const auto& id : store_->unfinished_games()) {
        auto record = store_->load(id);
        if (!record) continue;
        BoardSession* board = find_board(record->board);
        if (!board || board->game() || (only && board != only)) continue;
        if (auto ok = board->resume(id); !ok)
            log_warning("cannot resume game " + id + ": " + ok.error().message);
    }
}

Expected<bool> Daemon::open() {
    // Refuse what would only fail later, at the first game.
    if (auto p = load_profile(config_.rules, config_.supervised); !p) return Error{"--rules: " + p.error().message};
    if (!config_.time_control.empty()) {
        if (auto tc = parse_time_control(config_.time_control); !tc)
            return Error{"--time-control: " + tc.error().message};
    }
    for (const auto& category : config_.trace)
        if (!drivers::enable_traces(category)) return Error{"--trace: unknown category '" + category + "'"};
    drivers::set_trace_sink([](std::string_view line) { log(Priority::Debug, line); });
    if (config_.simulate) {
        if (auto ok = open_simulation(); !ok) return ok;
    }
    if (auto ok = prepare_emulators(); !ok) return ok;
    const std::string state_dir = resolve_state_dir(config_);
    auto store = Store::open(state_dir);
    if (!store) return store.error();
    store_ = std::move(*store);
    recorder_ = std::make_unique<Recorder>(*store_, config_.pgn_dir, &io_);
    // A crash may have come between a commit and a PGN file's rename (recorder.hpp).
    if (const int n = recorder_->repair_pgn_files(); n > 0)
        log_notice("rewrote " + std::to_string(n) + " PGN files that lagged the store");
    if (auto ok = open_events_sink(); !ok) return ok;

    server_ = std::make_unique<ClientServer>(io_, *this);
    if (sd_listen_fds(0) >= 1) {
        if (auto ok = server_->adopt(SD_LISTEN_FDS_START); !ok) return ok;
        log_info("client api: socket from systemd");
    } else if (!config_.socket.empty()) {
        if (auto ok = server_->listen(config_.socket, config_.socket_group); !ok) return ok;
        log_info("client api: listening on " + config_.socket);
    }
    recorder_->add_sink([this](const Event&, const std::string& line) { server_->broadcast(line); });
    recorder_->add_sink([this](const Event& e, const std::string&) {
        if (std::holds_alternative<BoardEvent>(e) || std::holds_alternative<GameEvent>(e)) schedule_status();
    });

    if (simulation_) {
        recorder_->add_sink([this](const Event& e, const std::string&) {
            if (event_board(e) == "simulated") simulation_->observe(e);
        });
        if (config_.events != "-") recorder_->add_sink(console_sink());
    }
    if (auto ok = open_speech(); !ok) return ok;
    for (const auto& b : config_.boards) {
        if (auto p = load_profile(board_rules(config_, b), config_.supervised); !p)
            return Error{"board " + b.name + ": rules: " + p.error().message};
        if (auto tc = parse_time_control(board_time_control(config_, b)); !b.time_control.empty() && !tc)
            return Error{"board " + b.name + ": time-control: " + tc.error().message};
    }
    if (config_.illegal_feedback == IllegalFeedback::Immediate)
        log_warning("--illegal-feedback immediate: players learn of an illegal move before they complete it; "
                    "under the FIDE Laws the arbiter acts once it is completed (7.5.1)");
    // A misspelt driver option or a bad value stops eboardd here, also for a board not plugged in.
    if (auto ok = check_driver_options(config_); !ok) return ok.error();
    for (const auto& b : config_.boards) add_board(b);
    reopen_attached();
    // Unfinished games resume on their boards (after a crash or a restart).
    resume_games();
    return open_emulators();
}

void Daemon::reopen_attached() {
    for (const auto& a : store_->attached_boards()) {
        BoardConfig b;
        b.name = a.name;
        b.uri = a.uri;
        std::string why;
        for (const auto& board : boards_)
            if (board->name() == b.name || same_device(board->board_config().uri, b.uri))
                why = "board " + board->name() + " of the configuration has its name or device";
        if (why.empty()) {
            if (auto ok = check_board_uri(b.uri); !ok) why = ok.error().message;
        }
        if (why.empty()) {
            if (auto ok = configured_driver_options(config_, b); !ok) why = ok.error().message;
        }
        if (why.empty()) {
            if (auto ok = prepare_emulator(b); !ok) why = ok.error().message;
        }
        if (!why.empty()) {
            log_warning("board " + b.name + " (" + b.uri + "), attached before the restart, is forgotten: " + why);
            if (auto ok = store_->forget_attached(b.name); !ok) log_warning(ok.error().message);
            continue;
        }
        add_board(b);
        if (!a.device.empty()) attached_by_[b.name] = a.device;
        log_notice("board " + b.name + " attached before the restart: reopened " + b.uri);
    }
}

void Daemon::wait_signals() {
    signals_.async_wait([this](const boost::system::error_code& ec, int signo) {
        if (ec) return;
        if (signo == SIGHUP) {
            notify_reloading();
            reload();
            notify_ready(status_text()); // reloaded, or kept as it was (the error is logged)
            wait_signals();
            return;
        }
        log_notice(std::string("stopping on ") + (signo == SIGTERM ? "SIGTERM" : "SIGINT"));
        exit_status_ = 0;
        stop();
    });
}

void Daemon::reload() {
    if (config_.config_file.empty()) {
        log_notice("SIGHUP: no --config file to reload");
        return;
    }
    std::ifstream in(config_.config_file);
    std::ostringstream text;
    text << in.rdbuf();
    auto fresh = parse_config_text(text.str(), config_.config_file);
    if (!in || !fresh) {
        log_error("SIGHUP: configuration not reloaded: " +
                  (fresh ? "cannot read " + config_.config_file : fresh.error().message));
        return;
    }
    // Rules and time controls are checked before anything is applied.
    for (const auto& b : fresh->boards) {
        if (auto p = load_profile(board_rules(*fresh, b), config_.supervised); !p) {
            log_error("SIGHUP: configuration not reloaded: board " + b.name + ": rules: " + p.error().message);
            return;
        }
    }
    if (auto p = load_profile(fresh->rules, config_.supervised); !p) {
        log_error("SIGHUP: configuration not reloaded: rules: " + p.error().message);
        return;
    }
    // What can change at run time: PGN tags, rules and time control of the next games.
    // Boards, the socket and the directories stay as they were started; boards attached at
    // run time stay open and remembered (a section of their name gives their next game's tags).
    config_.event = fresh->event;
    config_.site = fresh->site;
    config_.rules = fresh->rules;
    config_.time_control = fresh->time_control;
    if (fresh->driver_options != config_.driver_options) // kept, as a board's own (below)
        log_notice("SIGHUP: driver-options apply at the next start, not now");
    for (auto& board : boards_) {
        // A board keeps its URI; its section's tags and options, or the global ones, apply
        // to its next game.
        BoardConfig next = board->board_config();
        for (const auto& b : fresh->boards)
            if (b.name == next.name) next = b;
        next.uri = board->board_config().uri;
        // The driver was opened with its options: they change with a restart only.
        if (next.driver_options != board->board_config().driver_options)
            log_notice("SIGHUP: board " + next.name + ": driver-options apply at the next start, not now");
        next.driver_options = board->board_config().driver_options;
        board->reconfigure(next, config_);
    }
    log_notice("SIGHUP: configuration reloaded from " + config_.config_file);
}

void Daemon::schedule_status() {
    // At most one STATUS= a second: with many boards each BOARD or GAME event would be a
    // datagram to the service manager, and sd_notify() blocks when its queue is full.
    if (status_pending_) return;
    status_pending_ = true;
    status_timer_.expires_after(std::chrono::seconds(1));
    status_timer_.async_wait([this](const boost::system::error_code& ec) {
        status_pending_ = false;
        if (!ec) notify_status(status_text());
    });
}

void Daemon::arm_watchdog() {
    const auto interval = watchdog_ping_interval();
    if (!interval) return;
    notify_watchdog();
    watchdog_.expires_after(*interval);
    watchdog_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) arm_watchdog();
    });
}

std::string Daemon::status_text() const {
    int connected = 0;
    int games = 0;
    for (const auto& b : boards_) {
        connected += b->connected() ? 1 : 0;
        games += b->game() ? 1 : 0;
    }
    return std::to_string(connected) + "/" + std::to_string(boards_.size()) +
           " boards connected, " + std::to_string(games) + " games in progress";
}

void Daemon::stop() {
    if (stopping_) return; // a simulation that ends during the drain
    stopping_ = true;
    notify_stopping();
    for (auto& e : emulated_)
        if (e.player) e.player->stop();
    if (recorder_) recorder_->finish(); // everything durable before the exit, PGN files too
    for (auto& l : links_) l->stop();
    signals_.cancel();
    watchdog_.cancel();
    status_timer_.cancel();
    // The loop goes on until every client has its last output (or kClientDrain passed): the
    // events sent just before (a simulation's final MOVE, RESULT and GAME end) would be lost.
    if (server_) server_->close_gracefully(kClientDrain, [this] { io_.stop(); });
    else io_.stop();
}

void Daemon::finish_simulation(const std::string& result) {
    if (stopping_) return; // SIGTERM came first: the game stays as the store has it
    BoardSession* board = find_board("simulated");
    int status = 0;
    if (result.empty()) {
        status = 1;
    } else if (board && board->game()) {
        const std::string game = board->game_id();
        // The source game's result, confirmed as an arbiter would (Art. 8.7): a checkmate on
        // the board, else the players' resignation or agreed draw.
        const Termination termination = board->game()->position().is_checkmate() ? Termination::Checkmate
                                        : result == "1/2-1/2"                    ? Termination::Agreement
                                                                                 : Termination::Resignation;
        (void)board->result(result, std::string(to_string(termination)), true, wall_clock_ms());
        recorder_->flush();
        recorder_->sync_pgn_files();
        const std::string pgn = recorder_->pgn_path(game);
        if (!pgn.empty() && config_.events != "-") print_console_line("PGN written to " + pgn);
    }
    on_simulation_done(status);
}

void Daemon::on_simulation_done(int status) {
    exit_status_ = status;
    stop();
}

int Daemon::run() {
    auto ok = open();
    if (!ok) {
        log_error(ok.error().message);
        return 1;
    }
    wait_signals();
    for (auto& l : links_) l->start();
    for (std::size_t i = 0; i < emulated_.size(); ++i) start_player(i);
    arm_watchdog();
    if (simulation_) {
        simulation_->start([this](const std::string& result) {
            boost::asio::post(io_, [this, result] { finish_simulation(result); });
        });
    }
    notify_ready(status_text());
    log_info("eboardd ready: " + status_text());
    io_.run();
    log_info("eboardd stopped");
    return exit_status_;
}

ojson Daemon::execute(const Request& request, const ojson& raw) {
    const std::int64_t now = wall_clock_ms();
    if (std::holds_alternative<BoardsRequest>(request)) {
        ojson list = ojson::array();
        for (const auto& b : boards_) list.push_back(b->status_json());
        ojson r{{"class", "BOARDS"}, {"boards", list}};
        if (raw.contains("id")) r["id"] = raw["id"];
        return r;
    }
    if (const auto* g = std::get_if<GamesRequest>(&request)) {
        ojson list = ojson::array();
        recorder_->flush();
        recorder_->sync_pgn_files(); // the files the reply names show what the store holds
        for (const auto& s : store_->list_games(g->limit)) {
            ojson j{{"game", s.id}, {"board", s.board}, {"result", s.result},
                    {"plies", s.plies}, {"ended", s.ended}};
            const std::string path = recorder_->pgn_path(s.id);
            if (!path.empty()) j["pgn"] = path;
            list.push_back(j);
        }
        ojson r{{"class", "GAMES"}, {"games", list}};
        if (raw.contains("id")) r["id"] = raw["id"];
        return r;
    }
    if (const auto* a = std::get_if<AttachRequest>(&request)) return attach(*a, raw);
    if (const auto* d = std::get_if<DetachRequest>(&request)) return detach(*d, raw);
    if (const auto* q = std::get_if<InfoQuery>(&request)) {
        auto said = speech_->info(q->board, q->request);
        if (!said) return error_reply(said.error().message, raw);
        ojson r{{"class", "INFO"}, {"board", q->board}, {"text", said->text},
                {"language", std::string(said->language)}};
        if (raw.contains("id")) r["id"] = raw["id"];
        return r;
    }
    // The rest acts on one board.
    const std::string board_name = raw.value("board", "");
    BoardSession* board = find_board(board_name);
    if (!board) return error_reply("no board '" + board_name + "'", raw);
    Expected<bool> ok = true;
    ojson reply = ok_reply(raw);
    if (const auto* n = std::get_if<NewGameRequest>(&request)) {
        auto id = board->new_game(n->fen, now);
        if (!id) return error_reply(id.error().message, raw);
        reply["game"] = *id;
    } else if (const auto* p = std::get_if<SetPositionRequest>(&request)) {
        ok = board->set_position(p->fen, now);
    } else if (const auto* t = std::get_if<TakebackRequest>(&request)) {
        ok = board->take_back(t->ply, now);
    } else if (const auto* r = std::get_if<ResultRequest>(&request)) {
        ok = board->check_result_command(r->result, r->termination);
        if (ok) ok = board->result(r->result, r->termination, r->confirmed, now);
    } else if (const auto* pen = std::get_if<PenaltyRequest>(&request)) {
        BoardLink* link = link_of(board);
        if (!link) return error_reply("board '" + board->name() + "' has no clock link", raw);
        auto done = link->penalty(pen->apply);
        if (!done) return error_reply(done.error().message, raw);
        reply["penalty"] = *done;
    } else if (const auto* c = std::get_if<ClockRequest>(&request)) {
        BoardLink* link = link_of(board);
        if (!link) return error_reply("board '" + board->name() + "' has no clock link", raw);
        ok = link->set_clock(c->white_ms, c->black_ms);
        if (ok)
            recorder_->submit([board = board->name(), game = board->game_id(), text = raw.dump(), now](Store& store) {
                return store.record_note(board, game, "CLOCK", text, now);
            });
    }
    if (ok && (std::holds_alternative<NewGameRequest>(request) ||
               std::holds_alternative<SetPositionRequest>(request) ||
               std::holds_alternative<TakebackRequest>(request)))
        if (BoardLink* link = link_of(board)) link->restart_game();
    if (!ok) return error_reply(ok.error().message, raw);
    if (board->game()) reply["game"] = board->game()->game();
    return reply;
}

} // namespace eboard::daemon

namespace eboard::daemon {

ojson Daemon::attach(const AttachRequest& a, const ojson& raw) {
    std::string uri = a.uri;
    if (uri.empty()) {
        auto found = board_uri_of_device(a.device);
        if (!found) return error_reply(found.error().message, raw);
        uri = *found;
    }
    if (auto ok = check_board_uri(uri); !ok) return error_reply(ok.error().message, raw);
    BoardConfig b;
    b.uri = uri;
    b.name = a.name.empty() ? uri : a.name;
    // Already open (a configured board, or attached before): nothing to do, as the
    // eboardd-device@ unit of a configured board expects.
    for (const auto& board : boards_)
        if (same_device(board->board_config().uri, uri)) {
            ojson r = ok_reply(raw);
            r["board"] = board->name();
            r["attached"] = false;
            return r;
        }
    if (find_board(b.name)) return error_reply("a board named '" + b.name + "' is already open", raw);
    if (auto ok = configured_driver_options(config_, b); !ok) return error_reply(ok.error().message, raw);
    if (auto ok = prepare_emulator(b); !ok) return error_reply(ok.error().message, raw);
    add_board(b);
    BoardSession* board = boards_.back().get();
    // The same device DETACHed a moment ago: its old thread may still hold it (closing, or
    // stuck in a transfer). The new link waits for it on its own thread, never here.
    for (const auto& r : retired_)
        if (same_device(r->board->board_config().uri, uri)) links_.back()->open_after(r->closed);
    resume_games(board); // its game, if it was detached (or unplugged) in the middle of one
    if (!emulated_.empty() && emulated_.back().board == b.name && !emulated_.back().emulator) {
        if (auto ok = open_emulator(emulated_.size() - 1); !ok) {
            links_.pop_back();
            boards_.pop_back();
            emulated_.pop_back();
            return error_reply(ok.error().message, raw);
        }
        links_.back()->start();
        start_player(emulated_.size() - 1);
    } else {
        links_.back()->start();
    }
    if (!a.device.empty()) attached_by_[b.name] = a.device;
    // Remembered (durably, before the reply) until a DETACH: a restarted eboardd reopens it.
    recorder_->submit([board = AttachedBoard{b.name, uri, a.device}](Store& store) {
        return store.remember_attached(board);
    });
    recorder_->flush();
    log_notice("board " + b.name + " attached: " + uri);
    schedule_status();
    ojson r = ok_reply(raw);
    r["board"] = b.name;
    r["attached"] = true;
    if (board->game()) r["game"] = board->game()->game();
    return r;
}

ojson Daemon::detach(const DetachRequest& d, const ojson& raw) {
    std::string name = d.board;
    if (!d.device.empty()) {
        for (const auto& [board, device] : attached_by_)
            if (device == d.device) name = board;
        if (name.empty()) {
            // Not attached by that node (a configured board, or none): nothing to close.
            ojson r = ok_reply(raw);
            r["detached"] = false;
            return r;
        }
    }
    BoardSession* board = find_board(name);
    if (!board) return error_reply("no board '" + name + "'", raw);
    const std::string closed = board->name();
    for (std::size_t i = 0; i < boards_.size(); ++i) {
        if (boards_[i].get() != board) continue;
        // Never waited for here: a device thread stuck in a transfer would stall every board
        // and client. The thread is joined off the loop (retire()).
        links_[i]->request_stop();
        // The game stays in the store, unfinished: it resumes when the board is attached again.
        board->set_connected(false, wall_clock_ms());
        recorder_->submit([closed](Store& store) { return store.forget_attached(closed); });
        recorder_->flush();
        for (auto& e : emulated_)
            if (e.board == closed && e.player) e.player->stop(); // the emulator outlives its link
        retire(std::move(links_[i]), std::move(boards_[i]));
        links_.erase(links_.begin() + static_cast<std::ptrdiff_t>(i));
        boards_.erase(boards_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
    }
    attached_by_.erase(closed);
    log_notice("board " + closed + " detached");
    schedule_status();
    ojson r = ok_reply(raw);
    r["board"] = closed;
    r["detached"] = true;
    return r;
}

void Daemon::retire(std::unique_ptr<BoardLink> link, std::unique_ptr<BoardSession> board) {
    auto r = std::make_unique<Retired>();
    r->link = std::move(link);
    r->board = std::move(board);
    std::promise<void> closed;
    r->closed = closed.get_future().share();
    r->joiner = std::thread([this, link = r->link.get(), entry = r.get(), state = retire_state_,
                             closed = std::move(closed)]() mutable {
        link->join();
        closed.set_value();
        std::lock_guard lock(state->mutex);
        entry->done = true;
        state->ended.notify_all();
        if (!state->daemon_gone) boost::asio::post(io_, [this] { reap_retired(); });
    });
    retired_.push_back(std::move(r));
}

void Daemon::reap_retired() {
    std::vector<std::unique_ptr<Retired>> ended;
    {
        std::lock_guard lock(retire_state_->mutex);
        for (auto it = retired_.begin(); it != retired_.end();) {
            if ((*it)->done) {
                ended.push_back(std::move(*it));
                it = retired_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto& r : ended) r->joiner.join(); // it has posted this, or is about to return
    // `ended` goes here: the links and sessions are freed on the loop's thread.
}

void Daemon::abandon_retired(int wait_ms) {
    {
        std::unique_lock lock(retire_state_->mutex);
        retire_state_->ended.wait_for(lock, std::chrono::milliseconds(wait_ms), [this] {
            return std::all_of(retired_.begin(), retired_.end(), [](const auto& r) { return r->done; });
        });
        retire_state_->daemon_gone = true;
    }
    for (auto& r : retired_) {
        if (r->done) {
            r->joiner.join();
            continue;
        }
        // Its device never returned: the thread keeps what it uses (the process is exiting).
        log_warning("board " + r->board->name() + ": its device did not close; left to the exit");
        r->joiner.detach();
        (void)r->link.release();
        (void)r->board.release();
        (void)r.release();
    }
    retired_.clear();
}

} // namespace eboard::daemon
