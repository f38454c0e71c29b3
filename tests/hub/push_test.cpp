// The lichess push (hub/push.hpp) against a local server that answers as lichess's
// POST /api/broadcast/round/{id}/push is documented to: 200 with each game's result (moves, or an
// error), 400, 401, 429 with Retry-After, 5xx and no answer at all; the queue kept across a
// restart; at most one request a second per round; at most N games a request.
#include "hall_fixture.hpp"

#include "hub/hall.hpp"
#include "hub/push.hpp"
#include "hub/store.hpp"

#include "../support/process.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

using namespace hubtest;
namespace http = boost::beast::http;
using boost::asio::ip::tcp;

namespace {

/// How the fake lichess answers one request: a status with a body (and Retry-After), or
/// nothing at all (`silent`: the connection stays open, unanswered).
struct Answer {
    Answer() = default;
    Answer(int s, std::string b, std::string r = "") : status(s), body(std::move(b)), retry_after(std::move(r)) {}
    int status = 200;
    std::string body = R"({"games":[]})";
    std::string retry_after;
    bool silent = false;
};

/// What it received.
struct Received {
    std::string target, authorization, content_type, body;
    std::chrono::steady_clock::time_point at;
};

class FakeLichess {
  public:
    FakeLichess() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
        thread_ = std::thread([this] { run(); });
    }
    ~FakeLichess() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        // A connection wakes the blocking accept(), which then sees stop_.
        boost::beast::error_code ec;
        tcp::socket wake(io_);
        wake.connect(acceptor_.local_endpoint(), ec);
        thread_.join();
    }
    FakeLichess(const FakeLichess&) = delete;
    FakeLichess& operator=(const FakeLichess&) = delete;

    [[nodiscard]] std::string url() const {
        return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/api/broadcast/round/abcd1234/push";
    }
    /// The answers to give, in order (then 200 with no games).
    void script(std::vector<Answer> answers) {
        std::lock_guard lock(mutex_);
        answers_.assign(answers.begin(), answers.end());
    }
    /// Waits (20 s at most) until `n` requests came.
    bool wait(std::size_t n) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return received_.size() >= n; });
    }
    std::vector<Received> received() {
        std::lock_guard lock(mutex_);
        return received_;
    }

  private:
    void run() {
        std::vector<tcp::socket> silent; // kept open, unanswered
        for (;;) {
            boost::beast::error_code ec;
            tcp::socket s = acceptor_.accept(ec);
            {
                std::lock_guard lock(mutex_);
                if (ec || stop_) return;
            }
            boost::beast::flat_buffer buffer;
            http::request<http::string_body> req;
            http::read(s, buffer, req, ec);
            if (ec) continue;
            Answer a;
            {
                std::lock_guard lock(mutex_);
                if (!answers_.empty()) {
                    a = answers_.front();
                    answers_.pop_front();
                }
                received_.push_back({std::string(req.target()), std::string(req[http::field::authorization]),
                                     std::string(req[http::field::content_type]), req.body(),
                                     std::chrono::steady_clock::now()});
            }
            cv_.notify_all();
            if (a.silent) {
                silent.push_back(std::move(s));
                continue;
            }
            http::response<http::string_body> res{static_cast<http::status>(a.status), 11};
            res.set(http::field::content_type, "application/json");
            if (!a.retry_after.empty()) res.set(http::field::retry_after, a.retry_after);
            res.body() = a.body;
            res.prepare_payload();
            http::write(s, res, ec);
        }
    }

    boost::asio::io_context io_;
    tcp::acceptor acceptor_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Answer> answers_;
    std::vector<Received> received_;
    bool stop_ = false;
    std::thread thread_;
};

/// The log lines of a Pusher.
struct Log {
    std::mutex mutex;
    std::vector<std::string> lines;
    std::function<void(const std::string&)> sink() {
        return [this](const std::string& l) {
            std::lock_guard lock(mutex);
            lines.push_back(l);
        };
    }
    bool has(const std::string& what) {
        std::lock_guard lock(mutex);
        for (const auto& l : lines)
            if (l.find(what) != std::string::npos) return true;
        return false;
    }
};

/// A hall with two games in round 1.
struct Setup {
    eboard::test::TempDir dir{"eboard-hub-push"};
    std::unique_ptr<eboard::hub::HallStore> store;
    std::unique_ptr<eboard::hub::Hall> hall;
    Setup() {
        auto s = eboard::hub::HallStore::open(dir.path);
        REQUIRE(s);
        store = std::move(*s);
        const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 6);
        for (const auto& m : game_messages("pi1", "t1", "g1", plies)) REQUIRE(store->ingest(m.topic, m.payload, 1));
        for (const auto& m : game_messages("pi2", "t1", "g1", plies)) REQUIRE(store->ingest(m.topic, m.payload, 1));
        hall = std::make_unique<eboard::hub::Hall>(*store, "Push test", "");
    }
    eboard::hub::PushOptions options(const FakeLichess& server) const {
        eboard::hub::PushOptions o;
        o.url = server.url();
        o.token = "lip_secret";
        o.timeout = std::chrono::milliseconds(500);
        o.backoff_min_ms = 100;
        o.backoff_max_ms = 400;
        return o;
    }
};

} // namespace

