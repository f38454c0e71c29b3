#include "web/server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>

namespace eboard::web {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ws = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string endpoint_text(const tcp::socket& socket) {
    beast::error_code ec;
    const auto ep = socket.remote_endpoint(ec);
    if (ec) return "?";
    const auto address = ep.address();
    return (address.is_v6() ? "[" + address.to_string() + "]" : address.to_string()) + ":" + std::to_string(ep.port());
}

} // namespace

Expected<ListenAddress> parse_listen_address(std::string_view text) {
    std::string_view host;
    std::string_view port;
    if (text.starts_with('[')) {
        const auto close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return Error{"'" + std::string(text) + "': expected [IPV6]:PORT"};
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string_view::npos) return Error{"'" + std::string(text) + "': expected ADDR:PORT"};
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (host.find(':') != std::string_view::npos)
            return Error{"'" + std::string(text) + "': an IPv6 address goes in brackets, [::1]:PORT"};
    }
    ListenAddress out;
    out.address = host == "localhost" ? std::string("127.0.0.1") : std::string(host);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value > 65535)
        return Error{"'" + std::string(text) + "': the port must be a number 0-65535"};
    out.port = static_cast<std::uint16_t>(value);
    beast::error_code bad;
    (void)asio::ip::make_address(out.address, bad);
    if (bad) return Error{"'" + std::string(text) + "': '" + out.address + "' is not a numeric IP address"};
    return out;
}

bool is_loopback(const ListenAddress& address) {
    beast::error_code ec;
    const auto a = asio::ip::make_address(address.address, ec);
    return !ec && a.is_loopback();
}

std::string_view Request::header(std::string_view name) const {
    for (const auto& [key, value] : headers)
        if (iequals(key, name)) return value;
    return {};
}

/// A connection the server can close at its end.
class Connection {
  public:
    virtual ~Connection() = default;
    Connection() = default;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    Connection(Connection&&) = delete;
    Connection& operator=(Connection&&) = delete;
    virtual void shut() = 0;
};

/// The routes of one method: exact paths, then prefixes (the longest that matches).
struct Routes {
    std::map<std::string, AsyncHandler, std::less<>> exact;
    std::map<std::string, AsyncHandler, std::less<>> prefixes;

    /// The handler of `path`, or nullptr.
    [[nodiscard]] const AsyncHandler* find(std::string_view path) const {
        if (const auto it = exact.find(path); it != exact.end()) return &it->second;
        const AsyncHandler* best = nullptr;
        std::size_t best_size = 0;
        for (const auto& [prefix, handler] : prefixes)
            if (path.starts_with(prefix) && (best == nullptr || prefix.size() > best_size)) {
                best = &handler;
                best_size = prefix.size();
            }
        return best;
    }
};

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
    asio::io_context& io;
    Limits limits;
    std::optional<tcp::acceptor> acceptor;
    Routes gets;
    Routes posts;
    std::map<std::string, std::shared_ptr<WebSocketHandlers>, std::less<>> sockets;
    std::unordered_map<std::uint64_t, std::weak_ptr<Connection>> open;
    std::uint64_t next_id = 1;
    bool closed = false;

    Impl(asio::io_context& context, const Limits& l) : io(context), limits(l) {}

    std::uint64_t enrol(const std::shared_ptr<Connection>& c) {
        const auto id = next_id++;
        open.emplace(id, c);
        return id;
    }
    void leave(std::uint64_t id) { open.erase(id); }
    void accept_next();
};

namespace {

Request to_request(const http::request<http::string_body>& req) {
    Request out;
    out.method = std::string(req.method_string());
    out.target = std::string(req.target());
    const auto q = out.target.find('?');
    out.path = out.target.substr(0, q);
    if (q != std::string::npos) out.query = out.target.substr(q + 1);
    out.body = req.body();
    for (const auto& field : req) out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    return out;
}

/// One WebSocket connection: a read loop (whole messages, oversize ones skipped) and a write
/// queue with one write in flight.
class WsSession final : public WebSocket, public Connection, public std::enable_shared_from_this<WsSession> {
  public:
    WsSession(std::shared_ptr<Server::Impl> server, std::shared_ptr<WebSocketHandlers> handlers, tcp::socket socket,
              Request request)
        : server_(std::move(server)), handlers_(std::move(handlers)), peer_(endpoint_text(socket)),
          stream_(std::move(socket)), request_(std::move(request)) {}

