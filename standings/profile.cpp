// Tournament profiles (standings/profile.hpp): parsing, the built-ins, and applying one.
#include "standings/profile.hpp"

#include "standings/lines.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <utility>

namespace eboard::standings {

/// (name, text) of every file in standings/profiles/ (generated from the files by CMake).
extern const std::pair<std::string_view, std::string_view> kBuiltinTournamentProfiles[];
extern const int kBuiltinTournamentProfileCount;

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::optional<double> decimal(std::string_view s) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || std::fabs(v) > 1e6)
        return std::nullopt;
    return v;
}

/// A key's reader: sets the profile from the value, or says why it cannot.
using Setter = std::function<std::optional<std::string>(TournamentProfile&, std::string_view)>;

Setter number_into(double ClubOptions::*field) {
    return [field](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
        const auto d = decimal(v);
        if (!d) return "expected a number such as 0.5 or -0.5";
        p.club.*field = *d;
        return std::nullopt;
    };
}

Setter yes_no(bool TournamentProfile::*field) {
    return [field](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
        if (v != "yes" && v != "no") return "expected yes or no";
        p.*field = v == "yes";
        return std::nullopt;
    };
}

const std::map<std::string_view, Setter>& keys() {
    static const std::map<std::string_view, Setter> k = {
        {"title", [](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
             p.title = v == "-" ? "" : std::string(v);
             return std::nullopt;
         }},
        {"format", [](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
             if (v == "from-file") p.cycles = 0;
             else if (v == "round-robin") p.cycles = 1;
             else if (v == "double-round-robin") p.cycles = 2;
             else return "expected from-file, round-robin or double-round-robin";
             return std::nullopt;
         }},
        {"tiebreaks", [](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
             if (v == "-") {
                 p.tiebreaks.clear();
                 return std::nullopt;
             }
             auto list = parse_tiebreak_list(v);
             if (!list) return list.error().message;
             p.tiebreaks = std::string(v);
             return std::nullopt;
         }},
        {"withdrawal", [](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
             if (v == "none") p.withdrawal = WithdrawalRule::None;
             else if (v == "half-of-scheduled") p.withdrawal = WithdrawalRule::HalfOfScheduled;
             else return "expected none or half-of-scheduled";
             return std::nullopt;
         }},
        {"withdrawal.counts-forfeit-wins", yes_no(&TournamentProfile::withdrawal_counts_forfeit_wins)},
        {"sb-adj.forfeit-win", number_into(&ClubOptions::sbadj_forfeit_win)},
        {"sb-adj.forfeit-loss", number_into(&ClubOptions::sbadj_forfeit_loss)},
        {"sb-adj.double-forfeit", number_into(&ClubOptions::sbadj_double_forfeit)},
        {"kashdan.win", number_into(&ClubOptions::kashdan_win)},
        {"kashdan.draw", number_into(&ClubOptions::kashdan_draw)},
        {"kashdan.loss", number_into(&ClubOptions::kashdan_loss)},
        {"kashdan.forfeit-win", number_into(&ClubOptions::kashdan_forfeit_win)},
        {"kashdan.forfeit-loss", number_into(&ClubOptions::kashdan_forfeit_loss)},
        {"kashdan.double-forfeit", number_into(&ClubOptions::kashdan_double_forfeit)},
        {"rating.unrated", [](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
             const auto d = decimal(v);
             if (!d || *d < 0 || *d > 9999 || *d != std::floor(*d)) return "expected a rating 0-9999";
             p.club.unrated_rating = static_cast<int>(*d);
             return std::nullopt;
         }},
        {"lot.seed", [](TournamentProfile& p, std::string_view v) -> std::optional<std::string> {
             std::uint64_t seed = 0;
             const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
             if (ec != std::errc() || end != v.data() + v.size()) return "expected a whole number";
             p.club.lot_seed = seed;
             p.lot_seed_given = seed != 0;
             return std::nullopt;
         }},
    };
    return k;
}

