#include "daemon/http_console.hpp"

#include "console/auth.hpp"
#include "console/server.hpp"
#include "web/server.hpp"

namespace eboard::daemon {

nlohmann::json execute_json_request(CommandHandler& handler, const nlohmann::json& request) {
    const DecodedLine decoded = decode_request_line(request.dump());
    ojson reply;
    if (!decoded.request) {
        reply = decoded.error;
    } else {
        try {
            reply = handler.execute(*decoded.request, decoded.raw);
        } catch (const std::exception& e) {
            reply = error_reply(ErrorCode::Internal, e.what(), decoded.raw);
        }
    }
    return nlohmann::json::parse(reply.dump());
}

Expected<bool> HttpConsole::check(const std::string& listen, const std::string& password_file) {
    if (auto address = web::parse_listen_address(listen); !address) return Error{"--http: " + address.error().message};
    if (!password_file.empty()) {
        if (auto p = console::read_password_file(password_file); !p)
            return Error{"--arbiter-password-file: " + p.error().message};
    }
    return true;
}

Expected<std::unique_ptr<HttpConsole>> HttpConsole::open(boost::asio::io_context& io, const std::string& listen,
                                                         const std::string& password_file, CommandHandler& handler) {
    auto address = web::parse_listen_address(listen);
    if (!address) return Error{"--http: " + address.error().message};
    std::optional<std::string> password;
    if (!password_file.empty()) {
        auto p = console::read_password_file(password_file);
        if (!p) return Error{"--arbiter-password-file: " + p.error().message};
        password = std::move(*p);
    }
    std::unique_ptr<HttpConsole> c(new HttpConsole());
    c->web_ = std::make_unique<web::Server>(io);
    console::Hooks hooks;
    hooks.execute = [&handler](const nlohmann::json& request) { return execute_json_request(handler, request); };
    c->console_ = std::make_unique<console::Server>(*c->web_, "eboardd", std::move(password), std::move(hooks));
    if (auto ok = c->web_->listen(*address); !ok) return Error{"--http " + listen + ": " + ok.error().message};
    return c;
}

HttpConsole::~HttpConsole() { close(); }

void HttpConsole::observe(const std::string& line) {
    const auto event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object()) console_->on_event(event);
}

void HttpConsole::close() {
    if (web_) web_->close();
}

std::uint16_t HttpConsole::port() const { return web_->port(); }

} // namespace eboard::daemon
