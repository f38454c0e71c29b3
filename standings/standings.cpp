// Ranking and output (standings/standings.hpp).
#include "standings/standings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace eboard::standings {
namespace {

/// a ranks above b on one value (absent values rank last).
bool better(const std::optional<double>& a, const std::optional<double>& b, bool higher) {
    if (!a || !b) return a.has_value() && !b.has_value();
    return higher ? *a > *b : *a < *b;
}

/// DE for one tied group (C.07 6): the place by points among the group when every pair met,
/// else 0 (6.2 applies only when all tied players met; the rest is left to later tie-breaks).
void direct_encounter(const TieBreakCalculator& calc, const std::vector<std::size_t>& group,
                      std::vector<std::vector<std::optional<double>>>& values, std::size_t k) {
    for (std::size_t i : group) values[i][k] = 0.0;
    if (group.size() < 2 || !calc.all_met(group)) return;
    std::vector<double> mini;
    mini.reserve(group.size());
    for (std::size_t i : group) mini.push_back(calc.encounter_points(i, group));
    if (std::all_of(mini.begin(), mini.end(), [&](double m) { return m == mini[0]; })) return;
    for (std::size_t a = 0; a < group.size(); ++a) {
        int place = 1;
        for (double m : mini) place += m > mini[a] ? 1 : 0;
        values[group[a]][k] = double(place);
    }
}

std::size_t chars(std::string_view s) {
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) ++n;
    return n;
}

std::string pad_left(const std::string& s, std::size_t w) {
    return std::string(w > chars(s) ? w - chars(s) : 0, ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t w) {
    return s + std::string(w > chars(s) ? w - chars(s) : 0, ' ');
}

} // namespace

std::string format_number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

Standings rank(const Tournament& t, const std::vector<TieBreak>& list, const ClubOptions& club) {
    Standings out;
    out.tiebreaks = list;
    const TieBreakCalculator calc(t, club);
    const std::size_t n = t.players.size();
    std::vector<std::vector<std::optional<double>>> values(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const TieBreak& tb : list) values[i].push_back(calc.value(tb, i));

    // Groups tied so far, in rank order; each refined by the next tie-break.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (calc.score(a) != calc.score(b)) return calc.score(a) > calc.score(b);
        return t.players[a].startno < t.players[b].startno;
    });
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i : order) {
        if (groups.empty() || calc.score(groups.back().front()) != calc.score(i)) groups.emplace_back();
        groups.back().push_back(i);
    }
    for (std::size_t k = 0; k < list.size(); ++k) {
        const bool higher = higher_is_better(list[k].method);
        std::vector<std::vector<std::size_t>> next;
        for (auto& g : groups) {
            if (list[k].method == Method::DE) direct_encounter(calc, g, values, k);
            std::stable_sort(g.begin(), g.end(), [&](std::size_t a, std::size_t b) {
                return better(values[a][k], values[b][k], higher);
            });
            std::size_t start = 0;
            for (std::size_t j = 1; j <= g.size(); ++j) {
                if (j < g.size() && values[g[j]][k] == values[g[start]][k]) continue;
                next.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(start),
                                  g.begin() + static_cast<std::ptrdiff_t>(j));
                start = j;
            }
        }
        groups = std::move(next);
    }
    int place = 1;
    for (const auto& g : groups) {
        for (std::size_t i : g) {
            Row r;
            r.rank = place;
            r.startno = t.players[i].startno;
            r.name = t.players[i].name;
            r.points = calc.score(i);
            r.values = values[i];
            r.shared_with = static_cast<int>(g.size());
            out.rows.push_back(std::move(r));
        }
        place += static_cast<int>(g.size());
    }
    return out;
}

std::string format_table(const Standings& s) {
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> head = {"Rank", "SNo", "Name", "Pts"};
    for (const auto& tb : s.tiebreaks) head.push_back(tb.name);
    cells.push_back(head);
    for (const Row& r : s.rows) {
        std::vector<std::string> line = {std::to_string(r.rank), std::to_string(r.startno), r.name,
                                         format_number(r.points)};
        for (const auto& v : r.values) line.push_back(v ? format_number(*v) : "-");
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(head.size(), 0);
    for (const auto& line : cells)
        for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], chars(line[c]));
    std::string out;
    for (const auto& line : cells) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            if (c > 0) text += "  ";
            text += c == 2 ? pad_right(line[c], width[c]) : pad_left(line[c], width[c]);
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out += text + '\n';
    }
    for (std::size_t i = 0; i < s.rows.size(); i += static_cast<std::size_t>(s.rows[i].shared_with)) {
        const Row& r = s.rows[i];
        if (r.shared_with < 2) continue;
        std::string who;
        for (int k = 0; k < r.shared_with; ++k)
            who += (k ? ", " : "") + std::to_string(s.rows[i + static_cast<std::size_t>(k)].startno);
        out += "# rank " + std::to_string(r.rank) + " shared by " + std::to_string(r.shared_with) +
               " players (" + who + "): the tie-breaks do not separate them\n";
    }
    for (const auto& note : s.notes) out += "# " + note + '\n';
    return out;
}

std::string format_json(const Standings& s) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Row& r : s.rows) {
        nlohmann::json tbs = nlohmann::json::object();
        for (std::size_t k = 0; k < s.tiebreaks.size(); ++k) {
            if (!r.values[k]) continue;
            const double v = *r.values[k];
            if (v == std::floor(v) && std::fabs(v) < 1e15)
                tbs[s.tiebreaks[k].name] = static_cast<long long>(v);
            else
                tbs[s.tiebreaks[k].name] = v;
        }
        nlohmann::json row = {{"rank", r.rank},
                              {"startno", r.startno},
                              {"name", r.name},
                              {"points", r.points},
                              {"tiebreaks", tbs}};
        rows.push_back(std::move(row));
    }
    return rows.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

} // namespace eboard::standings
