// The hall's tournament as FIDE's tournament report, TRF16: GET /live/tournament.trf
// (interfaces.md, "Standings"; docs/hub.md). Built by standings/pairings_trf.hpp from the
// pairings and the results in the hub's store; eboard-standings reads it.
#pragma once

#include "hub/hall.hpp"

#include <string>

namespace eboard::hub {

/// The TRF16 text of the hall's tournament: the players and rounds of the pairings, each game's
/// result once confirmed (Art. 8.7; a game in progress or not confirmed is a blank block), the
/// forfeits of the pairings' `result` column; 012 the hub's --event, 022 its --site, 042 and
/// 052 the first and last day (UTC) a game of the pairings started. "" without pairings.
[[nodiscard]] std::string tournament_trf(const Hall& hall);

/// The answer to GET /live/tournament.trf: 200 text/plain with tournament_trf(), 404 without
/// pairings (there are no players).
[[nodiscard]] LiveAnswer tournament_answer(const Hall& hall);

} // namespace eboard::hub
