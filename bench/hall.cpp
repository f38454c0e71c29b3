// bench_hall: the tournament hall at scale (issue 20): P publishers x B boards -> one mosquitto on
// loopback -> one eboard-hub, at blitz pace. Each publisher is one MQTT connection that publishes
// what one eboardd --mqtt-confirm publishes for B boards (docs/hall.md): per ply two TOUCHes, the
// MOVE made, the MOVE completed and the board's retained state, each payload naming its outbox
// row; real blitz games (data/games/lichess-db-sample.pgn), a ply every ~ply-ms on each board.
// Measured over the window:
// - publish -> committed in the hub: until the hub's `received` mark of the host covers the
//   completed MOVE's row (the hub publishes a mark after its commit, at most every 100 ms, so
//   this is an upper bound of the commit's latency);
// - completed move -> visible over HTTP: /live/round-1/index.json polled every 200 ms, a ply is
//   visible when its board's game has that many plies (resolution: the poll);
// - CPU (% of a core) and RSS of eboard-hub and, beside it, of mosquitto itself.
//   bench_hall [--publishers P] [--boards B] [--seconds S] [--ply-ms MS] [--state DIR]
// Defaults: 10 x 100 boards, 30 s, 5000 ms (the issue's 500 boards "a ply every 5 s"), the hub's
// store under /tmp (a disk: the hub commits every message with synchronous=FULL).
// mosquitto runs with persistence and its default autosave (every 30 min, not on each change):
// with the hub's marks nothing depends on the broker's saves (docs/hall.md).
#include "bench/daemon_support.hpp"
#include "bench/target.hpp"

#include "daemon/hall_topics.hpp"
#include "daemon/stored_game.hpp"
#include "mqtt/client.hpp"
#include "rules/pgn.hpp"
#include "rules/position.hpp"
#include "tests/hub/http_client.hpp"
#include "tests/support/mosquitto.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <tuple>

using namespace eboard;
using namespace eboard::bench;
namespace fs = std::filesystem;

namespace {

/// One ply as eboardd publishes it.
struct PlyText {
    std::string san, uci, fen;
};

std::vector<std::vector<PlyText>> blitz_games() {
    std::ifstream in(fs::path(EBOARD_REPO_DATA) / "games" / "lichess-db-sample.pgn");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::vector<PlyText>> out;
    PgnReader reader(text);
    while (auto g = reader.next()) {
        if (!g->has_value() || !g->value().start_fen.empty() || g->value().moves.size() < 40) continue;
        Position pos = Position::startpos();
        std::vector<PlyText> plies;
        for (const auto& m : g->value().moves) {
            PlyText p{m.san, to_uci(pos, m.move), ""};
            pos.make_move(m.move);
            p.fen = pos.fen();
            plies.push_back(std::move(p));
        }
        out.push_back(std::move(plies));
    }
    return out;
}

/// The time each completed ply was published until the hub confirms (per host) or shows it
/// (per board).
/// (row or ply, published, published in the measured window)
using Pending = std::deque<std::tuple<std::int64_t, Clock::time_point, bool>>;

class Latencies {
  public:
    void published(const std::string& host, const std::string& board, std::int64_t seq, int ply, Clock::time_point at) {
        std::lock_guard lock(m_);
        by_seq_[host].emplace_back(seq, at, measuring_);
        by_ply_[host + "/" + board].emplace_back(ply, at, measuring_);
    }
    void marked(const std::string& host, std::int64_t seq, Clock::time_point at) {
        std::lock_guard lock(m_);
        done(by_seq_[host], seq, at, committed_);
    }
    void visible(const std::string& source, int plies, Clock::time_point at) {
        std::lock_guard lock(m_);
        done(by_ply_[source], plies, at, shown_);
    }
    void measure(bool on) {
        std::lock_guard lock(m_);
        measuring_ = on;
    }
    /// (committed, visible) latencies in ms, and the plies still waiting for each.
    std::pair<std::vector<double>, std::vector<double>> take(std::size_t& waiting_marks, std::size_t& waiting_http) {
        std::lock_guard lock(m_);
        waiting_marks = waiting_http = 0;
        for (const auto& [h, p] : by_seq_)
            waiting_marks += static_cast<std::size_t>(std::count_if(p.begin(), p.end(), [](const auto& e) { return std::get<2>(e); }));
        for (const auto& [s, p] : by_ply_)
            waiting_http += static_cast<std::size_t>(std::count_if(p.begin(), p.end(), [](const auto& e) { return std::get<2>(e); }));
        return {committed_, shown_};
    }

