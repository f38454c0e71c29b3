// The hub's HTTP server (hub/http_server.hpp) over the hall's views: the /live/ layout, ETag and
// If-None-Match answered with 304, Cache-Control: no-cache, and nothing bound but the address given.
#include "hall_fixture.hpp"
#include "http_client.hpp"

#include "hub/hall.hpp"
#include "hub/http_server.hpp"
#include "hub/store.hpp"

#include "../support/process.hpp"

#include <nlohmann/json.hpp>

#include <thread>

using namespace hubtest;

TEST_CASE("the /live/ endpoints: PGN, index.json, ETag and 304, no-cache, 404 and 405") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = eboard::hub::HallStore::open(dir.path);
    REQUIRE(store);
    const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 20);
    for (const auto& m : game_messages("pi1", "t1", "g1", std::vector<Ply>(plies.begin(), plies.begin() + 10)))
        REQUIRE((*store)->ingest(m.topic, m.payload, 1));
    eboard::hub::Hall hall(**store, "Test", "");
    boost::asio::io_context io;
    auto server = eboard::hub::HttpServer::listen(io, "127.0.0.1", 0, [&](const std::string& t) { return hall.answer(t); });
    REQUIRE(server);
    const unsigned short port = (*server)->port();
    std::thread loop([&] { io.run(); });

    const Got pgn = http_get("127.0.0.1", port, "/live/round-1/games.pgn");
    CHECK(pgn.status == 200);
    CHECK(pgn.content_type == "application/x-chess-pgn");
    CHECK(pgn.cache_control == "no-cache");
    REQUIRE(pgn.etag.size() > 2);
    CHECK(lines_of(pgn.body).at(0).san.size() == 10);
    CHECK(http_get("127.0.0.1", port, "/live/games.pgn").body == pgn.body);
    CHECK(http_get("127.0.0.1", port, "/live/round-1/game-1.pgn").body + "\n" == pgn.body);
    // The same content: 304 and no body.
    const Got same = http_get("127.0.0.1", port, "/live/round-1/games.pgn", pgn.etag);
    CHECK(same.status == 304);
    CHECK(same.body.empty());
    // A move later: a new ETag and the move in the PGN.
    for (const auto& m : move_messages("pi1", "t1", "g1", plies[10])) REQUIRE((*store)->ingest(m.topic, m.payload, 2));
    const Got moved = http_get("127.0.0.1", port, "/live/round-1/games.pgn", pgn.etag);
    CHECK(moved.status == 200);
    CHECK(moved.etag != pgn.etag);
    CHECK(lines_of(moved.body).at(0).san.size() == 11);
    const Got index = http_get("127.0.0.1", port, "/live/round-1/index.json");
    CHECK(index.content_type == "application/json");
    const auto j = nlohmann::json::parse(index.body);
    CHECK(j["games"][0]["plies"] == 11);
    CHECK(j["games"][0]["source"] == "pi1/t1");
    CHECK(http_get("127.0.0.1", port, "/live/round-2/game-1.pgn").status == 404);
    CHECK(http_get("127.0.0.1", port, "/etc/passwd").status == 404);
    CHECK(http_get("127.0.0.1", port, "/live/games.pgn", "", boost::beast::http::verb::post).status == 405);
    const Got head = http_get("127.0.0.1", port, "/live/games.pgn", "", boost::beast::http::verb::head);
    CHECK(head.status == 200);
    CHECK(head.etag == moved.etag);
    // Bound to 127.0.0.1 only: another loopback address of this host is refused.
    CHECK(http_get("127.0.0.2", port, "/live/games.pgn").status == 0);
    io.stop();
    loop.join();
}