Error error_at(std::string message, int line, int column) { return Error{std::move(message), line, column}; }

/// FNV-1a over the tournament's name and start date: the lot's seed when none is given.
std::uint64_t derived_seed(const Tournament& t) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : t.name + "|" + t.start_date) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h % 2147483647U + 1;  // 1 .. 2^31 - 1: short enough to write down
}

bool absent(char r) { return r == '-' || r == 'Z' || r == ' ' || r == 'H'; }

/// Club Art. 11 for one player who stopped (his rounds absent from some round to the end).
void withdraw(Tournament& t, std::size_t w, const TournamentProfile& prof, int scheduled,
              std::vector<std::size_t>& vanish, std::vector<std::string>& notes) {
    Player& p = t.players[w];
    int games = 0;
    for (const RoundEntry& e : p.rounds)
        games += played(e.result) || (prof.withdrawal_counts_forfeit_wins && e.result == '+') ? 1 : 0;
    const std::string who = "player " + std::to_string(p.startno) + " stopped after " +
                            std::to_string(games) + " of " + std::to_string(scheduled) +
                            " scheduled games";
    if (2 * games < scheduled) {
        vanish.push_back(w);
        notes.push_back(who + ": fewer than half, counted as never entered, his results removed (club Art. 11)");
        return;
    }
    // Results stand; every scheduled game not yet on record is a forfeit loss for him.
    int added = 0;
    for (std::size_t x = 0; x < t.players.size(); ++x) {
        if (x == w || std::find(vanish.begin(), vanish.end(), x) != vanish.end()) continue;
        Player& o = t.players[x];
        int met = 0;
        char last_colour = '-';
        for (const RoundEntry& e : o.rounds) {
            if (e.opponent != p.startno) continue;
            ++met;
            last_colour = e.colour;
        }
        for (; met < prof.cycles; ++met) {
            // The colour of the other game of a double round robin is the other one.
            const char oc = last_colour == 'w' ? 'b' : last_colour == 'b' ? 'w' : '-';
            std::size_t r = 0;
            while (r < o.rounds.size() && (o.rounds[r].opponent != 0 || p.rounds[r].opponent != 0 ||
                                           o.rounds[r].result == 'H' || o.rounds[r].result == 'F'))
                ++r;
            if (r == o.rounds.size()) {
                ++t.rounds;
                for (Player& q : t.players) q.rounds.resize(static_cast<std::size_t>(t.rounds));
            }
            o.rounds[r] = RoundEntry{p.startno, oc, '+'};
            p.rounds[r] = RoundEntry{o.startno, oc == 'w' ? 'b' : oc == 'b' ? 'w' : '-', '-'};
            last_colour = oc;
            ++added;
        }
    }
    if (added > 0)
        notes.push_back(who + ": at least half, his results stand and his " + std::to_string(added) +
                        " remaining games are forfeit losses (club Art. 11)");
}

} // namespace

