#include "daemon/client_api.hpp"

#include <grp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <optional>
#include <istream>
#include <utility>

#include "daemon/events.hpp"
#include "daemon/log.hpp"

namespace eboard::daemon {
namespace asio = boost::asio;
using local = asio::local::stream_protocol;

/// One connected client: reads request lines, queues output, never blocks the loop.
class ClientSession : public std::enable_shared_from_this<ClientSession> {
  public:
    ClientSession(ClientServer& server, local::socket socket)
        : server_(server), socket_(std::move(socket)), input_(ClientServer::kMaxRequestBytes) {}

    void start() {
        send(to_line(version_event()));
        read();
    }

    /// Queues a line; drops the client if too much is waiting.
    void send(std::string line) {
        if (closed_) return;
        queued_ += line.size();
        if (queued_ > ClientServer::kMaxQueuedBytes) {
            log_warning("client api: a client left " + std::to_string(queued_) +
                        " bytes unread; dropped");
            server_.drop(shared_from_this());
            return;
        }
        out_.push_back(std::move(line));
        if (out_.size() == 1) write();
    }

    [[nodiscard]] bool watching() const { return watching_; }

    /// Closed once its queued output is written (now if there is none): close_gracefully().
    void finish() {
        finishing_ = true;
        if (out_.empty()) server_.drop(shared_from_this());
    }

    void close() {
        if (closed_) return;
        closed_ = true;
        boost::system::error_code ec;
        socket_.shutdown(local::socket::shutdown_both, ec);
        socket_.close(ec);
    }

  private:
    void write() {
        auto self = shared_from_this();
        asio::async_write(socket_, asio::buffer(out_.front()),
                          [self](const boost::system::error_code& ec, std::size_t) {
                              if (self->closed_) return;
                              if (ec) {
                                  self->server_.drop(self);
                                  return;
                              }
                              self->queued_ -= self->out_.front().size();
                              self->out_.pop_front();
                              if (!self->out_.empty()) self->write();
                              else if (self->finishing_) self->server_.drop(self);
                          });
    }

    void read() {
        auto self = shared_from_this();
        asio::async_read_until(
            socket_, input_, '\n', [self](const boost::system::error_code& ec, std::size_t n) {
                if (self->closed_ || self->finishing_) return; // at exit no request is taken
                if (ec == asio::error::not_found) {
                    self->send(reply_line(error_reply(
                        ErrorCode::BadRequest,
                        "request longer than " + std::to_string(ClientServer::kMaxRequestBytes / 1024) + " KiB")));
                    self->server_.drop(self);
                    return;
                }
                if (ec) { // EOF or error: the client went away
                    self->server_.drop(self);
                    return;
                }
                std::string line(asio::buffers_begin(self->input_.data()),
                                 asio::buffers_begin(self->input_.data()) +
                                     static_cast<std::ptrdiff_t>(n));
                self->input_.consume(n);
                self->handle(line);
                if (!self->closed_) self->read();
            });
    }

    void handle(const std::string& line) {
        const DecodedLine in = decode_request_line(line);
        if (!in.request) {
            if (!in.error.is_null()) send(reply_line(in.error));
            return;
        }
        if (const auto* w = std::get_if<WatchRequest>(&*in.request)) {
            watching_ = w->enable;
            send(reply_line(watch_reply(watching_, in.raw)));
            return;
        }
        ojson reply;
        try {
            reply = server_.handler_.execute(*in.request, in.raw);
        } catch (const std::exception& e) {
            reply = error_reply(ErrorCode::Internal, std::string("internal error: ") + e.what(), in.raw);
        }
        send(reply_line(reply));
    }

    ClientServer& server_;
    local::socket socket_;
    asio::streambuf input_;
    std::deque<std::string> out_;
    std::size_t queued_ = 0;
    bool watching_ = false;
    bool closed_ = false;
    bool finishing_ = false; ///< finish(): closed once out_ is written
};

namespace {

// Whether the socket file `path` is stale (left by a process that is gone: connect(2) is
// refused); an error if a process listens on it or it cannot be told.
Expected<bool> check_stale_socket(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error{std::string("socket: ") + std::strerror(errno)};
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    path.copy(addr.sun_path, sizeof addr.sun_path - 1);
    const int r = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
    const int err = errno;
    ::close(fd);
    if (r == 0) return Error{path + " is in use by a running eboardd (or another program); not replaced"};
    if (err != ECONNREFUSED)
        return Error{"cannot tell whether " + path + " is in use: " + std::strerror(err) + "; not replaced"};
    return true;
}

} // namespace

ClientServer::ClientServer(asio::io_context& io, CommandHandler& handler, std::size_t max_clients)
    : io_(io), handler_(handler), acceptor_(io), drain_timer_(io), max_clients_(max_clients), accept_timer_(io) {}

ClientServer::~ClientServer() { close(); }

Expected<bool> ClientServer::listen(const std::string& path, const std::string& group) {
    // A socket file left by a crash would make bind fail; replace it, but never a file that
    // is not a socket, nor one that a running process still listens on (issue 26).
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) return Error{"--socket: " + path + " exists and is not a socket"};
        if (auto stale = check_stale_socket(path); !stale) return Error{"--socket: " + stale.error().message};
        ::unlink(path.c_str());
    }
    boost::system::error_code ec;
    const mode_t old_mask = ::umask(0117); // the socket is created 0660
    acceptor_.open(local(), ec);
    if (!ec) acceptor_.bind(local::endpoint(path), ec);
    ::umask(old_mask);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return Error{"--socket: cannot listen on " + path + ": " + ec.message()};
    bound_path_ = path;
    if (::chmod(path.c_str(), 0660) != 0)
        return Error{"--socket: chmod " + path + ": " + std::strerror(errno)};
    if (!group.empty()) {
        const struct group* g = ::getgrnam(group.c_str());
        if (!g) return Error{"--socket-group: no group '" + group + "'"};
        if (::chown(path.c_str(), static_cast<uid_t>(-1), g->gr_gid) != 0)
            return Error{"--socket-group: chown " + path + ": " + std::strerror(errno)};
    }
    accept();
    return true;
}

