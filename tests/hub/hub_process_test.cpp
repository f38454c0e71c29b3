// eboard-hub as a process against a real mosquitto on loopback (tests/support/mosquitto.hpp),
// fed by a publisher of the contract's messages: the hub killed -9 while messages arrive and
// started again loses nothing and doubles nothing (it commits before the PUBACK; its session is
// persistent); the broker killed -9 twice while a real eboardd's moves flow (eboardd
// --mqtt-confirm: the hub's received marks): the hub's games equal the boards' own PGN; the
// pairings reread on SIGHUP, a bad file keeping the old ones.
#include "hall_fixture.hpp"
#include "http_client.hpp"

#include "mqtt/client.hpp"

#include "../support/mosquitto.hpp"
#include "../support/round_robin_trf.hpp"
#include "tests/faults/daemon_under_test.hpp"

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

using namespace hubtest;
using eboard::test::MosquittoBroker;
using eboard::test::Process;
using eboard::test::TempDir;

namespace {

/// A publisher like eboardd's: QoS 1, each message sent again until the broker acknowledged it.
class Publisher {
  public:
    explicit Publisher(const MosquittoBroker& broker) {
        eboard::mqtt::ClientOptions o;
        o.url = *eboard::mqtt::parse_url(broker.url());
        o.client_id = "test-publisher";
        eboard::mqtt::Callbacks c;
        c.connected = [this](bool) { note([this] { connected_ = true; }); };
        c.disconnected = [this](const std::string&) { note([this] { connected_ = false; }); };
        c.published = [this](int mid) { note([this, mid] { acked_.insert(mid); }); };
        client_ = std::make_unique<eboard::mqtt::Client>(o, c);
        client_->start();
    }
    /// Publishes `m` and waits for its PUBACK (publishing again after a lost connection).
    void send(const Msg& m, bool retain = false) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            std::unique_lock lock(mutex_);
            if (!cv_.wait_until(lock, deadline, [this] { return connected_; })) break;
            lock.unlock();
            const auto mid = client_->publish(m.topic, m.payload, 1, retain);
            lock.lock();
            if (!mid) continue;
            if (cv_.wait_until(lock, std::min(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(5)),
                               [&] { return acked_.count(*mid) > 0 || !connected_; }) &&
                acked_.count(*mid))
                return;
        }
        FAIL("the broker did not acknowledge " << m.topic);
    }
    void send(const std::vector<Msg>& ms) {
        for (const auto& m : ms) send(m);
    }

  private:
    template <typename F>
    void note(F f) {
        {
            std::lock_guard lock(mutex_);
            f();
        }
        cv_.notify_all();
    }
    std::mutex mutex_;
    std::condition_variable cv_;
    bool connected_ = false;
    std::set<int> acked_;
    std::unique_ptr<eboard::mqtt::Client> client_;
};

/// eboard-hub on a free port; its log (stderr) comes on the same pipe after the first line.
struct Hub {
    std::unique_ptr<Process> process;
    unsigned short port = 0;

    Hub(const MosquittoBroker& broker, const std::string& state_dir, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"--mqtt", broker.url(), "--http", "127.0.0.1:0", "--state-dir", state_dir};
        args.insert(args.end(), extra.begin(), extra.end());
        process = std::make_unique<Process>(std::string(EBOARD_BIN_DIR) + "/eboard-hub", args, "", "/dev/stdout");
        for (;;) {
            auto l = process->line(20000);
            REQUIRE(l);
            const auto at = l->find("listening on http://127.0.0.1:");
            if (at == std::string::npos) continue;
            port = static_cast<unsigned short>(std::stoi(l->substr(at + 30)));
            break;
        }
    }
    void kill9() {
        process->signal(SIGKILL);
        process->wait_exit();
        process.reset();
    }
    /// The round's index.json (null while the hub does not answer).
    [[nodiscard]] nlohmann::json index(int round = 1) const {
        const Got g = http_get("127.0.0.1", port, "/live/round-" + std::to_string(round) + "/index.json");
        return g.status == 200 ? nlohmann::json::parse(g.body) : nlohmann::json();
    }
    /// Waits (20 s at most) until `pred` holds for index.json.
    template <typename P>
    bool wait_index(P pred, int round = 1) const {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (;;) {
            if (pred(index(round))) return true;
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // polling the server, as a broadcaster does
        }
    }
    [[nodiscard]] int plies(std::size_t board) const {
        const auto j = index();
        if (!j.is_object() || j["games"].size() <= board || !j["games"][board].contains("plies")) return -1;
        return j["games"][board]["plies"].get<int>();
    }
};

