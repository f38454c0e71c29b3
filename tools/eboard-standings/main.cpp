// eboard-standings FILE.trf [--tiebreaks LIST] [--json] [--profile NAME|PATH] [--lot-seed N]
// Reads a tournament report in FIDE's TRF and prints the standings: rank, starting number, name,
// points and each tie-break of LIST (eboard-standings(1), docs/standings.md). The table ends
// with "# " lines: shared ranks, and what the reader or the profile inferred or applied; with
// --json they go to stderr. An unreadable file or a bad option: one line on stderr, exit 2.
#include "standings/profile.hpp"
#include "standings/standings.hpp"
#include "standings/trf.hpp"

#include <charconv>
#include <exception>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

constexpr const char* kUsage =
    "usage: eboard-standings FILE.trf [--tiebreaks LIST] [--json] [--profile NAME|PATH]\n"
    "                        [--lot-seed N]\n"
    "  --tiebreaks LIST  comma-separated, in order: BH BH/C1 BH/M1 SB DE WIN WON BPG BWG ARO\n"
    "                    PS KS SB-ADJ KASHDAN RATING-LOW BLACK-SCHEDULED LOT\n"
    "  --json            one JSON array instead of the table\n"
    "  --profile P       tournament profile: fide (default), club-2014, or a file\n"
    "  --lot-seed N      the seed of LOT (default: the profile's, else from the tournament)";

int fail(const std::string& why) {
    std::fprintf(stderr, "eboard-standings: %s\n", why.c_str());
    return 2;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream s;
    s << f.rdbuf();
    out = s.str();
    return !f.bad();
}

std::string where(const std::string& path, const eboard::Error& e) {
    std::string s = path;
    if (e.line > 0) s += ":" + std::to_string(e.line);
    if (e.column > 0) s += ":" + std::to_string(e.column);
    return s + ": " + e.message;
}

int run(int argc, char** argv) {
    using namespace eboard::standings;
    std::string path;
    std::string list;
    bool list_given = false;
    bool json = false;
    std::string profile_arg = "fide";
    std::string seed_arg;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--help" || a == "-h") {
            std::printf("%s\n", kUsage);
            return 0;
        } else if (a == "--json") {
            json = true;
        } else if (a == "--tiebreaks" || a == "--profile" || a == "--lot-seed") {
            if (!has_value) return fail(std::string(a) + " needs a value\n" + kUsage);
            const std::string v = argv[++i];
            if (a == "--tiebreaks") {
                list = v;
                list_given = true;
            } else if (a == "--profile") {
                profile_arg = v;
            } else {
                seed_arg = v;
            }
        } else if (a.size() > 1 && a[0] == '-') {
            return fail("unknown option " + std::string(a) + "\n" + kUsage);
        } else if (path.empty()) {
            path = a;
        } else {
            return fail("one TRF file only\n" + std::string(kUsage));
        }
    }
    if (path.empty()) return fail("need a TRF file\n" + std::string(kUsage));

    auto profile = builtin_tournament_profile(profile_arg);
    if (!profile) {
        std::string text;
        if (profile_arg.find('/') == std::string::npos && profile_arg.find('.') == std::string::npos)
            return fail(profile.error().message);
        if (!read_file(profile_arg, text)) return fail("cannot read profile " + profile_arg);
        profile = parse_tournament_profile(text);
        if (!profile) return fail(where(profile_arg, profile.error()));
    }
    if (!seed_arg.empty()) {
        std::uint64_t seed = 0;
        const auto [end, ec] = std::from_chars(seed_arg.data(), seed_arg.data() + seed_arg.size(), seed);
        if (ec != std::errc() || end != seed_arg.data() + seed_arg.size() || seed == 0)
            return fail("--lot-seed: expected a positive whole number");
        profile->club.lot_seed = seed;
        profile->lot_seed_given = true;
    }

    std::string text;
    if (!read_file(path, text)) return fail("cannot read " + path);
    const auto file = read_trf(text);
    if (!file) return fail(where(path, file.error()));
    std::vector<std::string> notes;
    auto tournament = tournament_of(file.value(), notes);
    if (!tournament) return fail(where(path, tournament.error()));
    apply_profile(tournament.value(), profile.value(), notes);
    if (!list_given) list = default_tiebreaks(tournament.value(), profile.value());
    const auto tiebreaks = parse_tiebreak_list(list);
    if (!tiebreaks) {
        return fail("--tiebreaks: " + tiebreaks.error().message + " (at character " +
                    std::to_string(tiebreaks.error().column) + ")");
    }
    Standings s = rank(tournament.value(), tiebreaks.value(), profile->club);
    for (const auto& tb : tiebreaks.value()) {
        if (tb.method == Method::LOT)
            notes.push_back("LOT drawn with seed " + std::to_string(profile->club.lot_seed) +
                            " (--lot-seed " + std::to_string(profile->club.lot_seed) +
                            " draws it again)");
    }
    notes.insert(notes.begin(), std::string("profile ") + profile->name + ", " +
                                    (tournament->round_robin ? "round robin" : "Swiss") +
                                    ", C.07 rules of " +
                                    (tournament->edition == Edition::C07_2026 ? "2026" : "2024"));
    s.notes = notes;
    if (json) {
        std::fputs(format_json(s).c_str(), stdout);
        for (const auto& n : notes) std::fprintf(stderr, "eboard-standings: %s\n", n.c_str());
    } else {
        std::fputs(format_table(s).c_str(), stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {  // out of memory; nothing else throws
        return fail(e.what());
    }
}
