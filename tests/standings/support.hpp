// Helpers of the standings tests: TRF lines written from a short description, and standings
// computed from TRF text.
#pragma once

#include "standings/profile.hpp"
#include "standings/standings.hpp"
#include "standings/trf.hpp"

#include "../support/test_io.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace standings_test {

/// One round: opponent (0 = none), colour, result, as a TRF block has them.
struct G {
    int opponent;
    char colour;
    char result;
};
inline const G kPab{0, '-', 'U'};
inline const G kHalfBye{0, '-', 'H'};
inline const G kZeroBye{0, '-', 'Z'};
inline const G kNone{0, '-', ' '};

/// A 001 line in TRF16's columns.
inline std::string player(int no, const std::string& name, int rating, const std::vector<G>& games) {
    // The name padded to 33 characters (not bytes: TRF columns are characters).
    std::string padded = name;
    std::size_t chars = 0;
    for (char c : name) chars += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    for (; chars < 33; ++chars) padded += ' ';
    char head[160];
    std::snprintf(head, sizeof head, "001 %4d m    %s %4s BEL %11s %10s %4s %4s", no,
                  padded.c_str(), rating > 0 ? std::to_string(rating).c_str() : "", "", "", "", "");
    std::string l = head;
    for (const G& g : games) {
        char block[16];
        if (g.result == ' ' && g.opponent == 0)
            std::snprintf(block, sizeof block, "          ");
        else
            std::snprintf(block, sizeof block, "  %4s %c %c",
                          g.opponent == 0 ? "0000" : std::to_string(g.opponent).c_str(), g.colour,
                          g.result);
        l += block;
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + '\n';
}

inline std::string read_data(const std::string& name) {
    std::string text = eboard::test::slurp(std::string(EBOARD_TEST_DATA) + "/" + name);
    REQUIRE_FALSE(text.empty());
    return text;
}

/// The standings of TRF text under a profile ("fide" unless given), with `list`.
inline eboard::standings::Standings standings_of(const std::string& trf, const std::string& list,
                                                 const std::string& profile_name = "fide") {
    using namespace eboard::standings;
    const auto file = read_trf(trf);
    const std::string why = file.has_value() ? std::string()
                                             : file.error().message + " at " +
                                                   std::to_string(file.error().line) + ":" +
                                                   std::to_string(file.error().column);
    INFO(why);
    REQUIRE(file);
    std::vector<std::string> notes;
    auto t = tournament_of(file.value(), notes);
    REQUIRE(t);
    auto profile = builtin_tournament_profile(profile_name);
    REQUIRE(profile);
    apply_profile(t.value(), profile.value(), notes);
    const auto tbs = parse_tiebreak_list(list.empty() ? default_tiebreaks(t.value(), profile.value()) : list);
    REQUIRE(tbs);
    Standings s = rank(t.value(), tbs.value(), profile->club);
    s.notes = notes;
    return s;
}

/// startno -> value of tie-break `k` ("-" when absent), formatted as the table prints it.
inline std::map<int, std::string> column(const eboard::standings::Standings& s, std::size_t k) {
    std::map<int, std::string> out;
    for (const auto& r : s.rows)
        out[r.startno] = r.values.at(k) ? eboard::standings::format_number(*r.values.at(k)) : "-";
    return out;
}

/// The starting numbers in rank order.
inline std::vector<int> order(const eboard::standings::Standings& s) {
    std::vector<int> out;
    for (const auto& r : s.rows) out.push_back(r.startno);
    return out;
}

} // namespace standings_test
