// The console over HTTP (console/server.hpp) on a real web::Server on loopback: the page, the
// live feed, the arbiter's login, actions and acknowledgements, and the refusals.
#include "console/server.hpp"

#include "tests/support/web_server.hpp"
#include "tests/support/ws_client.hpp"

#include <catch2/catch.hpp>

using boost::beast::http::verb;
using eboard::test::http_get;
using eboard::test::http_request;
using nlohmann::json;

namespace {

/// A console on a running server; `executed` records the requests the hook carried out.
struct Console {
    eboard::test::RunningServer r;
    std::vector<json> executed;
    eboard::console::Server console{r.server, "eboardd", std::string("s3cret"), {[this](const json& request) {
                                        executed.push_back(request);
                                        if (request.value("board", "") == "nosuch")
                                            return json{{"class", "ERROR"}, {"code", "unknown_board"}, {"message", "no board"}};
                                        return json{{"class", "OK"}, {"request", request["class"]}};
                                    }, {}}};
    Console() { r.start(); }
    // The loop stops before `console` is destroyed: a page's feed closing on the loop calls it
    // (ASan saw a use after free in CI's run).
    ~Console() { r.stop(); }
    Console(const Console&) = delete;
    Console& operator=(const Console&) = delete;
    std::uint16_t port() const { return r.server.port(); }
    eboard::test::HttpReply post(const std::string& path, const json& body, std::vector<std::pair<std::string, std::string>> headers = {}) {
        headers.emplace_back("Content-Type", "application/json");
        return http_request("127.0.0.1", port(), verb::post, path, body.dump(), headers);
    }
};

std::string cookie_of(const eboard::test::HttpReply& reply) {
    const auto set = reply.header("Set-Cookie");
    return set.substr(0, set.find(';'));
}

} // namespace

TEST_CASE("the page, its state and the live feed of board changes") {
    Console c;
    auto page = http_get("127.0.0.1", c.port(), "/");
    CHECK(page.status == 200);
    CHECK(page.content_type.find("text/html") == 0);
    CHECK(page.body.find("/console.js") != std::string::npos);
    CHECK(http_get("127.0.0.1", c.port(), "/console.js").status == 200);
    CHECK(http_get("127.0.0.1", c.port(), "/nothing").status == 404);

    c.r.on_loop([&] {
        c.console.on_event({{"class", "BOARD"}, {"board", "t1"}, {"state", "connected"}, {"driver", "emu-dgt"}});
        return 0;
    });
    eboard::test::WsClient page_feed("127.0.0.1", c.port(), "/api/live", "http://127.0.0.1");
    const auto first = json::parse(page_feed.receive());
    CHECK(first["type"] == "state");
    CHECK(first["server"] == "eboardd");
    CHECK(first["logged_in"] == false);
    REQUIRE(first["boards"].size() == 1);
    CHECK(first["boards"][0]["state"] == "connected");

    c.r.on_loop([&] {
        c.console.on_event({{"class", "ALERT"}, {"board", "t1"}, {"game", "g1"}, {"kind", "illegal_move"},
                            {"article", "7.5.1"}, {"text", "illegal"}, {"count", 1}, {"penalty", "+2min"}});
        return 0;
    });
    const auto change = json::parse(page_feed.receive());
    CHECK(change["type"] == "board");
    CHECK(change["board"]["id"] == "t1");
    REQUIRE(change["board"]["alerts"].size() == 1);
    CHECK(change["board"]["alerts"][0]["open"] == true);
    const auto state = json::parse(http_get("127.0.0.1", c.port(), "/api/state").body);
    CHECK(state["boards"][0]["alerts"][0]["kind"] == "illegal_move");
}

TEST_CASE("7.5.5 an arbiter logs in, applies a penalty from the page, and the board's alerts close") {
    Console c;
    c.r.on_loop([&] {
        c.console.on_event({{"class", "ALERT"}, {"board", "t1"}, {"game", "g1"}, {"kind", "illegal_move"},
                            {"article", "7.5.1"}, {"text", "illegal"}});
        return 0;
    });
    const json penalty{{"class", "PENALTY"}, {"board", "t1"}, {"decision", "apply"}};
    CHECK(c.post("/api/request", penalty).status == 401); // no session
    CHECK(c.post("/api/login", {{"password", "wrong"}}).status == 403);
    const auto login = c.post("/api/login", {{"password", "s3cret"}});
    REQUIRE(login.status == 200);
    CHECK(login.header("Set-Cookie").find("HttpOnly; SameSite=Strict") != std::string::npos);
    const std::string cookie = cookie_of(login);
    const auto done = c.post("/api/request", penalty, {{"Cookie", cookie}});
    REQUIRE(done.status == 200);
    CHECK(json::parse(done.body)["class"] == "OK");
    REQUIRE(c.executed.size() == 1);
    CHECK(c.executed[0] == penalty);
    const auto state = json::parse(http_get("127.0.0.1", c.port(), "/api/state").body);
    CHECK(state["boards"][0]["alerts"][0]["open"] == false);

    // Refused by the server's own rules: the reply is the client API's ERROR with its code.
    const auto refused = c.post("/api/request", {{"class", "RESULT"}, {"board", "nosuch"}, {"result", "1-0"}}, {{"Cookie", cookie}});
    CHECK(json::parse(refused.body)["code"] == "unknown_board");
    // Only the arbiter's requests, not the others of the client API.
    CHECK(c.post("/api/request", {{"class", "DETACH"}, {"board", "t1"}}, {{"Cookie", cookie}}).status == 400);
    // Logged out: the session is gone.
    CHECK(c.post("/api/logout", json::object(), {{"Cookie", cookie}}).status == 200);
    CHECK(c.post("/api/request", penalty, {{"Cookie", cookie}}).status == 401);
    CHECK(c.executed.size() == 2);
}

TEST_CASE("a cross-site POST is refused even with the arbiter's cookie, and an alert is acknowledged once") {
    Console c;
    c.r.on_loop([&] {
        c.console.on_event({{"class", "ALERT"}, {"board", "t1"}, {"game", "g1"}, {"kind", "flag"}, {"article", "6.9"},
                            {"text", "flag"}});
        return 0;
    });
    const std::string cookie = cookie_of(c.post("/api/login", {{"password", "s3cret"}}));
    const json penalty{{"class", "PENALTY"}, {"board", "t1"}, {"decision", "apply"}};
    // A form from another site (no preflight needed for it), or a fetch that says where it came from.
    auto form = http_request("127.0.0.1", c.port(), verb::post, "/api/request", "class=PENALTY",
                             {{"Content-Type", "application/x-www-form-urlencoded"}, {"Cookie", cookie}});
    CHECK(form.status == 403);
    CHECK(c.post("/api/request", penalty, {{"Cookie", cookie}, {"Origin", "http://evil.example"}}).status == 403);
    CHECK(c.post("/api/request", penalty, {{"Cookie", cookie}, {"Sec-Fetch-Site", "cross-site"}}).status == 403);
    CHECK(c.executed.empty());

    const auto id = json::parse(http_get("127.0.0.1", c.port(), "/api/state").body)["boards"][0]["alerts"][0]["id"];
    CHECK(c.post("/api/ack", {{"board", "t1"}, {"alert", id}}).status == 401);
    CHECK(c.post("/api/ack", {{"board", "t1"}, {"alert", id}}, {{"Cookie", cookie}}).status == 200);
    CHECK(c.post("/api/ack", {{"board", "t1"}, {"alert", id}}, {{"Cookie", cookie}}).status == 404);
}
