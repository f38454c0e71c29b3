// libFuzzer target: the Millennium ChessLink decoder (core Framer + millennium::FrameRule +
// MillenniumDriver) on arbitrary bytes, delivered in chunks whose sizes come from the input,
// with simulated time running so the start-up, retry and keep-alive timers fire too, and LED
// and status requests mixed in. Invariants checked: no crash, no sanitizer report, every packet
// the framer hands out decodes, every reported square valid, the board always readable.
// Seeds: fuzz/corpus/millennium (millennium.md 3.1 vectors, python-mchess's real version
// reply, reports in both orders, noise); dictionary: fuzz/millennium.dict.
#include "base/placement.hpp"
#include "drivers/core/framer.hpp"
#include "drivers/millennium/driver.hpp"

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
        if (const auto* d = std::get_if<BoardSnapshot>(&e); d && write_placement(d->board).empty())
            std::abort();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    NullHost host;
    millennium::MillenniumOptions opt;
    opt.startup_delay_ms = 0;
    opt.orientation =
        (data[0] & 1) ? millennium::Orientation::Auto : millennium::Orientation::A8First;
    opt.quirks = (data[0] & 2) ? millennium::quirk::no_ack : 0;
    millennium::MillenniumDriver driver(opt);
    Framer framer(driver.frame_rule(), trace_channel("fuzz"));
    driver.start(host, 0);
    TimeMs now = 0;
    driver.on_tick(now);
    // Byte 0: flags (bits 0-1) and the chunk size (bits 4-7, 1..16); the rest is the wire.
    const std::size_t step = static_cast<std::size_t>(data[0] >> 4) + 1;
    for (std::size_t i = 1; i < size; i += step) {
        const std::size_t n = std::min(step, size - i);
        framer.push(
            std::span<const std::uint8_t>(data + i, n),
            [&](std::span<const std::uint8_t> p) {
                if (!millennium::decode(p)) std::abort(); // the framer validated it
                driver.on_packet(p, now);
            },
            [&] { driver.on_resync(now); });
        now += 250;
        driver.on_tick(now);
        if (i % 5 == 0) driver.show_squares(static_cast<Bitboard>(i) * 0x9e3779b97f4a7c15ULL);
        if (i % 11 == 0) driver.request_board_dump();
        if (i % 13 == 0) driver.leds_off();
    }
    framer.reset();
    if (write_placement(driver.board()).empty()) std::abort();
    return 0;
}
