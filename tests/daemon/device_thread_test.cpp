// The board's device thread (daemon/device_thread.hpp): a stop reaches an open that waits (a
// Bluetooth board being discovered or connected, up to 40 s), so that stopping eboardd does not
// wait for it. The opener here waits on the descriptor as open_ble does (tests/ble has the real
// transport against a fake BlueZ).
#include "daemon/device_thread.hpp"

#include <catch2/catch.hpp>

#include <poll.h>

#include <chrono>
#include <future>

using namespace eboard;
using namespace eboard::daemon;

namespace {

/// What one open saw: its descriptor readable at the start, and after its wait.
struct OpenSeen {
    bool readable_at_start = false;
    bool readable_at_end = false;
};

bool readable(int fd, int wait_ms) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, wait_ms) > 0 && (p.revents & POLLIN) != 0;
}

} // namespace

TEST_CASE("device thread: a stop gives up an open that waits, and the next start opens afresh") {
    DeviceThread thread("t1");
    std::promise<void> waiting;           // the first open is waiting
    std::promise<OpenSeen> first, second; // what each open saw
    int opens = 0;
    thread.set_opener([&](const drivers::DeviceSession::EventSink&, int cancel_fd)
                          -> Expected<std::unique_ptr<drivers::DeviceSession>> {
        OpenSeen seen;
        seen.readable_at_start = readable(cancel_fd, 0);
        if (++opens == 1) {
            waiting.set_value();
            seen.readable_at_end = readable(cancel_fd, 60000); // a discovery that finds nothing
            first.set_value(seen);
        } else if (opens == 2) {
            second.set_value(seen);
        }
        return Error{"board not found"};
    });
    thread.start("dgt.pegasus:ble:NO_SUCH_BOARD", nullptr, nullptr);
    waiting.get_future().wait();
    const auto asked = std::chrono::steady_clock::now();
    thread.request_stop();
    thread.join();
    // The 60 s wait ended with the stop (the bound is the point: far below the wait).
    CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(10));
    const OpenSeen one = first.get_future().get();
    CHECK_FALSE(one.readable_at_start);
    CHECK(one.readable_at_end);
    CHECK(opens == 1); // stopped: no second attempt

    // Started again (a board attached anew): the last stop is over, the open is not given up.
    auto next = second.get_future();
    thread.start("dgt.pegasus:ble:NO_SUCH_BOARD", nullptr, nullptr);
    REQUIRE(next.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    CHECK_FALSE(next.get().readable_at_start);
    thread.request_stop();
    thread.join();
}
