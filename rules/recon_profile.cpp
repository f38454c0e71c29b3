// Profile -> ReconRules (rules/recon_profile.hpp).
#include "rules/recon_profile.hpp"

namespace eboard {

const Profile& default_recon_profile() {
    static const Profile p = builtin_profile("fide-2023").value();
    return p;
}

ReconRules recon_rules_from_profile(const Profile& p) {
    ReconRules r;
    r.profile = p;
    r.illegal_ladder.clear();
    for (const Penalty& x : p.illegal_ladder) r.illegal_ladder.push_back(x.text());
    r.illegal_ladder_quickplay.clear();
    for (const Penalty& x : p.illegal_ladder_quickplay)
        r.illegal_ladder_quickplay.push_back(x.text());
    r.loss_draw_if_cannot_mate = p.illegal_loss_draw_if_cannot_mate;
    r.press_without_move_illegal = p.press_without_move_illegal;
    r.unpromoted_pawn_becomes_queen = p.unpromoted_pawn_becomes_queen;
    r.illegal_stands_if_unclaimed = p.illegal_stands_if_unclaimed;
    r.next_move_completes = p.next_move_completes;
    r.players_take_back = p.players_take_back;
    r.flag_draw_if_cannot_mate = p.flag_draw_if_cannot_mate;
    const Articles& a = p.articles;
    if (!a.illegal_move.empty()) r.article_illegal = a.illegal_move;
    r.article_illegal_quickplay =
        a.illegal_move_quickplay.empty() ? r.article_illegal : a.illegal_move_quickplay;
    if (!a.displaced.empty()) r.article_displaced = a.displaced;
    if (!a.press_without_move.empty()) r.article_press_without_move = a.press_without_move;
    if (!a.unpromoted_pawn.empty()) r.article_unpromoted_pawn = a.unpromoted_pawn;
    if (!a.flag.empty()) r.article_flag = a.flag;
    if (!a.dead_position.empty()) r.article_dead = a.dead_position;
    return r;
}

} // namespace eboard
