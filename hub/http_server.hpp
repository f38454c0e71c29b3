// The hub's HTTP server on web/'s server (web/server.hpp: HTTP/1.1 with keep-alive, the one HTTP
// library of eboardd and eboard-hub) on one address and port that the caller configures (nothing
// else is bound: default 127.0.0.1:8080). It serves the /live/ layout (hub/hall.hpp); the
// arbiters' console (console/server.hpp) registers its routes on the same web::Server (web()).
// Every /live/ answer has `Cache-Control: no-cache`, and every 200 a strong `ETag` (a hash of the
// body); a request whose `If-None-Match` names it gets 304 with no body (RFC 9110 13.1.2,
// 15.4.5), so that broadcasters polling every second fetch only what changed.
//
// Runs on the io_context it is given (one thread: the handlers are called there).
#pragma once

#include "base/expected.hpp"
#include "hub/hall.hpp"
#include "web/server.hpp"

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <string>

namespace eboard::hub {

/// A strong entity tag of `body`: a quoted 64-bit FNV-1a hash in hex.
[[nodiscard]] std::string etag_of(const std::string& body);

/// The HTTP response of a /live/ answer to `request`: `Cache-Control: no-cache`, and for a 200
/// its ETag, or 304 without a body when the request's If-None-Match names it (or is `*`).
[[nodiscard]] web::Response live_response(const web::Request& request, LiveAnswer answer);

/// How many connections the hub keeps open at once: broadcasters poll with keep-alive, and
/// every arbiter's page holds a WebSocket.
inline constexpr std::size_t kMaxConnections = 512;

class HttpServer {
  public:
    /// Answers a GET of a /live/ target (path and query).
    using Handler = std::function<LiveAnswer(const std::string& target)>;

    /// Serves GET and HEAD of every path under /live/ with `handler` and listens on
    /// `address:port` (port 0: the kernel picks one, see port()). More routes (the console's)
    /// may be added to web() until the io_context runs. Errors: the address does not parse,
    /// the port is taken.
    static Expected<std::unique_ptr<HttpServer>> listen(boost::asio::io_context& io, const std::string& address,
                                                        unsigned short port, Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;
    HttpServer(HttpServer&&) = delete;
    HttpServer& operator=(HttpServer&&) = delete;

    /// The port it listens on.
    [[nodiscard]] unsigned short port() const;
    /// Stops accepting and closes the open connections.
    void close();
    /// The server, for more routes (the arbiters' console).
    [[nodiscard]] web::Server& web() { return web_; }

  private:
    HttpServer(boost::asio::io_context& io, Handler handler);

    web::Server web_;
};

} // namespace eboard::hub