  private:
    // The entries of `q` up to `upto` are done at `at`: those of the window go into `out`.
    static void done(Pending& q, std::int64_t upto, Clock::time_point at, std::vector<double>& out) {
        while (!q.empty() && std::get<0>(q.front()) <= upto) {
            if (std::get<2>(q.front()))
                out.push_back(std::chrono::duration<double, std::milli>(at - std::get<1>(q.front())).count());
            q.pop_front();
        }
    }
    std::mutex m_;
    bool measuring_ = false;
    std::map<std::string, Pending> by_seq_; // host -> completed MOVEs' rows
    std::map<std::string, Pending> by_ply_; // host/board -> completed plies
    std::vector<double> committed_, shown_;
};

/// One host: an MQTT connection publishing for `boards` boards.
class Publisher {
  public:
    Publisher(const std::string& url, std::string host, int boards, const std::vector<std::vector<PlyText>>& games,
              std::size_t first_game)
        : host_(std::move(host)) {
        mqtt::ClientOptions o;
        o.url = *mqtt::parse_url(url);
        o.client_id = "bench-" + host_;
        mqtt::Callbacks c;
        c.connected = [this](bool) { connected_ = true; };
        client_ = std::make_unique<mqtt::Client>(std::move(o), std::move(c));
        for (int b = 0; b < boards; ++b)
            boards_.push_back(Board{"b" + std::to_string(b), host_ + "-g" + std::to_string(b),
                                    &games[(first_game + static_cast<std::size_t>(b)) % games.size()], 0});
        client_->start();
    }
    [[nodiscard]] bool connected() const { return connected_; }
    [[nodiscard]] std::size_t boards() const { return boards_.size(); }
    [[nodiscard]] long failed() const { return failed_; }

    /// The game's start on board `b`.
    void start_game(std::size_t b) {
        const Board& x = boards_[b];
        send(x, "game", R"({"class":"GAME","board":")" + x.name + R"(","game":")" + x.game +
                            R"(","event":"start","fen":")" + std::string(daemon::kStandardFen) + R"(","host":")" +
                            host_ + "\"}", false);
    }
    /// The next ply on board `b` (false at the game's end).
    bool ply(std::size_t b, Latencies& lat) {
        Board& x = boards_[b];
        if (x.next >= x.plies->size()) return false;
        const PlyText& p = (*x.plies)[x.next];
        const int ply = static_cast<int>(++x.next);
        const std::string head = R"({"board":")" + x.name + R"(","game":")" + x.game + "\"";
        const std::string tail = R"(,"host":")" + host_ + "\"}";
        const std::string clock = R"(,"clock":{"white_ms":)" + std::to_string(180000 - ply * 900) +
                                  R"(,"black_ms":)" + std::to_string(180000 - ply * 880) + "}";
        const auto at = Clock::now();
        for (const char* sq : {"from", "to"})
            send(x, "touch", R"({"class":"TOUCH",)" + head.substr(1) + R"(,"square":")" +
                                 (std::strcmp(sq, "from") == 0 ? p.uci.substr(0, 2) : p.uci.substr(2, 2)) + "\"" + tail,
                 false);
        const std::string move = R"({"class":"MOVE",)" + head.substr(1) + R"(,"ply":)" + std::to_string(ply) +
                                 R"(,"san":")" + p.san + R"(","uci":")" + p.uci + R"(","fen":")" + p.fen + "\"";
        send(x, "move", move + R"(,"status":"made")" + tail, false);
        const std::int64_t seq = send(x, "move", move + R"(,"status":"completed")" + clock + tail, false);
        lat.published(host_, x.name, seq, ply, at);
        send(x, "state", R"({"host":")" + host_ + R"(","board":")" + x.name + R"(","state":"playing","game":")" + x.game +
                             R"(","fen":")" + p.fen + R"(","ply":)" + std::to_string(ply) + clock + "}",
             true);
        return true;
    }

  private:
    struct Board {
        std::string name, game;
        const std::vector<PlyText>* plies;
        std::size_t next;
    };
    // Publishes one message, its payload naming its row as eboardd --mqtt-confirm does; the row.
    std::int64_t send(const Board& b, const char* cls, const std::string& payload, bool retain) {
        const std::int64_t seq = ++seq_;
        const std::string topic = std::string(cls) == "state" ? daemon::state_topic(host_, b.name)
                                                               : daemon::event_topic(host_, b.name, cls);
        if (!client_->publish(topic, daemon::with_outbox_seq(payload, "bench-" + host_, seq), 1, retain)) ++failed_;
        return seq;
    }

    std::string host_;
    std::vector<Board> boards_;
    std::unique_ptr<mqtt::Client> client_;
    std::atomic<bool> connected_{false};
    std::atomic<long> failed_{0};
    std::int64_t seq_ = 0; // on the players' thread
};

