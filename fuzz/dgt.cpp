// libFuzzer target: the DGT decoder (core Framer + dgt::FrameRule + DgtDriver) on arbitrary
// bytes, delivered in chunks whose sizes come from the input, with simulated time running so
// the start-up, keep-alive and clock-retry timers fire too. Invariants checked: no crash, no
// sanitizer report, every reported square valid, the shadow board always readable.
// Seeds: fuzz/corpus/dgt (frames from data/dgt/record.txt and dgt.md vectors);
// dictionary: fuzz/dgt.dict (message headers).
#include "base/placement.hpp"
#include "drivers/core/framer.hpp"
#include "drivers/dgt/driver.hpp"

#include <cstdint>
#include <cstdlib>

using namespace eboard;
using namespace eboard::drivers;

namespace {

struct NullHost final : DriverHost {
    std::size_t sent = 0;
    void send(std::span<const std::uint8_t> b) override { sent += b.size(); }
    void emit(DriverEvent e) override {
        if (const auto* c = std::get_if<SquareChange>(&e); c && !c->square.valid()) std::abort();
        if (const auto* t = std::get_if<ClockReport>(&e); t && (t->left_ms < 0 || t->right_ms < 0)) std::abort();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    NullHost host;
    dgt::DgtOptions opt;
    opt.startup_delay_ms = 0;
    opt.orientation = (data[0] & 1) ? dgt::Orientation::Auto : dgt::Orientation::Rotated;
    dgt::DgtDriver driver(opt);
    Framer framer(driver.frame_rule(), trace_channel("fuzz"));
    driver.start(host, 0);
    TimeMs now = 0;
    driver.on_tick(now);
    // Byte 0: chunk size pattern (1..16); the rest is the wire.
    const std::size_t step = static_cast<std::size_t>(data[0] >> 4) + 1;
    for (std::size_t i = 1; i < size; i += step) {
        const std::size_t n = std::min(step, size - i);
        framer.push(std::span<const std::uint8_t>(data + i, n),
                    [&](std::span<const std::uint8_t> p) { driver.on_packet(p, now); });
        now += 300;
        driver.on_tick(now);
        if (i % 7 == 0) driver.show_text("fuzz", true);
    }
    framer.reset();
    const BoardReading b = driver.board();
    if (write_placement(b).empty()) std::abort();
    return 0;
}
