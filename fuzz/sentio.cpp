// libFuzzer target: the Sentio decoder (core Framer + line::FrameRule + SentioDriver) on
// arbitrary bytes, delivered in chunks whose sizes come from the input, with simulated time
// running so the watchdog, the vote and the LED channel run too. Byte 0: bit 0 = rotated,
// bits 1-2 = vote frames 1..4, bits 4-7 = chunk size 1..16. Invariants: no crash, no sanitizer
// report, every reported square valid, never an identified piece (occupancy only).
// Seeds: fuzz/corpus/sentio (frames, LFs, acks, junk); dictionary: sentio.dict.
#include "base/placement.hpp"
#include "drivers/core/framer.hpp"
#include "drivers/sentio/driver.hpp"

#include <cstdint>
#include <cstdlib>

using namespace eboard;
using namespace eboard::drivers;

namespace {

struct CheckingHost final : DriverHost {
    void send(std::span<const std::uint8_t> b) override {
        if (b.size() != 8 && b.size() != line::rgb_command_bytes) std::abort();  // LED commands only
    }
    void emit(DriverEvent e) override {
        if (const auto* c = std::get_if<SquareChange>(&e); c && (!c->square.valid() || c->reading.known()))
            std::abort();
        if (const auto* d = std::get_if<BoardSnapshot>(&e))
            for (int i = 0; i < 64; ++i)
                if (d->board.at(Square(i)).known()) std::abort();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    CheckingHost host;
    line::LineOptions opt;
    opt.rotated = (data[0] & 1) != 0;
    opt.vote_frames = ((data[0] >> 1) & 3) + 1;
    sentio::SentioDriver driver(opt);
    Framer framer(driver.frame_rule(), trace_channel("fuzz"));
    driver.start(host, 0);
    TimeMs now = 0;
    const std::size_t step = static_cast<std::size_t>(data[0] >> 4) + 1;
    for (std::size_t i = 1; i < size; i += step) {
        const std::size_t n = std::min(step, size - i);
        framer.push(std::span<const std::uint8_t>(data + i, n),
                    [&](std::span<const std::uint8_t> p) { driver.on_packet(p, now); });
        now += 700;
        driver.on_tick(now);
        if (i % 3 == 0) driver.set_leds(static_cast<Bitboard>(data[i]) << (i % 56));
    }
    framer.reset();
    if (write_placement(driver.board()).empty()) std::abort();
    return 0;
}
