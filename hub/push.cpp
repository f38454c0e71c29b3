#include "hub/push.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace eboard::hub {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace ssl = boost::asio::ssl;
using boost::asio::ip::tcp;

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Expected<PushUrl> parse_push_url(const std::string& url) {
    PushUrl out;
    std::string rest;
    if (url.rfind("https://", 0) == 0) {
        out.tls = true;
        rest = url.substr(8);
    } else if (url.rfind("http://", 0) == 0) {
        rest = url.substr(7);
    } else {
        return Error{"push URL '" + url + "': not http:// or https://"};
    }
    const auto slash = rest.find('/');
    std::string authority = rest.substr(0, slash);
    if (slash != std::string::npos) out.target = rest.substr(slash);
    if (authority.find('@') != std::string::npos) return Error{"push URL: no user in the URL (the token is read from a file)"};
    out.port = out.tls ? "443" : "80";
    std::string host = authority;
    if (!authority.empty() && authority.front() == '[') { // [v6]:port
        const auto close = authority.find(']');
        if (close == std::string::npos) return Error{"push URL '" + url + "': an IPv6 address without ']'"};
        host = authority.substr(1, close - 1);
        if (close + 1 < authority.size() && authority[close + 1] == ':') out.port = authority.substr(close + 2);
    } else if (const auto colon = authority.rfind(':'); colon != std::string::npos) {
        host = authority.substr(0, colon);
        out.port = authority.substr(colon + 1);
    }
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(out.port.data(), out.port.data() + out.port.size(), port);
    if (ec != std::errc() || end != out.port.data() + out.port.size() || port < 1 || port > 65535)
        return Error{"push URL '" + url + "': bad port '" + out.port + "'"};
    if (host.empty()) return Error{"push URL '" + url + "': no host"};
    out.host = host;
    return out;
}

namespace {

http::request<http::string_body> make_request(const PushUrl& url, const std::string& token, const std::string& body) {
    http::request<http::string_body> req{http::verb::post, url.target, 11};
    req.set(http::field::host, url.host);
    req.set(http::field::user_agent, "eboard-hub");
    req.set(http::field::authorization, "Bearer " + token);
    req.set(http::field::content_type, "text/plain");
    req.body() = body;
    req.prepare_payload();
    return req;
}

// Sends `req` on a connected `stream` and reads the answer; `run` runs one operation with the
// deadline and leaves its error in `ec`.
template <typename Stream, typename Run>
HttpReply exchange(Stream& stream, const http::request<http::string_body>& req, Run run, beast::error_code& ec) {
    HttpReply out;
    run([&](auto h) { http::async_write(stream, req, [h](beast::error_code e, std::size_t) { h(e); }); });
    if (ec) {
        out.error = "sending: " + ec.message();
        return out;
    }
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    run([&](auto h) { http::async_read(stream, buffer, res, [h](beast::error_code e, std::size_t) { h(e); }); });
    if (ec) {
        out.error = "no answer: " + ec.message();
        return out;
    }
    // NOLINTNEXTLINE(clang-analyzer-cplusplus.Move): async_read fills `res` by reference, nothing moves it
    out.status = static_cast<int>(res.result_int());
    out.retry_after = std::string(res[http::field::retry_after]);
    out.body = std::move(res.body());
    return out;
}

} // namespace

HttpReply http_post(const PushUrl& url, const std::string& token, const std::string& body,
                    std::chrono::milliseconds timeout, const std::string& ca_file) {
    HttpReply out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    boost::asio::io_context io;
    beast::error_code ec;
    tcp::resolver resolver(io);
    const auto endpoints = resolver.resolve(url.host, url.port, ec);
    if (ec) {
        out.error = "resolving " + url.host + ": " + ec.message();
        return out;
    }
    const auto req = make_request(url, token, body);
    // Blocking calls with a deadline: beast::tcp_stream's timeouts act on its async operations,
    // so the synchronous ones go through a run of the io_context with a limit.
    auto run_until = [&](auto&& start) {
        bool done = false;
        start([&](beast::error_code e) {
            ec = e;
            done = true;
        });
        io.restart();
        io.run_until(deadline);
        if (!done) {
            ec = boost::asio::error::timed_out;
            io.stop();
        }
    };
    if (!url.tls) {
        beast::tcp_stream stream(io);
        run_until([&](auto h) { stream.async_connect(endpoints, [h](beast::error_code e, const tcp::endpoint&) { h(e); }); });
        if (ec) {
            out.error = "connecting to " + url.host + ":" + url.port + ": " + ec.message();
            return out;
        }
        return exchange(stream, req, run_until, ec);
    }
    ssl::context ctx(ssl::context::tls_client);
    if (ca_file.empty()) ctx.set_default_verify_paths(ec);
    else ctx.load_verify_file(ca_file, ec);
    if (ec) {
        out.error = "TLS certificates: " + ec.message();
        return out;
    }
    ctx.set_verify_mode(ssl::verify_peer);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    // SNI (SSL_set_tlsext_host_name is a macro with a C cast).
    if (SSL_ctrl(stream.native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                 const_cast<char*>(url.host.c_str())) != 1) {
        out.error = "TLS: cannot set the server name";
        return out;
    }
    stream.set_verify_callback(ssl::host_name_verification(url.host));
    run_until([&](auto h) {
        beast::get_lowest_layer(stream).async_connect(endpoints, [h](beast::error_code e, const tcp::endpoint&) { h(e); });
    });
    if (!ec) run_until([&](auto h) { stream.async_handshake(ssl::stream_base::client, h); });
    if (ec) {
        out.error = "connecting to " + url.host + ":" + url.port + ": " + ec.message();
        return out;
    }
    return exchange(stream, req, run_until, ec);
}

