// The standings: players ranked by points, then by each tie-break of a list in order; players
// still equal share the rank (1, 2, 2, 4). Printed as a table or as JSON (docs/standings.md).
#pragma once

#include "standings/tiebreaks.hpp"
#include "standings/tournament.hpp"

#include <optional>
#include <string>
#include <vector>

namespace eboard::standings {

/// One line of the standings.
struct Row {
    int rank = 0;  ///< shared competition rank
    int startno = 0;
    std::string name;
    double points = 0;
    std::vector<std::optional<double>> values;  ///< one per tie-break; nullopt = absent
    int shared_with = 1;  ///< how many players hold this rank (1 = not shared)
};

/// The ranked tournament.
struct Standings {
    std::vector<TieBreak> tiebreaks;
    std::vector<Row> rows;            ///< in rank order (shared ranks by starting number)
    std::vector<std::string> notes;   ///< what the reader and profile found or chose
};

/// Ranks `t`: points, then the tie-breaks in order (C.07 4.2: each further tie-break only
/// within a group still tied). DE is the place in the group tied on points and on every
/// earlier tie-break (C.07 6), 0 where it separates nobody.
[[nodiscard]] Standings rank(const Tournament& t, const std::vector<TieBreak>& list,
                             const ClubOptions& club);

/// The table: a header line, one line per player (rank, starting number, name, points, each
/// tie-break), then a line per shared rank and the notes, each starting with "# ".
[[nodiscard]] std::string format_table(const Standings& s);

/// `[{"rank","startno","name","points","tiebreaks":{NAME: value}}]`, one line.
[[nodiscard]] std::string format_json(const Standings& s);

/// A number as the table prints it: at most two decimals, no trailing zeros ("4.5", "12.25").
[[nodiscard]] std::string format_number(double v);

} // namespace eboard::standings
