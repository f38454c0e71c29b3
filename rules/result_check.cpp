// Results by command against the profile (rules/result_check.hpp).
#include "rules/result_check.hpp"

#include <algorithm>
#include <string>

#include "rules/winnable.hpp"

namespace eboard {

std::optional<Result> result_from_pgn(std::string_view s) noexcept {
    for (Result r : {Result::WhiteWins, Result::BlackWins, Result::Draw, Result::Ongoing})
        if (to_pgn(r) == s) return r;
    return std::nullopt;
}

GameSoFar game_so_far(const Position& position, int plies, Color first) noexcept {
    const int first_moves = (plies + 1) / 2;
    const int second_moves = plies / 2;
    const bool white_first = first == Color::White;
    return GameSoFar{position, white_first ? first_moves : second_moves, white_first ? second_moves : first_moves};
}

Expected<bool> check_result_command(const Profile& profile, const GameSoFar& game, Result result,
                                    Termination termination,
                                    const std::function<Winnability(const Position&, Color)>& can_mate) {
    if (termination == Termination::Agreement && profile.agreement_min_moves > 0 &&
        std::min(game.white_moves, game.black_moves) < profile.agreement_min_moves)
        return Error{"no draw by agreement before each player has made " +
                     std::to_string(profile.agreement_min_moves) + " move(s) (rules " + profile.name +
                     ", game.agreement-min-moves); use termination 'arbiter' to decide otherwise"};
    if (termination == Termination::Resignation && profile.resignation_draw_if_cannot_mate &&
        (result == Result::WhiteWins || result == Result::BlackWins)) {
        const Color winner = result == Result::WhiteWins ? Color::White : Color::Black;
        const Winnability w = can_mate ? can_mate(game.position, winner) : can_checkmate(game.position, winner);
        if (w == Winnability::Unwinnable)
            return Error{std::string(winner == Color::White ? "White" : "Black") +
                         " cannot checkmate by any series of legal moves: the resignation is a draw (rules " +
                         profile.name + ", game.resignation-draw-if-cannot-mate); send 1/2-1/2"};
    }
    return true;
}

} // namespace eboard
