#include "standings/pairings_trf.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace eboard::standings {

namespace {

// A player's identity in the pairings: the FIDE id where given, else the name.
std::string key_of(const std::string& name, const std::string& fide_id) {
    return fide_id.empty() ? "name:" + name : "fide:" + fide_id;
}

// `s` cut to `width` UTF-8 characters (a TRF field has fixed columns).
std::string cut(const std::string& s, std::size_t width) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0U) != 0x80U && ++chars > width) return s.substr(0, i);
    return s;
}

// The TRF codes of White and Black for a line's result; {' ', ' '} when it has none yet.
std::pair<char, char> codes_of(const Pairing& p, const std::string& result) {
    if (p.forfeit == "+-") return {'+', '-'};
    if (p.forfeit == "-+") return {'-', '+'};
    if (p.forfeit == "--") return {'-', '-'};
    if (result == "1-0") return {'1', '0'};
    if (result == "0-1") return {'0', '1'};
    if (result == "1/2-1/2") return {'=', '='};
    return {' ', ' '};
}

} // namespace

TrfFile trf_of_pairings(const Pairings& pairings, const std::vector<std::string>& results,
                        const ReportHeader& header) {
    TrfFile file;
    int rounds = 0;
    for (const auto& p : pairings.lines) rounds = std::max(rounds, p.round);
    std::map<std::string, std::size_t> index; // key -> place in file.players
    // The index of a player in file.players (added when new).
    auto player = [&](const std::string& name, const std::string& fide_id, int rating) {
        const auto [it, added] = index.try_emplace(key_of(name, fide_id), file.players.size());
        if (added) {
            PlayerRecord r;
            r.startno = static_cast<int>(file.players.size()) + 1;
            r.name = cut(name, 33);        // columns 15-47
            r.fide_id = cut(fide_id, 11);  // columns 58-68
            r.rounds.assign(static_cast<std::size_t>(rounds), RoundEntry{});
            file.players.push_back(std::move(r));
        }
        PlayerRecord& r = file.players[it->second];
        if (r.rating == 0) r.rating = rating;
        return it->second;
    };
    for (std::size_t i = 0; i < pairings.lines.size(); ++i) {
        const Pairing& p = pairings.lines[i];
        const std::size_t wi = player(p.white, p.white_fide_id, p.white_rating);
        const std::size_t bi = player(p.black, p.black_fide_id, p.black_rating);
        const auto [w, b] = codes_of(p, i < results.size() ? results[i] : std::string());
        if (w == ' ') continue;
        const auto round = static_cast<std::size_t>(p.round - 1);
        PlayerRecord& white = file.players[wi];
        PlayerRecord& black = file.players[bi];
        white.rounds[round] = RoundEntry{black.startno, 'w', w};
        black.rounds[round] = RoundEntry{white.startno, 'b', b};
    }
    auto add = [&](const char* code, const std::string& text) {
        if (!text.empty()) file.others.push_back(OtherRecord{code, text});
    };
    add("012", header.event);
    add("022", header.site);
    add("042", header.start_date);
    add("052", header.end_date);
    add("062", std::to_string(file.players.size()));
    add("XXR", std::to_string(rounds));
    return file;
}

} // namespace eboard::standings
