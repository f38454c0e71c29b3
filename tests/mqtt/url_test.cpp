// The broker URL of the hall's contract (interfaces.md, "The tournament hall").
#include "mqtt/url.hpp"

#include <catch2/catch.hpp>

using eboard::mqtt::parse_url;

TEST_CASE("url: scheme, user, password, host and port as the contract writes them") {
    auto u = parse_url("mqtt://arbiter:s%40cret@hall.local:1884");
    REQUIRE(u);
    CHECK_FALSE(u->tls);
    CHECK(u->user == "arbiter");
    CHECK(u->password == "s@cret");
    CHECK(u->host == "hall.local");
    CHECK(u->port == 1884);
    CHECK(eboard::mqtt::redacted(*u) == "mqtt://arbiter@hall.local:1884");

    auto plain = parse_url("mqtt://127.0.0.1");
    REQUIRE(plain);
    CHECK(plain->port == 1883);
    CHECK(plain->user.empty());
    auto tls = parse_url("mqtts://broker/");
    REQUIRE(tls);
    CHECK(tls->tls);
    CHECK(tls->port == 8883);
    auto v6 = parse_url("mqtt://[::1]:2000");
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    CHECK(v6->port == 2000);
    CHECK(eboard::mqtt::redacted(*v6) == "mqtt://[::1]:2000");
}

TEST_CASE("url: what is not a broker URL is refused with the reason") {
    for (const char* bad : {"http://host", "mqtt://", "mqtt://host:0", "mqtt://host:65536", "mqtt://host:",
                            "mqtt://host:12x", "mqtt://host/topic", "mqtt://u:%zz@host", "mqtt://[::1", "host:1883"}) {
        INFO(bad);
        auto u = parse_url(bad);
        REQUIRE_FALSE(u);
        CHECK_FALSE(u.error().message.empty());
    }
}
