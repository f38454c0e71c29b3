// web/server: routing, limits, WebSocket messages, oversize frames, slow clients, close.
#include "tests/support/web_server.hpp"
#include "tests/support/ws_client.hpp"
#include "web/server.hpp"

#include <catch2/catch.hpp>

#include <boost/asio/post.hpp>

#include <atomic>
#include <thread>

using eboard::test::http_get;
using eboard::test::WsClient;

using Running = eboard::test::RunningServer;

TEST_CASE("ADDR:PORT is parsed, loopback is told from the rest") {
    auto a = eboard::web::parse_listen_address("127.0.0.1:1982");
    REQUIRE(a);
    CHECK(a->address == "127.0.0.1");
    CHECK(a->port == 1982);
    CHECK(eboard::web::is_loopback(*a));
    auto v6 = eboard::web::parse_listen_address("[::1]:80");
    REQUIRE(v6);
    CHECK(v6->address == "::1");
    CHECK(eboard::web::is_loopback(*v6));
    auto local = eboard::web::parse_listen_address("localhost:1982");
    REQUIRE(local);
    CHECK(local->address == "127.0.0.1");
    auto any = eboard::web::parse_listen_address("0.0.0.0:1982");
    REQUIRE(any);
    CHECK_FALSE(eboard::web::is_loopback(*any));
    CHECK_FALSE(eboard::web::parse_listen_address("1982"));
    CHECK_FALSE(eboard::web::parse_listen_address("127.0.0.1:70000"));
    CHECK_FALSE(eboard::web::parse_listen_address("127.0.0.1:"));
    CHECK_FALSE(eboard::web::parse_listen_address("::1:80"));
    CHECK_FALSE(eboard::web::parse_listen_address("example.org:80"));
}

TEST_CASE("GET routes, 404, 405, 426 on a WebSocket path, 431 on a huge head") {
    eboard::web::Limits limits;
    limits.max_header_bytes = 1024;
    Running r(limits);
    r.server.get("/a", [](const eboard::web::Request& req) {
        return eboard::web::Response{200, "text/plain", "a:" + req.query, {{"Access-Control-Allow-Origin", "*"}}};
    });
    r.server.websocket("/ws", {});
    r.start();
    const auto port = r.server.port();
    REQUIRE(port != 0);
    auto ok = http_get("127.0.0.1", port, "/a?x=1");
    CHECK(ok.status == 200);
    CHECK(ok.body == "a:x=1");
    CHECK(ok.content_type == "text/plain");
    CHECK(http_get("127.0.0.1", port, "/b").status == 404);
    CHECK(http_get("127.0.0.1", port, "/ws").status == 426);
    CHECK(http_get("127.0.0.1", port, "/a?" + std::string(2000, 'x')).status == 431);
}

TEST_CASE("WebSocket messages both ways, an oversize frame reported and the connection kept") {
    eboard::web::Limits limits;
    limits.max_frame_bytes = 1024;
    Running r(limits);
    std::atomic<std::size_t> oversize{0};
    eboard::web::WebSocketHandlers h;
    h.on_open = [](const std::shared_ptr<eboard::web::WebSocket>& ws) { ws->send("hello " + std::string(ws->request().header("origin"))); };
    h.on_message = [](const std::shared_ptr<eboard::web::WebSocket>& ws, std::string_view text) { ws->send("echo " + std::string(text)); };
    h.on_oversize = [&](const std::shared_ptr<eboard::web::WebSocket>& ws, std::string_view prefix, std::size_t size) {
        oversize = size;
        ws->send("too big " + std::to_string(prefix.size()) + " " + std::to_string(size));
    };
    r.server.websocket("/ws", h);
    r.start();
    WsClient client("127.0.0.1", r.server.port(), "/ws", "https://example.org");
    CHECK(client.receive() == "hello https://example.org");
    client.send("one");
    CHECK(client.receive() == "echo one");
    client.send(std::string(1 << 20, 'x'));
    CHECK(client.receive() == "too big 1024 1048576");
    CHECK(oversize == (1U << 20));
    client.send("two");
    CHECK(client.receive() == "echo two");
}

TEST_CASE("a client whose output outgrows its queue is closed, the others go on") {
    eboard::web::Limits limits;
    limits.max_queued_bytes = 64 * 1024;
    Running r(limits);
    std::atomic<int> closed{0};
    eboard::web::WebSocketHandlers h;
    h.on_message = [](const std::shared_ptr<eboard::web::WebSocket>& ws, std::string_view text) {
        if (text == "flood")
            for (int i = 0; i < 100; ++i) ws->send(std::string(4096, 'y'));
        else
            ws->send(std::string(text));
    };
    h.on_close = [&](const std::shared_ptr<eboard::web::WebSocket>&) { ++closed; };
    r.server.websocket("/ws", h);
    r.start();
    WsClient slow("127.0.0.1", r.server.port(), "/ws");
    WsClient other("127.0.0.1", r.server.port(), "/ws");
    slow.send("flood");
    std::size_t got = 0;
    while (!slow.closed_by_server(std::chrono::seconds(10))) ++got;
    CHECK(got * 4096 <= limits.max_queued_bytes);
    CHECK(r.on_loop([&] { return closed.load(); }) == 1); // after the loop's turn that closed it
    other.send("still here");
    CHECK(other.receive() == "still here");
}