Pusher::Pusher(HallStore& store, const Hall& hall, PushOptions options, std::function<void(const std::string&)> log)
    : store_(store), hall_(hall), options_(std::move(options)), log_(std::move(log)) {
    if (auto u = parse_push_url(options_.url)) url_ = *u;
}

Pusher::~Pusher() { stop(); }

void Pusher::start() {
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void Pusher::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Pusher::changed(int round) {
    const bool every_round = options_.url.find("{round}") != std::string::npos;
    if (!every_round && round != hall_.current_round()) return;
    std::int64_t due = now_ms();
    {
        std::lock_guard lock(mutex_);
        if (auto it = last_sent_.find(round); it != last_sent_.end()) due = std::max(due, it->second + options_.interval_ms);
    }
    if (auto ok = store_.push_mark(round, due); !ok) log_("push: the queue: " + ok.error().message);
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    wake_.notify_all();
}

std::uint64_t Pusher::requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
}

std::uint64_t Pusher::successes() const {
    std::lock_guard lock(mutex_);
    return successes_;
}

void Pusher::run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
        woken_ = false;
        lock.unlock();
        const auto item = store_.push_next();
        const std::int64_t now = now_ms();
        lock.lock();
        if (!item) {
            wake_.wait(lock, [this] { return stop_ || woken_; });
            continue;
        }
        if (item->due_ms > now) {
            wake_.wait_for(lock, std::chrono::milliseconds(item->due_ms - now), [this] { return stop_ || woken_; });
            continue;
        }
        last_sent_[item->round] = now;
        lock.unlock();
        const auto retry = push(*item, now);
        Expected<bool> ok = retry ? store_.push_failed(*item, *retry) : store_.push_done(*item, now + options_.interval_ms);
        if (!ok) log_("push: the queue: " + ok.error().message);
        lock.lock();
    }
}

std::optional<std::int64_t> Pusher::push(const PushItem& item, std::int64_t now) {
    PushUrl url = url_;
    if (const auto at = url.target.find("{round}"); at != std::string::npos)
        url.target.replace(at, 7, std::to_string(item.round));
    const std::size_t games = hall_.game_count(item.round);
    const std::string round = "push of round " + std::to_string(item.round);
    const std::int64_t backoff =
        std::min(options_.backoff_max_ms, options_.backoff_min_ms << std::min(item.attempts, 16));
    for (std::size_t first = 0; first < games; first += options_.max_games) {
        const std::string body = hall_.round_pgn(item.round, first, options_.max_games);
        const HttpReply reply = http_post(url, options_.token, body, options_.timeout, options_.ca_file);
        {
            std::lock_guard lock(mutex_);
            if (reply.status != 0) ++requests_;
        }
        if (reply.status == 0) {
            log_(round + " failed (" + reply.error + "); again in " + std::to_string(backoff) + " ms");
            return now + backoff;
        }
        if (reply.status == 429) {
            std::int64_t wait = options_.retry_429_ms;
            int seconds = 0;
            const auto& ra = reply.retry_after;
            if (auto [p, ec] = std::from_chars(ra.data(), ra.data() + ra.size(), seconds); ec == std::errc() && seconds >= 0)
                wait = std::int64_t{seconds} * 1000;
            log_(round + ": 429 too many requests; again in " + std::to_string(wait) + " ms");
            return now + wait;
        }
        if (reply.status >= 500) {
            log_(round + ": " + std::to_string(reply.status) + " from the server; again in " + std::to_string(backoff) +
                 " ms");
            return now + backoff;
        }
        if (reply.status != 200) {
            std::string why = reply.body.substr(0, 200);
            if (auto j = nlohmann::json::parse(reply.body, nullptr, false); j.is_object() && j.contains("error"))
                why = j["error"].is_string() ? j["error"].get<std::string>() : j["error"].dump();
            log_(round + " refused: " + std::to_string(reply.status) + " " + why +
                 (reply.status == 401 ? " (the token is wrong or lacks study:write)" : "") +
                 "; not sent again until the round changes");
            return std::nullopt;
        }
        // 200: each game's result; the errors are the organiser's to see.
        if (auto j = nlohmann::json::parse(reply.body, nullptr, false); j.is_object() && j["games"].is_array()) {
            for (const auto& g : j["games"]) {
                if (!g.is_object() || !g.contains("error")) continue;
                std::string who;
                if (g.contains("tags") && g["tags"].is_object())
                    for (const char* t : {"Round", "White", "Black"})
                        if (g["tags"].contains(t) && g["tags"][t].is_string())
                            who += std::string(who.empty() ? "" : ", ") + t + " " + g["tags"][t].get<std::string>();
                log_(round + ": game (" + who + "): " + (g["error"].is_string() ? g["error"].get<std::string>() : g["error"].dump()));
            }
        }
        std::lock_guard lock(mutex_);
        ++successes_;
    }
    return std::nullopt;
}

} // namespace eboard::hub
