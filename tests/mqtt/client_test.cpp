// The MQTT client (mqtt/client.hpp) against a real mosquitto on loopback: QoS 1 both ways, a
// persistent session that keeps what was published while the subscriber was away, and both
// clients coming back by themselves after the broker is killed and restarted.
#include "mqtt/client.hpp"

#include "../support/mosquitto.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <algorithm>
#include <deque>
#include <mutex>

namespace {

/// What a client's callbacks saw, with waits that have a deadline.
struct Seen {
    std::mutex mutex;
    std::condition_variable cv;
    int connects = 0;
    int disconnects = 0;
    std::deque<eboard::mqtt::Message> messages;
    std::vector<int> acked;

    eboard::mqtt::Callbacks callbacks() {
        eboard::mqtt::Callbacks c;
        c.connected = [this](bool) { note([this] { ++connects; }); };
        c.disconnected = [this](const std::string&) { note([this] { ++disconnects; }); };
        c.published = [this](int mid) { note([this, mid] { acked.push_back(mid); }); };
        c.message = [this](const eboard::mqtt::Message& m) { note([this, &m] { messages.push_back(m); }); };
        return c;
    }
    template <typename F>
    void note(F f) {
        {
            std::lock_guard lock(mutex);
            f();
        }
        cv.notify_all();
    }
    template <typename P>
    bool wait(P pred, int ms = 20000) {
        std::unique_lock lock(mutex);
        return cv.wait_for(lock, std::chrono::milliseconds(ms), pred);
    }
};

eboard::mqtt::ClientOptions options(const eboard::test::MosquittoBroker& broker, std::string id, bool clean) {
    eboard::mqtt::ClientOptions o;
    o.url = *eboard::mqtt::parse_url(broker.url());
    o.client_id = std::move(id);
    o.clean_session = clean;
    return o;
}

} // namespace

TEST_CASE("client: QoS 1 delivery, a persistent session across the subscriber's absence and a broker killed -9") {
    eboard::test::MosquittoBroker broker;
    Seen pub_seen;
    Seen sub_seen;
    eboard::mqtt::Client publisher(options(broker, "test-pub", true), pub_seen.callbacks());
    auto sub = std::make_unique<eboard::mqtt::Client>(options(broker, "test-hub", false), sub_seen.callbacks());
    sub->subscribe("eboard/v1/#", 1);
    publisher.start();
    sub->start();
    REQUIRE(pub_seen.wait([&] { return pub_seen.connects == 1; }));
    REQUIRE(sub_seen.wait([&] { return sub_seen.connects == 1; }));
    // The subscription is made in the connect callback; a message published before the broker
    // has it would be lost, so the first one is sent until one arrives.
    bool first = false;
    for (int i = 0; i < 100 && !first; ++i) {
        REQUIRE(publisher.publish("eboard/v1/h/b/move", "first", 1, false));
        first = sub_seen.wait([&] { return !sub_seen.messages.empty(); }, 200);
    }
    REQUIRE(first);
    CHECK(sub_seen.messages.front().topic == "eboard/v1/h/b/move");
    CHECK(sub_seen.messages.front().qos == 1);

    // The subscriber goes away; its session keeps what is published meanwhile.
    sub.reset();
    const auto mid = publisher.publish("eboard/v1/h/b/move", "while away", 1, false);
    REQUIRE(mid);
    REQUIRE(pub_seen.wait([&] { return std::find(pub_seen.acked.begin(), pub_seen.acked.end(), *mid) != pub_seen.acked.end(); }));
    Seen back_seen;
    eboard::mqtt::Client back(options(broker, "test-hub", false), back_seen.callbacks());
    back.subscribe("eboard/v1/#", 1);
    back.start();
    REQUIRE(back_seen.wait([&] { return !back_seen.messages.empty(); }));
    CHECK(back_seen.messages.front().payload == "while away");

    // kill -9 of the broker: both clients see the loss, and reconnect once it is back.
    broker.kill9();
    REQUIRE(pub_seen.wait([&] { return pub_seen.disconnects >= 1; }));
    CHECK_FALSE(publisher.publish("eboard/v1/h/b/move", "nowhere", 1, false).has_value());
    broker.start();
    REQUIRE(pub_seen.wait([&] { return pub_seen.connects == 2; }));
    REQUIRE(back_seen.wait([&] { return back_seen.connects == 2; }));
    bool after = false;
    for (int i = 0; i < 100 && !after; ++i) {
        REQUIRE(publisher.publish("eboard/v1/h/b/move", "after", 1, false));
        after = back_seen.wait([&] { return back_seen.messages.back().payload == "after"; }, 200);
    }
    CHECK(after);
}

TEST_CASE("client: no broker listening, start() returns at once and publish() refuses") {
    eboard::mqtt::ClientOptions o;
    o.url = *eboard::mqtt::parse_url("mqtt://127.0.0.1:" + std::to_string(eboard::test::free_loopback_port()));
    Seen seen;
    eboard::mqtt::Client c(o, seen.callbacks());
    c.start();
    CHECK_FALSE(c.connected());
    CHECK_FALSE(c.publish("t", "x", 1, false).has_value());
    c.stop(); // joins during the back-off, without waiting it out
    CHECK(seen.connects == 0);
}
