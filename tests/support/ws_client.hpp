// A small WebSocket and HTTP client for tests (Boost.Beast), with a deadline on every wait: a
// server that does not answer fails the test instead of hanging it. Runs its own io_context on
// the caller's thread.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eboard::test {

/// Runs `io` until `done` or the deadline; throws with `what` on the deadline.
inline void run_until(boost::asio::io_context& io, const bool& done, std::chrono::milliseconds timeout,
                      const std::string& what) {
    io.restart();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done && std::chrono::steady_clock::now() < deadline)
        io.run_one_until(deadline);
    if (!done) throw std::runtime_error("timed out: " + what);
}

/// An HTTP response as the test sees it.
struct HttpReply {
    unsigned status = 0;
    std::string body;
    std::string content_type;
    std::vector<std::pair<std::string, std::string>> headers; ///< every header, name and value

    /// The first header of that name (case-insensitive), "" when absent.
    [[nodiscard]] std::string header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (boost::beast::iequals(n, boost::beast::string_view(name.data(), name.size()))) return v;
        return "";
    }
};

/// One request (HTTP/1.1, connection closed after it) with `headers` and, unless empty, `body`.
inline HttpReply http_request(const std::string& host, std::uint16_t port, boost::beast::http::verb verb,
                              const std::string& target, const std::string& body = "",
                              const std::vector<std::pair<std::string, std::string>>& headers = {},
                              std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    namespace beast = boost::beast;
    namespace http = beast::http;
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address(host), port));
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, host + ":" + std::to_string(port));
    for (const auto& [name, value] : headers) req.set(name, value);
    req.keep_alive(false);
    if (!body.empty()) req.body() = body;
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    bool done = false;
    beast::error_code error;
    const std::string what = "HTTP " + std::string(http::to_string(verb)) + " " + target;
    http::async_read(stream, buffer, res, [&](beast::error_code ec, std::size_t) {
        error = ec;
        done = true;
    });
    run_until(io, done, timeout, what);
    if (error) throw std::runtime_error(what + ": " + error.message());
    // NOLINTNEXTLINE(clang-analyzer-cplusplus.Move): async_read moves a pointer to res, not res
    HttpReply out{res.result_int(), res.body(), std::string(res[http::field::content_type]), {}};
    for (const auto& f : res) out.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    return out;
}

/// One GET (HTTP/1.1, connection closed after it).
inline HttpReply http_get(const std::string& host, std::uint16_t port, const std::string& target,
                          std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return http_request(host, port, boost::beast::http::verb::get, target, "", {}, timeout);
}

/// A WebSocket client: connect, send text, receive text within a deadline.
class WsClient {
  public:
    /// Connects and completes the handshake on `path`, sending `origin` as a browser would.
    WsClient(const std::string& host, std::uint16_t port, const std::string& path,
             const std::string& origin = "https://lichess.org")
        : ws_(io_) {
        namespace beast = boost::beast;
        beast::get_lowest_layer(ws_).connect(
            boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address(host), port));
        ws_.set_option(boost::beast::websocket::stream_base::decorator(
            [origin](boost::beast::websocket::request_type& req) { req.set(boost::beast::http::field::origin, origin); }));
        ws_.read_message_max(0);
        ws_.handshake(host + ":" + std::to_string(port), path);
    }

    /// Sends one text message (blocking; fine for the sizes tests send).
    void send(const std::string& text) {
        ws_.text(true);
        ws_.write(boost::asio::buffer(text));
    }

    /// The next message; throws when none comes within `timeout` or the connection fails.
    std::string receive(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
        namespace beast = boost::beast;
        beast::flat_buffer buffer;
        bool done = false;
        beast::error_code error;
        ws_.async_read(buffer, [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        try {
            run_until(io_, done, timeout, "a WebSocket message");
        } catch (...) {
            beast::get_lowest_layer(ws_).cancel();
            io_.restart();
            io_.run();
            throw;
        }
        if (error) throw std::runtime_error("WebSocket read: " + error.message());
        return beast::buffers_to_string(buffer.data());
    }

    /// True when the server closes the connection within `timeout` (a close frame or EOF),
    /// false when a message came instead or nothing happened.
    bool closed_by_server(std::chrono::milliseconds timeout) {
        namespace beast = boost::beast;
        beast::flat_buffer buffer;
        bool done = false;
        beast::error_code error;
        ws_.async_read(buffer, [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        try {
            run_until(io_, done, timeout, "the close");
        } catch (...) {
            return false;
        }
        return static_cast<bool>(error);
    }

    /// The underlying socket (e.g. to stop reading in a slow-client test).
    boost::beast::websocket::stream<boost::beast::tcp_stream>& stream() { return ws_; }

  private:
    boost::asio::io_context io_;
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
};

} // namespace eboard::test