    void start(http::request<http::string_body> req) {
        upgrade_ = std::move(req); // kept until the handshake completes
        id_ = server_->enrol(shared_from_this());
        stream_.set_option(ws::stream_base::timeout::suggested(beast::role_type::server));
        stream_.set_option(ws::stream_base::decorator(
            [](ws::response_type& res) { res.set(http::field::server, "eboardd"); }));
        // Messages are read piecewise: the size limit is ours (on_oversize), not Beast's.
        stream_.read_message_max(0);
        stream_.async_accept(upgrade_, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->finish();
            self->open_ = true;
            if (self->live() && self->handlers_->on_open) self->handlers_->on_open(self);
            self->read();
        });
    }

    void send(std::string text) override {
        if (!open_ || closing_) return;
        queued_bytes_ += text.size();
        if (queued_bytes_ > server_->limits.max_queued_bytes) {
            // A client that does not read: dropped, the loop never waits for it. Closed on the
            // next turn of the loop: on_close must not run inside the caller's send().
            closing_ = true;
            asio::post(stream_.get_executor(), [self = shared_from_this()] { self->shut(); });
            return;
        }
        queue_.push_back(std::move(text));
        if (!writing_) write();
    }

    void close() override {
        if (!open_ || closing_) return;
        closing_ = true;
        if (!writing_) close_now();
    }

    [[nodiscard]] bool is_open() const override { return open_; }
    [[nodiscard]] const Request& request() const override { return request_; }
    [[nodiscard]] const std::string& peer() const override { return peer_; }

    void shut() override {
        beast::error_code ignored;
        beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
        beast::get_lowest_layer(stream_).socket().close(ignored);
        finish();
    }

  private:
    [[nodiscard]] bool live() const { return !server_->closed; }

    void read() {
        stream_.async_read_some(buffer_, server_->limits.max_frame_bytes + 1,
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->on_read(ec, n);
                                });
    }

    void on_read(beast::error_code ec, std::size_t n) {
        if (ec) return finish();
        message_size_ += n;
        const auto limit = server_->limits.max_frame_bytes;
        if (buffer_.size() > limit) {
            // Keep the head (a request id may be in it), drop the rest as it comes.
            if (!oversize_) prefix_ = beast::buffers_to_string(buffer_.data()).substr(0, limit);
            oversize_ = true;
            buffer_.consume(buffer_.size());
        }
        if (stream_.is_message_done()) {
            if (oversize_) {
                if (live() && handlers_->on_oversize) handlers_->on_oversize(shared_from_this(), prefix_, message_size_);
            } else if (live() && handlers_->on_message) {
                const auto text = beast::buffers_to_string(buffer_.data());
                handlers_->on_message(shared_from_this(), text);
            }
            buffer_.consume(buffer_.size());
            prefix_.clear();
            oversize_ = false;
            message_size_ = 0;
        }
        if (open_) read();
    }

    void write() {
        writing_ = true;
        stream_.text(true);
        stream_.async_write(asio::buffer(queue_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            self->writing_ = false;
            if (ec) return self->finish();
            self->queued_bytes_ -= self->queue_.front().size();
            self->queue_.pop_front();
            if (!self->queue_.empty()) self->write();
            else if (self->closing_) self->close_now();
        });
    }

    void close_now() {
        stream_.async_close(ws::close_code::normal, [self = shared_from_this()](beast::error_code) { self->shut(); });
    }

    void finish() {
        if (finished_) return;
        finished_ = true;
        open_ = false;
        server_->leave(id_);
        if (live() && handlers_->on_close) handlers_->on_close(shared_from_this());
    }

    std::shared_ptr<Server::Impl> server_;
    std::shared_ptr<WebSocketHandlers> handlers_;
    std::string peer_;
    ws::stream<beast::tcp_stream> stream_;
    Request request_;
    http::request<http::string_body> upgrade_;
    beast::flat_buffer buffer_;
    std::string prefix_;
    std::size_t message_size_ = 0;
    bool oversize_ = false;
    std::deque<std::string> queue_;
    std::size_t queued_bytes_ = 0;
    std::uint64_t id_ = 0;
    bool open_ = false;
    bool writing_ = false;
    bool closing_ = false;
    bool finished_ = false;
};

