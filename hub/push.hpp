// The lichess push of eboard-hub (docs/hub.md; interfaces.md, "The tournament hall"): after every
// change of a round, `POST URL` with `Authorization: Bearer <token>`, `Content-Type: text/plain`
// and the round's games.pgn, at most one request a second per round and at most 100 games a
// request (lichess: https://lichess.org/api/broadcast/round/{id}/push; more games go in further
// requests). The queue is the store's (HallStore::push_mark): a round waiting survives a restart.
//
// Answers: 200 with {"games": [{"tags": {...}, "moves": N} or {..., "error": "..."}]}: each
// game's error is logged; 400, 401, 403, 404 (the request or the token is wrong: sending it again
// does not help) are logged and the round leaves the queue until it changes again; 429 waits for
// Retry-After (else 60 s); 5xx, a timeout or no connection back off from 1 s, doubling to 60 s,
// and stay queued across restarts. A URL with `{round}` in it takes the round's number there and
// every round is pushed; without, only the current round is (one lichess round per URL).
#pragma once

#include "base/expected.hpp"
#include "hub/hall.hpp"
#include "hub/store.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace eboard::hub {

/// Where to push: scheme, host, port and target of an http:// or https:// URL.
struct PushUrl {
    bool tls = false;
    std::string host;
    std::string port; ///< "80" / "443" by default
    std::string target = "/";
};

/// Parses an http:// or https:// URL (no user info). Errors name what is wrong.
[[nodiscard]] Expected<PushUrl> parse_push_url(const std::string& url);

/// What a server answered: `status` 0 when there was no answer (`error` says why).
struct HttpReply {
    int status = 0;
    std::string body;
    std::string retry_after;
    std::string error;
};

/// One POST of `body` (text/plain) with the bearer `token`, within `timeout` (connect, send and
/// answer together). HTTPS verifies the server's certificate against `ca_file` (empty: the
/// system's) and its name.
[[nodiscard]] HttpReply http_post(const PushUrl& url, const std::string& token, const std::string& body,
                                  std::chrono::milliseconds timeout, const std::string& ca_file = {});

struct PushOptions {
    std::string url;   ///< may hold `{round}`
    std::string token;
    std::string ca_file;
    std::chrono::milliseconds timeout{10000};
    std::int64_t interval_ms = 1000;    ///< at most one request per round in this time
    std::int64_t backoff_min_ms = 1000; ///< the first retry after a failure
    std::int64_t backoff_max_ms = 60000;
    std::int64_t retry_429_ms = 60000;  ///< 429 without Retry-After
    std::size_t max_games = 100;        ///< games per request
};

/// The push's thread. changed() is cheap (a store write and a wake-up).
class Pusher {
  public:
    /// `log` gets one line per event worth telling (a refused push, a game's error).
    Pusher(HallStore& store, const Hall& hall, PushOptions options, std::function<void(const std::string&)> log);
    ~Pusher();
    Pusher(const Pusher&) = delete;
    Pusher& operator=(const Pusher&) = delete;

    /// Starts the thread: what the queue held at the last exit is pushed first.
    void start();
    /// Stops and joins the thread (a request under way ends first).
    void stop();
    /// Round `round` changed: queue it.
    void changed(int round);
    /// Requests answered so far (any status) and pushes that succeeded (for tests).
    [[nodiscard]] std::uint64_t requests() const;
    [[nodiscard]] std::uint64_t successes() const;

  private:
    void run();
    // Pushes the round; the time (ms since the epoch) it may be tried again, or nullopt when done.
    std::optional<std::int64_t> push(const PushItem& item, std::int64_t now_ms);

    HallStore& store_;
    const Hall& hall_;
    PushOptions options_;
    PushUrl url_;
    std::function<void(const std::string&)> log_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    bool woken_ = false;
    std::map<int, std::int64_t> last_sent_; ///< round -> ms of its last request
    std::uint64_t requests_ = 0;
    std::uint64_t successes_ = 0;
    std::thread thread_;
};

/// Milliseconds since the epoch (system clock).
[[nodiscard]] std::int64_t now_ms();

} // namespace eboard::hub
