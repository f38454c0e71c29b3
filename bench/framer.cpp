// bench_framer: bytes/s through the core's Framer and the DGT driver's decoder (the path every
// byte read from a board takes in DeviceSession::poll) with tracing off, on a clean stream
// and on a noisy one (garbage, impossible headers, cut dumps: the Framer's resync paths),
// next to peers measured in the same run on the same bytes:
//   - the same noisy stream with `--trace dgt` on, lines into a sink that drops them (what the
//     trace text costs; with tracing off the decoder should not pay it);
//   - a plain pass over the bytes (sum), the floor of any decoder.
// The stream is DgtBoardEmu's output (drivers/emu, UPDATE mode) for random lifts and places.
//   bench_framer [--noise P] [--seconds S]     defaults: P = 0.5, S = 0.5 per figure
#include "drivers/core/framer.hpp"
#include "drivers/core/trace.hpp"
#include "drivers/dgt/driver.hpp"
#include "drivers/emu/board_emu.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace eboard;
using namespace eboard::drivers;
using Clock = std::chrono::steady_clock;

namespace {

/// A host that drops what the driver sends and counts what it reports.
struct CountingHost final : DriverHost {
    long events = 0;
    void send(std::span<const std::uint8_t>) override {}
    void emit(DriverEvent) override { ++events; }
};

/// The board's side of `moves` random lifts and places in UPDATE mode, as one byte string.
std::vector<std::uint8_t> board_stream(double noise, int moves) {
    emu::DgtEmulatorOptions o;
    o.noise_probability = noise;
    o.seed = 7;
    emu::DgtBoardEmu board(o);
    TimeMs now = 0;
    board.power_on(now);
    const std::uint8_t update[] = {dgt::cmd::send_update};
    board.receive(update, now);
    std::mt19937 rng(11); // NOLINT(cert-msc51-cpp): the same stream in every run
    std::uniform_int_distribution<int> square(0, 63);
    std::vector<std::uint8_t> out;
    for (int i = 0; i < moves; ++i) {
        now += 10;
        const Square s(square(rng));
        if (const SquareReading r = board.position().at(s); r.occupied) {
            board.lift(s, now);
            const Square to(square(rng));
            if (!board.position().at(to).occupied) board.place(to, r.piece, now);
            else board.place(s, r.piece, now);
        }
        board.tick(now);
        for (const auto& chunk : board.take_output()) out.insert(out.end(), chunk.begin(), chunk.end());
    }
    return out;
}

struct Figure {
    double bytes_per_s = 0;
    long events = 0;  ///< per pass, to show the decoder did the same work in each mode
};

/// Decodes `stream` again and again for `seconds` with a fresh driver and framer per pass;
/// `framer_only`: the packets go nowhere (the Framer's own cost).
Figure decode_rate(const std::vector<std::uint8_t>& stream, double seconds, bool framer_only = false) {
    Figure f;
    long bytes = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
        dgt::DgtOptions opt;
        opt.startup_delay_ms = 0;
        dgt::DgtDriver driver(opt);
        CountingHost host;
        driver.start(host, 0);
        Framer framer(driver.frame_rule(), trace_channel(driver.trace_name()));
        // In reads of up to 64 bytes, as a serial port delivers them.
        for (std::size_t at = 0; at < stream.size(); at += 64) {
            const std::size_t n = std::min<std::size_t>(64, stream.size() - at);
            framer.push(
                std::span<const std::uint8_t>(stream.data() + at, n),
                [&](std::span<const std::uint8_t> p) {
                    if (framer_only) ++host.events;
                    else driver.on_packet(p, 1);
                },
                [&] {
                    if (!framer_only) driver.on_resync(1);
                });
        }
        bytes += static_cast<long>(stream.size());
        f.events = host.events;
        elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (elapsed < seconds);
    f.bytes_per_s = static_cast<double>(bytes) / elapsed;
    return f;
}

/// The floor: one pass summing the bytes.
double sum_rate(const std::vector<std::uint8_t>& stream, double seconds) {
    long bytes = 0;
    volatile unsigned sink = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
        unsigned s = 0;
        for (const std::uint8_t b : stream) s += b;
        sink = sink + s;
        bytes += static_cast<long>(stream.size());
        elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (elapsed < seconds);
    return static_cast<double>(bytes) / elapsed;
}

} // namespace

int main(int argc, char** argv) try {
    double noise = 0.5, seconds = 0.5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--noise") == 0) noise = std::strtod(argv[i + 1], nullptr);
        else if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::strtod(argv[i + 1], nullptr);
        else {
            std::fprintf(stderr, "usage: bench_framer [--noise P] [--seconds S]\n");
            return 2;
        }
    }
    const auto clean = board_stream(0, 20000);
    const auto noisy = board_stream(noise, 20000);
    std::printf("stream: %zu bytes clean, %zu bytes with noise %.2f (same lifts and places)\n", clean.size(),
                noisy.size(), noise);

    disable_traces();
    const Figure c = decode_rate(clean, seconds);
    const Figure n = decode_rate(noisy, seconds);
    const Figure fc = decode_rate(clean, seconds, true);
    const Figure fn = decode_rate(noisy, seconds, true);
    long lines = 0;
    set_trace_sink([&](std::string_view) { ++lines; });
    (void)enable_traces("dgt");
    const Figure t = decode_rate(noisy, seconds);
    const Figure ft = decode_rate(noisy, seconds, true);
    disable_traces();
    set_trace_sink(nullptr);
    const double floor = sum_rate(noisy, seconds);

    std::printf("%-44s %10.1f MB/s  %ld events/pass\n", "clean stream, trace off", c.bytes_per_s / 1e6, c.events);
    std::printf("%-44s %10.1f MB/s  %ld events/pass\n", "noisy stream, trace off", n.bytes_per_s / 1e6, n.events);
    std::printf("%-44s %10.1f MB/s  %ld events/pass\n", "peer: noisy stream, --trace dgt (sink drops)",
                t.bytes_per_s / 1e6, t.events);
    std::printf("%-44s %10.1f MB/s  %ld packets/pass\n", "framer only: clean, trace off", fc.bytes_per_s / 1e6, fc.events);
    std::printf("%-44s %10.1f MB/s  %ld packets/pass\n", "framer only: noisy, trace off", fn.bytes_per_s / 1e6, fn.events);
    std::printf("%-44s %10.1f MB/s  %ld packets/pass\n", "peer: framer only: noisy, --trace dgt", ft.bytes_per_s / 1e6, ft.events);
    std::printf("%-44s %10.1f MB/s\n", "peer: sum over the bytes", floor / 1e6);
    std::printf("ratios, noisy stream, trace off / on: decoder %.2f, framer only %.2f\n", n.bytes_per_s / t.bytes_per_s,
                fn.bytes_per_s / ft.bytes_per_s);
    return 0;
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_framer: %s\n", e.what());
    return 2;
}
