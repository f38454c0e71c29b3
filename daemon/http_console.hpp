// eboardd --http ADDR:PORT: the arbiters' console (docs/console.md) for this daemon's boards.
// A web::Server on the daemon's loop serves console::Server; the console follows the events as
// they are recorded (the same lines as --events) and carries out the arbiter's requests through
// the client API's dispatcher, so that they are refused by the same rules with the same codes.
// Runs on the event loop's thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "base/expected.hpp"
#include "daemon/commands.hpp"

namespace eboard::web {
class Server;
}
namespace eboard::console {
class Server;
}

namespace eboard::daemon {

/// Carries out one client API request (a JSON object, docs/client-api.md) through `handler`,
/// the same dispatcher as the Unix socket's, and returns its reply (OK …, or ERROR with its
/// `code`; an exception is an `internal` ERROR). For the console and the hall's requests.
[[nodiscard]] nlohmann::json execute_json_request(CommandHandler& handler, const nlohmann::json& request);

class HttpConsole {
  public:
    /// Listens on `listen` (ADDR:PORT; the address must be numeric or `localhost`) with the
    /// password of `password_file` ("" = none: the page is read-only). Errors: a bad address,
    /// the address cannot be bound, the password file is missing, empty or readable by others.
    [[nodiscard]] static Expected<std::unique_ptr<HttpConsole>> open(boost::asio::io_context& io,
                                                                     const std::string& listen,
                                                                     const std::string& password_file,
                                                                     CommandHandler& handler);
    /// The checks of open() that need no socket: the address and the password file (at start,
    /// so that a mistake is a configuration error).
    [[nodiscard]] static Expected<bool> check(const std::string& listen, const std::string& password_file);
    ~HttpConsole();
    HttpConsole(const HttpConsole&) = delete;
    HttpConsole& operator=(const HttpConsole&) = delete;

    /// One recorded event, as its JSON line.
    void observe(const std::string& line);
    /// Closes the server and every page's connection (at shutdown).
    void close();
    /// The bound port (the kernel's choice for port 0).
    [[nodiscard]] std::uint16_t port() const;

  private:
    HttpConsole() = default;
    std::unique_ptr<web::Server> web_;
    std::unique_ptr<console::Server> console_;
};

} // namespace eboard::daemon
