#include "hub/http_server.hpp"

#include <cstdio>

namespace eboard::hub {

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

web::Response live_response(const web::Request& request, LiveAnswer answer) {
    web::Response res{static_cast<unsigned>(answer.status), std::move(answer.content_type), std::move(answer.body),
                      {{"Server", "eboard-hub"}, {"Cache-Control", "no-cache"}}};
    if (res.status == 200) {
        const std::string tag = etag_of(res.body);
        res.headers.emplace_back("ETag", tag);
        const auto inm = request.header("If-None-Match");
        if (inm.find(tag) != std::string_view::npos || inm == "*") {
            res.status = 304;
            res.body.clear();
        }
    }
    return res;
}

namespace {

web::Limits hub_limits() {
    web::Limits limits;
    limits.max_connections = kMaxConnections;
    limits.request_timeout_seconds = 60;
    return limits;
}

} // namespace

HttpServer::HttpServer(boost::asio::io_context& io, Handler handler) : web_(io, hub_limits()) {
    // The /live/ layout (interfaces.md, "The tournament hall"); the hall answers 404 itself.
    web_.get_prefix("/live/", [handler = std::move(handler)](const web::Request& r) {
        return live_response(r, handler(r.target));
    });
}

HttpServer::~HttpServer() { close(); }

Expected<std::unique_ptr<HttpServer>> HttpServer::listen(boost::asio::io_context& io, const std::string& address,
                                                         unsigned short port, Handler handler) {
    std::unique_ptr<HttpServer> s(new HttpServer(io, std::move(handler)));
    if (auto ok = s->web_.listen(web::ListenAddress{address, port}); !ok)
        return Error{"http: cannot listen on " + address + ":" + std::to_string(port) + ": " + ok.error().message};
    return s;
}

unsigned short HttpServer::port() const { return web_.port(); }

void HttpServer::close() { web_.close(); }

} // namespace eboard::hub