/// White's name in the first game of an index.json; empty while there is none (right after a
/// pairings reload round 1 may have no game yet, and a const json's [] checks no bounds: ASan
/// caught a read past the array).
std::string first_white(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("games") || !j["games"].is_array() || j["games"].empty()) return {};
    return j["games"][0].value("white", "");
}

/// Two boards' games, in the order two hosts would publish them (interleaved).
std::vector<Msg> two_boards(const std::vector<Ply>& a, const std::vector<Ply>& b) {
    const auto ma = game_messages("pi1", "t1", "g1", a, "1-0");
    const auto mb = game_messages("pi2", "t1", "g7", b, "0-1");
    std::vector<Msg> out;
    for (std::size_t i = 0; i < std::max(ma.size(), mb.size()); ++i) {
        if (i < ma.size()) out.push_back(ma[i]);
        if (i < mb.size()) out.push_back(mb[i]);
    }
    return out;
}

/// Waits until the hub's subscription (and so its persistent session) exists: a retained state
/// message reaches a subscriber whenever it subscribes, and the hub then lists the board.
void subscribed(Publisher& pub, const Hub& hub) {
    pub.send({"eboard/v1/pi1/t1/state", R"({"board":"t1","host":"pi1","state":"connected"})"}, true);
    REQUIRE(hub.wait_index([](const nlohmann::json& j) { return j.is_object() && !j["games"].empty(); }));
}

/// The hub's games.pgn holds each board's game exactly: every ply once, with its clock.
void check_games(const Hub& hub, const std::vector<Ply>& a, const std::vector<Ply>& b) {
    const Got pgn = http_get("127.0.0.1", hub.port, "/live/round-1/games.pgn");
    REQUIRE(pgn.status == 200);
    INFO(pgn.body);
    const auto lines = lines_of(pgn.body);
    REQUIRE(lines.size() == 2);
    for (const auto& [line, plies, res] : {std::tuple{lines[0], a, "1-0"}, std::tuple{lines[1], b, "0-1"}}) {
        REQUIRE(line.san.size() == plies.size());
        for (std::size_t i = 0; i < plies.size(); ++i) {
            CHECK(line.san[i] == plies[i].san);
            CHECK(line.clk[i] == ((i % 2 == 0 ? plies[i].clock.white_ms : plies[i].clock.black_ms) / 1000) * 1000);
        }
        CHECK(line.result == res);
    }
}

/// A host of the hall: eboardd with emulated DGT boards replaying real games (data/games) at
/// speed 10 (a game of some 90 plies in about 10 s: the broker can be killed mid-game), publishing to `broker` with --mqtt-confirm; `extra` more options.
struct HallHost {
    std::filesystem::path dir;
    std::vector<std::pair<std::string, std::string>> boards; // name -> game file
    std::unique_ptr<eboard::test::DaemonUnderTest> daemon;

    HallHost(std::filesystem::path d, const MosquittoBroker& broker, const std::string& name,
             std::vector<std::pair<std::string, std::string>> games, std::vector<std::string> extra = {})
        : dir(std::move(d)), boards(std::move(games)) {
        std::vector<std::pair<std::string, std::string>> uris;
        for (const auto& [board, file] : boards)
            uris.emplace_back(board, "emu-dgt:" + std::string(EBOARD_REPO_DATA) + "/games/" + file);
        std::vector<std::string> args{"--speed", "10", "--mqtt", broker.url(), "--host-name", name, "--mqtt-confirm"};
        args.insert(args.end(), extra.begin(), extra.end());
        daemon = std::make_unique<eboard::test::DaemonUnderTest>(eboard::test::daemon_args(dir, uris, args), dir);
        REQUIRE(daemon->start());
    }

