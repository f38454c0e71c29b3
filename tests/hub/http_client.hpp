// A blocking HTTP/1.1 GET for the hub's tests (Boost.Beast), with a deadline.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <map>
#include <string>

namespace hubtest {

struct Got {
    int status = 0; ///< 0: no connection
    std::string body;
    std::string etag;
    std::string cache_control;
    std::string content_type;
};

/// GET (or another `verb`) `target` from `host:port`, with `if_none_match` when not empty.
inline Got http_get(const std::string& host, unsigned short port, const std::string& target,
                    const std::string& if_none_match = "",
                    boost::beast::http::verb verb = boost::beast::http::verb::get) {
    namespace http = boost::beast::http;
    Got out;
    boost::asio::io_context io;
    boost::beast::tcp_stream stream(io);
    boost::beast::error_code ec;
    stream.expires_after(std::chrono::seconds(10));
    stream.socket().connect({boost::asio::ip::make_address(host), port}, ec);
    if (ec) return out;
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, host);
    if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
    http::write(stream, req, ec);
    if (ec) return out;
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> res;
    if (verb == http::verb::head) {
        http::response_parser<http::string_body> p;
        p.skip(true);
        http::read(stream, buffer, p, ec);
        res = p.release();
    } else {
        http::read(stream, buffer, res, ec);
    }
    if (ec) return out;
    out.status = static_cast<int>(res.result_int());
    out.body = res.body();
    out.etag = std::string(res[http::field::etag]);
    out.cache_control = std::string(res[http::field::cache_control]);
    out.content_type = std::string(res[http::field::content_type]);
    return out;
}

} // namespace hubtest
