// Every position of the CHA ground truth (3,414, composed ones included), read as
// eboard-winnable --batch reads a line: never '-' where the truth has a letter (soundness),
// never a letter where the truth has '-' (a found helpmate would be a bug), and how many stay
// '?' in each mode (printed; bench/winnable.cpp has the same figures with timings).
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "ground_truth.hpp"
#include "tests/support/sanitized.hpp"
#include "rules/winnable.hpp"

using namespace eboard;

namespace {

struct Tally {
    int positions = 0;
    int unsound = 0;    // '-' where the side can mate
    int wrong_win = 0;  // a letter where the side cannot mate
    int undetermined = 0;
    int refused = 0;
};

/// The two files of data/deadpos/ and how many positions each holds.
struct TruthFile {
    const char* name;
    std::size_t positions;
};
constexpr TruthFile kTestPositions{"chasolver_positions.txt", 3414};
constexpr TruthFile kLichessSample{"chasolver_lichess_sample.txt", 9167};

/// Every `step`-th position of a ground-truth file (all of them with step 1).
Tally check_all(WinnableMode mode, std::size_t step = 1, TruthFile file = kTestPositions) {
    const auto truth = read_ground_truth(file.name);
    REQUIRE(truth.size() == file.positions);
    Tally t;
    for (std::size_t i = 0; i < truth.size(); i += step) {
        const auto& g = truth[i];
        const auto got = winnability_label_of_fen(g.fen, false, mode);
        if (!got) {
            ++t.refused;
            UNSCOPED_INFO("refused: " << g.fen << ": " << got.error().message);
            continue;
        }
        ++t.positions;
        for (std::size_t side = 0; side < 2; ++side) {
            const char letter = got.value()[side];
            if (letter == '?') {
                ++t.undetermined;
            } else if (letter == '-' && g.label[side] != '-') {
                ++t.unsound;
                UNSCOPED_INFO("unsound: truth " << g.label << " got " << got.value() << " " << g.fen);
            } else if (letter != '-' && g.label[side] == '-') {
                ++t.wrong_win;
                UNSCOPED_INFO("wrong win: truth " << g.label << " got " << got.value() << " "
                                                  << g.fen);
            }
        }
    }
    return t;
}

// Full mode's guard is on CPU time (0.4 s a side): under ASan a side runs several times
// slower and meets the guard before its move budgets, so more sides stay '?' there. The bounds
// on '?' of full mode are the Release build's; soundness is checked in every build.
using eboard::test::kSanitized;

void print(const char* mode, const Tally& t) {
    std::printf("winnable %s: %d positions, %d of %d side answers undetermined, %d unsound, "
                "%d wrong wins, %d refused\n",
                mode, t.positions, t.undetermined, 2 * t.positions, t.unsound, t.wrong_win,
                t.refused);
}

/// check_all() and print(), then what every mode must give in every build: no position
/// refused (composed material is read, not refused), no unsound answer, no wrong win.
Tally checked(const char* what, WinnableMode mode, std::size_t step = 1,
              TruthFile file = kTestPositions) {
    const Tally t = check_all(mode, step, file);
    print(what, t);
    CHECK(t.refused == 0);
    CHECK(t.unsound == 0);
    CHECK(t.wrong_win == 0);
    return t;
}

} // namespace

TEST_CASE("5.2.2 winnability ground truth, quick mode, every position: no unsound answer") {
    const Tally t = checked("quick", WinnableMode::Quick);
    // Side answers left '?' (of 6,828): 4,967 measured (docs/winnability.md), no more than
    // the 4,970 before issue 25 (which asks for at least as many decided). Quick mode has no
    // clock in it, so the figure does not depend on the machine.
    CHECK(t.undetermined <= 4970);
}

// Full mode over the whole set takes about 20 s of CPU (the undecided sides spend their whole
// budget), so it is hidden from catch_discover_tests and registered by tests.cmake as a test
// labelled "slow" (`ctest -LE slow` leaves it out); bench_winnable runs the same check.
TEST_CASE("5.2.2 winnability ground truth, full mode, every position: no unsound answer",
          "[.][slow]") {
    const Tally t = checked("full", WinnableMode::Full);
    // Issue 25: no side undecided (docs/winnability.md); 1,627 before issue 25, 2 before the
    // bishop searches. The guard on CPU time (0.4 s a side) leaves a margin: the slowest
    // position takes 0.29 s of CPU for both sides (measured in the Release build, one
    // position at a time); the sanitizer builds run several times slower and are not held to it.
    if (!kSanitized) CHECK(t.undetermined == 0);
}

TEST_CASE("5.2.2 winnability ground truth, full mode, every eighth position: no unsound answer") {
    const Tally t = checked("full, every eighth", WinnableMode::Full, 8);
    CHECK(t.positions == 427);
    if (!kSanitized) CHECK(t.undetermined == 0);  // 0 measured (about 3 s of CPU); 226 before issue 25
}

// CHA's real-game vectors (a sample of chasolver's tests/lichess.txt, 9,167 positions from
// Lichess games; docs/winnability.md): full mode decides every side (1.4 s of CPU for the
// file), quick mode proves every side that cannot mate (345) and leaves the rest '?'.
TEST_CASE("5.2.2 CHA's real-game vectors, full mode: every side decided, none wrong") {
    const Tally t = checked("full, real-game vectors", WinnableMode::Full, 1, kLichessSample);
    if (!kSanitized) CHECK(t.undetermined == 0);
}

TEST_CASE("5.2.2 CHA's real-game vectors, quick mode: no unsound answer") {
    const Tally t = checked("quick, real-game vectors", WinnableMode::Quick, 1, kLichessSample);
    // 17,939 of 18,334 measured: every side that cannot mate proven, few wins (quick mode has
    // no helpmate search).
    CHECK(t.undetermined <= 17939);
}
