#include "standings/pairings.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace eboard::standings {

namespace {

// The fields of one CSV record starting at `pos` (RFC 4180); `pos` moves past its line end.
Expected<std::vector<std::string>> csv_record(std::string_view text, std::size_t& pos) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    while (pos < text.size()) {
        const char c = text[pos++];
        if (quoted) {
            if (c != '"') fields.back() += c;
            else if (pos < text.size() && text[pos] == '"') fields.back() += text[pos++];
            else quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c == '\n') {
            break;
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) return Error{"a quote is not closed"};
    for (auto& f : fields) { // spaces around a field are not part of it
        const auto b = f.find_first_not_of(" \t");
        const auto e = f.find_last_not_of(" \t");
        f = b == std::string::npos ? std::string() : f.substr(b, e - b + 1);
    }
    return fields;
}

std::optional<int> number(const std::string& s) {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 1) return std::nullopt;
    return v;
}

} // namespace

std::vector<int> Pairings::rounds_of(const std::string& source) const {
    std::vector<int> out;
    for (const auto& p : lines)
        if (p.source == source && p.forfeit.empty()) out.push_back(p.round);
    std::sort(out.begin(), out.end());
    return out;
}

Expected<Pairings> parse_pairings(std::string_view csv) {
    std::size_t pos = 0;
    int line = 1;
    auto header = csv_record(csv, pos);
    if (!header) return Error{"line 1: " + header.error().message};
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < header->size(); ++i) column[(*header)[i]] = i;
    for (const char* need : {"round", "board", "source", "white", "black"})
        if (!column.count(need)) return Error{std::string("line 1: no column '") + need + "' in the header"};
    Pairings out;
    std::set<std::pair<int, int>> boards;
    std::set<std::pair<int, std::string>> sources;
    while (pos < csv.size()) {
        ++line;
        auto rec = csv_record(csv, pos);
        const std::string at = "line " + std::to_string(line) + ": ";
        if (!rec) return Error{at + rec.error().message};
        if (rec->size() == 1 && (*rec)[0].empty()) continue; // an empty line
        auto field = [&](const char* name) {
            const auto it = column.find(name);
            return it != column.end() && it->second < rec->size() ? (*rec)[it->second] : std::string();
        };
        Pairing p;
        const auto round = number(field("round"));
        const auto board = number(field("board"));
        if (!round) return Error{at + "round '" + field("round") + "' is not a number from 1"};
        if (!board) return Error{at + "board '" + field("board") + "' is not a number from 1"};
        p.round = *round;
        p.board = *board;
        p.forfeit = field("result");
        if (!p.forfeit.empty() && p.forfeit != "+-" && p.forfeit != "-+" && p.forfeit != "--")
            return Error{at + "result '" + p.forfeit + "' is not a forfeit (+-, -+ or --) or empty"};
        p.source = field("source");
        const bool no_source = p.source.empty() && !p.forfeit.empty();
        if (!no_source && (p.source.find('/') == std::string::npos || p.source.front() == '/' || p.source.back() == '/'))
            return Error{at + "source '" + p.source + "' is not <host>/<board>"};
        p.white = field("white");
        p.black = field("black");
        p.white_fide_id = field("white_fide_id");
        p.black_fide_id = field("black_fide_id");
        for (const auto& [name, rating] : {std::pair{"white_rating", &p.white_rating}, {"black_rating", &p.black_rating}}) {
            const std::string text = field(name);
            if (text.empty()) continue;
            const auto r = number(text);
            if (!r || *r > 9999) return Error{at + name + " '" + text + "' is not a rating (1..9999)"};
            *rating = *r;
        }
        if (!boards.insert({p.round, p.board}).second)
            return Error{at + "board " + std::to_string(p.board) + " of round " + std::to_string(p.round) + " twice"};
        if (!no_source && !sources.insert({p.round, p.source}).second)
            return Error{at + "source " + p.source + " twice in round " + std::to_string(p.round)};
        out.lines.push_back(std::move(p));
    }
    std::sort(out.lines.begin(), out.lines.end(),
              [](const Pairing& a, const Pairing& b) { return std::tie(a.round, a.board) < std::tie(b.round, b.board); });
    return out;
}

Expected<Pairings> load_pairings(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"pairings " + path + ": cannot be read"};
    std::ostringstream text;
    text << in.rdbuf();
    auto p = parse_pairings(text.str());
    if (!p) return Error{"pairings " + path + ": " + p.error().message};
    return p;
}

std::map<std::string, std::vector<std::size_t>> counted_games(const std::vector<StartedGame>& games) {
    std::map<std::string, std::vector<std::size_t>> all;
    for (std::size_t i = 0; i < games.size(); ++i) all[games[i].source].push_back(i);
    for (auto& [source, list] : all) {
        std::vector<std::size_t> kept;
        for (std::size_t k = 0; k < list.size(); ++k)
            if (games[list[k]].plies > 0 || k + 1 == list.size()) kept.push_back(list[k]);
        list = std::move(kept);
    }
    return all;
}

std::vector<std::optional<std::size_t>>
games_of_lines(const Pairings& pairings, const std::map<std::string, std::vector<std::size_t>>& counted) {
    std::vector<std::optional<std::size_t>> out;
    for (const auto& p : pairings.lines) {
        out.emplace_back();
        if (!p.forfeit.empty()) continue;
        const auto rounds = pairings.rounds_of(p.source);
        const auto k = static_cast<std::size_t>(std::find(rounds.begin(), rounds.end(), p.round) - rounds.begin());
        if (const auto it = counted.find(p.source); it != counted.end() && k < it->second.size())
            out.back() = it->second[k];
    }
    return out;
}

} // namespace eboard::standings
