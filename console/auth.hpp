// The arbiter's access to the console (docs/console.md, "Security"): the password file, sessions
// and the refusal of cross-site requests. Both servers use it; no I/O but reading the password
// file, no clock of its own (`now_ms` is passed in).
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace eboard::console {

/// The first line of `path` (without its line end): the arbiter password. Errors: the file
/// cannot be read, is not a regular file, may be read by group or others (mode & 077), or its
/// first line is empty.
Expected<std::string> read_password_file(const std::string& path);

/// The arbiters' sessions: a login with the right password gives a token (128 random bits from
/// getrandom(2), as 32 hex digits) that is valid for `lifetime_ms` (12 h) or until logout.
/// Without a password (none configured) every login is refused. Not thread-safe.
class Sessions {
  public:
    explicit Sessions(std::optional<std::string> password, std::int64_t lifetime_ms = 12LL * 3600 * 1000)
        : password_(std::move(password)), lifetime_ms_(lifetime_ms) {}
    /// A new session's token, or nullopt for a wrong password (compared in constant time).
    std::optional<std::string> login(std::string_view password, std::int64_t now_ms);
    /// Whether `token` is a live session at `now_ms`.
    [[nodiscard]] bool valid(std::string_view token, std::int64_t now_ms) const;
    /// Ends the session `token` (nothing if there is none).
    void logout(std::string_view token);
    /// Whether an arbiter password is configured.
    [[nodiscard]] bool enabled() const { return password_.has_value(); }

  private:
    std::optional<std::string> password_;
    std::int64_t lifetime_ms_;
    std::map<std::string, std::int64_t, std::less<>> expiry_; // token -> end, ms
};

/// The name of the session cookie.
inline constexpr std::string_view kSessionCookie = "eboard_session";
/// The value of the session cookie in a `Cookie:` header ("" if absent).
std::string session_from_cookie_header(std::string_view cookie_header);
/// The `Set-Cookie:` value that gives the browser `token` (HttpOnly, SameSite=Strict, Path=/),
/// or, with an empty token, removes it.
std::string set_cookie_value(std::string_view token);

/// The headers of a state-changing request that the cross-site check reads ("" = absent).
struct RequestOrigin {
    std::string content_type;
    std::string origin;
    std::string host;
    std::string sec_fetch_site;
};
/// Why a POST must be refused as possibly cross-site, or nullopt when it may go on: its body is
/// not JSON (Content-Type application/json, which a cross-site form cannot send without a
/// preflight), its Origin names another server than its Host, or the browser says
/// `Sec-Fetch-Site: cross-site`.
std::optional<std::string> cross_site_refusal(const RequestOrigin& r);

} // namespace eboard::console
