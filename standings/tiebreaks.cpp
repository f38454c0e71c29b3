// C.07 tie-breaks and the club's (standings/tiebreaks.hpp). Article numbers are C.07's (2024
// and 2026 editions, the same numbers in both); "club" is the club regulation's Art. 13.
#include "standings/tiebreaks.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

namespace eboard::standings {
namespace {

bool is_win(char r) { return r == '1' || r == 'W' || r == '+'; }
bool is_draw(char r) { return r == '=' || r == 'D'; }

/// The opponent's record of the same round (for the club's double forfeit).
const RoundEntry* other_side(const Tournament& t, const RoundEntry& e, std::size_t round) {
    const int o = t.index_of(e.opponent);
    if (o < 0) return nullptr;
    const auto& rounds = t.players[static_cast<std::size_t>(o)].rounds;
    return round < rounds.size() ? &rounds[round] : nullptr;
}

bool double_forfeit(const Tournament& t, const RoundEntry& e, std::size_t round) {
    if (e.result != '-') return false;
    const RoundEntry* o = other_side(t, e, round);
    return o != nullptr && o->result == '-';
}

/// splitmix64: the lot's numbers from the recorded seed.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31U);
}

/// Index of the least significant element: lowest key, then lowest contribution (C.07 14.1.1).
std::size_t least(const std::vector<CutElement>& e) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < e.size(); ++i)
        if (e[i].key < e[best].key ||
            (e[i].key == e[best].key && e[i].contribution < e[best].contribution))
            best = i;
    return best;
}

std::size_t most(const std::vector<CutElement>& e) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < e.size(); ++i)
        if (e[i].key > e[best].key ||
            (e[i].key == e[best].key && e[i].contribution > e[best].contribution))
            best = i;
    return best;
}

double sum(const std::vector<CutElement>& e) {
    double s = 0;
    for (const auto& x : e) s += x.contribution;
    return s;
}

} // namespace

Expected<TieBreak> parse_tiebreak(std::string_view name) {
    std::string up;
    for (char c : name) up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    TieBreak tb;
    tb.name = up;
    std::string base = up;
    // A modifier: "/C1", "/M2" (C.07's own notation "BH-C1" also read).
    const std::size_t slash = up.find_last_of("/-");
    if (slash != std::string::npos && slash + 3 == up.size() &&
        (up[slash + 1] == 'C' || up[slash + 1] == 'M') &&
        up[slash + 2] >= '1' && up[slash + 2] <= '9') {
        const int n = up[slash + 2] - '0';
        tb.low_cut = n;
        if (up[slash + 1] == 'M') tb.high_cut = n;
        base = up.substr(0, slash);
        tb.name = base + "/" + up.substr(slash + 1);
    }
    static const std::pair<std::string_view, Method> kNames[] = {
        {"BH", Method::BH},       {"SB", Method::SB},           {"DE", Method::DE},
        {"WIN", Method::WIN},     {"WON", Method::WON},         {"BPG", Method::BPG},
        {"BWG", Method::BWG},     {"ARO", Method::ARO},         {"PS", Method::PS},
        {"KS", Method::KS},       {"SB-ADJ", Method::SB_ADJ},   {"KASHDAN", Method::KASHDAN},
        {"RATING-LOW", Method::RATING_LOW}, {"BLACK-SCHEDULED", Method::BLACK_SCHEDULED},
        {"LOT", Method::LOT},
    };
    // "SB-ADJ" ends like a modifier would not ("-A..."), so the base is the whole name there.
    for (const auto& [n, m] : kNames) {
        if (up == n) {
            tb.method = m;
            tb.low_cut = tb.high_cut = 0;
            tb.name = up;
            return tb;
        }
    }
    for (const auto& [n, m] : kNames) {
        if (base != n) continue;
        tb.method = m;
        const bool cuttable = m == Method::BH || m == Method::SB || m == Method::ARO ||
                              (m == Method::PS && tb.high_cut == 0);
        if (!cuttable)
            return Error{"tie-break " + std::string(n) + " takes no modifier " + up.substr(base.size()), 0, 0};
        return tb;
    }
    return Error{"unknown tie-break '" + std::string(name) +
                     "' (known: BH SB DE WIN WON BPG BWG ARO PS KS SB-ADJ KASHDAN RATING-LOW "
                     "BLACK-SCHEDULED LOT; modifiers /C1 /C2 /M1 /M2)",
                 0, 0};
}

