// The pairings of a tournament hall (interfaces.md, "The tournament hall"; docs/hub.md): a CSV
// file with a header line and the columns round, board, source, white, black and the optional
// white_fide_id, black_fide_id, white_rating, black_rating, result, in any order (RFC 4180
// quoting: "a, b" and "" for a quote). `source` is `<host>/<board>`, the board's name on its host.
// `result` is empty for a game played on the board, or a game not played: `+-` (White wins by
// forfeit), `-+` (Black wins by forfeit), `--` (both lose by forfeit); such a line needs no
// source, and no game of its source is counted for it.
//
// Which game of a source is the game of a round: the k-th game that started on a source is its
// game in the k-th round (in ascending order) in which that source is listed. A game with no move
// that is followed by another game on the same source (the pieces set up again) is not counted.
// Without pairings every source is in every round, its board number its place in the sorted
// list of all `<host>/<board>` names.
//
// eboard-hub (hub/hall.hpp) and eboardctl's TRF export (pairings_trf.hpp) both read them.
#pragma once

#include "base/expected.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::standings {

/// One line of the pairings: board `board` of round `round`.
struct Pairing {
    int round = 0;
    int board = 0;
    std::string source; ///< `<host>/<board>`; may be empty on a forfeit line
    std::string white;
    std::string black;
    std::string white_fide_id;
    std::string black_fide_id;
    int white_rating = 0; ///< 0 = not given
    int black_rating = 0;
    std::string forfeit;  ///< the `result` column: "" (played on the board), "+-", "-+" or "--"
};

/// A tournament's pairings, sorted by round then board.
struct Pairings {
    std::vector<Pairing> lines;

    /// The rounds in which `source` is listed for a game on the board (forfeit lines left
    /// out), ascending.
    [[nodiscard]] std::vector<int> rounds_of(const std::string& source) const;
    [[nodiscard]] bool empty() const { return lines.empty(); }
};

/// Reads pairings from CSV text. Errors name the line: a missing column, a round or board that
/// is not a number from 1, a source without '/', a rating that is not a number, a result that
/// is not a forfeit code, the same (round, board) or (round, source) twice, a quote left open.
[[nodiscard]] Expected<Pairings> parse_pairings(std::string_view csv);

/// Reads the file `path` (an Error names the file).
[[nodiscard]] Expected<Pairings> load_pairings(const std::string& path);

/// A game as a board's host recorded it: its source and its number of moves.
struct StartedGame {
    std::string source; ///< `<host>/<board>`
    int plies = 0;
};

/// The games counted for each source: indices into `games` (given in the order they started),
/// a game with no move that another game on its source followed left out.
[[nodiscard]] std::map<std::string, std::vector<std::size_t>> counted_games(const std::vector<StartedGame>& games);

/// The game of each line of `pairings` (an index into the `games` handed to counted_games),
/// nullopt when it has not started or the line is a forfeit: the k-th counted game of a source
/// is its game in the k-th round in which it is listed.
[[nodiscard]] std::vector<std::optional<std::size_t>>
games_of_lines(const Pairings& pairings, const std::map<std::string, std::vector<std::size_t>>& counted);

} // namespace eboard::standings