    /// Waits for every board's last completed move, stops eboardd, and checks that the hub's game of each
    /// board (round 1, boards numbered in the order of their names) equals the board's own PGN
    /// file: every ply once, in order, with its clock, and the result.
    void check_hub_has_every_game(const Hub& hub) {
        std::vector<std::string> games;
        for (const auto& [board, file] : boards) {
            const auto last = static_cast<int>(eboard::test::sans_of(eboard::test::source_game(file)).size());
            REQUIRE(daemon->seen("MOVE", board, [last](const eboard::test::ojson& e) {
                return e.value("ply", 0) == last && e.value("status", "") == "completed";
            }, 120000));
            for (const auto& e : daemon->events())
                if (e.value("class", "") == "GAME" && e.value("board", "") == board && e.value("event", "") == "start")
                    games.push_back(e["game"].get<std::string>());
        }
        REQUIRE(games.size() == boards.size());
        CHECK(daemon->terminate() == 0);
        std::vector<Line> own;
        for (const auto& g : games) {
            std::ifstream in(dir / "pgn" / (g + ".pgn"));
            std::stringstream text;
            text << in.rdbuf();
            const auto lines = lines_of(text.str());
            REQUIRE(lines.size() == 1);
            own.push_back(lines[0]);
        }
        // The hub's game of each board, once it has every ply completed (a MOVE made comes
        // before its completion with the clock): polled as a broadcaster does, 20 s at most.
        for (std::size_t i = 0; i < own.size(); ++i) {
            INFO("board " << boards[i].first);
            Line got;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            for (;;) {
                const Got pgn = http_get("127.0.0.1", hub.port, "/live/round-1/game-" + std::to_string(i + 1) + ".pgn");
                const auto lines = pgn.status == 200 ? lines_of(pgn.body) : std::vector<Line>{};
                if (!lines.empty()) got = lines[0];
                CHECK(lines.size() <= 1); // one record: no illegal move found where a ply was lost
                if ((lines.size() == 1 && got.san == own[i].san && got.clk == own[i].clk) ||
                    std::chrono::steady_clock::now() > deadline)
                    break;
                std::this_thread::sleep_for(std::chrono::milliseconds(50)); // polling the server
            }
            CHECK(got.san == own[i].san);
            CHECK(got.clk == own[i].clk);
            CHECK(got.result == own[i].result);
        }
    }
};

} // namespace

TEST_CASE("eboard-hub killed -9 while moves arrive, started again: nothing lost, nothing doubled") {
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    const auto a = plies_of(real_game("nepomniachtchi-liren-game1.pgn"));
    const auto b = plies_of(real_game("kasparov-deep-blue-1997.pgn"));
    const auto msgs = two_boards(a, b);
    auto hub = std::make_unique<Hub>(broker, state.path.string());
    Publisher pub(broker);
    subscribed(pub, *hub);
    const std::size_t half = msgs.size() / 2;
    for (std::size_t i = 0; i < half; ++i) pub.send(msgs[i]);
    // Killed while it is still taking in what the broker holds for it.
    hub->kill9();
    for (std::size_t i = half; i < msgs.size(); ++i) pub.send(msgs[i]);
    hub = std::make_unique<Hub>(broker, state.path.string());
    REQUIRE(hub->wait_index([&](const nlohmann::json& j) {
        return j.is_object() && j["games"].size() == 2 && j["games"][0]["state"] == "finished" &&
               j["games"][1]["state"] == "finished" && j["games"][0]["plies"] == a.size() &&
               j["games"][1]["plies"] == b.size();
    }));
    check_games(*hub, a, b);
}

TEST_CASE("the broker killed -9 mid-round and started again: the hub's games are whole") {
    // A broker that saves nothing until a clean stop: each kill -9 loses every message it
    // acknowledged and the hub's session (the worst case of "What a broker crash can lose",
    // docs/hall.md). eboardd --mqtt-confirm keeps each message until the hub's mark covers it.
    MosquittoBroker broker(eboard::test::kBrokerThatForgets);
    TempDir state("eboard-hub-state");
    Hub hub(broker, state.path.string());
    TempDir host("eboard-hub-host");
    HallHost pi1(host.path, broker, "pi1",
                 {{"t1", "kasparov-deep-blue-1997.pgn"}, {"t2", "kasparov-deep-blue-1997.pgn"}});
    auto hub_has = [&hub](int plies) {
        return hub.wait_index([plies](const nlohmann::json& j) {
            return j.is_object() && !j["games"].empty() && j["games"][0].value("plies", 0) >= plies;
        });
    };
    auto completed = [&pi1](int ply) {
        return pi1.daemon->seen("MOVE", "t1", [ply](const eboard::test::ojson& e) {
            return e.value("ply", 0) == ply && e.value("status", "") == "completed";
        }, 60000);
    };
    // Killed while moves flow and the hub lags behind (stopped): the broker has acknowledged
    // moves it holds for the hub's session, and loses them with the session.
    REQUIRE(hub_has(10));
    hub.process->signal(SIGSTOP);
    REQUIRE(completed(30));
    broker.kill9();
    hub.process->signal(SIGCONT);
    broker.start();
    // Killed again while moves flow, the hub keeping up.
    REQUIRE(hub_has(40));
    broker.kill9();
    broker.start();
    pi1.check_hub_has_every_game(hub);
}

