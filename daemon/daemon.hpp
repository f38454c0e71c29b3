// eboardd: one single-threaded Boost.Asio io_context that runs the boards, the client socket,
// the signals and the systemd watchdog. The Daemon puts the rooms together and runs the boards'
// lifecycle (open at start, ATTACH, DETACH, exit); each room has one job:
//   Supervisor         signals (TERM/INT: exit 0 with everything durable; HUP: reload), sd_notify
//   BoardRegistry      one record per open board: its session, its link, how it was attached
//   RetiredBoards      the device threads of detached boards, joined off the loop
//   RequestDispatcher  the client API's requests, one handler per request type
//   EmulatedBoards     `--simulate` and `emu-` boards (the emulators library)
//   Recorder, Store, ClientServer, SpeechSink: the store and the sinks of the events.
//   HallPublisher      --mqtt: the events to the hall's broker, through the store's outbox
//   HttpConsole        --http: the arbiters' console (docs/console.md)
#pragma once

#include <boost/asio/io_context.hpp>

#include <memory>
#include <string>

#include "daemon/board_registry.hpp"
#include "daemon/client_api.hpp"
#include "daemon/config.hpp"
#include "daemon/deadlines.hpp"
#include "daemon/emulated_boards.hpp"
#include "daemon/hall_publisher.hpp"
#include "daemon/hall_requests.hpp"
#include "daemon/http_console.hpp"
#include "daemon/livechess_api.hpp"
#include "daemon/recorder.hpp"
#include "daemon/request_dispatch.hpp"
#include "daemon/retired_boards.hpp"
#include "daemon/speech_sink.hpp"
#include "daemon/store.hpp"
#include "daemon/supervisor.hpp"

namespace eboard::daemon {

class Daemon final {
  public:
    explicit Daemon(Config config);
    ~Daemon();
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    /// Opens the store, the sinks, the socket and the boards, then runs until a signal or,
    /// with --simulate, the end of the simulated game. Returns the exit status.
    int run();

    /// Asks the loop to stop (from the loop's thread): everything durable, the clients get
    /// their queued output (at most 500 ms, ClientServer::close_gracefully), then run() returns.
    void stop();

    [[nodiscard]] boost::asio::io_context& io() { return io_; }

  private:
    /// The configuration's checks that need more than its syntax (rules profiles, time
    /// controls, board URIs, the PGN directory written); an error names the option.
    [[nodiscard]] Expected<bool> check_config();
    /// Takes the state directory's lock (flock of `dir`/eboardd.lock, held until run() returns): one
    /// eboardd per store. An error names the pid of the eboardd that holds it.
    [[nodiscard]] Expected<bool> lock_state_dir(const std::string& dir);
    [[nodiscard]] Expected<bool> open();
    [[nodiscard]] Expected<bool> open_events_sink();
    [[nodiscard]] Expected<bool> open_speech();
    /// --mqtt: takes the arbiters' requests from the hub (hall_requests.hpp).
    [[nodiscard]] Expected<bool> open_hall_requests();
    /// The simulated player is done: confirm the source game's result ("" = it failed), stop.
    void finish_simulation(const std::string& result);
    /// A board's session and link (not started), in the registry.
    BoardRecord& add_board(const BoardConfig& board);
    /// The options the board's driver is opened with: what it learnt before (the store) with
    /// the configured `driver-options` over it (driver_options.hpp); when `say`, each
    /// configured value taken over a learnt one is logged.
    [[nodiscard]] drivers::DriverOptions driver_options(const BoardSession& board, bool say);
    /// The boards attached before a restart (the store's attached_boards), opened like
    /// configured ones: an absent board is waited for. One whose name or device a configured
    /// board now has, or whose URI no longer opens, is forgotten (logged).
    void reopen_attached();
    /// Takes up the unfinished games of the boards (or of `only`) from the store.
    void resume_games(const BoardSession* only = nullptr);
    /// ATTACH / DETACH (client-api.md): a board opened or closed at run time.
    [[nodiscard]] ojson attach(const AttachRequest& request, const ojson& raw);
    [[nodiscard]] ojson detach(const DetachRequest& request, const ojson& raw);

    boost::asio::io_context io_;
    Deadlines deadlines_{io_}; ///< every board's reconstruction timers (outlives the links)
    Config config_;
    std::unique_ptr<Store> store_;
    std::unique_ptr<Recorder> recorder_;
    std::unique_ptr<HallPublisher> hall_; ///< --mqtt (before the boards: it sees their first events)
    std::unique_ptr<ClientServer> server_;
    std::unique_ptr<HttpConsole> http_; ///< --http: the arbiters' console
    EmulatedBoards emulated_;
    BoardRegistry boards_;
    RetiredBoards retired_{io_};
    std::unique_ptr<SpeechSink> speech_; ///< Appendix D: speech, INFO, two-board games
    std::unique_ptr<RequestDispatcher> dispatcher_;
    std::unique_ptr<HallRequests> hall_requests_; ///< --mqtt: the arbiters' requests from the hub
    std::unique_ptr<LiveChessApi> livechess_; ///< --livechess-api; after boards_: it reads them
    Supervisor supervisor_;
    int events_fd_ = -1;
    int lock_fd_ = -1; ///< the state directory's lock (lock_state_dir)
    bool events_owned_ = false;
    int exit_status_ = 0;
    bool stopping_ = false; ///< stop() ran: the loop only writes the clients' last output
};

} // namespace eboard::daemon
