// eboard-hub as a process against a real mosquitto on loopback (tests/support/mosquitto.hpp),
// fed by a publisher of the contract's messages: the hub killed -9 while messages arrive and
// started again loses nothing and doubles nothing (it commits before the PUBACK; its session is
// persistent); the broker killed -9 once the hub has what was sent and started again: the hub takes the rest; the pairings reread on SIGHUP, a
// bad file keeping the old ones.
#include "hall_fixture.hpp"
#include "http_client.hpp"

#include "mqtt/client.hpp"

#include "../support/mosquitto.hpp"
#include "../support/round_robin_trf.hpp"

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

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
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    const auto a = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 40);
    const auto b = plies_of(real_game("kasparov-deep-blue-1997.pgn"), 40);
    const auto msgs = two_boards(a, b);
    Hub hub(broker, state.path.string());
    Publisher pub(broker);
    subscribed(pub, hub);
    const std::size_t half = msgs.size() / 2;
    std::map<std::string, int> sent; // source -> the last ply of the first half
    for (std::size_t i = 0; i < half; ++i) {
        pub.send(msgs[i]);
        const auto j = nlohmann::json::parse(msgs[i].payload);
        if (j.value("class", "") == "MOVE") {
            const std::string source = j["host"].get<std::string>() + "/" + j["board"].get<std::string>();
            sent[source] = std::max(sent[source], j["ply"].get<int>());
        }
    }
    // Killed once the hub has the first half. mosquitto acknowledges a message before it saves
    // it, so a kill -9 in between loses it (docs/hall.md, "What a broker crash can lose"); what
    // is checked here is the hub's persistent session and its reconnection across the crash.
    REQUIRE(hub.wait_index([&](const nlohmann::json& j) {
        if (!j.is_object() || j["games"].size() != sent.size()) return false;
        for (const auto& g : j["games"])
            if (g.value("plies", 0) < sent[g.value("source", "")]) return false;
        return true;
    }));
    broker.kill9();
    broker.start();
    for (std::size_t i = half; i < msgs.size(); ++i) pub.send(msgs[i]);
    REQUIRE(hub.wait_index([&](const nlohmann::json& j) {
        return j.is_object() && j["games"].size() == 2 && j["games"][0]["state"] == "finished" &&
               j["games"][1]["state"] == "finished";
    }));
    check_games(hub, a, b);
}

TEST_CASE("eboard-hub rereads its pairings on SIGHUP, and a bad file keeps the old ones with an error") {
    MosquittoBroker broker;
    TempDir state("eboard-hub-state");
    const std::string file = (state.path / "pairings.csv").string();
    auto write = [&](const std::string& text) { std::ofstream(file, std::ios::trunc) << text; };
    write("round,board,source,white,black\n1,1,pi1/t1,Alice,Bob\n");
    Hub hub(broker, (state.path / "db").string(), {"--pairings", file});
    REQUIRE(hub.wait_index([](const nlohmann::json& j) { return j.is_object() && j["games"][0]["white"] == "Alice"; }));
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
    CHECK(hub.wait_index([](const nlohmann::json& j) { return j.is_object() && j["games"][0]["white"] == "Carol"; }));
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
    REQUIRE(hub.wait_index([](const nlohmann::json& j) { return j.is_object() && j["games"][0]["white"] == "Alpha, Ann"; }));
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
