// bench_recon_misreadings: the reconstruction's known misreadings (docs/reconstruction.md,
// "Known limits"; issue 23), each as a seeded Monte Carlo of 10,000 trials, its figure printed
// as it is now and as it was (target: 0 in 10,000 each):
// - a press 50-100 ms after a paused pawn lands (c2-c3, pause, c3-c4), before the frame that
//   shows its square: the intermediate move must not be the one completed (100 ms frames, the
//   opponent's reply begun around it; clock trials);
// - c3-c4 together with the opponent's lift in one reading of a board that stalls 200 ms
//   between readings (half the trials with a clock, the press any time 110-300 ms after the
//   landing): one ply replaced ("moved on"), not two plies by White;
// - a Sentio reed contact bouncing for 0.1-1 ms as a frame is taken (frames every 100 ms), an
//   own piece of the player about to move: with `vote-frames` 1 a frame shows it gone, a
//   100 ms lift, a touched piece and a false touch_move; the driver's vote decides.
//   bench_recon_misreadings [TRIALS]    (default 10000 each)
#include <charconv>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <string_view>

#include "bench/target.hpp"
#include "drivers/core/board_stream.hpp"
#include "tests/rules/recon_frames.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

// The figures before issue 23, measured with this bench on the reconstruction as it was
// (branch realboards before its fix commits): its trials are seeded, so they are exact.
constexpr int kBeforePress = 518;
constexpr int kBeforeStall = 116;

/// Wrong readings of a paused double step in `trials` trials (seeded); `clock` 0 none, 1 every
/// trial, 2 every other trial.
int paused_step_wrong(const PausedStep& kind, int clock, int trials, std::uint64_t seed, std::string* first_wrong) {
    std::mt19937_64 rng(seed);
    int wrong = 0;
    for (int t = 0; t < trials; ++t) {
        std::string why;
        if (!paused_double_step(rng, kind, clock == 1 || (clock == 2 && t % 2 == 1), &why)) {
            if (wrong++ == 0 && first_wrong) *first_wrong = why;
        }
    }
    return wrong;
}

/// Feeds what a BoardStream reports into a reconstruction.
struct ReconHost final : drivers::DriverHost {
    Run& run;
    explicit ReconHost(Run& r) : run(r) {}
    void send(std::span<const std::uint8_t>) override {}
    void emit(drivers::DriverEvent e) override {
        if (const auto* c = std::get_if<SquareChange>(&e)) run.take(run.rec.feed(*c));
        else if (const auto* b = std::get_if<BoardSnapshot>(&e)) run.take(run.rec.feed(*b));
    }
};

