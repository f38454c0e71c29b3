#include "console/auth.hpp"

#include <sys/random.h>
#include <sys/stat.h>

#include <fstream>

namespace eboard::console {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(i < a.size() ? a[i] : 0);
        const auto y = static_cast<unsigned char>(i < b.size() ? b[i] : 0);
        diff = static_cast<unsigned char>(diff | (x ^ y));
    }
    return diff == 0;
}

} // namespace

Expected<std::string> read_password_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return Error{"cannot read the arbiter password file " + path};
    if (!S_ISREG(st.st_mode)) return Error{"the arbiter password file is not a regular file: " + path};
    if ((st.st_mode & 077) != 0)
        return Error{"the arbiter password file " + path + " may be read by others: chmod 600 it"};
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) return Error{"cannot read the arbiter password file " + path};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) return Error{"the arbiter password file's first line is empty: " + path};
    return line;
}

std::optional<std::string> Sessions::login(std::string_view password, std::int64_t now_ms) {
    if (!password_ || !constant_time_equal(password, *password_)) return std::nullopt;
    unsigned char bytes[16];
    std::size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n <= 0) return std::nullopt;
        got += static_cast<std::size_t>(n);
    }
    static const char* const hex = "0123456789abcdef";
    std::string token;
    for (unsigned char b : bytes) {
        token += hex[b >> 4];
        token += hex[b & 15];
    }
    for (auto it = expiry_.begin(); it != expiry_.end();) // forget the sessions that ended
        it = it->second <= now_ms ? expiry_.erase(it) : std::next(it);
    expiry_[token] = now_ms + lifetime_ms_;
    return token;
}

bool Sessions::valid(std::string_view token, std::int64_t now_ms) const {
    if (token.empty()) return false;
    const auto it = expiry_.find(token);
    return it != expiry_.end() && now_ms < it->second;
}

void Sessions::logout(std::string_view token) {
    if (const auto it = expiry_.find(token); it != expiry_.end()) expiry_.erase(it);
}

std::string session_from_cookie_header(std::string_view header) {
    while (!header.empty()) {
        const auto semi = header.find(';');
        const std::string_view pair = trimmed(header.substr(0, semi));
        const auto eq = pair.find('=');
        if (eq != std::string_view::npos && trimmed(pair.substr(0, eq)) == kSessionCookie)
            return std::string(trimmed(pair.substr(eq + 1)));
        if (semi == std::string_view::npos) break;
        header.remove_prefix(semi + 1);
    }
    return "";
}

std::string set_cookie_value(std::string_view token) {
    std::string v = std::string(kSessionCookie) + "=" + std::string(token) + "; HttpOnly; SameSite=Strict; Path=/";
    if (token.empty()) v += "; Max-Age=0";
    return v;
}

std::optional<std::string> cross_site_refusal(const RequestOrigin& r) {
    const std::string type = lower(trimmed(r.content_type.substr(0, r.content_type.find(';'))));
    if (type != "application/json") return "a request that changes something must be JSON (Content-Type: application/json)";
    if (lower(trimmed(r.sec_fetch_site)) == "cross-site") return "a cross-site request";
    if (!r.origin.empty()) {
        // Origin is scheme://host[:port]; it must name the Host the request was sent to.
        const auto scheme = r.origin.find("://");
        const std::string origin_host = lower(scheme == std::string::npos ? r.origin : r.origin.substr(scheme + 3));
        if (origin_host != lower(trimmed(r.host))) return "a request from another site (Origin " + r.origin + ")";
    }
    return std::nullopt;
}

} // namespace eboard::console
