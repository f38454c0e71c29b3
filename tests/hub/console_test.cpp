// The arbiters' console on the hub (hub/console.hpp) without a host: a request for a board the
// hall does not have is refused at once, and a request that no host answers is an ERROR with
// code no_reply once the timeout passed (a real mosquitto carries the request; nobody replies).
// The round trip with a real eboardd is the Chromium test (tests/console_browser).
#include "hall_fixture.hpp"

#include "hub/console.hpp"
#include "hub/hall.hpp"
#include "hub/store.hpp"

#include "../support/mosquitto.hpp"
#include "../support/web_server.hpp"
#include "../support/ws_client.hpp"

#include <condition_variable>
#include <mutex>

using boost::beast::http::verb;
using nlohmann::json;

TEST_CASE("hub console: an unknown board is refused, a request no host answers is no_reply after the timeout") {
    eboard::test::MosquittoBroker broker;
    eboard::test::TempDir dir("eboard-hub-console");
    auto store = eboard::hub::HallStore::open(dir.path);
    REQUIRE(store);
    eboard::hub::Hall hall(**store, "", "");
    eboard::test::RunningServer r;
    eboard::hub::HubConsole console(r.io, r.server, std::string("pw"), hall, **store, std::chrono::milliseconds(300));
    const eboard::test::StopLoop stop_first{r}; // the loop stops before the console is destroyed

    std::mutex mutex;
    std::condition_variable cv;
    bool connected = false;
    eboard::mqtt::ClientOptions o;
    o.url = *eboard::mqtt::parse_url(broker.url());
    eboard::mqtt::Callbacks cb;
    cb.connected = [&](bool) {
        std::lock_guard lock(mutex);
        connected = true;
        cv.notify_all();
    };
    eboard::mqtt::Client client(o, cb);
    console.attach(client);
    client.start();
    {
        std::unique_lock lock(mutex);
        REQUIRE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return connected; }));
    }
    // The board pi1/t1 exists: its game started.
    const auto start = hubtest::game_start("pi1", "t1", "g1");
    console.ingested({start.topic, start.payload, 1, false}, eboard::hub::Ingested{true, false, "pi1", "t1", "g1", std::nullopt});
    r.start();

    const std::vector<std::pair<std::string, std::string>> json_type{{"Content-Type", "application/json"}};
    const auto login = eboard::test::http_request("127.0.0.1", r.server.port(), verb::post, "/api/login",
                                                  R"({"password":"pw"})", json_type);
    REQUIRE(login.status == 200);
    auto headers = json_type;
    const auto set = login.header("Set-Cookie");
    headers.emplace_back("Cookie", set.substr(0, set.find(';')));
    auto request = [&](const std::string& board) {
        const auto reply = eboard::test::http_request("127.0.0.1", r.server.port(), verb::post, "/api/request",
                                                      json{{"class", "PENALTY"}, {"board", board}, {"decision", "apply"}}.dump(),
                                                      headers);
        REQUIRE(reply.status == 200);
        return json::parse(reply.body);
    };
    const auto unknown = request("pi9/t1");
    CHECK(unknown["class"] == "ERROR");
    CHECK(unknown["code"] == "unknown_board");
    const auto t0 = std::chrono::steady_clock::now();
    const auto silent = request("pi1/t1");
    CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(300));
    CHECK(silent["class"] == "ERROR");
    CHECK(silent["code"] == "no_reply");
    CHECK(silent["request"] == "PENALTY");
    CHECK(silent["message"].get<std::string>().find("host pi1 did not answer") != std::string::npos);
    client.stop();
}

TEST_CASE("hub console: a BOARD event's battery survives the hub's ingestion to its page (low at 15 %)") {
    eboard::test::TempDir dir("eboard-hub-console-battery");
    auto store = eboard::hub::HallStore::open(dir.path);
    REQUIRE(store);
    eboard::hub::Hall hall(**store, "", "");
    eboard::test::RunningServer r;
    eboard::hub::HubConsole console(r.io, r.server, std::string("pw"), hall, **store);
    const eboard::test::StopLoop stop_first{r};
    // As the hub takes a message: the store first, then the console (tools/eboard-hub/main.cpp).
    // The board connects, then reports its battery: the same state, so only the battery is new.
    for (const auto& m : {hubtest::message("pi1", eboard::daemon::BoardEvent{"t1", true, "dgt"}),
                          hubtest::game_start("pi1", "t1", "g1"),
                          hubtest::message("pi1", eboard::daemon::BoardEvent{"t1", true, "dgt", eboard::daemon::Battery{12, false}})}) {
        const auto what = (*store)->ingest(m.topic, m.payload, 0);
        REQUIRE(what);
        console.ingested({m.topic, m.payload, 1, false}, *what);
    }
    r.start();
    const auto state = eboard::test::http_request("127.0.0.1", r.server.port(), verb::get, "/api/state", "", {});
    REQUIRE(state.status == 200);
    const auto boards = json::parse(state.body)["boards"];
    REQUIRE(boards.size() == 1);
    CHECK(boards[0]["id"] == "pi1/t1");
    CHECK(boards[0]["state"] == "connected");
    CHECK(boards[0]["battery"] == json{{"percent", 12}, {"charging", false}, {"low", true}});
}
