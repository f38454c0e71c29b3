// The client API on a Unix stream socket (docs/client-api.md; `--socket`):
// JSON lines both ways. On connect the server sends the VERSION object; WATCH streams every
// event; other requests go to the CommandHandler; malformed input gets an ERROR object.
//
// A client that does not read is dropped once kMaxQueuedBytes of its output are waiting: the
// event loop never blocks on a client (as gpsd does).
//
// Bounds (issue 26): at most `max_clients` clients at once (--max-clients) and never so many
// that fewer than kReservedDescriptors file descriptors are left (RLIMIT_NOFILE) for the store,
// the PGN files and boards: a client beyond gets an ERROR `too_many_clients` and is closed
// (logged once until one goes); a request line is at most kMaxRequestBytes; an accept() that
// fails (out of descriptors) pauses accepting, retried with a back-off (logged once).
//
// At exit (close_gracefully) the output already queued still goes out, within a bound: a
// watcher sees the last completed MOVE and the GAME end before its connection closes.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "daemon/commands.hpp"
#include "base/expected.hpp"

namespace eboard::daemon {

class ClientSession;

class ClientServer {
  public:
    /// Output bytes a client may leave unread before it is dropped.
    static constexpr std::size_t kMaxQueuedBytes = 1 << 20;
    /// Longest request line accepted (also what a client's partial line may hold).
    static constexpr std::size_t kMaxRequestBytes = 16 * 1024;
    /// Clients at once unless configured (--max-clients).
    static constexpr std::size_t kDefaultMaxClients = 64;
    /// File descriptors a new client must leave free (RLIMIT_NOFILE): the store, PGN files, boards.
    static constexpr long kReservedDescriptors = 16;
    /// A failing accept() is retried after this, doubling up to kMaxAcceptPause.
    static constexpr std::chrono::milliseconds kFirstAcceptPause{50};
    static constexpr std::chrono::milliseconds kMaxAcceptPause{1000};

    ClientServer(boost::asio::io_context& io, CommandHandler& handler,
                 std::size_t max_clients = kDefaultMaxClients);
    ~ClientServer();
    ClientServer(const ClientServer&) = delete;
    ClientServer& operator=(const ClientServer&) = delete;

    /// Binds `path` (a stale socket file left by a crash is replaced), sets mode 0660 and, if
    /// `group` is not empty, the group. Errors name the step.
    [[nodiscard]] Expected<bool> listen(const std::string& path, const std::string& group);

    /// Serves an already listening socket (systemd socket activation, sd_listen_fds(3)).
    [[nodiscard]] Expected<bool> adopt(int fd);

    /// Sends an event line (ending in '\n') to every watching client.
    void broadcast(const std::string& line);

    /// Connected clients (for tests and STATUS).
    [[nodiscard]] std::size_t client_count() const { return sessions_.size(); }

    /// Stops accepting, closes every client and removes the socket file we bound.
    void close();

    /// A clean exit: stops accepting (the socket file goes) and reading requests; each client
    /// is closed once its queued output is written, the last ones after `wait` (a client that
    /// does not read). `closed` then runs, once, on the loop's thread (maybe before this
    /// returns). Events broadcast meanwhile still go to the clients not yet closed.
    void close_gracefully(std::chrono::milliseconds wait, std::function<void()> closed);

  private:
    friend class ClientSession;
    void accept();
    /// accept() failed (e.g. EMFILE): accept again after the back-off.
    void pause_accepting(const boost::system::error_code& ec);
    /// Why a new client is refused ("" = it is not): the client cap or the descriptors' reserve.
    [[nodiscard]] std::string refusal() const;
    /// Sends `socket` the ERROR `too_many_clients` (without waiting) and closes it.
    void refuse(boost::asio::local::stream_protocol::socket socket, const std::string& why);
    void drop(const std::shared_ptr<ClientSession>& session);
    /// Closes the acceptor and removes the socket file we bound (close, close_gracefully).
    void stop_accepting();
    /// Closes every client now, whatever is queued for it.
    void close_sessions();
    /// close_gracefully(): every client is closed; runs `on_closed_`.
    void all_closed();

    boost::asio::io_context& io_;
    CommandHandler& handler_;
    boost::asio::local::stream_protocol::acceptor acceptor_;
    std::set<std::shared_ptr<ClientSession>> sessions_;
    std::string bound_path_;
    bool closing_ = false; ///< close_gracefully() ran: no new requests, clients closed once drained
    boost::asio::steady_timer drain_timer_;
    std::function<void()> on_closed_;
    std::size_t max_clients_;
    boost::asio::steady_timer accept_timer_;
    std::chrono::milliseconds accept_pause_ = kFirstAcceptPause;
    bool accept_failing_ = false; ///< accept() failed; logged, not logged again until it works
    bool refusing_ = false;       ///< clients are refused; logged, not again until one goes
};

} // namespace eboard::daemon
