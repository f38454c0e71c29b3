#include "mqtt/url.hpp"

#include <charconv>

namespace eboard::mqtt {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

Expected<std::string> percent_decoded(std::string_view s, const char* what) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        const int hi = i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
        const int lo = i + 2 < s.size() ? hex_digit(s[i + 2]) : -1;
        if (hi < 0 || lo < 0) return Error{std::string("bad percent escape in the ") + what + " of the MQTT URL"};
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

} // namespace

Expected<Url> parse_url(std::string_view text) {
    Url url;
    std::string_view rest;
    if (text.substr(0, 7) == "mqtt://") {
        rest = text.substr(7);
    } else if (text.substr(0, 8) == "mqtts://") {
        url.tls = true;
        url.port = 8883;
        rest = text.substr(8);
    } else {
        return Error{"the MQTT URL must start with mqtt:// or mqtts://: " + std::string(text)};
    }
    if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    if (rest.find_first_of("/?#") != std::string_view::npos)
        return Error{"the MQTT URL has a path or query after the host: " + std::string(text)};
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        const auto userinfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
        const auto colon = userinfo.find(':');
        auto user = percent_decoded(userinfo.substr(0, colon), "user");
        if (!user) return user.error();
        url.user = std::move(*user);
        if (colon != std::string_view::npos) {
            auto password = percent_decoded(userinfo.substr(colon + 1), "password");
            if (!password) return password.error();
            url.password = std::move(*password);
        }
    }
    std::string_view port;
    bool has_port = false;
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) return Error{"unclosed '[' in the MQTT URL's host"};
        url.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return Error{"junk after the MQTT URL's host: " + std::string(rest)};
            port = rest.substr(1);
            has_port = true;
        }
    } else {
        const auto colon = rest.find(':');
        url.host = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos) {
            port = rest.substr(colon + 1);
            has_port = true;
        }
    }
    if (url.host.empty()) return Error{"the MQTT URL has no host: " + std::string(text)};
    if (has_port) {
        int p = 0;
        const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
        if (ec != std::errc{} || end != port.data() + port.size() || p < 1 || p > 65535)
            return Error{"the MQTT URL's port must be 1..65535: " + std::string(port)};
        url.port = p;
    }
    return url;
}

std::string redacted(const Url& url) {
    std::string s = url.tls ? "mqtts://" : "mqtt://";
    if (!url.user.empty()) s += url.user + "@";
    s += url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
    return s + ":" + std::to_string(url.port);
}

} // namespace eboard::mqtt
