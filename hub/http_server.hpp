// The hub's HTTP server (Boost.Beast, HTTP/1.1 with keep-alive, GET and HEAD only) on one
// address and port that the caller configures (nothing else is bound: default 127.0.0.1:8080).
// Every 200 answer has `Cache-Control: no-cache` and a strong `ETag` (a hash of the body); a
// request whose `If-None-Match` names it gets 304 with no body (RFC 9110 13.1.2, 15.4.5), so
// that broadcasters polling every second fetch only what changed.
//
// Runs on the io_context it is given (one thread: the handler is called there).
#pragma once

#include "base/expected.hpp"
#include "hub/hall.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <functional>
#include <memory>
#include <string>

namespace eboard::hub {

/// A strong entity tag of `body`: a quoted 64-bit FNV-1a hash in hex.
[[nodiscard]] std::string etag_of(const std::string& body);

class HttpServer {
  public:
    /// Answers a GET of a target (path and query).
    using Handler = std::function<LiveAnswer(const std::string& target)>;

    /// Listens on `address:port` (port 0: the kernel picks one, see port()). Errors: the
    /// address does not parse, the port is taken.
    static Expected<std::unique_ptr<HttpServer>> listen(boost::asio::io_context& io, const std::string& address,
                                                        unsigned short port, Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// The port it listens on.
    [[nodiscard]] unsigned short port() const;
    /// Stops accepting (open connections end with the io_context).
    void close();

  private:
    HttpServer(boost::asio::io_context& io, Handler handler);
    void accept();

    boost::asio::ip::tcp::acceptor acceptor_;
    std::shared_ptr<Handler> handler_;
};

/// Splits "ADDR:PORT" ("[::1]:8080" for IPv6). Errors name what is wrong.
[[nodiscard]] Expected<std::pair<std::string, unsigned short>> parse_listen(const std::string& text);

} // namespace eboard::hub
