// The broker URL of the tournament hall's contract (docs/hall.md; interfaces.md, "The tournament
// hall"): mqtt://[USER[:PASSWORD]@]HOST[:PORT] and mqtts://… for TLS.
#pragma once

#include "base/expected.hpp"

#include <string>
#include <string_view>

namespace eboard::mqtt {

/// A parsed broker URL. `host` is a name or an address (an IPv6 address without its brackets);
/// `port` defaults to 1883 (mqtt) or 8883 (mqtts); `user` and `password` are percent-decoded and
/// empty when absent.
struct Url {
    bool tls = false;
    std::string user;
    std::string password;
    std::string host;
    int port = 1883;
};

/// Parses `text`. Errors (with a message naming what is wrong): another scheme, no host, a port
/// outside 1..65535, a path or query after the host (a single trailing '/' is accepted), a bad
/// percent escape.
Expected<Url> parse_url(std::string_view text);

/// The URL without its password (for logs and status lines): mqtt://USER@HOST:PORT.
std::string redacted(const Url& url);

} // namespace eboard::mqtt
