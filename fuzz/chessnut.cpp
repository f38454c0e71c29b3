// libFuzzer target: the Chessnut decoder (core Framer in report mode + chessnut::FrameRule +
// ChessnutDriver) on arbitrary bytes. Byte 0 picks the orientation option and the report size
// (1..64); the rest is cut into "HID reports" of that size, each followed by end_of_message as
// the session does for the libusb transport, with simulated time running so the write queue,
// realtime retries, battery polls and board-dump deadlines fire too. Invariants: no crash, no
// sanitizer report, every board has only identified pieces or empty squares, battery percent
// within 0..100, LED commands round-trip.
// Seeds: fuzz/corpus/chessnut (chessnut.md vectors, tests/drivers/data/chessnut-session.trace);
// dictionary: fuzz/chessnut.dict (report headers).
#include "drivers/chessnut/driver.hpp"
#include "drivers/core/framer.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace eboard;
using namespace eboard::drivers;

namespace {

void check_board(const BoardReading& b) {
    for (int s = 0; s < 64; ++s)
        if (b.at(Square(s)).occupied && !b.at(Square(s)).known()) std::abort();
}

struct CheckingHost final : DriverHost {
    std::size_t sent = 0;
    void send(std::span<const std::uint8_t> b) override {
        if (b.empty() || b.size() > 64) std::abort();
        sent += b.size();
    }
    void emit(DriverEvent e) override {
        if (const auto* d = std::get_if<BoardSnapshot>(&e)) check_board(d->board);
        if (const auto* b = std::get_if<BatteryInfo>(&e); b && (b->percent < 0 || b->percent > 100)) std::abort();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    CheckingHost host;
    chessnut::ChessnutOptions opt;
    opt.orientation = static_cast<chessnut::Orientation>(data[0] % 3);
    opt.quirks = (data[0] >> 2) & 3;
    chessnut::ChessnutDriver driver(opt);
    Framer framer(driver.frame_rule(), trace_channel("fuzz"));
    TimeMs now = 0;
    driver.start(host, now);
    const std::size_t report = static_cast<std::size_t>(data[0] >> 2) + 1;  // 1..64
    for (std::size_t i = 1; i < size; i += report) {
        const std::size_t n = std::min(report, size - i);
        const auto before = framer.stats();
        framer.push(std::span<const std::uint8_t>(data + i, n),
                    [&](std::span<const std::uint8_t> p) { driver.on_packet(p, now); });
        framer.end_of_message();
        if (framer.stats().truncated != before.truncated || framer.stats().garbage_bytes != before.garbage_bytes ||
            framer.stats().bad_headers != before.bad_headers)
            driver.on_resync(now);
        now += 70;
        driver.on_tick(now);
        if (i % 5 == 0) driver.set_leds(static_cast<Bitboard>(data[i]) * 0x0101010101010101ULL);
        if (i % 11 == 0) driver.request_board_dump();
    }
    check_board(driver.board());
    Bitboard lit = 0;
    if (size >= 9) std::memcpy(&lit, data + 1, sizeof lit);
    for (const bool rotated : {false, true})
        if (chessnut::leds_from_command(chessnut::led_command(lit, rotated), rotated) != lit) std::abort();
    return 0;
}
