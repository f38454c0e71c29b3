// A tournament report (TRF16, standings/trf.hpp) of a tournament played on the hall's pairings
// (standings/pairings.hpp) with the results the boards recorded: what eboard-hub serves as
// /live/tournament.trf and `eboardctl trf` prints (docs/standings.md, "TRF out").
#pragma once

#include "standings/pairings.hpp"
#include "standings/trf.hpp"

#include <string>
#include <vector>

namespace eboard::standings {

/// The header records of the report, each left out when empty.
struct ReportHeader {
    std::string event;      ///< 012 tournament name
    std::string site;       ///< 022 city
    std::string start_date; ///< 042, "YYYY/MM/DD" (sets the C.07 edition, docs/standings.md)
    std::string end_date;   ///< 052, "YYYY/MM/DD"
};

/// The TRF of `pairings` with `results[i]` the result of line i as its board recorded it
/// ("1-0", "0-1", "1/2-1/2"; anything else, "" or "*", is a game without a result yet).
///
/// Players are the names of the pairings, one per FIDE id where the line gives one, else one
/// per name; starting numbers in the order they first appear (round, board, White then
/// Black); the rating and FIDE id the first line that gives them. A game with a result is
/// `1`/`=`/`0` with its colours; a forfeit line (`+-`, `-+`, `--`) is `+`/`-` with the
/// colours of the pairing (C.07 treats it as an unplayed game); a game without a result yet
/// and a round in which a player is not paired are blank blocks (counted as `Z`, no points).
/// Records: 012, 022, 042, 052 from `header`, 062 the number of players, XXR the number of
/// rounds (the highest round of the pairings), then the 001 records by starting number.
[[nodiscard]] TrfFile trf_of_pairings(const Pairings& pairings, const std::vector<std::string>& results,
                                      const ReportHeader& header);

} // namespace eboard::standings
