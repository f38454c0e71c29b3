#include "daemon/daemon.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include <boost/asio/post.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "daemon/board_attach.hpp"
#include "daemon/console.hpp"
#include "daemon/device_link.hpp"
#include "daemon/driver_options.hpp"
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
    : config_(std::move(config)), emulated_(config_.speed),
      supervisor_(io_, Supervisor::Hooks{[this](int) {
                                             exit_status_ = 0;
                                             stop();
                                         },
                                         [this] { reload_config(config_, boards_); },
                                         [this] { return boards_.status_text(); }}) {}

Daemon::~Daemon() {
    emulated_.stop();
    boards_.stop_all();
    retired_.abandon(kRetiredExitWaitMs);
    if (server_) server_->close();
    if (http_) http_->close();
    if (events_owned_ && events_fd_ >= 0) ::close(events_fd_);
    if (lock_fd_ >= 0) ::close(lock_fd_); // the state directory's lock goes with it
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
            if (BoardRecord* board = boards_.find(a.board)) board->session->alert(std::move(a), wall_clock_ms());
        });
    });
    if (!sink) return sink.error();
    speech_ = std::move(*sink);
    // INFO clocks: what the clock shows now, not the times of the last completed move.
    speech_->set_clock_now([this](const std::string& name) -> std::optional<MoveClock> {
        const BoardRecord* board = boards_.find(name);
        return board ? board->session->clock_times() : std::nullopt;
    });
    log_info(speech_->note());
    // A move made is said at once, before the store's fsync (D.2.3; recorder.hpp says why).
    recorder_->add_sink([this](const Event& e, const std::string&) { speech_->observe(e); },
                        Recorder::Delivery::OnPublish);
    return true;
}

BoardRecord& Daemon::add_board(const BoardConfig& b) {
    auto session = std::make_unique<BoardSession>(b, config_, *recorder_);
    session->on_clock_button = [this, name = b.name](int button, std::int64_t at_ms) {
        speech_->clock_button(name, button, at_ms);
    };
    // The LiveChess eBoards API follows what the board shows; its serial number, once read, names it.
    session->on_live_change = [this](const BoardSession& s) {
        if (livechess_) livechess_->board_changed(s.name());
    };
    if (auto kept = store_->board_settings(b.name); kept.contains("serial"))
        session->update_live([&](BoardLive& l) { l.serial = kept["serial"]; });
    auto link = std::make_unique<DeviceLink>(io_, deadlines_, *session, config_);
    // What the driver learnt comes back from the store when the board is opened (an emu-
    // board's opener is set again by EmulatedBoards::open), and goes to it when it learns more.
    link->set_opener([uri = b.uri, options = driver_options(*session, true)](drivers::DeviceSession::EventSink sink,
                                                                            int cancel_fd) {
        return drivers::open_device(uri, std::move(sink), options, drivers::steady_now_ms, drivers::ReconnectPolicy{},
                                    cancel_fd);
    });
    link->on_learned([this, name = b.name](const BoardSettings& settings) {
        recorder_->submit([name, settings](Store& store) -> Expected<bool> {
            for (const auto& [key, value] : settings)
                if (auto ok = store.set_board_setting(name, key, value); !ok) return ok;
            return true;
        });
        log_info("board " + name + ": saved what its driver learnt (" + std::to_string(settings.size()) + " settings)");
    });
    return boards_.add(BoardRecord{std::move(session), std::move(link), {}});
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
        BoardRecord* found = boards_.find(record->board);
        BoardSession* board = found ? found->session.get() : nullptr;
        if (!board || board->game() || (only && board != only)) continue;
        if (auto ok = board->resume(id); !ok)
            log_warning("cannot resume game " + id + ": " + ok.error().message);
    }
}