/// One Sentio trial: White's first move made by hand (lift, 300 ms, place) while one of his
/// other pieces' reed contacts bounces for 0.1-1 ms somewhere in the 300 ms before the lift,
/// then Black's reply; frames every 100 ms (random phase) through a BoardStream voting over
/// `vote_frames`, into a reconstruction without a clock. True when the game reads 1.move and
/// the reply with no irregularity (no false touch_move).
bool sentio_bounce_trial(std::mt19937_64& rng, int vote_frames) {
    static const char* const kMoves[][2] = {{"e2", "e4"}, {"d2", "d4"}, {"g1", "f3"}, {"c2", "c4"}, {"b1", "c3"}};
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const auto& mv = kMoves[uni(0, 4)];
    const Square from = sq(mv[0]), to = sq(mv[1]);
    Square bouncer = from;
    while (bouncer == from) bouncer = Square::at(uni(0, 7), uni(0, 1));  // another white piece
    // Times in microseconds: the bounce, the hands, the frames.
    const long long lift_us = 1'000'000 + uni(0, 99'999);
    const long long bounce_at = lift_us - uni(1, 300'000), bounce_us = uni(100, 1'000);
    const long long place_us = lift_us + 300'000, reply_lift = place_us + 600'000, reply_place = reply_lift + 300'000;
    const long long phase = uni(0, 99'999);
    BoardReading board = BoardReading::start_position();
    for (int s = 0; s < 64; ++s)
        if (board[static_cast<std::size_t>(s)].occupied) board[static_cast<std::size_t>(s)] = SquareReading::unknown();
    ReconConfig cfg;
    cfg.clock = false;
    Run run(cfg);
    ReconHost host(run);
    drivers::BoardStream stream(vote_frames);
    for (long long t = phase; t < reply_place + 1'500'000; t += 100'000) {
        BoardReading raw = board;
        const auto at = [&](Square s, bool on) { raw.set(s, on ? SquareReading::unknown() : SquareReading::empty()); };
        if (t >= lift_us) at(from, false);
        if (t >= place_us) at(to, true);
        if (t >= reply_lift) at(sq("g8"), false);
        if (t >= reply_place) at(sq("f6"), true);
        if (t >= bounce_at && t < bounce_at + bounce_us) at(bouncer, false);
        const TimeMs now = t / 1000;
        stream.push(raw, now, host);
        run.take(run.rec.feed(Tick{now}));
    }
    run.take(run.rec.feed(Tick{reply_place / 1000 + 5000}));
    const std::vector<std::string> want{std::string(mv[0]) + mv[1], "g8f6"};
    return run.made == want && run.irregularities() == 0;
}

int sentio_wrong(int vote_frames, int trials, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    int wrong = 0;
    for (int t = 0; t < trials; ++t) wrong += sentio_bounce_trial(rng, vote_frames) ? 0 : 1;
    return wrong;
}

} // namespace

int main(int argc, char** argv) try {
    int trials = 10000;
    if (argc > 1) {
        const std::string_view arg = argv[1];
        const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), trials);
        if (ec != std::errc{} || end != arg.data() + arg.size()) trials = 0;
    }
    if (trials <= 0) {
        std::fprintf(stderr, "usage: bench_recon_misreadings [TRIALS]\n");
        return 2;
    }
    int failing = 0;
    const auto report = [&](const char* what, int before, const char* before_how, int now, const std::string& example) {
        std::printf("%s\n  before (%s): %d of %d\n  now: %d of %d (target 0)%s%s\n", what, before_how, before, trials,
                    now, trials, example.empty() ? "" : "; first wrong: ", example.c_str());
        failing += now != 0;
    };

    // 1. The press 50-100 ms after the pawn lands (clock trials, 100 ms frames).
    PausedStep early_press;
    early_press.press_lo = 50;
    early_press.press_hi = 100;
    std::string ex1;
    const int press_now = paused_step_wrong(early_press, 1, trials, 20261127, &ex1);
    report("press 50-100 ms after a paused pawn lands, before the frame that shows it (100 ms frames, clock)",
           kBeforePress, "the reconstruction before issue 23", press_now, ex1);

    // 2. A board that stalls 200 ms between readings: c3-c4 and the opponent's lift in one
    // reading (no clock and clock trials, every other one).
    PausedStep stall;
    stall.frame_ms = 200;
    std::string ex2;
    const int stall_now = paused_step_wrong(stall, 2, trials, 20261128, &ex2);
    report("c3-c4 with the opponent's lift in one reading, 200 ms stalls (half the trials with a clock)",
           kBeforeStall, "the reconstruction before issue 23", stall_now, ex2);

    // 3. A Sentio reed bounce caught by one frame: vote-frames 1 (the old default) against the
    // driver's default now (3: 2 of the last 3 frames).
    const int vote1 = sentio_wrong(1, trials, 20261129);
    const int vote3 = sentio_wrong(3, trials, 20261129);
    report("Sentio 0.1-1 ms reed bounce of an own piece, frames every 100 ms", vote1, "vote-frames=1", vote3, "");

    bench::check_target("misreading: press before the frame that shows the pawn", press_now, bench::Bound::AtMost, 0,
                        "wrong", "issue 23");
    bench::check_target("misreading: moved on with the opponent's lift in one frame", stall_now, bench::Bound::AtMost,
                        0, "wrong", "issue 23");
    bench::check_target("misreading: Sentio bounce with the default vote", vote3, bench::Bound::AtMost, 0, "wrong",
                        "issue 23");
    return bench::target_exit_status(failing == 0 ? 0 : 1);
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_recon_misreadings: %s\n", e.what());
    return 2;
}
