// A board read in frames (Tabutronic Sentio: the whole board every 100 ms) catches a pawn's
// double step on the square between when the hand pauses there; when the pause outlasts
// settle_ms the single step is made, and the pawn going on must replace it, whatever the
// opponent's hand and the clock do around it (recon_moves_test.cpp has the single cases).
// Seeded Monte Carlo over pauses, the opponent's lift, his landing and White's press.
#include <catch2/catch.hpp>

#include <random>

#include "recon_frames.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("4.7 6.2.1 a double step paused on the square between, 100 ms frames: one move and the reply, 400 seeded trials") {
    std::mt19937_64 rng(20261124);  // NOLINT(cert-msc32-c,cert-msc51-cpp): reproducible trials
    // The pause on the square between (up to 1.5 settle_ms), the opponent's lift relative to
    // the pawn landing, his landing after it; White's press at least one frame after the
    // landing (bench_recon_misreadings measures the press 50-100 ms after it).
    const PausedStep kind;
    int wrong = 0;
    for (int trial = 0; trial < 400; ++trial) {
        std::string why;
        if (!paused_double_step(rng, kind, trial % 2 == 1, &why)) {
            ++wrong;
            UNSCOPED_INFO("trial " << trial << " " << why);
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("6.2.1 the press before the frame that shows the paused pawn gone on: the move it went on to is completed, 400 seeded trials") {
    // Issue 23: the press 50-100 ms after the pawn lands on c4 comes before the frame that shows
    // c3 left; the press completed c2-c3 and nothing corrected it (518 wrong of 10,000 in
    // bench_recon_misreadings before). Also a board that stalls 200 ms between readings.
    std::mt19937_64 rng(20261127);  // NOLINT(cert-msc32-c,cert-msc51-cpp): reproducible trials
    PausedStep early;
    early.press_lo = 50;
    early.press_hi = 100;
    PausedStep stalls;
    stalls.frame_ms = 200;
    int wrong = 0;
    for (int trial = 0; trial < 400; ++trial) {
        std::string why;
        const bool right = trial % 2 == 0 ? paused_double_step(rng, early, true, &why)
                                          : paused_double_step(rng, stalls, trial % 4 == 1, &why);
        if (!right) {
            ++wrong;
            UNSCOPED_INFO("trial " << trial << " " << why);
        }
    }
    CHECK(wrong == 0);
}
