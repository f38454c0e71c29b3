// A driver wired straight to an emulator's pure board model, without a pty or threads: the
// driver's bytes go into model.receive(), the model's replies through the core's Framer into
// the driver, on simulated time. Byte for byte what a pty would carry, fast enough to sweep
// thousands of games.
#pragma once

#include "harness.hpp"

namespace eboard::drivers::test {

template <typename Model>
struct DirectLink final : DriverHost {
    Model& model;
    Driver& driver;
    Framer framer;
    Millis now = 0;
    std::vector<DriverEvent> events;
    std::vector<std::uint8_t> wire; // every byte the model sent, in order

    DirectLink(Model& m, Driver& d)
        : model(m), driver(d), framer(d.frame_rule(), trace_channel(d.trace_name())) {
        driver.start(*this, now);
    }

    void send(std::span<const std::uint8_t> b) override { model.receive(b, now); }
    void emit(DriverEvent e) override { events.push_back(std::move(e)); }

    /// Hands everything the model said to the driver (its answers may make the model talk again).
    void deliver() {
        for (int round = 0; round < 100; ++round) {
            const auto chunks = model.take_output();
            if (chunks.empty()) return;
            for (const auto& c : chunks) {
                wire.insert(wire.end(), c.begin(), c.end());
                framer.push(
                    c, [&](std::span<const std::uint8_t> p) { driver.on_packet(p, now); },
                    [&] { driver.on_resync(now); });
            }
        }
    }

    /// Lets `dt` ms pass: the model's timers, the replies, the driver's timers.
    void step(Millis dt = 1) {
        now += dt;
        model.tick(now);
        deliver();
        driver.on_tick(now);
        deliver();
    }

    /// Steps until `pred` holds, at most `max_ms` of simulated time.
    bool run_until(const std::function<bool()>& pred, Millis max_ms = 10000, Millis dt = 1) {
        for (Millis t = 0; t <= max_ms; t += dt) {
            if (pred()) return true;
            step(dt);
        }
        return pred();
    }

    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
        return out;
    }
};

} // namespace eboard::drivers::test