namespace {

// A TimeControl value eboardd can play under: PGN syntax (rules/time_control.hpp), and every
// period gives time (a `0` or `0+0` would flag the first player at once).
Expected<bool> check_time_control(const std::string& text) {
    auto tc = parse_time_control(text);
    if (!tc) return tc.error();
    for (const auto& p : tc->periods)
        if (p.time_ms <= 0) return Error{"'" + text + "' gives a period no time"};
    return true;
}

// Whether eboardd can write its PGN files in `dir` (created if missing): a file is created in
// it and removed.
Expected<bool> check_writable_dir(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{"cannot create '" + dir + "': " + ec.message()};
    const std::string probe = dir + "/.eboardd-probe-" + std::to_string(::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return Error{"cannot write in '" + dir + "': " + std::strerror(errno)};
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

} // namespace

Expected<bool> Daemon::check_config() {
    // Refuse what would only fail later, at the first game or the first write.
    if (auto p = load_profile(config_.rules, config_.supervised); !p) return Error{"--rules: " + p.error().message};
    if (!config_.time_control.empty()) {
        if (auto tc = check_time_control(config_.time_control); !tc)
            return Error{"--time-control: " + tc.error().message};
    }
    for (const auto& category : config_.trace)
        if (!drivers::enable_traces(category)) return Error{"--trace: unknown category '" + category + "'"};
    for (const auto& b : config_.boards) {
        // A --board is named by its URI; a [board.NAME] section by its name.
        const std::string where = b.name == b.uri ? "--board " + b.uri : "[board." + b.name + "]";
        if (auto ok = check_board_uri(b.uri); !ok) return Error{where + ": " + ok.error().message};
        if (auto p = load_profile(board_rules(config_, b), config_.supervised); !p)
            return Error{where + ": rules: " + p.error().message};
        if (auto tc = check_time_control(b.time_control); !b.time_control.empty() && !tc)
            return Error{where + ": time-control: " + tc.error().message};
    }
    if (!config_.pgn_dir.empty()) {
        if (auto ok = check_writable_dir(config_.pgn_dir); !ok) return Error{"--pgn-dir: " + ok.error().message};
    }
    if (!config_.http.empty()) {
        if (auto ok = HttpConsole::check(config_.http, config_.arbiter_password_file); !ok) return ok.error();
    } else if (!config_.arbiter_password_file.empty()) {
        return Error{"--arbiter-password-file: only with --http (the console's actions need it)"};
    }
    if (!config_.hall.mqtt.empty()) {
        if (auto ok = hall_client_options(config_.hall, hall_host_name(config_.hall)); !ok) return ok.error();
    }
    return true;
}

Expected<bool> Daemon::lock_state_dir(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{"--state-dir: cannot create '" + dir + "': " + ec.message()};
    const std::string path = dir + "/eboardd.lock";
    lock_fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0) return Error{"--state-dir: cannot open " + path + ": " + std::strerror(errno)};
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        char pid[32] = {};
        const ssize_t n = ::pread(lock_fd_, pid, sizeof pid - 1, 0);
        const std::string holder = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : std::string("?");
        if (err == EWOULDBLOCK)
            return Error{"--state-dir: " + dir + " is in use by another eboardd (pid " + holder + "); not started"};
        return Error{"--state-dir: cannot lock " + path + ": " + std::strerror(err)};
    }
    // The holder's pid, for the message above (the lock, not the file, is what counts).
    const std::string pid = std::to_string(::getpid());
    if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid.data(), pid.size(), 0) < 0)
        log_warning("--state-dir: cannot write the pid into " + path + ": " + std::strerror(errno));
    return true;
}

