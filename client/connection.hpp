// A client's connection to eboardd's socket (docs/client-api.md "Connection"): JSON lines
// both ways over a Unix stream socket, blocking. The first line the daemon sends is VERSION.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace eboard::client {

using ojson = nlohmann::ordered_json;

class Connection {
  public:
    Connection() = default;
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Connects to the socket at `path`; false with `error` set ("cannot connect to PATH: ...").
    [[nodiscard]] bool open(const std::string& path, std::string& error);
    /// Sends `j` as one line; false when the daemon hung up.
    [[nodiscard]] bool send(const ojson& j);
    /// The next JSON line (lines that are not JSON are skipped); nullopt when the daemon hung up.
    [[nodiscard]] std::optional<ojson> receive();

  private:
    int fd_ = -1;
    std::string buf_;
};

} // namespace eboard::client
