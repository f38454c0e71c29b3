#include "speech/speechd.hpp"

#include <charconv>
#include <cstdlib>
#include <libspeechd.h>
#include <map>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <system_error>

namespace eboard::speech {

namespace {

/// libspeechd's address struct for "unix_socket:PATH" / "inet_socket:HOST:PORT".
Expected<SPDConnectionAddress> parse_address(const std::string& text, std::string& host) {
    SPDConnectionAddress a{};
    constexpr std::string_view kUnix = "unix_socket:", kInet = "inet_socket:";
    if (text.starts_with(kUnix)) {
        host = text.substr(kUnix.size());
        a.method = SPD_METHOD_UNIX_SOCKET;
        a.unix_socket_name = host.data();
        return a;
    }
    if (text.starts_with(kInet)) {
        host = text.substr(kInet.size());
        const auto colon = host.rfind(':');
        a.method = SPD_METHOD_INET_SOCKET;
        a.inet_socket_port = 6560; // SSIP's port
        if (colon != std::string::npos) {
            const std::string port = host.substr(colon + 1);
            int value = 0;
            const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
            if (ec != std::errc() || end != port.data() + port.size() || value <= 0 ||
                value > 65535)
                return Error{"bad speech-dispatcher port '" + port + "' in '" + text + "'"};
            a.inet_socket_port = value;
            host.erase(colon);
        }
        a.inet_socket_host = host.data();
        return a;
    }
    return Error{"bad speech-dispatcher address '" + text +
                 "' (unix_socket:PATH or inet_socket:HOST:PORT)"};
}

/// A connection named `name` ("main", "menu:BOARD") to the speech-dispatcher at `address` ("" =
/// libspeechd's default).
Expected<SPDConnection*> connect(const std::string& address, const std::string& name) {
    std::string host;
    SPDConnectionAddress parsed{};
    const SPDConnectionAddress* a = nullptr;
    SPDConnectionAddress* owned = nullptr;
    if (!address.empty()) {
        auto p = parse_address(address, host);
        if (!p) return p.error();
        parsed = *p;
        a = &parsed;
    } else {
        char* err = nullptr;
        owned = spd_get_default_address(&err);
        std::free(err);
        a = owned;
    }
    char* err = nullptr;
    SPDConnection* c = a == nullptr
                           ? nullptr
                           : spd_open2("eboardd", name.c_str(), nullptr, SPD_MODE_SINGLE, a,
                                       /*autospawn=*/0, &err);
    if (owned != nullptr) SPDConnectionAddress__free(owned);
    if (c == nullptr) {
        std::string why = err != nullptr ? err : "no address";
        std::free(err);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        return Error{"speech-dispatcher: " + why};
    }
    // libspeechd (SPD_MODE_SINGLE) blocks on the server's reply without a time limit: a server
    // that hangs (stopping, or its module stuck) would block the speech thread and with it the
    // daemon's shutdown. A reply later than 2 s is a broken connection: the request fails and
    // speak() connects again. (A queued message is acknowledged at once, before synthesis.)
    const timeval limit{2, 0};
    if (c->socket >= 0) {
        ::setsockopt(c->socket, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        ::setsockopt(c->socket, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    }
    return c;
}

/// One connection and the language last set on it.
struct Link {
    SPDConnection* c = nullptr;
    std::string language;
};

/// Connections: "main" for moves, alerts and answers, and one per board whose clock's button
/// menu spoke ("menu:BOARD", opened at its first menu utterance). speech-dispatcher takes each
/// message at once and queues it itself, so the speech queue's drop of stale menu utterances
/// rarely finds one; on its own connection a new menu utterance first cancels what that menu
/// still says or has queued there (spd_cancel acts on one connection's messages), never a
/// move, an alert or another board's menu.
class SpeechdSynthesizer final : public Synthesizer {
  public:
    SpeechdSynthesizer(SPDConnection* c, std::string address) : address_(std::move(address)) {
        main_.c = c;
    }
    ~SpeechdSynthesizer() override {
        if (main_.c != nullptr) spd_close(main_.c);
        for (auto& entry : menus_)
            if (entry.second.c != nullptr) spd_close(entry.second.c);
    }
    SpeechdSynthesizer(const SpeechdSynthesizer&) = delete;
    SpeechdSynthesizer& operator=(const SpeechdSynthesizer&) = delete;

    std::string_view name() const override { return "speech-dispatcher"; }

    /// Says `u`; when the connection broke (speech-dispatcher restarted), connects again once
    /// and repeats the request.
    bool speak(const Utterance& u) override {
        Link& link = u.menu.empty() ? main_ : menus_[u.menu];
        if (link.c != nullptr && request(link, u)) return true;
        if (link.c != nullptr) spd_close(link.c);
        link.c = nullptr;
        link.language.clear();
        auto c = connect(address_, u.menu.empty() ? "main" : "menu:" + u.menu);
        if (!c) {
            error_ = c.error().message;
            return false;
        }
        link.c = *c;
        return request(link, u);
    }

    std::string error() const override { return error_; }

  private:
    bool request(Link& link, const Utterance& u) {
        if (u.language != link.language) {
            if (spd_set_language(link.c, u.language.c_str()) != 0) {
                error_ = "speech-dispatcher refused language '" + u.language + "'";
                return false;
            }
            link.language = u.language;
        }
        // The menu's connection: what it still says or has queued is stale now.
        if (!u.menu.empty() && spd_cancel(link.c) != 0) {
            error_ = "speech-dispatcher did not cancel the menu's speech (connection lost?)";
            link.language.clear();
            return false;
        }
        // MESSAGE: queued, never dropped for later text (every move must be heard);
        // IMPORTANT (alerts): said before waiting messages.
        if (spd_say(link.c, u.important ? SPD_IMPORTANT : SPD_MESSAGE, u.text.c_str()) < 0) {
            error_ = "speech-dispatcher did not accept the message (connection lost?)";
            link.language.clear();
            return false;
        }
        return true;
    }

    Link main_;
    std::map<std::string, Link> menus_; ///< by board name
    std::string address_;
    std::string error_;
};

} // namespace

Expected<std::unique_ptr<Synthesizer>> open_speechd(const std::string& address) {
    auto c = connect(address, "main");
    if (!c) return c.error();
    return std::unique_ptr<Synthesizer>(std::make_unique<SpeechdSynthesizer>(*c, address));
}

} // namespace eboard::speech
