// Test helpers for the driver tests: a recording DriverHost (driver on byte buffers with
// simulated time), a loopback (driver and emulator model wired byte for byte, simulated time,
// no pty), a generic session harness and the DGT pty harness (real driver + DeviceSession
// against DgtEmulator), and the hands that play a move onto any emulator.
#pragma once

#include "drivers/core/session.hpp"
#include "drivers/core/transport.hpp"
#include "drivers/dgt/driver.hpp"
#include "drivers/emu/dgt_emulator.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace eboard::drivers::test {

/// Collects what a driver sends and emits.
struct RecordingHost final : DriverHost {
    std::vector<std::uint8_t> sent;
    std::vector<DriverEvent> events;
    void send(std::span<const std::uint8_t> b) override { sent.insert(sent.end(), b.begin(), b.end()); }
    void emit(DriverEvent e) override { events.push_back(std::move(e)); }
    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
        return out;
    }
    std::vector<std::uint8_t> take_sent() { return std::exchange(sent, {}); }
};

/// Feeds a byte string to a driver through a Framer, as the session would.
inline void feed(Driver& d, const std::vector<std::uint8_t>& bytes, TimeMs now) {
    static const TraceChannel& t = trace_channel("test");
    Framer f(d.frame_rule(), t);
    f.push(bytes, [&](std::span<const std::uint8_t> p) { d.on_packet(p, now); });
}

/// A device model and a driver wired byte for byte on simulated time (no pty, no threads):
/// what the device writes goes through a Framer into the driver, what the driver sends goes
/// into the model. Fast enough for whole game collections.
struct Loopback {
    emu::WireModel& device;
    Driver& driver;
    RecordingHost host;
    Framer framer;
    TimeMs now = 0;

    Loopback(emu::WireModel& dev, Driver& drv)
        : device(dev), driver(drv), framer(drv.frame_rule(), trace_channel(drv.trace_name())) {
        driver.start(host, now);
    }
    /// Runs both sides for `ms` in steps of `step_ms`.
    void run(TimeMs ms, TimeMs step_ms = 1) {
        for (const TimeMs end = now + ms; now < end;) {
            now += step_ms;
            step();
        }
    }
    /// Runs until `pred` holds, at most `max_ms`; returns whether it holds.
    bool run_until(const std::function<bool()>& pred, TimeMs max_ms, TimeMs step_ms = 1) {
        for (const TimeMs end = now + max_ms; !pred(); now += step_ms) {
            if (now >= end) return false;
            step();
        }
        return true;
    }

  private:
    void step() {
        device.tick(now);
        for (const auto& chunk : device.take_output())
            framer.push(
                chunk, [&](std::span<const std::uint8_t> p) { driver.on_packet(p, now); },
                [&] { driver.on_resync(now); });
        driver.on_tick(now);
        if (!host.sent.empty()) device.receive(host.take_sent(), now);
    }
};

/// A DeviceSession with the events it reported: the part of a pty harness that does not
/// depend on the board.
struct SessionHarness {
    std::unique_ptr<DeviceSession> session;
    std::vector<DriverEvent> events;

    /// Starts `driver` on the termios transport of `path` (the emulator's pty).
    void open(const std::string& path, std::unique_ptr<Driver> driver, const SerialSettings& line = {}) {
        auto t = open_termios(path, line);
        REQUIRE(t.has_value());
        open(std::move(t.value()), std::move(driver));
    }

    /// Starts `driver` on `transport` (any kind: libusb, an in-process loopback); a session
    /// opened before is closed, its events are kept.
    void open(std::unique_ptr<Transport> transport, std::unique_ptr<Driver> driver) {
        if (const char* t = std::getenv("EBOARD_TRACE")) (void)enable_traces(t);  // e.g. EBOARD_TRACE=dgt
        session = std::make_unique<DeviceSession>(std::move(transport), std::move(driver),
                                                  [this](const DriverEvent& e) { events.push_back(e); });
        session->start();
    }

    /// Polls the session until `pred` holds or `timeout_ms` passed (a condition, not a sleep).
    bool pump_until(const std::function<bool()>& pred, int timeout_ms = 3000) {
        const TimeMs end = steady_now_ms() + timeout_ms;
        while (!pred()) {
            if (steady_now_ms() > end) return false;
            if (!session->poll(10) && !pred()) return pred();
        }
        return true;
    }

    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
        return out;
    }

    template <typename T>
    [[nodiscard]] std::optional<T> last() const {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (const T* t = std::get_if<T>(&*it)) return *t;
        return std::nullopt;
    }
};

/// The real DGT driver in a DeviceSession on the emulator's pty.
struct PtyHarness : SessionHarness {
    std::unique_ptr<emu::DgtEmulator> emu;
    dgt::DgtDriver* driver = nullptr;

    explicit PtyHarness(const emu::DgtEmulatorOptions& eo = {}, const dgt::DgtOptions& dopt = fast_options())
        : emu(std::make_unique<emu::DgtEmulator>(eo)) {
        auto d = std::make_unique<dgt::DgtDriver>(dopt);
        driver = d.get();
        open(emu->pty_slave_path(), std::move(d));
    }

    /// Short timings so no test waits seconds of wall time.
    static dgt::DgtOptions fast_options() {
        dgt::DgtOptions o;
        o.startup_delay_ms = 0;
        o.version_retry_ms = 200;
        o.clock.ack_timeout_ms = 100;
        return o;
    }

    bool ready() {
        return pump_until([&] { return driver->ready() && !all<BoardSnapshot>().empty(); });
    }
};

/// build/bin/eboard-emu running with `args`; the constructor waits for its readiness line (the
/// pty path). stop() sends SIGTERM and returns the exit status (-1 if killed by a signal).
struct EmuProcess {
    pid_t pid = 0;
    std::string pty;

    explicit EmuProcess(const std::vector<std::string>& args) {
        int out[2];
        REQUIRE(::pipe(out) == 0);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        const std::string bin = std::string(EBOARD_BIN_DIR) + "/eboard-emu";
        std::vector<std::string> all = {bin};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        argv.reserve(all.size() + 1);
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        REQUIRE(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ) == 0);
        posix_spawn_file_actions_destroy(&fa);
        ::close(out[1]);
        char c;
        while (::read(out[0], &c, 1) == 1 && c != '\n') pty += c;
        ::close(out[0]);
        REQUIRE(pty.rfind("/dev/pts/", 0) == 0);
    }
    EmuProcess(const EmuProcess&) = delete;
    EmuProcess& operator=(const EmuProcess&) = delete;
    ~EmuProcess() {
        if (pid > 0) (void)stop();
    }
    int stop() {
        ::kill(pid, SIGTERM);
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, 0);
        pid = 0;
        return r > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
};

/// Plays a move by hand on any emulator with lift/place: every square that empties is lifted,
/// then every square whose piece changed gets its new piece (captures, castling, en passant,
/// promotion alike).
template <typename Emulator>
void play_on_board(Emulator& e, const BoardReading& before, const BoardReading& after) {
    for (int i = 0; i < 64; ++i)
        if (before.at(Square(i)) != after.at(Square(i)) && before.at(Square(i)).occupied)
            e.lift(Square(i));
    for (int i = 0; i < 64; ++i)
        if (before.at(Square(i)) != after.at(Square(i)) && after.at(Square(i)).occupied)
            e.place(Square(i), after.at(Square(i)).piece);
}

} // namespace eboard::drivers::test
