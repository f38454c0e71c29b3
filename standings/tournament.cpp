// Tournament from a TRF file (standings/tournament.hpp).
#include "standings/tournament.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <string_view>

namespace eboard::standings {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// A decimal number such as "0.5", "1", "-0.5"; nullopt if it is not one.
std::optional<double> decimal(std::string_view s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

/// The line of the first record with `code` (1-based order among the records), for errors.
int line_of(const TrfFile& f, std::string_view code) {
    int line = 0;
    std::size_t o = 0;
    for (char kind : f.order) {
        ++line;
        if (kind == 'O' && o < f.others.size() && f.others[o++].code == code) return line;
    }
    return 0;
}

std::optional<Error> read_xxs(const TrfFile& f, Scoring& s) {
    const std::string text = f.header("XXS");
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find(' ', pos), text.size());
        const std::string_view item = std::string_view(text).substr(pos, end - pos);
        pos = end + 1;
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        const auto v = eq == std::string_view::npos ? std::nullopt : decimal(item.substr(eq + 1));
        if (!v)
            return Error{"XXS: expected KEY=NUMBER, got '" + std::string(item) + "'",
                         line_of(f, "XXS"), 0};
        const std::string_view key = item.substr(0, eq);
        if (key == "W" || key == "WW" || key == "BW") s.win = *v;
        else if (key == "D" || key == "WD" || key == "BD") s.draw = *v;
        else if (key == "L" || key == "WL" || key == "BL") s.loss = *v;
        else if (key == "FW") s.forfeit_win = *v;
        else if (key == "FL") s.forfeit_loss = *v;
        else if (key == "PAB" || key == "U") s.pairing_bye = *v;
        else if (key == "FPB" || key == "F") s.full_bye = *v;
        else if (key == "HPB" || key == "H") s.half_bye = *v;
        else if (key == "ZPB" || key == "Z") s.zero_bye = *v;
        else
            return Error{"XXS: unknown key '" + std::string(key) + "'", line_of(f, "XXS"), 0};
    }
    return std::nullopt;
}

/// Every player is scheduled against every other (byes and forfeits count as scheduled).
bool everyone_meets_everyone(const TrfFile& f) {
    if (f.players.size() < 2) return false;
    for (const auto& p : f.players) {
        std::set<int> met;
        for (const auto& r : p.rounds)
            if (r.opponent != 0) met.insert(r.opponent);
        if (met.size() + 1 != f.players.size()) return false;
    }
    return true;
}

} // namespace

double Scoring::points(char result) const {
    switch (result) {
    case '1': case 'W': return win;
    case '=': case 'D': return draw;
    case '0': case 'L': return loss;
    case '+': return forfeit_win;
    case '-': return forfeit_loss;
    case 'F': return full_bye;
    case 'H': return half_bye;
    case 'U': return pairing_bye;
    default: return zero_bye;  // 'Z', ' '
    }
}

bool played(char result) {
    return std::string_view("1=0WDL").find(result) != std::string_view::npos;
}

int Tournament::index_of(int startno) const {
    for (std::size_t i = 0; i < players.size(); ++i)
        if (players[i].startno == startno) return static_cast<int>(i);
    return -1;
}

double score_of(const Tournament& t, const Player& p) {
    double s = 0;
    for (const auto& r : p.rounds) s += t.scoring.points(r.result);
    return s;
}

Expected<Tournament> tournament_of(const TrfFile& file, std::vector<std::string>& notes) {
    Tournament t;
    t.name = file.header("012");
    t.start_date = file.header("042");
    if (auto e = read_xxs(file, t.scoring)) return *e;
    std::size_t longest = 0;
    for (const auto& p : file.players) longest = std::max(longest, p.rounds.size());
    t.rounds = static_cast<int>(longest);
    if (const std::string xxr = file.header("XXR"); !xxr.empty()) {
        const auto v = decimal(xxr);
        if (!v || *v < 0 || *v > 999 || *v != std::floor(*v))
            return Error{"XXR: the number of rounds is not a whole number", line_of(file, "XXR"), 0};
        t.rounds = std::max(t.rounds, static_cast<int>(*v));
    }
    // 042 is YYYY/MM/DD or YYYY-MM-DD; the 2026 rules apply from 2026-03-01.
    std::string date = t.start_date.substr(0, 10);
    std::replace(date.begin(), date.end(), '/', '-');
    t.edition = date.size() == 10 && date >= "2026-03-01" ? Edition::C07_2026 : Edition::C07_2024;
    if (date.size() != 10) notes.push_back("no start date (042): the C.07 rules of 2024 apply");
    const std::string type = lower(file.header("092"));
    if (type.find("robin") != std::string::npos || type.find("berger") != std::string::npos ||
        type.find("schevening") != std::string::npos) {
        t.round_robin = true;
    } else if (type.find("swiss") != std::string::npos || type.find("switzer") != std::string::npos) {
        t.round_robin = false;
    } else {
        t.round_robin = everyone_meets_everyone(file);
        notes.push_back(std::string("no tournament type (092) read: taken as ") +
                        (t.round_robin ? "a round robin (every player meets every other)"
                                       : "a Swiss"));
    }
    for (const auto& rec : file.players) {
        Player p;
        p.startno = rec.startno;
        p.name = rec.name;
        p.rating = rec.rating;
        p.rounds = rec.rounds;
        p.rounds.resize(static_cast<std::size_t>(t.rounds));
        t.players.push_back(std::move(p));
    }
    for (std::size_t i = 0; i < t.players.size(); ++i) {
        const auto& rec = file.players[i];
        const auto given = decimal(rec.points);
        const double computed = score_of(t, t.players[i]);
        if (!rec.points.empty() && (!given || *given != computed)) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "player %d: the file gives %s points, the results %g",
                          rec.startno, rec.points.c_str(), computed);
            notes.emplace_back(buf);
        }
    }
    return t;
}

} // namespace eboard::standings