TEST_CASE("push: 200 with per-game results, the request as lichess documents it, each game's error logged") {
    Setup s;
    FakeLichess server;
    server.script({{200, R"({"games":[{"tags":{"White":"?","Black":"?","Round":"1.1"},"moves":6},)"
                         R"({"tags":{"White":"?","Black":"?","Round":"1.2"},"error":"Invalid move: Nxe5"}]})"}});
    Log log;
    eboard::hub::Pusher pusher(*s.store, *s.hall, s.options(server), log.sink());
    pusher.start();
    pusher.changed(1);
    REQUIRE(server.wait(1));
    const auto r = server.received().at(0);
    CHECK(r.target == "/api/broadcast/round/abcd1234/push");
    CHECK(r.authorization == "Bearer lip_secret");
    CHECK(r.content_type == "text/plain");
    CHECK(r.body == s.hall->round_pgn(1));
    CHECK(lines_of(r.body).size() == 2);
    pusher.stop();
    CHECK(pusher.successes() == 1);
    CHECK(log.has("Round 1.2"));
    CHECK(log.has("Invalid move: Nxe5"));
    CHECK_FALSE(s.store->push_next()); // nothing left to push
}

TEST_CASE("push: 400 and 401 are logged and not sent again until the round changes") {
    for (const int status : {400, 401}) {
        Setup s;
        FakeLichess server;
        server.script({{status, R"({"error":"Cannot parse moves"})"}});
        Log log;
        eboard::hub::Pusher pusher(*s.store, *s.hall, s.options(server), log.sink());
        pusher.start();
        pusher.changed(1);
        REQUIRE(server.wait(1));
        pusher.stop();
        CHECK(log.has("refused: " + std::to_string(status)));
        CHECK(log.has("Cannot parse moves"));
        CHECK_FALSE(s.store->push_next());
        CHECK(server.received().size() == 1);
        if (status == 401) CHECK(log.has("token"));
    }
}

TEST_CASE("push: 429 waits for Retry-After, 5xx and no answer back off, and each is sent again until it succeeds") {
    Setup s;
    FakeLichess server;
    Answer silent;
    silent.silent = true;
    server.script({{429, R"({"error":"Too many requests"})", "1"}, {503, "busy"}, silent, {200, R"({"games":[]})"}});
    Log log;
    eboard::hub::Pusher pusher(*s.store, *s.hall, s.options(server), log.sink());
    pusher.start();
    pusher.changed(1);
    REQUIRE(server.wait(4));
    pusher.stop();
    const auto r = server.received();
    CHECK(r[1].at - r[0].at >= std::chrono::milliseconds(950)); // Retry-After: 1
    CHECK(r[3].body == r[0].body);
    CHECK(log.has("429"));
    CHECK(log.has("503"));
    CHECK(log.has("no answer"));
    CHECK(pusher.successes() == 1);
    CHECK_FALSE(s.store->push_next());
}

TEST_CASE("push: a round still queued when the hub stops is pushed when it starts again") {
    Setup s;
    FakeLichess server;
    server.script({{502, "bad gateway"}, {200, R"({"games":[]})"}});
    {
        Log log;
        eboard::hub::Pusher pusher(*s.store, *s.hall, s.options(server), log.sink());
        pusher.start();
        pusher.changed(1);
        REQUIRE(server.wait(1));
        pusher.stop();
    }
    const auto waiting = s.store->push_next();
    REQUIRE(waiting);
    CHECK(waiting->round == 1);
    CHECK(waiting->attempts == 1);
    // Started again on the same store: no change needed to push what waited.
    Log log;
    eboard::hub::Pusher again(*s.store, *s.hall, s.options(server), log.sink());
    again.start();
    REQUIRE(server.wait(2));
    again.stop();
    CHECK(again.successes() == 1);
    CHECK_FALSE(s.store->push_next());
}

TEST_CASE("push: at most one request a second per round, and at most N games a request") {
    Setup s;
    FakeLichess server;
    Log log;
    auto o = s.options(server);
    o.max_games = 1;
    eboard::hub::Pusher pusher(*s.store, *s.hall, o, log.sink());
    pusher.start();
    const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 16);
    const auto change = [&](std::size_t i) {
        for (const auto& m : move_messages("pi1", "t1", "g1", plies[i])) REQUIRE(s.store->ingest(m.topic, m.payload, 2));
        pusher.changed(1);
    };
    // The first change is pushed at once (two requests: two games, one a request); the nine
    // that follow while the round waits out its second are pushed together, a second later.
    change(6);
    REQUIRE(server.wait(2));
    for (std::size_t i = 7; i < 16; ++i) change(i);
    REQUIRE(server.wait(4));
    pusher.stop();
    const auto r = server.received();
    // Two games, one a request: requests come in pairs; two pushes of the round a second apart.
    CHECK(lines_of(r[0].body).size() == 1);
    CHECK(lines_of(r[1].body).size() == 1);
    CHECK(r[0].body != r[1].body);
    for (std::size_t k = 2; k + 1 < r.size(); k += 2) CHECK(r[k].at - r[k - 2].at >= std::chrono::milliseconds(950));
    CHECK(r.size() < 2 * 10); // fewer pushes than changes
}