TEST_CASE("a host whose clock jumps forward and back mid-game: the hub's games equal the boards' own PGN") {
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    Hub hub(broker, state.path.string());
    TempDir host("eboard-hub-clock");
    // eboardd's CLOCK_REALTIME, shifted by the seconds in this file (tests/support/clock_shift.c).
    const std::string shift_file = (host.path / "clock-shift").string();
    auto set_shift = [&shift_file](long long seconds) { std::ofstream(shift_file, std::ios::trunc) << seconds << "\n"; };
    constexpr long long kDay = 86400;
    set_shift(-3 * kDay);
    ::setenv("LD_PRELOAD", EBOARD_CLOCK_SHIFT_LIB, 1);
    ::setenv("EBOARD_CLOCK_SHIFT_FILE", shift_file.c_str(), 1);
    HallHost pi1(host.path, broker, "pi1",
                 {{"t1", "kasparov-deep-blue-1997.pgn"}, {"t2", "kasparov-deep-blue-1997.pgn"}});
    ::unsetenv("LD_PRELOAD");
    ::unsetenv("EBOARD_CLOCK_SHIFT_FILE");
    // The host's clock is three days behind: its game ids carry that day (eboardd names a game
    // by the day it starts), which the hub takes as a name only.
    REQUIRE(pi1.daemon->seen("GAME", "t1", [](const eboard::test::ojson& e) { return e.value("event", "") == "start"; }, 60000));
    auto day = [](long long shift) {
        const std::time_t t = std::time(nullptr) + static_cast<std::time_t>(shift);
        std::tm tm{};
        gmtime_r(&t, &tm);
        char buf[16];
        std::strftime(buf, sizeof buf, "%Y%m%d", &tm);
        return std::string(buf);
    };
    for (const auto& e : pi1.daemon->events())
        if (e.value("class", "") == "GAME" && e.value("board", "") == "t1")
            CHECK(e["game"].get<std::string>().substr(0, 8) == day(-3 * kDay));
    // Forward two days, then back a week, while the moves flow.
    for (const auto& [plies, shift] : {std::pair{10, 2 * kDay}, std::pair{25, -7 * kDay}}) {
        REQUIRE(hub.wait_index([plies = plies](const nlohmann::json& j) {
            return j.is_object() && !j["games"].empty() && j["games"][0].value("plies", 0) >= plies;
        }));
        set_shift(shift);
    }
    pi1.check_hub_has_every_game(hub);
}

TEST_CASE("eboard-hub rereads its pairings on SIGHUP, and a bad file keeps the old ones with an error") {
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    const std::string file = (state.path / "pairings.csv").string();
    auto write = [&](const std::string& text) { std::ofstream(file, std::ios::trunc) << text; };
    write("round,board,source,white,black\n1,1,pi1/t1,Alice,Bob\n");
    Hub hub(broker, (state.path / "db").string(), {"--pairings", file});
    REQUIRE(hub.wait_index([](const nlohmann::json& j) { return first_white(j) == "Alice"; }));
    write("round,board,source,white\n1,1,pi1/t1,Carol\n"); // no black column
    hub.process->signal(SIGHUP);
    bool refused = false;
    while (auto l = hub.process->line(20000)) {
        if (l->find("no column 'black'") != std::string::npos && l->find("the previous pairings stay") != std::string::npos) {
            refused = true;
            break;
        }
    }
    CHECK(refused);
    CHECK(hub.index()["games"][0]["white"] == "Alice");
    write("round,board,source,white,black\n1,1,pi1/t1,Carol,Dave\n");
    hub.process->signal(SIGHUP);
    CHECK(hub.wait_index([](const nlohmann::json& j) { return first_white(j) == "Carol"; }));
}