/// One HTTP connection: requests read one at a time (keep-alive), routed, answered; an upgrade
/// on a WebSocket path hands the socket to a WsSession.
class HttpSession final : public Connection, public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(std::shared_ptr<Server::Impl> server, tcp::socket socket)
        : server_(std::move(server)), stream_(std::move(socket)) {}

    void start() {
        id_ = server_->enrol(shared_from_this());
        read();
    }

    void shut() override {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.socket().close(ignored);
        server_->leave(id_);
    }

  private:
    void read() {
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(server_->limits.max_header_bytes));
        parser_->body_limit(server_->limits.max_body_bytes);
        stream_.expires_after(std::chrono::seconds(server_->limits.request_timeout_seconds));
        http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            self->on_read(ec);
        });
    }

    void on_read(beast::error_code ec) {
        if (ec == http::error::header_limit) return refuse(http::status::request_header_fields_too_large);
        if (ec == http::error::body_limit) return refuse(http::status::payload_too_large);
        if (ec) return shut();
        auto req = parser_->release();
        const auto path = std::string(req.target().substr(0, req.target().find('?')));
        if (ws::is_upgrade(req)) {
            const auto found = server_->sockets.find(path);
            if (found != server_->sockets.end() && !server_->closed) {
                stream_.expires_never();
                server_->leave(id_);
                auto session = std::make_shared<WsSession>(server_, found->second, stream_.release_socket(), to_request(req));
                session->start(std::move(req));
                return;
            }
        }
        Response res;
        const bool head = req.method() == http::verb::head;
        const AsyncHandler* post = server_->posts.find(path);
        const AsyncHandler* route = server_->gets.find(path);
        const AsyncHandler* handler = nullptr;
        if (post != nullptr && req.method() == http::verb::post) handler = post;
        else if (route != nullptr && (req.method() == http::verb::get || head)) handler = route;
        if (handler != nullptr) {
            const unsigned version = req.version();
            const bool keep_alive = req.keep_alive();
            (*handler)(to_request(req), [self = shared_from_this(), version, keep_alive, head](Response answer) {
                if (self->server_->closed) return;
                self->reply(std::move(answer), version, keep_alive, head);
            });
            return;
        }
        if (route != nullptr) {
            res = Response{405, "text/plain", "method not allowed\n", {{"Allow", "GET, HEAD"}}};
        } else if (post != nullptr) {
            res = Response{405, "text/plain", "method not allowed\n", {{"Allow", "POST"}}};
        } else if (server_->sockets.contains(path)) {
            res = Response{426, "text/plain", "a WebSocket endpoint\n", {{"Upgrade", "websocket"}}};
        } else {
            res = Response{404, "text/plain", "not found\n", {}};
        }
        reply(std::move(res), req.version(), req.keep_alive(), head);
    }

    void refuse(http::status status) {
        Response res{static_cast<unsigned>(status), "text/plain", std::string(http::obsolete_reason(status)) + "\n", {}};
        reply(std::move(res), 11, false, false);
    }

    void reply(Response res, unsigned version, bool keep_alive, bool head) {
        auto out = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(res.status), version);
        out->set(http::field::server, "eboardd");
        out->set(http::field::content_type, res.content_type);
        for (auto& [name, value] : res.headers) out->set(name, value);
        out->keep_alive(keep_alive);
        const auto length = res.body.size();
        if (!head) out->body() = std::move(res.body);
        out->prepare_payload();
        if (head) out->content_length(length);
        http::async_write(stream_, *out, [self = shared_from_this(), out](beast::error_code ec, std::size_t) {
            if (ec || !out->keep_alive() || self->server_->closed) return self->shut();
            self->read();
        });
    }

    std::shared_ptr<Server::Impl> server_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::uint64_t id_ = 0;
};

} // namespace