std::string loadavg() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

/// A process's CPU from now on.
struct Usage {
    explicit Usage(pid_t p) : pid(p), cpu0(cpu_seconds(p)) {}
    pid_t pid;
    double cpu0;
    [[nodiscard]] double percent(double wall) const { return 100.0 * (cpu_seconds(pid) - cpu0) / wall; }
};

} // namespace

int main(int argc, char** argv) try {
    int publishers = 10, boards = 100, seconds = 30, ply_ms = 5000;
    std::string state_base = "/tmp";
    for (int i = 1; i < argc; ++i) {
        auto number = [&] { return static_cast<int>(std::strtol(argv[++i], nullptr, 10)); };
        if (!std::strcmp(argv[i], "--publishers") && i + 1 < argc) publishers = number();
        else if (!std::strcmp(argv[i], "--boards") && i + 1 < argc) boards = number();
        else if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = number();
        else if (!std::strcmp(argv[i], "--ply-ms") && i + 1 < argc) ply_ms = number();
        else if (!std::strcmp(argv[i], "--state") && i + 1 < argc) state_base = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_hall [--publishers P] [--boards B] [--seconds S] [--ply-ms MS] [--state DIR]\n");
            return 2;
        }
    }
    if (test::mosquitto_binary().empty()) {
        target_not_measured("hall completed move -> visible over HTTP p99", "mosquitto is not installed", "issue 20");
        return target_exit_status();
    }
    const int n = publishers * boards;
    std::printf("bench_hall: %d publishers x %d boards = %d boards -> one mosquitto -> one eboard-hub, a ply every"
                " ~%d ms per board (%.0f plies/s, %.0f messages/s), %d s measured, hub store under %s\n",
                publishers, boards, n, ply_ms, n * 1000.0 / ply_ms, n * 5000.0 / ply_ms, seconds, state_base.c_str());
    std::printf("  load average before: %s (%ld cores)\n", loadavg().c_str(), sysconf(_SC_NPROCESSORS_ONLN));
    const auto games = blitz_games();
    test::MosquittoBroker broker("autosave_on_changes false\nautosave_interval 1800\nmax_queued_messages 0\n");
    const fs::path state = fs::path(state_base) / ("eboard-hub-bench-" + std::to_string(getpid()));
    fs::create_directories(state);
    test::Process hub(std::string(EBOARD_BIN_DIR) + "/eboard-hub",
                      {"--mqtt", broker.url(), "--http", "127.0.0.1:0", "--state-dir", state.string()}, "",
                      (state / "stderr").string());
    unsigned short port = 0;
    while (auto l = hub.line(20000)) {
        const auto at = l->find("listening on http://127.0.0.1:");
        if (at == std::string::npos) continue;
        port = static_cast<unsigned short>(std::stoi(l->substr(at + 30)));
        break;
    }
    if (port == 0) throw std::runtime_error("eboard-hub did not start");

    Latencies lat;
    // The hub's marks, as the hosts see them.
    mqtt::ClientOptions mo;
    mo.url = *mqtt::parse_url(broker.url());
    mqtt::Callbacks mc;
    mc.message = [&lat](const mqtt::Message& m) {
        const auto mark = daemon::read_outbox_seq(m.payload);
        if (mark) lat.marked(mark->host, mark->seq, Clock::now());
    };
    mqtt::Client marks(mo, mc);
    marks.subscribe("eboard/v1/+/received", 1);
    marks.start();

    std::vector<std::unique_ptr<Publisher>> pubs;
    pubs.reserve(static_cast<std::size_t>(publishers));
    for (int p = 0; p < publishers; ++p)
        pubs.push_back(std::make_unique<Publisher>(broker.url(), "h" + std::to_string(p), boards, games,
                                                   static_cast<std::size_t>(p * boards)));
    for (int w = 0; w < 200; ++w) {
        bool all = marks.connected();
        for (const auto& p : pubs) all = all && p->connected();
        if (all) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    // The players: one thread, a queue of (due, publisher, board).
    std::atomic<bool> stop{false};
    std::atomic<long> plies{0};
    std::thread players([&] {
        using Due = std::tuple<Clock::time_point, std::size_t, std::size_t>;
        std::priority_queue<Due, std::vector<Due>, std::greater<>> q;
        std::mt19937 rng(7); // NOLINT(cert-msc51-cpp): the same pace in every run
        const auto t0 = Clock::now();
        for (std::size_t p = 0; p < pubs.size(); ++p)
            for (std::size_t b = 0; b < pubs[p]->boards(); ++b) {
                pubs[p]->start_game(b);
                q.emplace(t0 + std::chrono::milliseconds(rng() % static_cast<unsigned>(ply_ms)), p, b);
            }
        while (!stop && !q.empty()) {
            const auto [due, p, b] = q.top();
            std::this_thread::sleep_until(due);
            q.pop();
            if (!pubs[p]->ply(b, lat)) continue;
            ++plies;
            q.emplace(due + std::chrono::milliseconds(ply_ms / 2 + static_cast<int>(rng() % static_cast<unsigned>(ply_ms))), p, b);
        }
    });
    // The broadcaster: index.json every 200 ms.
    std::atomic<long> polls{0};
    std::vector<double> poll_ms;
    std::atomic<bool> stop_poll{false};
    std::thread poller([&] {
        while (!stop_poll) {
            const auto t = Clock::now();
            const auto got = hubtest::http_get("127.0.0.1", port, "/live/round-1/index.json");
            const auto at = Clock::now();
            if (got.status == 200) {
                const auto j = nlohmann::json::parse(got.body, nullptr, false);
                if (j.is_object())
                    for (const auto& g : j["games"])
                        if (g.contains("plies")) lat.visible(g.value("source", ""), g["plies"].get<int>(), at);
                ++polls;
                poll_ms.push_back(std::chrono::duration<double, std::milli>(at - t).count());
            }
            std::this_thread::sleep_until(t + std::chrono::milliseconds(200));
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(ply_ms)); // warm up: every board moving
    lat.measure(true);
    const Usage hub_cpu(hub.pid()), broker_cpu(broker.pid()), own_cpu(getpid());
    const long plies0 = plies;
    const auto w0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    const double wall = std::chrono::duration<double>(Clock::now() - w0).count();
    const double hub_pct = hub_cpu.percent(wall), broker_pct = broker_cpu.percent(wall), own_pct = own_cpu.percent(wall);
    const long hub_rss = status_field(hub.pid(), "VmRSS"), broker_rss = status_field(broker.pid(), "VmRSS");
    const long played = plies - plies0;
    lat.measure(false);
    // What was published in the window gets up to 30 s to arrive before the figures are taken.
    stop = true;
    players.join();
    for (int w = 0; w < 300; ++w) {
        std::size_t m = 0, h = 0;
        (void)lat.take(m, h);
        if (m == 0 && h == 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    stop_poll = true;
    poller.join();
    std::size_t waiting_marks = 0, waiting_http = 0;
    const auto [committed, shown] = lat.take(waiting_marks, waiting_http);
    long failed = 0;
    for (const auto& p : pubs) failed += p->failed();

    std::printf("  plies published in the window %ld (%.1f/s), messages %ld; not queued (no connection) %ld\n", played,
                static_cast<double>(played) / wall, played * 5, failed);
    std::printf("  publish -> committed in the hub (its received mark): p50 %.0f ms  p99 %.0f ms  max %.0f ms"
                "  (%zu plies; %zu not confirmed 30 s after the window)\n",
                percentile(committed, 50), percentile(committed, 99), percentile(committed, 100), committed.size(),
                waiting_marks);
    std::printf("  completed move -> visible in index.json over HTTP (polled every 200 ms): p50 %.0f ms  p99 %.0f ms"
                "  max %.0f ms  (%zu plies; %zu not visible); index.json answered in p50 %.0f ms p99 %.0f ms (%ld polls)\n",
                percentile(shown, 50), percentile(shown, 99), percentile(shown, 100), shown.size(), waiting_http,
                percentile(poll_ms, 50), percentile(poll_ms, 99), polls.load());
    std::printf("  %-22s CPU %6.1f %% of a core  RSS %7ld KiB  per board: %6.3f %% CPU, %5.1f KiB\n", "eboard-hub", hub_pct,
                hub_rss, hub_pct / n, static_cast<double>(hub_rss) / n);
    std::printf("  %-22s CPU %6.1f %% of a core  RSS %7ld KiB  per board: %6.3f %% CPU, %5.1f KiB\n", "peer: mosquitto",
                broker_pct, broker_rss, broker_pct / n, static_cast<double>(broker_rss) / n);
    std::printf("  load generator (this process: %d publishers, marks, poller): %.1f %% of a core; load average after %s\n",
                publishers, own_pct, loadavg().c_str());
    marks.stop();
    pubs.clear();
    hub.signal(SIGTERM);
    (void)hub.wait_exit();
    fs::remove_all(state);
    if (shown.empty())
        target_not_measured("hall completed move -> visible over HTTP p99", "no ply became visible", "issue 20");
    else
        check_target("hall completed move -> visible over HTTP p99", percentile(shown, 99), Bound::AtMost, 1000, "ms",
                     "issue 20");
    return target_exit_status();
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_hall: %s\n", e.what());
    return 2;
}
