// libFuzzer target: the TRF16 reader (standings/trf.hpp) and what eboard-standings does with
// what it accepts. It must never crash; an error carries a message and a line; whatever is read
// writes and reads back equal; the standings of it compute under both built-in profiles.
#include "standings/profile.hpp"
#include "standings/standings.hpp"
#include "standings/trf.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace eboard::standings;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto file = read_trf(text);
    if (!file) {
        if (file.error().message.empty() || file.error().line <= 0) std::abort();
        return 0;
    }
    const auto again = read_trf(write_trf(file.value()));
    if (!again || !(again.value() == file.value())) std::abort();
    if (file->players.size() > 64) return 0;  // the ranking is quadratic; enough for coverage
    for (const char* name : {"fide", "club-2014"}) {
        std::vector<std::string> notes;
        auto t = tournament_of(file.value(), notes);
        if (!t) {
            if (t.error().message.empty()) std::abort();
            continue;
        }
        if (t->rounds > 64) continue;
        auto profile = builtin_tournament_profile(name);
        if (!profile) std::abort();
        apply_profile(t.value(), profile.value(), notes);
        const auto list = parse_tiebreak_list(
            "BH, BH/C1, BH/M1, SB/C2, DE, WIN, WON, BPG, BWG, ARO/C1, PS/C1, KS, SB-ADJ, KASHDAN, "
            "RATING-LOW, BLACK-SCHEDULED, LOT");
        if (!list) std::abort();
        const Standings s = rank(t.value(), list.value(), profile->club);
        if (s.rows.size() != t->players.size()) std::abort();
        (void)format_table(s);
        (void)format_json(s);
    }
    return 0;
}
