// libFuzzer target: the Certabo decoder (core Framer + line::FrameRule + CertaboDriver) on
// arbitrary bytes, delivered in chunks whose sizes come from the input, with simulated time
// running so the watchdog, the vote and the LED channel (detection, rate limit) run too.
// Byte 0: bit 0 = start calibrated with the emulator's tags (else the driver calibrates from
// what it reads; bit 2 = from 2 frames, failing after 4, so that fits in -max_len), bit 1 =
// rotated, bits 4-7 = chunk size 1..16. Invariants: no crash, no
// sanitizer report, every reported square valid, only known pieces reported once calibrated.
// Seeds: fuzz/corpus/certabo (emulator frames with noise, LFs, acks); dictionary: certabo.dict.
#include "base/placement.hpp"
#include "drivers/certabo/driver.hpp"
#include "drivers/core/framer.hpp"
#include "drivers/emu/line_board_emu.hpp"

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
        if (const auto* c = std::get_if<SquareChange>(&e); c && !c->square.valid()) std::abort();
        if (const auto* c = std::get_if<SquareChange>(&e); c && c->reading.occupied && !c->reading.known())
            std::abort();  // a Certabo never reports an unknown occupant
    }
};

const certabo::Calibration& emulator_tags() {
    static const certabo::Calibration c = emu::LineBoardEmu().full_calibration();
    return c;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    CheckingHost host;
    certabo::CertaboOptions opt;
    if (data[0] & 1) opt.calibration = emulator_tags();
    opt.line.rotated = (data[0] & 2) != 0;
    if (data[0] & 4) opt.calibrator = {2, 4, 3};
    certabo::CertaboDriver driver(opt);
    Framer framer(driver.frame_rule(), trace_channel("fuzz"));
    driver.start(host, 0);
    TimeMs now = 0;
    const std::size_t step = static_cast<std::size_t>(data[0] >> 4) + 1;
    for (std::size_t i = 1; i < size; i += step) {
        const std::size_t n = std::min(step, size - i);
        framer.push(std::span<const std::uint8_t>(data + i, n),
                    [&](std::span<const std::uint8_t> p) { driver.on_packet(p, now); });
        now += 150;
        driver.on_tick(now);
        if (i % 5 == 0) driver.set_leds(static_cast<Bitboard>(i) * 0x9e3779b97f4a7c15ULL);
    }
    framer.reset();
    if (write_placement(driver.board()).empty()) std::abort();
    return 0;
}
