// Every position of the CHA ground truth: never '-' where the truth has a letter (soundness),
// never a letter where the truth has '-' (a found helpmate would be a bug), and how many stay
// '?' in each mode.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "ground_truth.hpp"
#include "rules/winnable.hpp"

using namespace eboard;

namespace {

struct Tally {
    int positions = 0;
    int unsound = 0;     // '-' where the side can mate
    int wrong_win = 0;   // a letter where the side cannot mate
    int undetermined = 0;
    int unparsable = 0;
};

Tally check_all(WinnableMode mode, int every) {
    const auto truth = read_ground_truth();
    REQUIRE(truth.size() == 3414);
    Tally t;
    for (std::size_t i = 0; i < truth.size(); i += static_cast<std::size_t>(every)) {
        const auto& g = truth[i];
        auto parsed = Position::from_fen(g.fen);
        if (!parsed) {
            // The FEN reader refuses material no game can reach (more than 8 pawns, more
            // promoted pieces than missing pawns); the ground truth has such composed positions.
            ++t.unparsable;
            CHECK(parsed.error().message.find("pawns") != std::string::npos);
            continue;
        }
        ++t.positions;
        const std::string got = winnability_label(parsed.value(), mode);
        for (std::size_t side = 0; side < 2; ++side) {
            if (got[side] == '?') ++t.undetermined;
            else if (got[side] == '-' && g.label[side] != '-') {
                ++t.unsound;
                UNSCOPED_INFO("unsound: truth " << g.label << " got " << got << " " << g.fen);
            } else if (got[side] != '-' && g.label[side] == '-') {
                ++t.wrong_win;
                UNSCOPED_INFO("wrong win: truth " << g.label << " got " << got << " " << g.fen);
            }
        }
    }
    return t;
}

} // namespace

TEST_CASE("5.2.2 winnability ground truth, quick mode: no unsound answer") {
    const Tally t = check_all(WinnableMode::Quick, 1);
    std::printf("winnable quick: %d positions, %d of %d side answers undetermined, %d unsound\n",
                t.positions, t.undetermined, 2 * t.positions, t.unsound);
    std::printf("winnable quick: %d positions refused by the FEN reader (impossible material)\n",
                t.unparsable);
    CHECK(t.positions > 3000);
    CHECK(t.unsound == 0);
    CHECK(t.wrong_win == 0);
}

TEST_CASE("5.2.2 winnability ground truth, full mode on every 8th position: no unsound answer") {
    const Tally t = check_all(WinnableMode::Full, 8);
    std::printf("winnable full (sample): %d positions, %d of %d side answers undetermined, "
                "%d unsound\n",
                t.positions, t.undetermined, 2 * t.positions, t.unsound);
    CHECK(t.positions > 375);
    CHECK(t.unsound == 0);
    CHECK(t.wrong_win == 0);
}