TEST_CASE("close() closes the WebSocket clients and stops accepting") {
    Running r;
    r.server.websocket("/ws", {});
    r.start();
    const auto port = r.server.port();
    WsClient client("127.0.0.1", port, "/ws");
    CHECK(r.on_loop([&] { return r.server.connections(); }) == 1);
    r.on_loop([&] {
        r.server.close();
        return 0;
    });
    CHECK(client.closed_by_server(std::chrono::seconds(10)));
    CHECK_THROWS(http_get("127.0.0.1", port, "/ws"));
}

TEST_CASE("web: POST routes get the body, GET on a POST-only path is 405, a body over the limit 413") {
    eboard::web::Limits limits;
    limits.max_body_bytes = 1024;
    Running r(limits);
    r.server.post("/p", [](const eboard::web::Request& req) {
        return eboard::web::Response{200, "text/plain", std::string(req.header("content-type")) + ":" + req.body, {}};
    });
    r.server.get("/both", [](const eboard::web::Request&) { return eboard::web::Response{200, "text/plain", "get", {}}; });
    r.server.post("/both", [](const eboard::web::Request&) { return eboard::web::Response{200, "text/plain", "post", {}}; });
    r.start();
    const auto port = r.server.port();
    using boost::beast::http::verb;
    auto p = eboard::test::http_request("127.0.0.1", port, verb::post, "/p", "{\"a\":1}", {{"Content-Type", "application/json"}});
    CHECK(p.status == 200);
    CHECK(p.body == "application/json:{\"a\":1}");
    auto g = http_get("127.0.0.1", port, "/p");
    CHECK(g.status == 405);
    CHECK(g.header("Allow") == "POST");
    CHECK(http_get("127.0.0.1", port, "/both").body == "get");
    CHECK(eboard::test::http_request("127.0.0.1", port, verb::post, "/both", "x").body == "post");
    CHECK(eboard::test::http_request("127.0.0.1", port, verb::put, "/both", "x").status == 405);
    CHECK(eboard::test::http_request("127.0.0.1", port, verb::post, "/p", std::string(2000, 'x')).status == 413);
}

TEST_CASE("web: prefix routes: an exact route first, then the longest prefix, POST prefixes too") {
    Running r;
    auto named = [](const std::string& name) {
        return [name](const eboard::web::Request& req) {
            return eboard::web::Response{200, "text/plain", name + ":" + req.path, {}};
        };
    };
    r.server.get_prefix("/live/", named("live"));
    r.server.get_prefix("/live/round-1/", named("round1"));
    r.server.get("/live/games.pgn", named("exact"));
    r.server.post_prefix("/api/", named("post"));
    r.start();
    const auto port = r.server.port();
    using boost::beast::http::verb;
    CHECK(http_get("127.0.0.1", port, "/live/round-2/games.pgn?x=1").body == "live:/live/round-2/games.pgn");
    CHECK(http_get("127.0.0.1", port, "/live/round-1/game-3.pgn").body == "round1:/live/round-1/game-3.pgn");
    CHECK(http_get("127.0.0.1", port, "/live/games.pgn").body == "exact:/live/games.pgn");
    CHECK(http_get("127.0.0.1", port, "/live/").body == "live:/live/");
    // A prefix is not a path: /live (no slash) and /livestream are not under "/live/".
    CHECK(http_get("127.0.0.1", port, "/live").status == 404);
    CHECK(http_get("127.0.0.1", port, "/livestream").status == 404);
    CHECK(eboard::test::http_request("127.0.0.1", port, verb::post, "/live/x", "").status == 405);
    CHECK(eboard::test::http_request("127.0.0.1", port, verb::post, "/api/a/b", "").body == "post:/api/a/b");
    CHECK(http_get("127.0.0.1", port, "/api/a").status == 405);
}

TEST_CASE("web: an async POST answers when its handler responds, later on the loop") {
    Running r;
    r.server.post_async("/later", [&](const eboard::web::Request& req, std::function<void(eboard::web::Response)> respond) {
        // Answered on a later turn of the loop, as after a round trip elsewhere.
        boost::asio::post(r.io, [body = req.body, respond = std::move(respond)] {
            respond(eboard::web::Response{202, "text/plain", "later:" + body, {}});
        });
    });
    r.start();
    using boost::beast::http::verb;
    auto got = eboard::test::http_request("127.0.0.1", r.server.port(), verb::post, "/later", "x");
    CHECK(got.status == 202);
    CHECK(got.body == "later:x");
    CHECK(http_get("127.0.0.1", r.server.port(), "/later").status == 405);
}
