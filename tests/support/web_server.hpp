// A web::Server (web/server.hpp) on its own io_context thread, on a free loopback port, for the
// tests of the web faces (the server itself, the console, the LiveChess API). Header-only.
#pragma once

#include "web/server.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <future>
#include <stdexcept>
#include <thread>

namespace eboard::test {

/// Register routes on `server`, then start(); on_loop() runs code on the loop's thread (where
/// the server and its handlers live) and waits for its result.
struct RunningServer {
    boost::asio::io_context io;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
    eboard::web::Server server;
    std::thread thread;

    explicit RunningServer(const eboard::web::Limits& limits = {}) : server(io, limits) {}
    void start() {
        auto ok = server.listen(eboard::web::ListenAddress{"127.0.0.1", 0});
        if (!ok) throw std::runtime_error("listen: " + ok.error().message);
        thread = std::thread([this] { io.run(); });
    }
    /// Runs `f` on the loop and waits for it.
    template <typename F>
    auto on_loop(F f) {
        std::packaged_task<decltype(f())()> task(std::move(f));
        auto result = task.get_future();
        boost::asio::post(io, [&task] { task(); });
        return result.get();
    }
    /// Closes the server on the loop and ends the loop's thread. Objects whose handlers run on
    /// the loop (a console::Server, a hub console) must not be destroyed before this: a session
    /// closing on the loop calls them. Call it first in their owner's destructor, or declare a
    /// StopLoop after them. Idempotent.
    /// The loop is stopped, not drained, as eboardd and eboard-hub stop theirs: a WebSocket a
    /// handler still holds keeps Beast's keep-alive ping timer (150 s) pending.
    void stop() {
        if (thread.joinable()) {
            on_loop([this] {
                server.close();
                return 0;
            });
        }
        work.reset();
        io.stop();
        if (thread.joinable()) thread.join();
    }
    ~RunningServer() { stop(); }
    RunningServer(const RunningServer&) = delete;
    RunningServer& operator=(const RunningServer&) = delete;
};

/// Stops `r` when it goes out of scope (declared after the objects the loop's handlers call,
/// it is destroyed before them).
struct StopLoop {
    RunningServer& r;
    ~StopLoop() { r.stop(); }
};

} // namespace eboard::test