Expected<TournamentProfile> parse_tournament_profile(std::string_view text) {
    TournamentProfile p;
    std::set<std::string> seen;
    int line_no = 0;
    while (!text.empty()) {
        ++line_no;
        std::string_view raw = detail::take_line(text);
        if (const std::size_t hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
        if (const std::size_t i = detail::first_control(raw); i != std::string_view::npos)
            return error_at("control character", line_no, static_cast<int>(i) + 1);
        if (trim(raw).empty()) continue;
        const std::size_t eq = raw.find('=');
        const std::string_view key = trim(raw.substr(0, eq));
        const int key_col = static_cast<int>(key.data() - raw.data()) + 1;
        if (eq == std::string_view::npos) return error_at("expected key = value", line_no, key_col);
        const std::string_view value = trim(raw.substr(eq + 1));
        const int value_col = value.empty() ? static_cast<int>(eq) + 2
                                            : static_cast<int>(value.data() - raw.data()) + 1;
        if (value.empty()) return error_at("empty value", line_no, value_col);
        if (!seen.insert(std::string(key)).second)
            return error_at("key '" + std::string(key) + "' set twice", line_no, key_col);
        if (key == "name") {
            p.name = std::string(value);
            continue;
        }
        if (key == "inherit") {
            if (line_no != 1 && seen.size() > 1)
                return error_at("inherit comes before any other key", line_no, key_col);
            auto parent = builtin_tournament_profile(value);
            if (!parent) return error_at(parent.error().message, line_no, value_col);
            const std::string name = p.name;
            p = parent.value();
            p.name = seen.count("name") ? name : "custom";
            continue;
        }
        const auto it = keys().find(key);
        if (it == keys().end()) return error_at("unknown key '" + std::string(key) + "'", line_no, key_col);
        if (auto why = it->second(p, value)) return error_at(*why, line_no, value_col);
    }
    return p;
}

std::vector<std::string> builtin_tournament_profile_names() {
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(kBuiltinTournamentProfileCount));
    for (int i = 0; i < kBuiltinTournamentProfileCount; ++i)
        names.emplace_back(kBuiltinTournamentProfiles[i].first);
    return names;
}

Expected<TournamentProfile> builtin_tournament_profile(std::string_view name) {
    for (int i = 0; i < kBuiltinTournamentProfileCount; ++i)
        if (kBuiltinTournamentProfiles[i].first == name)
            return parse_tournament_profile(kBuiltinTournamentProfiles[i].second);
    std::string known;
    for (const auto& n : builtin_tournament_profile_names()) known += (known.empty() ? "" : ", ") + n;
    return Error{"unknown tournament profile '" + std::string(name) + "' (built-in: " + known + ")", 0, 0};
}

void apply_profile(Tournament& t, TournamentProfile& profile, std::vector<std::string>& notes) {
    if (profile.cycles > 0) t.round_robin = true;
    if (!profile.lot_seed_given) profile.club.lot_seed = derived_seed(t);
    if (profile.withdrawal != WithdrawalRule::HalfOfScheduled || profile.cycles == 0) return;
    const int scheduled = profile.cycles * (static_cast<int>(t.players.size()) - 1);
    // A player stopped when his rounds are absences (forfeit losses, byes he asked for, no
    // pairing) from some round to the last. The earliest to stop is taken first: his
    // remaining games, once forfeits, are no longer absences of his opponents.
    const auto stopped_from = [&](std::size_t i) {
        const auto& r = t.players[i].rounds;
        std::size_t from = r.size();
        while (from > 0 && absent(r[from - 1].result)) --from;
        return from;
    };
    std::vector<std::size_t> stopped;
    for (std::size_t i = 0; i < t.players.size(); ++i)
        if (stopped_from(i) < t.players[i].rounds.size()) stopped.push_back(i);
    std::stable_sort(stopped.begin(), stopped.end(),
                     [&](std::size_t a, std::size_t b) { return stopped_from(a) < stopped_from(b); });
    std::vector<std::size_t> vanish;
    for (std::size_t w : stopped)
        if (stopped_from(w) < t.players[w].rounds.size()) withdraw(t, w, profile, scheduled, vanish, notes);
    std::sort(vanish.rbegin(), vanish.rend());
    for (std::size_t w : vanish) {
        const int no = t.players[w].startno;
        for (Player& o : t.players)
            for (RoundEntry& e : o.rounds)
                if (e.opponent == no) e = RoundEntry{};
        t.players.erase(t.players.begin() + static_cast<std::ptrdiff_t>(w));
    }
}

std::string default_tiebreaks(const Tournament& t, const TournamentProfile& profile) {
    if (!profile.tiebreaks.empty()) return profile.tiebreaks;
    return t.round_robin ? "DE, SB, WIN, KS" : "BH/C1, BH, DE, WIN";
}

} // namespace eboard::standings
