// The daemon's dealings with the process and the service manager (systemd.service(5),
// sd_notify(3)), and nothing of the boards: SIGTERM and SIGINT stop it (exit 0, everything
// durable), SIGHUP reloads the configuration file, the watchdog is pinged at half the interval
// systemd asks for (WatchdogSec=), and STATUS= lines go out at most once a second.
//
// Contract: it runs on the event loop's thread only; it calls back into the daemon through
// three functions (stop, reload, status) and owns no board, store or client. A reload is framed
// by RELOADING=1 and READY=1 (with the status after it), whether or not the file was taken.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <functional>
#include <string>

#include "daemon/config.hpp"

namespace eboard::daemon {

class BoardRegistry;

class Supervisor {
  public:
    /// What the daemon does on the supervisor's behalf (each called on the loop's thread).
    struct Hooks {
        std::function<void(int signo)> stop;   ///< SIGTERM or SIGINT came
        std::function<void()> reload;          ///< SIGHUP came: read the configuration again
        std::function<std::string()> status;   ///< the STATUS= text, e.g. "1/2 boards connected, ..."
    };

    Supervisor(boost::asio::io_context& io, Hooks hooks);

    /// Waits for the signals and starts the watchdog pings.
    void start();
    /// A STATUS= line with status() within a second (several requests give one line: with many
    /// boards every BOARD or GAME event would be a datagram, and sd_notify blocks when its queue is full).
    void schedule_status();
    /// Stops waiting for signals and timers (at exit).
    void cancel();

  private:
    void wait_signals();
    void arm_watchdog();

    Hooks hooks_;
    boost::asio::signal_set signals_;
    boost::asio::steady_timer watchdog_;
    boost::asio::steady_timer status_timer_;
    bool status_pending_ = false;
};

/// SIGHUP: reads `config.config_file` again and applies what may change at run time to
/// `config` and to every open board of `boards` (their next games): PGN tags, rules and time
/// control. Boards, the socket, the directories and driver options stay as started (logged
/// when they differ). Rules are checked first: a file that does not read, or names a rules
/// profile that does not load, changes nothing (the error is logged).
void reload_config(Config& config, BoardRegistry& boards);

} // namespace eboard::daemon