Expected<std::vector<TieBreak>> parse_tiebreak_list(std::string_view list) {
    std::vector<TieBreak> out;
    std::size_t pos = 0;
    while (pos <= list.size()) {
        const std::size_t end = std::min(list.find(',', pos), list.size());
        std::string_view item = list.substr(pos, end - pos);
        std::size_t col = pos;
        while (!item.empty() && item.front() == ' ') {
            item.remove_prefix(1);
            ++col;
        }
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (item.empty()) {
            if (list.find_first_not_of(' ') == std::string_view::npos) break;  // empty list
            return Error{"empty tie-break name in the list", 1, static_cast<int>(col) + 1};
        }
        auto tb = parse_tiebreak(item);
        if (!tb) return Error{tb.error().message, 1, static_cast<int>(col) + 1};
        out.push_back(std::move(tb.value()));
        pos = end + 1;
    }
    return out;
}

bool higher_is_better(Method m) {
    return m != Method::DE && m != Method::RATING_LOW && m != Method::LOT;
}

std::vector<CutElement> apply_cuts(std::vector<CutElement> e, int low, int high, bool vur_exception) {
    for (int i = 0; i < low && !e.empty(); ++i) {
        std::size_t cut = least(e);
        if (vur_exception) {
            // 16.5.1: the lowest contribution of a VUR is cut when it is not lower than the
            // least significant value's; 16.5.2: again for every further cut.
            std::size_t v = e.size();
            for (std::size_t k = 0; k < e.size(); ++k)
                if (e[k].vur && (v == e.size() || e[k].contribution < e[v].contribution)) v = k;
            if (v < e.size() && e[v].contribution >= e[cut].contribution) cut = v;
        }
        e.erase(e.begin() + static_cast<std::ptrdiff_t>(cut));
    }
    for (int i = 0; i < high && !e.empty(); ++i) e.erase(e.begin() + static_cast<std::ptrdiff_t>(most(e)));
    return e;
}

TieBreakCalculator::TieBreakCalculator(const Tournament& t, const ClubOptions& club)
    : t_(t), club_(club) {
    for (const auto& p : t.players) score_.push_back(score_of(t, p));
    adjusted_ = score_;
    if (t.round_robin) return;  // 15.2: no adjustment with pre-determined pairings
    for (std::size_t i = 0; i < t.players.size(); ++i) {
        const auto& rounds = t.players[i].rounds;
        for (std::size_t r = 0; r < rounds.size(); ++r) {
            const char res = rounds[r].result;
            // 16.2.5 -> 16.3.2: a requested bye followed only by VURs (or in the last round)
            // counts as a draw for the opponents' tie-breaks.
            if ((res == 'H' || res == 'Z' || res == ' ') && vur_to_the_end(i, r + 1))
                adjusted_[i] += t.scoring.draw - t.scoring.points(res);
        }
    }
}

bool TieBreakCalculator::vur(std::size_t index, std::size_t round) const {
    const auto& rounds = t_.players[index].rounds;
    const char res = round < rounds.size() ? rounds[round].result : ' ';
    return res == '-' || res == 'H' || res == 'Z' || res == ' ';  // 16.1.1, 16.1.2
}

bool TieBreakCalculator::vur_to_the_end(std::size_t index, std::size_t round) const {
    for (std::size_t r = round; r < static_cast<std::size_t>(t_.rounds); ++r)
        if (!vur(index, r)) return false;
    return true;
}

bool TieBreakCalculator::counts_as_game(char result) const {
    // 15.2: with pre-determined pairings forfeits are regular games; in a Swiss they are
    // unplayed rounds (16).
    return played(result) || (t_.round_robin && (result == '+' || result == '-'));
}