TEST_CASE("/live/tournament.trf of a round robin played through the broker reads back into eboard-standings") {
    namespace rr = eboard::test::rr;
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    const std::string file = (state.path / "pairings.csv").string();
    // No pairings at first (a header only), so that subscribed() sees the hub list the board;
    // the tournament's pairings then come with SIGHUP.
    std::ofstream(file) << "round,board,source,white,black\n";
    Hub hub(broker, (state.path / "db").string(), {"--pairings", file, "--event", "Club RR"});
    Publisher pub(broker);
    subscribed(pub, hub);
    std::ofstream(file, std::ios::trunc) << rr::pairings("pi1/t1", "pi2/t1");
    hub.process->signal(SIGHUP);
    // (Checked before indexing: a const json's [] does no bounds check, and right after the
    // reload round 1 may have no game yet; ASan caught the read past the array.)
    REQUIRE(hub.wait_index([](const nlohmann::json& j) { return first_white(j) == "Alpha, Ann"; }));
    const auto plies = plies_of(real_game("kasparov-deep-blue-1997.pgn"), 8);
    int n = 0;
    for (const auto& g : rr::kGames) {
        const std::string host = g.board == 1 ? "pi1" : "pi2";
        pub.send(game_messages(host, "t1", "g" + std::to_string(++n), plies, g.result));
    }
    // Round 3's game is the last one sent: once it is finished, every result is in.
    REQUIRE(hub.wait_index([](const nlohmann::json& j) {
        return j.is_object() && j["games"].size() == 2 && j["games"][1].value("result", "") == "1/2-1/2" &&
               j["games"][1].value("confirmed", false);
    }, 3));
    const Got trf = http_get("127.0.0.1", hub.port, "/live/tournament.trf");
    REQUIRE(trf.status == 200);
    CHECK(trf.body.rfind("012 Club RR\n", 0) == 0);
    rr::check_standings(trf.body, (state.path / "tournament.trf").string());
    CHECK(http_get("127.0.0.1", hub.port, "/live/tournament.trf", trf.etag).status == 304);
}

TEST_CASE("eboard-hub killed -9 while a batch is open (moves staged, not committed): nothing lost, nothing doubled") {
    // Group commit (docs/hall.md): the hub acknowledges a row of an eboardd --mqtt-confirm host
    // before it commits it, and publishes the host's mark only after the commit. A batch that
    // never commits by time or size here: only the host's first row (it starts the mark) and its
    // status (no row) are committed at once.
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    auto hub = std::make_unique<Hub>(broker, state.path.string(),
                                     std::vector<std::string>{"--commit-ms", "3600000", "--commit-max", "1000000"});
    auto status = [&hub] {
        const Got g = http_get("127.0.0.1", hub->port, "/status.json");
        return g.status == 200 ? nlohmann::json::parse(g.body) : nlohmann::json::object();
    };
    auto wait_status = [&status](auto pred) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        for (;;) {
            auto s = status();
            if (pred(s)) return s;
            if (std::chrono::steady_clock::now() > deadline) return nlohmann::json();
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // polling the server
        }
    };
    TempDir host("eboard-hub-batch");
    HallHost pi1(host.path, broker, "pi1",
                 {{"t1", "kasparov-deep-blue-1997.pgn"}, {"t2", "nepomniachtchi-liren-game1.pgn"}});
    // Some 15 plies staged (about 7 messages a ply), acknowledged to the broker, not committed;
    // then two rounds of the hub's mark publishing, so that a mark published before the commit
    // would have reached the host (and removed its rows).
    const auto staged = wait_status([](const nlohmann::json& s) { return s.value("open", 0) >= 100; });
    REQUIRE(staged.is_object());
    const auto flushes = staged.value("mark_flushes", 0);
    const auto later = wait_status([flushes](const nlohmann::json& s) { return s.value("mark_flushes", 0) >= flushes + 2; });
    REQUIRE(later.is_object());
    CHECK(later.value("open", 0) >= 100);
    // The broadcast shows only what is committed: no ply yet.
    for (std::size_t board : {0U, 1U}) CHECK(hub->plies(board) <= 0);
    hub->kill9();
    hub = std::make_unique<Hub>(broker, state.path.string());
    // The host sends again what no mark covers; the hub then has every ply of both games.
    const int last1 = static_cast<int>(eboard::test::sans_of(eboard::test::source_game("kasparov-deep-blue-1997.pgn")).size());
    const int last2 = static_cast<int>(eboard::test::sans_of(eboard::test::source_game("nepomniachtchi-liren-game1.pgn")).size());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while ((hub->plies(0) != last1 || hub->plies(1) != last2) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50)); // polling the server, as a broadcaster does
    pi1.check_hub_has_every_game(*hub);
}