Expected<bool> Daemon::open() {
    drivers::set_trace_sink([](std::string_view line) { log(Priority::Debug, line); });
    if (config_.simulate) {
        if (auto ok = emulated_.open_simulation(config_); !ok) return ok;
    }
    for (auto& b : config_.boards)
        if (auto ok = emulated_.prepare(b, config_); !ok) return ok;
    const std::string state_dir = resolve_state_dir(config_);
    if (auto ok = lock_state_dir(state_dir); !ok) return ok;
    auto store = Store::open(state_dir);
    if (!store) return store.error();
    store_ = std::move(*store);
    recorder_ = std::make_unique<Recorder>(*store_, config_.pgn_dir, &io_);
    // A crash may have come between a commit and a PGN file's rename (recorder.hpp).
    if (const int n = recorder_->repair_pgn_files(); n > 0)
        log_notice("rewrote " + std::to_string(n) + " PGN files that lagged the store");
    if (auto ok = open_events_sink(); !ok) return ok;
    // The speech sink hears each event as it is published (Delivery::OnPublish), the others
    // once it is recorded, in the order they are added.
    if (auto ok = open_speech(); !ok) return ok;
    if (!config_.hall.mqtt.empty()) {
        const std::string host = hall_host_name(config_.hall);
        auto options = hall_client_options(config_.hall, host);
        if (!options) return options.error();
        hall_ = std::make_unique<HallPublisher>(io_, *store_, std::move(*options), host);
        if (config_.hall.confirm)
            if (auto ok = hall_->confirm_end_to_end(); !ok) return ok.error();
        hall_->start(*recorder_);
    }

    dispatcher_ = std::make_unique<RequestDispatcher>(
        boards_, *recorder_, *speech_, [this](const AttachRequest& a, const ojson& raw) { return attach(a, raw); },
        [this](const DetachRequest& d, const ojson& raw) { return detach(d, raw); });
    server_ = std::make_unique<ClientServer>(io_, *dispatcher_, static_cast<std::size_t>(config_.max_clients));
    if (auto ok = open_hall_requests(); !ok) return ok;
    if (sd_listen_fds(0) >= 1) {
        if (auto ok = server_->adopt(SD_LISTEN_FDS_START); !ok) return ok;
        log_info("client api: socket from systemd");
    } else if (!config_.socket.empty()) {
        if (auto ok = server_->listen(config_.socket, config_.socket_group); !ok) return ok;
        log_info("client api: listening on " + config_.socket);
    }
    recorder_->add_sink([this](const Event&, const std::string& line) { server_->broadcast(line); });
    if (!config_.http.empty()) {
        auto console = HttpConsole::open(io_, config_.http, config_.arbiter_password_file, *dispatcher_);
        if (!console) return console.error();
        http_ = std::move(*console);
        log_info("arbiters' console: http://" + config_.http + "/ (port " + std::to_string(http_->port()) + ")");
        recorder_->add_sink([this](const Event&, const std::string& line) { http_->observe(line); });
    }
    recorder_->add_sink([this](const Event& e, const std::string&) {
        if (std::holds_alternative<BoardEvent>(e) || std::holds_alternative<GameEvent>(e))
            supervisor_.schedule_status();
    });
    if (!config_.livechess_api.empty()) {
        auto api = LiveChessApi::open(io_, boards_, *recorder_, config_.livechess_api);
        if (!api) return api.error();
        livechess_ = std::move(*api);
    }

    if (Simulation* simulation = emulated_.simulation()) {
        recorder_->add_sink([simulation](const Event& e, const std::string&) {
            if (event_board(e) == "simulated") simulation->observe(e);
        });
        if (config_.events != "-") recorder_->add_sink(console_sink());
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
    return emulated_.open_all(boards_, *recorder_,
                              [this](const BoardRecord& r) { return driver_options(*r.session, false); });
}

Expected<bool> Daemon::open_hall_requests() {
    if (config_.hall.mqtt.empty()) return true;
    const std::string host = hall_host_name(config_.hall);
    auto options = hall_client_options(config_.hall, host);
    if (!options) return options.error();
    hall_requests_ = std::make_unique<HallRequests>(io_, std::move(*options), host, *dispatcher_);
    hall_requests_->start();
    return true;
}

void Daemon::reopen_attached() {
    for (const auto& a : store_->attached_boards()) {
        BoardConfig b;
        b.name = a.name;
        b.uri = a.uri;
        std::string why;
        for (const auto& board : boards_.records())
            if (board.session->name() == b.name || same_device(board.session->board_config().uri, b.uri))
                why = "board " + board.session->name() + " of the configuration has its name or device";
        if (why.empty()) {
            if (auto ok = check_attach_uri(b.uri); !ok) why = ok.error().message;
        }
        if (why.empty()) {
            if (auto ok = configured_driver_options(config_, b); !ok) why = ok.error().message;
        }
        if (why.empty()) {
            if (auto ok = emulated_.prepare(b, config_); !ok) why = ok.error().message;
        }
        if (!why.empty()) {
            log_warning("board " + b.name + " (" + b.uri + "), attached before the restart, is forgotten: " + why);
            if (auto ok = store_->forget_attached(b.name); !ok) log_warning(ok.error().message);
            continue;
        }
        add_board(b).device = a.device;
        log_notice("board " + b.name + " attached before the restart: reopened " + b.uri);
    }
}

void Daemon::stop() {
    if (stopping_) return; // a simulation that ends during the drain
    stopping_ = true;
    notify_stopping();
    emulated_.stop_players();
    // Everything durable before the exit, PGN files too; a store that still fails after the
    // retries: exit 1, the events not stored in the log (Recorder::finish).
    if (recorder_ && !recorder_->finish()) exit_status_ = 1;
    if (hall_requests_) hall_requests_->stop();
    if (hall_) hall_->stop(); // `offline`; what the broker has not acknowledged waits in the store
    boards_.stop_all();
    if (livechess_) livechess_->close();
    supervisor_.cancel();
    if (http_) http_->close();
    // The loop goes on until every client has its last output (or kClientDrain passed): the
    // events sent just before (a simulation's final MOVE, RESULT and GAME end) would be lost.
    if (server_) server_->close_gracefully(kClientDrain, [this] { io_.stop(); });
    else io_.stop();
}

void Daemon::finish_simulation(const std::string& result) {
    if (stopping_) return; // SIGTERM came first: the game stays as the store has it
    BoardRecord* found = boards_.find("simulated");
    BoardSession* board = found ? found->session.get() : nullptr;
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
    exit_status_ = status;
    stop();
}

int Daemon::run() {
    // A configuration eboardd cannot run: exit 2, as for a bad command line (eboardd(8)).
    if (auto checked = check_config(); !checked) {
        log_error(checked.error().message);
        return 2;
    }
    auto ok = open();
    if (!ok) {
        log_error(ok.error().message);
        return 1;
    }
    supervisor_.start();
    boards_.start_all();
    emulated_.start_all(boards_);
    if (Simulation* simulation = emulated_.simulation()) {
        simulation->start([this](const std::string& result) {
            boost::asio::post(io_, [this, result] { finish_simulation(result); });
        });
    }
    notify_ready(boards_.status_text());
    log_info("eboardd ready: " + boards_.status_text());
    io_.run();
    log_info("eboardd stopped");
    // Everything is recorded (stop()): another eboardd may take the state directory now.
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
    return exit_status_;
}

ojson Daemon::attach(const AttachRequest& a, const ojson& raw) {
    std::string uri = a.uri;
    if (uri.empty()) {
        auto found = board_uri_of_device(a.device);
        if (!found) return error_reply(ErrorCode::UnknownDevice, found.error().message, raw);
        uri = *found;
    }
    if (auto ok = check_attach_uri(uri); !ok) return error_reply(ErrorCode::BadUri, ok.error().message, raw);
    BoardConfig b;
    b.uri = uri;
    b.name = a.name.empty() ? uri : a.name;
    // Already open (a configured board, or attached before): nothing to do, as the
    // eboardd-device@ unit of a configured board expects.
    for (const auto& board : boards_.records())
        if (same_device(board.session->board_config().uri, uri)) {
            ojson r = ok_reply(raw);
            r["board"] = board.session->name();
            r["attached"] = false;
            return r;
        }
    if (boards_.find(b.name))
        return error_reply(ErrorCode::NameTaken, "a board named '" + b.name + "' is already open", raw);
    if (auto ok = configured_driver_options(config_, b); !ok)
        return error_reply(ErrorCode::BadUri, ok.error().message, raw);
    if (auto ok = emulated_.prepare(b, config_); !ok) return error_reply(ErrorCode::BadUri, ok.error().message, raw);
    BoardRecord& board = add_board(b);
    // The same device DETACHed a moment ago: its old thread may still hold it (closing, or
    // stuck in a transfer). The new link waits for it on its own thread, never here.
    if (auto closed = retired_.closed_of(uri)) board.link->open_after(*closed);
    resume_games(board.session.get()); // its game, if it was detached (or unplugged) in the middle of one
    if (emulated_.awaits_open(b.name)) {
        if (auto ok = emulated_.open(board, *recorder_, [this](const BoardRecord& r) {
                return driver_options(*r.session, false);
            });
            !ok) {
            boards_.drop_last();
            return error_reply(ErrorCode::Internal, ok.error().message, raw);
        }
        board.link->start();
        emulated_.start(board);
    } else {
        board.link->start();
    }
    board.device = a.device;
    // Remembered (durably, before the reply) until a DETACH: a restarted eboardd reopens it.
    recorder_->submit([remembered = AttachedBoard{b.name, uri, a.device}](Store& store) {
        return store.remember_attached(remembered);
    });
    recorder_->flush();
    log_notice("board " + b.name + " attached: " + uri);
    supervisor_.schedule_status();
    ojson r = ok_reply(raw);
    r["board"] = b.name;
    r["attached"] = true;
    if (board.session->game()) r["game"] = board.session->game()->game();
    return r;
}

ojson Daemon::detach(const DetachRequest& d, const ojson& raw) {
    std::string name = d.board;
    if (!d.device.empty()) {
        const BoardRecord* by = boards_.find_by_device(d.device);
        if (!by) {
            // Not attached by that node (a configured board, or none): nothing to close.
            ojson r = ok_reply(raw);
            r["detached"] = false;
            return r;
        }
        name = by->session->name();
    }
    BoardRecord* found = boards_.find(name);
    if (!found) return error_reply(ErrorCode::UnknownBoard, "no board '" + name + "'", raw);
    const std::string closed = found->session->name();
    // Never waited for here: a device thread stuck in a transfer would stall every board
    // and client. The thread is joined off the loop (RetiredBoards).
    found->link->request_stop();
    // The game stays in the store, unfinished: it resumes when the board is attached again.
    found->session->set_connected(false, wall_clock_ms());
    recorder_->submit([closed](Store& store) { return store.forget_attached(closed); });
    recorder_->flush();
    emulated_.stop_player(closed); // the emulator outlives its link
    retired_.retire(boards_.take(found->session.get()));
    log_notice("board " + closed + " detached");
    supervisor_.schedule_status();
    ojson r = ok_reply(raw);
    r["board"] = closed;
    r["detached"] = true;
    return r;
}

} // namespace eboard::daemon