std::vector<CutElement> TieBreakCalculator::opponent_elements(std::size_t index, bool sb) const {
    std::vector<CutElement> out;
    const Player& p = t_.players[index];
    const double draw_cap = t_.scoring.draw * t_.rounds;
    for (std::size_t r = 0; r < p.rounds.size(); ++r) {
        const RoundEntry& e = p.rounds[r];
        const double pts = t_.scoring.points(e.result);
        const double fraction = pts >= t_.scoring.win && pts > 0 ? 1.0
                                : pts >= t_.scoring.draw && pts > 0 ? 0.5
                                                                    : 0.0;
        double opp = 0;
        bool vur_round = false;
        if (counts_as_game(e.result)) {
            opp = adjusted_[static_cast<std::size_t>(t_.index_of(e.opponent))];
        } else if (t_.round_robin) {
            continue;  // a round robin's bye (odd field) or a round after a withdrawal: no opponent
        } else {
            // 16.4: against a dummy with the participant's own score; from 2026 capped by the
            // scheduled opponent's adjusted score (forfeits, 16.4.1) or a draw's points times
            // the rounds (byes, 16.4.2).
            opp = score_[index];
            if (t_.edition == Edition::C07_2026) {
                const int o = e.opponent != 0 ? t_.index_of(e.opponent) : -1;
                opp = (e.result == '+' || e.result == '-') && o >= 0
                          ? std::min(opp, adjusted_[static_cast<std::size_t>(o)])
                          : std::min(opp, draw_cap);
            }
            vur_round = vur(index, r);
        }
        out.push_back(CutElement{opp, sb ? opp * fraction : opp, vur_round});
    }
    return out;
}

double TieBreakCalculator::sb_adjusted(std::size_t index) const {
    // Club Art. 13.1: ½ off per forfeit win, ½ added per forfeit loss (profile keys).
    double s = score_[index];
    const auto& rounds = t_.players[index].rounds;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        const RoundEntry& e = rounds[r];
        if (e.result == '+') s += club_.sbadj_forfeit_win;
        else if (double_forfeit(t_, e, r)) s += club_.sbadj_double_forfeit;
        else if (e.result == '-') s += club_.sbadj_forfeit_loss;
    }
    return s;
}

double TieBreakCalculator::encounter_points(std::size_t index, const std::vector<std::size_t>& group) const {
    double s = 0;
    for (const RoundEntry& e : t_.players[index].rounds) {
        if (e.opponent == 0 || !counts_as_game(e.result)) continue;
        const int o = t_.index_of(e.opponent);
        if (std::find(group.begin(), group.end(), static_cast<std::size_t>(o)) != group.end())
            s += t_.scoring.points(e.result);
    }
    return s;
}

bool TieBreakCalculator::all_met(const std::vector<std::size_t>& group) const {
    for (std::size_t a : group) {
        for (std::size_t b : group) {
            if (a == b) continue;
            bool met = false;
            for (const RoundEntry& e : t_.players[a].rounds)
                met = met || (e.opponent == t_.players[b].startno && counts_as_game(e.result));
            if (!met) return false;
        }
    }
    return true;
}

