// A small HTTP/1.1 and WebSocket server on a Boost.Asio io_context (Boost.Beast), for the web
// faces of eboardd (the LiveChess eBoards API, the arbiters' console) and of eboard-hub. It
// listens on one address, routes GET and POST paths (exact, or by prefix) to handlers, upgrades one or more paths to
// WebSocket, and keeps every client from stalling the loop: bounded request heads and bodies,
// a bounded frame size (a larger frame is skipped and reported, the connection stays open), a
// write queue per connection (a client whose queue outgrows its bound is closed).
// Single-threaded: every handler runs on the io_context's thread; nothing here blocks.
#pragma once

#include "base/expected.hpp"

#include <boost/asio/io_context.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eboard::web {

/// An address and a port to listen on, from `ADDR:PORT` (`127.0.0.1:1982`, `[::1]:1982`,
/// `0.0.0.0:8080`, `localhost:1982`). Port 0 asks the kernel for a free one (tests).
struct ListenAddress {
    std::string address;
    std::uint16_t port = 0;
};

/// Parses `ADDR:PORT`; an IPv6 address goes in brackets. `localhost` is 127.0.0.1. The
/// address must be numeric (no name lookups on the loop); errors name what is wrong.
[[nodiscard]] Expected<ListenAddress> parse_listen_address(std::string_view text);

/// True when the address is a loopback address (127.0.0.0/8, ::1): only this host reaches it.
[[nodiscard]] bool is_loopback(const ListenAddress& address);

/// Bounds that keep one client from using more than its share. Sizes in bytes.
struct Limits {
    std::size_t max_header_bytes = 8 * 1024;    ///< an HTTP request's head (431 beyond)
    std::size_t max_body_bytes = 64 * 1024;     ///< an HTTP request's body (413 beyond)
    std::size_t max_frame_bytes = 64 * 1024;    ///< one WebSocket message (skipped beyond)
    std::size_t max_queued_bytes = 4 << 20;     ///< unsent output per connection (closed beyond)
    std::size_t max_connections = 64;           ///< open connections (refused beyond)
    unsigned request_timeout_seconds = 30;      ///< reading an HTTP request head and body
};

/// One HTTP request as a handler sees it.
struct Request {
    std::string method;  ///< `GET`, `POST`, ...
    std::string target;  ///< the request target as sent: path and query
    std::string path;    ///< the target up to `?`
    std::string query;   ///< the target after `?` (empty when none)
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  ///< name, value as sent

    /// The first header of that name (case-insensitive), empty when absent.
    [[nodiscard]] std::string_view header(std::string_view name) const;
};

/// A handler's answer. The server adds Content-Length, Server and the connection handling.
struct Response {
    unsigned status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  ///< extra headers
};

/// One open WebSocket connection. Valid as long as a handler holds the shared_ptr; after the
/// connection closed, send() and close() do nothing.
class WebSocket {
  public:
    virtual ~WebSocket() = default;
    WebSocket() = default;
    WebSocket(const WebSocket&) = delete;
    WebSocket& operator=(const WebSocket&) = delete;
    WebSocket(WebSocket&&) = delete;
    WebSocket& operator=(WebSocket&&) = delete;

    /// Queues one text message. Never blocks; a client whose unsent output passes
    /// Limits::max_queued_bytes is closed (the handler's on_close follows on a later turn of
    /// the loop, never inside send()).
    virtual void send(std::string text) = 0;
    /// Sends what is queued, then a close frame (1000, normal closure).
    virtual void close() = 0;
    /// True until the connection closed or failed.
    [[nodiscard]] virtual bool is_open() const = 0;
    /// The request that opened the connection (path, query, headers such as Origin).
    [[nodiscard]] virtual const Request& request() const = 0;
    /// The peer as `ADDR:PORT`, for logs.
    [[nodiscard]] virtual const std::string& peer() const = 0;
};

/// What a WebSocket path does with its connections. Every callback may be empty.
struct WebSocketHandlers {
    /// A client completed the handshake.
    std::function<void(const std::shared_ptr<WebSocket>&)> on_open;
    /// One whole text or binary message, at most Limits::max_frame_bytes.
    std::function<void(const std::shared_ptr<WebSocket>&, std::string_view)> on_message;
    /// A message over Limits::max_frame_bytes: its first max_frame_bytes bytes and its size.
    /// The rest was read and dropped; the connection stays open.
    std::function<void(const std::shared_ptr<WebSocket>&, std::string_view prefix, std::size_t size)>
        on_oversize;
    /// The connection closed (by either side or on an error). Called once.
    std::function<void(const std::shared_ptr<WebSocket>&)> on_close;
};

/// A handler of GET or POST requests: the response for one request.
using GetHandler = std::function<Response(const Request&)>;

/// A handler that answers later (after a round trip elsewhere): it calls `respond` once, on the
/// io_context's thread, with the response. The connection reads no further request until then;
/// a connection closed meanwhile makes `respond` do nothing.
using AsyncHandler = std::function<void(const Request&, std::function<void(Response)> respond)>;

/// The server. Routes are exact paths or path prefixes (no patterns); register them on the
/// loop's thread before it serves requests (before listen(), or before io_context::run()).
/// A path's exact route comes first, then the longest prefix route that the path starts with.
/// Unknown paths get 404, other methods than GET/HEAD on a GET path 405.
class Server {
  public:
    explicit Server(boost::asio::io_context& io, const Limits& limits = {});
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    Server(Server&&) = delete;
    Server& operator=(Server&&) = delete;

    /// Serves GET (and HEAD) on `path` with `handler`.
    void get(std::string path, GetHandler handler);
    /// Serves POST on `path` with `handler` (the request's body in Request::body, at most
    /// Limits::max_body_bytes: 413 beyond). A path may have both a GET and a POST handler.
    void post(std::string path, GetHandler handler);
    /// Serves GET (and HEAD) on every path that starts with `prefix` (e.g. "/live/") and has no
    /// exact route (Request::path tells the handler which one it is).
    void get_prefix(std::string prefix, GetHandler handler);
    /// Serves POST on every path that starts with `prefix` and has no exact POST route.
    void post_prefix(std::string prefix, GetHandler handler);
    /// Serves POST on `path` with a handler that answers later (AsyncHandler).
    void post_async(std::string path, AsyncHandler handler);
    /// Upgrades requests on `path` to WebSocket; a plain GET there gets 426 unless get() also
    /// registered the path. Any Origin is accepted.
    void websocket(std::string path, WebSocketHandlers handlers);

    /// Binds and starts accepting. Errors: the address cannot be bound (in use, not an
    /// address of this host, no permission), with the system's reason.
    [[nodiscard]] Expected<bool> listen(const ListenAddress& address);
    /// The bound port (the kernel's choice after port 0), 0 before listen().
    [[nodiscard]] std::uint16_t port() const;

    /// Stops accepting and closes every connection at once (their handlers are not called
    /// any more). Idempotent; the destructor calls it.
    void close();

    /// Open connections (HTTP and WebSocket).
    [[nodiscard]] std::size_t connections() const;

    struct Impl;

  private:
    std::shared_ptr<Impl> impl_;
};

} // namespace eboard::web