Expected<bool> ClientServer::adopt(int fd) {
    boost::system::error_code ec;
    acceptor_.assign(local(), fd, ec);
    if (ec) return Error{"socket activation: " + ec.message()};
    accept();
    return true;
}

namespace {

// File descriptors this process may still open (RLIMIT_NOFILE less those open); nullopt when
// unknown (no limit, /proc not readable).
std::optional<long> descriptors_left() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    std::error_code ec;
    long open = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) ++open;
    if (ec || open == 0) return std::nullopt;
    return static_cast<long>(limit.rlim_cur) - open;
}

} // namespace

void ClientServer::accept() {
    acceptor_.async_accept([this](const boost::system::error_code& ec, local::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
        if (ec) {
            pause_accepting(ec);
            return;
        }
        if (accept_failing_) log_notice("client api: accepting clients again");
        accept_failing_ = false;
        accept_pause_ = kFirstAcceptPause;
        if (const std::string why = refusal(); !why.empty()) {
            refuse(std::move(socket), why);
        } else {
            auto session = std::make_shared<ClientSession>(*this, std::move(socket));
            sessions_.insert(session);
            session->start();
        }
        accept();
    });
}

void ClientServer::pause_accepting(const boost::system::error_code& ec) {
    // Out of descriptors (EMFILE, ENFILE) the pending connection stays pending: accepting again
    // at once would fail at once, in a busy loop. Logged once until accept() works again.
    if (!accept_failing_)
        log_warning("client api: accept: " + ec.message() + "; accepting paused, tried again every " +
                    std::to_string(kMaxAcceptPause.count()) + " ms at most until it works");
    accept_failing_ = true;
    accept_timer_.expires_after(accept_pause_);
    accept_pause_ = std::min(accept_pause_ * 2, kMaxAcceptPause);
    accept_timer_.async_wait([this](const boost::system::error_code& timer_ec) {
        if (!timer_ec && acceptor_.is_open()) accept();
    });
}

std::string ClientServer::refusal() const {
    if (sessions_.size() >= max_clients_)
        return std::to_string(max_clients_) + " clients are connected, the most allowed (--max-clients)";
    if (const auto left = descriptors_left(); left && *left < kReservedDescriptors)
        return "out of file descriptors: " + std::to_string(kReservedDescriptors) +
               " are kept for the store, the PGN files and the boards (RLIMIT_NOFILE)";
    return {};
}

void ClientServer::refuse(local::socket socket, const std::string& why) {
    if (!refusing_) log_warning("client api: " + why + "; further clients are refused (logged once until one goes)");
    refusing_ = true;
    const std::string line = reply_line(error_reply(ErrorCode::TooManyClients, why + "; try again later"));
    boost::system::error_code ec;
    socket.non_blocking(true, ec);
    if (!ec) (void)socket.write_some(asio::buffer(line), ec); // a fresh socket's buffer takes it
    socket.close(ec);
}

void ClientServer::broadcast(const std::string& line) {
    // Copy: send() may drop a session, which erases it from sessions_.
    const auto sessions = sessions_;
    for (const auto& s : sessions)
        if (s->watching()) s->send(line);
}

void ClientServer::drop(const std::shared_ptr<ClientSession>& session) {
    session->close();
    sessions_.erase(session);
    refusing_ = false; // the next refusal is logged again
    if (closing_ && sessions_.empty()) all_closed();
}

void ClientServer::stop_accepting() {
    boost::system::error_code ec;
    acceptor_.close(ec); // a pause under way then finds it closed (pause_accepting)
    if (!bound_path_.empty()) {
        ::unlink(bound_path_.c_str());
        bound_path_.clear();
    }
}

void ClientServer::close_sessions() {
    for (const auto& s : sessions_) s->close();
    sessions_.clear();
}

void ClientServer::close() {
    stop_accepting();
    on_closed_ = nullptr; // a drain under way ends here (its timer then finds nothing to do)
    close_sessions();
}

void ClientServer::close_gracefully(std::chrono::milliseconds wait, std::function<void()> closed) {
    stop_accepting();
    closing_ = true;
    on_closed_ = std::move(closed);
    if (sessions_.empty()) {
        all_closed();
        return;
    }
    drain_timer_.expires_after(wait);
    drain_timer_.async_wait([this](const boost::system::error_code& timer_ec) {
        if (timer_ec) return;
        if (!sessions_.empty())
            log_warning("client api: " + std::to_string(sessions_.size()) +
                        " client(s) did not read their last output in time; closed");
        close_sessions();
        all_closed();
    });
    // Copy: finish() drops a session with nothing queued, which erases it from sessions_.
    const auto sessions = sessions_;
    for (const auto& s : sessions) s->finish();
}

void ClientServer::all_closed() {
    drain_timer_.cancel();
    if (auto closed = std::exchange(on_closed_, nullptr)) closed();
}

} // namespace eboard::daemon