std::optional<double> TieBreakCalculator::value(const TieBreak& tb, std::size_t index) const {
    const Player& p = t_.players[index];
    const bool swiss = !t_.round_robin;
    double v = 0;
    switch (tb.method) {
    case Method::DE:
        return std::nullopt;
    case Method::BH:
    case Method::SB:
        return sum(apply_cuts(opponent_elements(index, tb.method == Method::SB), tb.low_cut,
                              tb.high_cut, swiss));
    case Method::ARO: {
        // 10.1 over the games played (10: forfeits are not games for rating tie-breaks in a
        // Swiss, nor from 2026 in a round robin); unrated opponents are left out.
        std::vector<CutElement> ratings;
        for (const RoundEntry& e : p.rounds) {
            const bool game = played(e.result) ||
                              (t_.round_robin && t_.edition == Edition::C07_2024 &&
                               (e.result == '+' || e.result == '-'));
            if (!game) continue;
            const int r = t_.players[static_cast<std::size_t>(t_.index_of(e.opponent))].rating;
            if (r > 0) ratings.push_back(CutElement{double(r), double(r), false});
        }
        ratings = apply_cuts(std::move(ratings), tb.low_cut, tb.high_cut, false);
        if (ratings.empty()) return std::nullopt;
        return std::floor(sum(ratings) / double(ratings.size()) + 0.5);
    }
    case Method::PS: {
        // 7.5: the running score after each round, summed; Cut-n drops the first n (14.1.1 c).
        double running = 0;
        for (std::size_t r = 0; r < p.rounds.size(); ++r) {
            running += t_.scoring.points(p.rounds[r].result);
            if (r >= static_cast<std::size_t>(tb.low_cut)) v += running;
        }
        return v;
    }
    case Method::WIN:  // 7.1: with or without playing
        for (const RoundEntry& e : p.rounds)
            if (t_.scoring.points(e.result) >= t_.scoring.win && t_.scoring.win > 0) v += 1;
        return v;
    case Method::WON:  // 7.2: over the board
        for (const RoundEntry& e : p.rounds) v += (e.result == '1' || e.result == 'W') ? 1 : 0;
        return v;
    case Method::BPG:  // 7.3; club 13.5 (forfeits excluded)
        for (const RoundEntry& e : p.rounds) v += (played(e.result) && e.colour == 'b') ? 1 : 0;
        return v;
    case Method::BWG:  // 7.4
        for (const RoundEntry& e : p.rounds)
            v += ((e.result == '1' || e.result == 'W') && e.colour == 'b') ? 1 : 0;
        return v;
    case Method::KS: {
        // 9.2: points against opponents with at least half the maximum possible score.
        double games = t_.rounds;
        if (t_.round_robin) {
            games = 0;
            for (const auto& q : t_.players) {
                double n = 0;
                for (const RoundEntry& e : q.rounds) n += e.opponent != 0 ? 1 : 0;
                games = std::max(games, n);
            }
        }
        const double threshold = t_.scoring.win * games / 2;
        for (const RoundEntry& e : p.rounds) {
            if (e.opponent == 0 || !counts_as_game(e.result)) continue;
            if (score_[static_cast<std::size_t>(t_.index_of(e.opponent))] >= threshold)
                v += t_.scoring.points(e.result);
        }
        return v;
    }
    case Method::SB_ADJ:
        for (const RoundEntry& e : p.rounds) {
            if (e.opponent == 0) continue;
            const double opp = sb_adjusted(static_cast<std::size_t>(t_.index_of(e.opponent)));
            if (is_win(e.result)) v += opp;            // forfeit wins included (13.1)
            else if (is_draw(e.result)) v += opp / 2;
        }
        return v;
    case Method::KASHDAN:
        for (std::size_t r = 0; r < p.rounds.size(); ++r) {
            const RoundEntry& e = p.rounds[r];
            if (e.result == '1' || e.result == 'W') v += club_.kashdan_win;
            else if (is_draw(e.result)) v += club_.kashdan_draw;
            else if (e.result == '0' || e.result == 'L') v += club_.kashdan_loss;
            else if (e.result == '+') v += club_.kashdan_forfeit_win;
            else if (double_forfeit(t_, e, r)) v += club_.kashdan_double_forfeit;
            else if (e.result == '-') v += club_.kashdan_forfeit_loss;
        }
        return v;
    case Method::RATING_LOW:
        return double(p.rating > 0 ? p.rating : club_.unrated_rating);
    case Method::BLACK_SCHEDULED:
        for (const RoundEntry& e : p.rounds) v += (e.opponent != 0 && e.colour == 'b') ? 1 : 0;
        return v;
    case Method::LOT: {
        // The player's place in a draw of the whole field: the players ordered by a number
        // each draws from the seed (club 13.7); 1 ranks highest.
        const auto draw = [&](const Player& q) {
            return mix(club_.lot_seed ^ mix(static_cast<std::uint64_t>(q.startno)));
        };
        v = 1;
        for (const Player& q : t_.players) v += draw(q) < draw(p) ? 1 : 0;
        return v;
    }
    }
    return std::nullopt;
}

} // namespace eboard::standings
