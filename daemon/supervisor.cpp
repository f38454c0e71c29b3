#include "daemon/supervisor.hpp"

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <utility>

#include "daemon/board_registry.hpp"
#include "daemon/log.hpp"
#include "daemon/notify.hpp"
#include "daemon/rules_profile.hpp"

namespace eboard::daemon {

Supervisor::Supervisor(boost::asio::io_context& io, Hooks hooks)
    : hooks_(std::move(hooks)), signals_(io, SIGINT, SIGTERM, SIGHUP), watchdog_(io), status_timer_(io) {}

void Supervisor::start() {
    wait_signals();
    arm_watchdog();
}

void Supervisor::cancel() {
    signals_.cancel();
    watchdog_.cancel();
    status_timer_.cancel();
}

void Supervisor::wait_signals() {
    signals_.async_wait([this](const boost::system::error_code& ec, int signo) {
        if (ec) return;
        if (signo == SIGHUP) {
            notify_reloading();
            hooks_.reload();
            notify_ready(hooks_.status()); // reloaded, or kept as it was (the error is logged)
            wait_signals();
            return;
        }
        log_notice(std::string("stopping on ") + (signo == SIGTERM ? "SIGTERM" : "SIGINT"));
        hooks_.stop(signo);
    });
}

void Supervisor::schedule_status() {
    if (status_pending_) return;
    status_pending_ = true;
    status_timer_.expires_after(std::chrono::seconds(1));
    status_timer_.async_wait([this](const boost::system::error_code& ec) {
        status_pending_ = false;
        if (!ec) notify_status(hooks_.status());
    });
}

void Supervisor::arm_watchdog() {
    const auto interval = watchdog_ping_interval();
    if (!interval) return;
    notify_watchdog();
    watchdog_.expires_after(*interval);
    watchdog_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) arm_watchdog();
    });
}

void reload_config(Config& config, BoardRegistry& boards) {
    if (config.config_file.empty()) {
        log_notice("SIGHUP: no --config file to reload");
        return;
    }
    std::ifstream in(config.config_file);
    std::ostringstream text;
    text << in.rdbuf();
    auto fresh = parse_config_text(text.str(), config.config_file);
    if (!in || !fresh) {
        log_error("SIGHUP: configuration not reloaded: " +
                  (fresh ? "cannot read " + config.config_file : fresh.error().message));
        return;
    }
    // Rules and time controls are checked before anything is applied.
    for (const auto& b : fresh->boards) {
        if (auto p = load_profile(board_rules(*fresh, b), config.supervised); !p) {
            log_error("SIGHUP: configuration not reloaded: board " + b.name + ": rules: " + p.error().message);
            return;
        }
    }
    if (auto p = load_profile(fresh->rules, config.supervised); !p) {
        log_error("SIGHUP: configuration not reloaded: rules: " + p.error().message);
        return;
    }
    // What can change at run time: PGN tags, rules and time control of the next games.
    // Boards, the socket and the directories stay as they were started; boards attached at
    // run time stay open and remembered (a section of their name gives their next game's tags).
    config.event = fresh->event;
    config.site = fresh->site;
    config.rules = fresh->rules;
    config.time_control = fresh->time_control;
    if (fresh->driver_options != config.driver_options) // kept, as a board's own (below)
        log_notice("SIGHUP: driver-options apply at the next start, not now");
    for (auto& record : boards.records()) {
        BoardSession& board = *record.session;
        // A board keeps its URI; its section's tags and options, or the global ones, apply
        // to its next game.
        BoardConfig next = board.board_config();
        for (const auto& b : fresh->boards)
            if (b.name == next.name) next = b;
        next.uri = board.board_config().uri;
        // The driver was opened with its options: they change with a restart only.
        if (next.driver_options != board.board_config().driver_options)
            log_notice("SIGHUP: board " + next.name + ": driver-options apply at the next start, not now");
        next.driver_options = board.board_config().driver_options;
        board.reconfigure(next, config);
    }
    log_notice("SIGHUP: configuration reloaded from " + config.config_file);
}

} // namespace eboard::daemon
