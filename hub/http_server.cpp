#include "hub/http_server.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <charconv>
#include <cstdio>

namespace eboard::hub {

namespace beast = boost::beast;
namespace http = boost::beast::http;
using boost::asio::ip::tcp;

namespace {

// One connection: requests read and answered in turn until the client closes or asks to.
class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(tcp::socket socket, std::shared_ptr<HttpServer::Handler> handler)
        : stream_(std::move(socket)), handler_(std::move(handler)) {}

    void read() {
        request_ = {};
        stream_.expires_after(std::chrono::seconds(60));
        http::async_read(stream_, buffer_, request_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->shut();
            self->answer();
        });
    }

  private:
    void answer() {
        auto res = std::make_shared<http::response<http::string_body>>();
        res->version(request_.version());
        res->set(http::field::server, "eboard-hub");
        res->keep_alive(request_.keep_alive());
        if (request_.method() != http::verb::get && request_.method() != http::verb::head) {
            res->result(http::status::method_not_allowed);
            res->set(http::field::allow, "GET, HEAD");
        } else {
            LiveAnswer a = (*handler_)(std::string(request_.target()));
            res->result(static_cast<http::status>(a.status));
            res->set(http::field::content_type, a.content_type);
            res->set(http::field::cache_control, "no-cache");
            if (a.status == 200) {
                const std::string tag = etag_of(a.body);
                res->set(http::field::etag, tag);
                const auto inm = request_[http::field::if_none_match];
                if (inm.find(tag) != beast::string_view::npos || inm == "*") {
                    res->result(http::status::not_modified);
                    a.body.clear();
                }
            }
            if (request_.method() == http::verb::get || res->result() != http::status::ok) res->body() = std::move(a.body);
            else res->content_length(a.body.size());
        }
        if (request_.method() == http::verb::get || res->result() != http::status::ok) res->prepare_payload();
        http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
            if (ec || !res->keep_alive()) return self->shut();
            self->read();
        });
    }
    void shut() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    std::shared_ptr<HttpServer::Handler> handler_;
};

} // namespace

std::string etag_of(const std::string& body) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const char c : body) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
    return buf;
}

Expected<std::pair<std::string, unsigned short>> parse_listen(const std::string& text) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) return Error{"'" + text + "' is not ADDR:PORT"};
    std::string addr = text.substr(0, colon);
    if (addr.size() > 2 && addr.front() == '[' && addr.back() == ']') addr = addr.substr(1, addr.size() - 2);
    unsigned port = 0;
    const std::string p = text.substr(colon + 1);
    const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), port);
    if (ec != std::errc() || end != p.data() + p.size() || port > 65535)
        return Error{"'" + p + "' is not a port (0..65535)"};
    beast::error_code bad;
    (void)boost::asio::ip::make_address(addr, bad);
    if (bad) return Error{"'" + addr + "' is not an IP address"};
    return std::pair{addr, static_cast<unsigned short>(port)};
}

HttpServer::HttpServer(boost::asio::io_context& io, Handler handler)
    : acceptor_(io), handler_(std::make_shared<Handler>(std::move(handler))) {}

HttpServer::~HttpServer() { close(); }

Expected<std::unique_ptr<HttpServer>> HttpServer::listen(boost::asio::io_context& io, const std::string& address,
                                                         unsigned short port, Handler handler) {
    std::unique_ptr<HttpServer> s(new HttpServer(io, std::move(handler)));
    beast::error_code ec;
    const auto addr = boost::asio::ip::make_address(address, ec);
    if (ec) return Error{"http: '" + address + "' is not an IP address"};
    const tcp::endpoint ep(addr, port);
    if (!s->acceptor_.open(ep.protocol(), ec) && !s->acceptor_.set_option(tcp::acceptor::reuse_address(true), ec) &&
        !s->acceptor_.bind(ep, ec) && !s->acceptor_.listen(boost::asio::socket_base::max_listen_connections, ec)) {
        s->accept();
        return s;
    }
    return Error{"http: cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message()};
}

unsigned short HttpServer::port() const {
    beast::error_code ec;
    return acceptor_.local_endpoint(ec).port();
}

void HttpServer::close() {
    beast::error_code ec;
    acceptor_.close(ec);
}

void HttpServer::accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (ec == boost::asio::error::operation_aborted || !acceptor_.is_open()) return;
        if (!ec) std::make_shared<Session>(std::move(socket), handler_)->read();
        accept();
    });
}

} // namespace eboard::hub