void Server::Impl::accept_next() {
    acceptor->async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || self->closed) return;
        if (!ec) {
            if (self->open.size() >= self->limits.max_connections) {
                beast::error_code ignored;
                socket.close(ignored);
            } else {
                std::make_shared<HttpSession>(self, std::move(socket))->start();
            }
        }
        self->accept_next();
    });
}

Server::Server(asio::io_context& io, const Limits& limits) : impl_(std::make_shared<Impl>(io, limits)) {}

Server::~Server() { close(); }

namespace {

/// A handler that answers at once, as an AsyncHandler.
AsyncHandler answering(GetHandler handler) {
    return [handler = std::move(handler)](const Request& r, const std::function<void(Response)>& respond) {
        respond(handler(r));
    };
}

} // namespace

void Server::get(std::string path, GetHandler handler) {
    impl_->gets.exact.insert_or_assign(std::move(path), answering(std::move(handler)));
}

void Server::post(std::string path, GetHandler handler) {
    impl_->posts.exact.insert_or_assign(std::move(path), answering(std::move(handler)));
}

void Server::get_prefix(std::string prefix, GetHandler handler) {
    impl_->gets.prefixes.insert_or_assign(std::move(prefix), answering(std::move(handler)));
}

void Server::post_prefix(std::string prefix, GetHandler handler) {
    impl_->posts.prefixes.insert_or_assign(std::move(prefix), answering(std::move(handler)));
}

void Server::post_async(std::string path, AsyncHandler handler) {
    impl_->posts.exact.insert_or_assign(std::move(path), std::move(handler));
}

void Server::websocket(std::string path, WebSocketHandlers handlers) {
    impl_->sockets.insert_or_assign(std::move(path), std::make_shared<WebSocketHandlers>(std::move(handlers)));
}

Expected<bool> Server::listen(const ListenAddress& address) {
    beast::error_code ec;
    const auto ip = asio::ip::make_address(address.address, ec);
    if (ec) return Error{"'" + address.address + "' is not an IP address"};
    const tcp::endpoint endpoint{ip, address.port};
    tcp::acceptor acceptor(impl_->io);
    if (acceptor.open(endpoint.protocol(), ec); ec) return Error{"socket: " + ec.message()};
    if (acceptor.set_option(asio::socket_base::reuse_address(true), ec); ec) return Error{"SO_REUSEADDR: " + ec.message()};
    if (acceptor.bind(endpoint, ec); ec) return Error{"bind " + address.address + ":" + std::to_string(address.port) + ": " + ec.message()};
    if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec) return Error{"listen: " + ec.message()};
    impl_->acceptor.emplace(std::move(acceptor));
    impl_->accept_next();
    return true;
}

std::uint16_t Server::port() const {
    if (!impl_->acceptor) return 0;
    beast::error_code ec;
    const auto ep = impl_->acceptor->local_endpoint(ec);
    return ec ? std::uint16_t{0} : ep.port();
}

void Server::close() {
    if (impl_->closed) return;
    impl_->closed = true;
    if (impl_->acceptor) {
        beast::error_code ignored;
        impl_->acceptor->close(ignored);
    }
    auto open = std::move(impl_->open);
    impl_->open.clear();
    for (auto& [id, weak] : open)
        if (auto c = weak.lock()) c->shut();
}

std::size_t Server::connections() const { return impl_->open.size(); }

} // namespace eboard::web
