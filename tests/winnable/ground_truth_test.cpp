// Every position of the CHA ground truth (3,414, composed ones included), read as
// eboard-winnable --batch reads a line: never '-' where the truth has a letter (soundness),
// never a letter where the truth has '-' (a found helpmate would be a bug), and how many stay
// '?' in each mode (printed; bench/winnable.cpp has the same figures with timings).
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "ground_truth.hpp"
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

Tally check_all(WinnableMode mode) {
    const auto truth = read_ground_truth();
    REQUIRE(truth.size() == 3414);
    Tally t;
    for (const auto& g : truth) {
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

void print(const char* mode, const Tally& t) {
    std::printf("winnable %s: %d positions, %d of %d side answers undetermined, %d unsound, "
                "%d wrong wins, %d refused\n",
                mode, t.positions, t.undetermined, 2 * t.positions, t.unsound, t.wrong_win,
                t.refused);
}

} // namespace

TEST_CASE("5.2.2 winnability ground truth, quick mode, every position: no unsound answer") {
    const Tally t = check_all(WinnableMode::Quick);
    print("quick", t);
    CHECK(t.refused == 0);  // composed material is read, not refused
    CHECK(t.unsound == 0);
    CHECK(t.wrong_win == 0);
    // Side answers left '?' (of 6,828): 4,970 measured (docs/winnability.md). Budgets count
    // moves, not time, so the figure does not depend on the machine; the bound catches a
    // regression that leaves many more undecided.
    CHECK(t.undetermined <= 5000);
}

TEST_CASE("5.2.2 winnability ground truth, full mode, every position: no unsound answer") {
    const Tally t = check_all(WinnableMode::Full);
    print("full", t);
    CHECK(t.refused == 0);
    CHECK(t.unsound == 0);
    CHECK(t.wrong_win == 0);
    CHECK(t.undetermined <= 1700);  // 1,627 measured (docs/winnability.md)
}
