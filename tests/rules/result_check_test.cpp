// Results by command against the profile (rules/result_check.hpp): [23] 5.2.3 agreement after a
// move each, [23] 5.1.2 a resignation is a draw when the winner cannot mate; the 2005 Laws have
// neither; the arbiter's decision always passes (8.7).
#include <catch2/catch.hpp>

#include "rules/result_check.hpp"

using namespace eboard;

namespace {

Profile profile(const char* name) { return builtin_profile(name).value(); }
Position fen(const char* f) { return Position::from_fen(f).value(); }

} // namespace

TEST_CASE("5.2.3 result check: no draw by agreement before each player has made a move (2023), any time in 2005") {
    const Position start = Position::startpos();
    const Profile y23 = profile("fide-2023");
    auto early = check_result_command(y23, game_so_far(start, 1, Color::White), Result::Draw, Termination::Agreement);
    REQUIRE_FALSE(early.has_value());
    CHECK(early.error().message ==
          "no draw by agreement before each player has made 1 move(s) (rules fide-2023, game.agreement-min-moves); "
          "use termination 'arbiter' to decide otherwise");
    CHECK(check_result_command(y23, game_so_far(start, 2, Color::White), Result::Draw, Termination::Agreement));
    CHECK(check_result_command(y23, game_so_far(start, 0, Color::White), Result::Draw, Termination::Arbiter));
    CHECK(check_result_command(profile("fide-2005"), game_so_far(start, 0, Color::White), Result::Draw,
                               Termination::Agreement));
}

TEST_CASE("5.2.3 result check: moves are counted per player, Black first from an arbiter's position") {
    const Position p = fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    const GameSoFar one = game_so_far(p, 1, Color::Black);
    CHECK(one.black_moves == 1);
    CHECK(one.white_moves == 0);
    const GameSoFar three = game_so_far(p, 3, Color::Black);
    CHECK(three.black_moves == 2);
    CHECK(three.white_moves == 1);
    CHECK_FALSE(check_result_command(profile("fide-2023"), one, Result::Draw, Termination::Agreement));
}

TEST_CASE("5.1.2 result check: a resignation is a draw when the winner cannot checkmate (2023), a win in 2005") {
    const Position kn = fen("4k3/8/8/8/8/8/8/4K1N1 b - - 0 40");  // White: king and knight only
    const GameSoFar g = game_so_far(kn, 10, Color::White);
    const Profile y23 = profile("fide-2023");
    auto white = check_result_command(y23, g, Result::WhiteWins, Termination::Resignation);
    REQUIRE_FALSE(white.has_value());
    CHECK(white.error().message.find("White cannot checkmate by any series of legal moves") == 0);
    CHECK_FALSE(check_result_command(y23, g, Result::BlackWins, Termination::Resignation));
    CHECK(check_result_command(y23, g, Result::Draw, Termination::Resignation));
    CHECK(check_result_command(y23, g, Result::WhiteWins, Termination::Arbiter));
    CHECK(check_result_command(profile("fide-2005"), g, Result::WhiteWins, Termination::Resignation));
    // A side that can mate may be resigned to.
    const Position kr = fen("4k3/8/8/8/8/8/8/4K2R b - - 0 40");
    CHECK(check_result_command(y23, game_so_far(kr, 10, Color::White), Result::WhiteWins, Termination::Resignation));
}

TEST_CASE("5.1.2 result check: the caller's winnability test decides, only Unwinnable refuses") {
    const Position kr = fen("4k3/8/8/8/8/8/8/4K2R b - - 0 40");
    const GameSoFar g = game_so_far(kr, 10, Color::White);
    const Profile y23 = profile("fide-2023");
    const auto says = [](Winnability w) { return [w](const Position&, Color) { return w; }; };
    CHECK_FALSE(check_result_command(y23, g, Result::WhiteWins, Termination::Resignation, says(Winnability::Unwinnable)));
    CHECK(check_result_command(y23, g, Result::WhiteWins, Termination::Resignation, says(Winnability::Undetermined)));
    CHECK(check_result_command(y23, g, Result::WhiteWins, Termination::Resignation, says(Winnability::Winnable)));
}

TEST_CASE("result check: PGN result texts") {
    CHECK(result_from_pgn("1-0") == Result::WhiteWins);
    CHECK(result_from_pgn("0-1") == Result::BlackWins);
    CHECK(result_from_pgn("1/2-1/2") == Result::Draw);
    CHECK(result_from_pgn("*") == Result::Ongoing);
    CHECK_FALSE(result_from_pgn("1-1").has_value());
    CHECK_FALSE(result_from_pgn("").has_value());
}
