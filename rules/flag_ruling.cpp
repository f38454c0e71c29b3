#include "rules/flag_ruling.hpp"

#include "rules/game.hpp"

#include <algorithm>
#include <utility>


namespace eboard {

namespace {

const char* name_of(Color c) { return c == Color::White ? "White" : "Black"; }

// The quota period whose next period's time the clock did not add, or -1. A clock that adds
// a period's time when the quota is completed shows, right after that move, at least the added
// time (it cannot have spent more than it had); a reading below it means the time was not
// added. A reading above it may come from a clock that added nothing to a player with much
// time left: counted as added (the arbiter has the [%clk] record to check).
int quota_completed_without_time(const TimeControl& tc, const std::vector<std::int64_t>& own) {
    if (tc.kind != TimeControl::Kind::Periods || tc.periods.empty()) return -1;
    const int moves = static_cast<int>(own.size());
    int first = 1;
    for (std::size_t i = 0;; i = std::min(i + 1, tc.periods.size() - 1)) {
        const TimePeriod& p = tc.periods[i];
        if (p.moves == 0) return -1; // sudden death: no quota from here on
        const int last = first + p.moves - 1; // the move that completes the quota
        if (moves < last) return -1;          // the quota is not completed
        const TimePeriod& next = tc.periods[std::min(i + 1, tc.periods.size() - 1)];
        if (own[static_cast<std::size_t>(last - 1)] < next.time_ms) return static_cast<int>(i);
        first = last + 1;
    }
}

} // namespace

FlagRuling rule_flag_fall(const Profile& profile, const Position& pos, Color flagged,
                          Winnability opponent, const TimeControl& tc,
                          const std::vector<std::int64_t>& own_clock_ms) {
    FlagRuling r;
    r.article = profile.articles.flag;
    r.claim_only = profile.flag_actor == Actor::Claim;
    r.visible_to_players = profile.flag_visible_to_players;
    const Color other = ~flagged;
    const int moves = static_cast<int>(own_clock_ms.size());
    std::string who = std::string(name_of(flagged)) + "'s flag fell after " + std::to_string(moves) +
                      (moves == 1 ? " completed move" : " completed moves");
    if (tc.kind == TimeControl::Kind::Periods && tc.periods.size() > 1)
        who += " (period " + std::to_string(tc.period_of_move(moves + 1) + 1) + " of " +
               format_time_control(tc) + ")";
    // 6.4 [23] / 6.3 [05]: the quota of the period first.
    if (const int period = quota_completed_without_time(tc, own_clock_ms); period >= 0) {
        const TimePeriod& p = tc.periods[static_cast<std::size_t>(period)];
        r.text = who + ": the quota of " + std::to_string(p.moves) + " moves of period " +
                 std::to_string(period + 1) +
                 " was completed and the clock did not add the next period's time; no loss on "
                 "time, set the clock (6.10.2)";
        return r;
    }
    // 6.9 [23]: a draw when the opponent cannot checkmate by any series of legal moves; the
    // club's material rule (flag_fall_outcome of rules/game.hpp applies both).
    const Outcome o = flag_fall_outcome(profile, pos, flagged, [opponent](const Position&, Color) {
        return opponent != Winnability::Unwinnable;
    });
    r.result = std::string(to_pgn(o.result));
    if (!o.article.empty()) r.article = o.article;
    const auto& lone = profile.flag_cannot_win_with;
    const std::string sig = material_signature(pos, other);
    if (o.result != Result::Draw) {
        r.text = who + ": " + name_of(flagged) + " loses on time";
        if (profile.flag_draw_if_cannot_mate && opponent == Winnability::Undetermined)
            r.text += "; whether " + std::string(name_of(other)) +
                      " can still checkmate was not decided (the winnability search reached its "
                      "limit): a draw if the arbiter finds that he cannot";
    } else if (profile.flag_draw_if_cannot_mate && opponent == Winnability::Unwinnable) {
        r.text = who + ": a draw, " + name_of(other) + " cannot checkmate by any series of legal moves";
    } else if (std::find(lone.begin(), lone.end(), sig) != lone.end()) {
        r.text = who + ": a draw, " + name_of(other) + " has only " + sig +
                 ", which cannot win on time under these rules";
    }
    if (r.claim_only) r.text += "; it counts only on " + std::string(name_of(other)) + "'s claim";
    return r;
}

} // namespace eboard
