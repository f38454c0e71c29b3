#include "hub/tournament_trf.hpp"

#include "standings/pairings_trf.hpp"

#include <algorithm>

namespace eboard::hub {

std::string tournament_trf(const Hall& hall) {
    Pairings pairings;
    std::vector<std::string> results;
    standings::ReportHeader header{hall.event(), hall.site(), "", ""};
    bool named = false;
    for (const RoundGame& r : hall.games()) {
        named = named || !r.pairing.white.empty() || !r.pairing.black.empty();
        pairings.lines.push_back(r.pairing);
        results.emplace_back(r.game && r.game->confirmed ? r.game->result : "");
        if (!r.game || r.game->date.empty()) continue;
        std::string day = r.game->date; // "YYYY.MM.DD" -> TRF's "YYYY/MM/DD"
        std::replace(day.begin(), day.end(), '.', '/');
        if (header.start_date.empty() || day < header.start_date) header.start_date = day;
        header.end_date = std::max(header.end_date, day);
    }
    if (!named) return {};
    return standings::write_trf(standings::trf_of_pairings(pairings, results, header));
}

LiveAnswer tournament_answer(const Hall& hall) {
    std::string trf = tournament_trf(hall);
    if (trf.empty()) return {404, "text/plain", "no pairings: the tournament needs eboard-hub --pairings\n"};
    return {200, "text/plain; charset=utf-8", std::move(trf)};
}

} // namespace eboard::hub
