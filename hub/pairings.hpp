// The pairings of a tournament hall (interfaces.md, "The tournament hall"; docs/hub.md): a CSV
// file with a header line and the columns round, board, source, white, black and the optional
// white_fide_id, black_fide_id, in any order (RFC 4180 quoting: "a, b" and "" for a quote).
// `source` is `<host>/<board>`, the board's name on its host.
//
// Which game of a source is the game of a round: the k-th game that started on a source is its
// game in the k-th round (in ascending order) in which that source is listed. A game with no move
// that is followed by another game on the same source (the pieces set up again) is not counted.
// Without pairings every source is in every round, its board number its place in the sorted
// list of all `<host>/<board>` names.
#pragma once

#include "base/expected.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::hub {

/// One line of the pairings: board `board` of round `round`.
struct Pairing {
    int round = 0;
    int board = 0;
    std::string source; ///< `<host>/<board>`
    std::string white;
    std::string black;
    std::string white_fide_id;
    std::string black_fide_id;
};

/// A tournament's pairings, sorted by round then board.
struct Pairings {
    std::vector<Pairing> lines;

    /// The rounds in which `source` is listed, ascending.
    [[nodiscard]] std::vector<int> rounds_of(const std::string& source) const;
    [[nodiscard]] bool empty() const { return lines.empty(); }
};

/// Reads pairings from CSV text. Errors name the line: a missing column, a round or board that
/// is not a number from 1, a source without '/', the same (round, board) or (round, source)
/// twice, a quote left open.
[[nodiscard]] Expected<Pairings> parse_pairings(std::string_view csv);

/// Reads the file `path` (an Error names the file).
[[nodiscard]] Expected<Pairings> load_pairings(const std::string& path);

} // namespace eboard::hub
