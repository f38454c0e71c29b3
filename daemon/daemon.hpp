// eboardd's event loop: one single-threaded Boost.Asio io_context that runs the boards, the
// client socket, the signals (SIGTERM/SIGINT: exit 0 with everything durable; SIGHUP: reload
// the configuration file) and the systemd watchdog. It routes the arbiter's requests to the
// boards (CommandHandler).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <memory>
#include <string>
#include <vector>

#include "daemon/board_session.hpp"
#include "drivers/core/registry.hpp"
#include "daemon/client_api.hpp"
#include "daemon/commands.hpp"
#include "daemon/config.hpp"
#include "daemon/deadlines.hpp"
#include "daemon/recorder.hpp"
#include "daemon/speech_sink.hpp"
#include "daemon/store.hpp"

namespace eboard::daemon {

class BoardLink;
class EmuBoard;
class EmuPlayer;
class Simulation;

class Daemon final : public CommandHandler {
  public:
    explicit Daemon(Config config);
    ~Daemon() override;
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    /// Opens the store, the sinks, the socket and the boards, then runs until a signal or,
    /// with --simulate, the end of the simulated game. Returns the exit status.
    int run();

    /// Asks the loop to stop (from the loop's thread).
    void stop();

    [[nodiscard]] boost::asio::io_context& io() { return io_; }
    [[nodiscard]] Recorder& recorder() { return *recorder_; }
    [[nodiscard]] const Config& config() const { return config_; }
    [[nodiscard]] BoardSession* find_board(const std::string& name);

    /// Called when a simulated game has ended (the loop then stops).
    void on_simulation_done(int status);
    /// The simulated player is done: confirm the source game's result ("" = it failed).
    void finish_simulation(const std::string& result);

    ojson execute(const Request& request, const ojson& raw) override;

  private:
    [[nodiscard]] Expected<bool> open();
    [[nodiscard]] Expected<bool> open_events_sink();
    void wait_signals();
    void reload();
    void arm_watchdog();
    void schedule_status();
    [[nodiscard]] std::string status_text() const;
    [[nodiscard]] Expected<bool> open_simulation();
    [[nodiscard]] Expected<bool> open_speech();
    /// `emu-KIND[:PGN]` boards: their players (and PGN time controls) before the sessions.
    [[nodiscard]] Expected<bool> prepare_emulators();
    [[nodiscard]] Expected<bool> prepare_emulator(BoardConfig& board);
    /// ... and their emulators, showing the resumed games, once the games are taken up.
    [[nodiscard]] Expected<bool> open_emulators();
    [[nodiscard]] Expected<bool> open_emulator(std::size_t index);
    void start_player(std::size_t index);
    /// A board's session and link (not started).
    void add_board(const BoardConfig& board);
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
    [[nodiscard]] BoardLink* link_of(const BoardSession* board);
    /// A board closed by DETACH: its device thread is joined off the loop (it may be stuck in
    /// a transfer), then its link and session go, on the loop.
    void retire(std::unique_ptr<BoardLink> link, std::unique_ptr<BoardSession> board);
    /// Frees the retired boards whose device thread has ended.
    void reap_retired();
    /// The retired boards at exit: waited for up to `wait_ms`; one still stuck is left to the
    /// exiting process (logged).
    void abandon_retired(int wait_ms);

    boost::asio::io_context io_;
    Deadlines deadlines_{io_}; ///< every board's reconstruction timers (outlives links_)
    Config config_;
    std::unique_ptr<Store> store_;
    std::unique_ptr<Recorder> recorder_;
    std::unique_ptr<ClientServer> server_;
    std::vector<std::unique_ptr<BoardSession>> boards_;
    std::vector<std::unique_ptr<BoardLink>> links_; ///< links_[i] reads boards_[i]
    std::unique_ptr<Simulation> simulation_;
    /// A built-in emulated board (`--board emu-…`), its optional player.
    struct Emulated {
        std::string board; ///< the board's name
        std::string kind;
        std::unique_ptr<EmuPlayer> player;
        std::unique_ptr<EmuBoard> emulator;
    };
    std::vector<Emulated> emulated_;
    /// Boards closed by DETACH whose device thread may still run (retire()).
    struct Retired {
        std::unique_ptr<BoardLink> link;
        std::unique_ptr<BoardSession> board;
        std::thread joiner;
        bool done = false; ///< under RetireState::mutex
        std::shared_future<void> closed; ///< ready once the device thread ended (open_after())
    };
    /// Shared with the joiner threads, which may outlive the daemon (a device that never returns).
    struct RetireState {
        std::mutex mutex;
        std::condition_variable ended;
        bool daemon_gone = false; ///< then a joiner posts nothing to the loop
    };
    std::vector<std::unique_ptr<Retired>> retired_;
    std::shared_ptr<RetireState> retire_state_ = std::make_shared<RetireState>();
    /// Boards attached at run time by a device node (ATTACH `device`): name -> node.
    std::map<std::string, std::string> attached_by_;
    std::unique_ptr<SpeechSink> speech_; ///< Appendix D: speech, INFO, two-board games
    boost::asio::signal_set signals_;
    boost::asio::steady_timer watchdog_;
    boost::asio::steady_timer status_timer_;
    bool status_pending_ = false;
    int events_fd_ = -1;
    bool events_owned_ = false;
    int exit_status_ = 0;
    bool stopping_ = false; ///< stop() ran: the loop only writes the clients' last output
};

} // namespace eboard::daemon
