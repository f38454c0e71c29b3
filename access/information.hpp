// Information on request ([23] D.2.10.4, [05] F2.9 d: the number of moves and the time used
// by both players "only on request"; [23] D.2.6.1: a clock that can tell the time and the
// number of moves). Besides those, what a player at a tactile board may ask: the last moves,
// the whole position as a piece list, what stands on a square, a scan of a rank or a file.
// Nothing here is ever spoken unasked: these texts answer a request (a DGT3000 button or the
// client API's `info` command). No I/O.
#pragma once

#include "access/announce.hpp"
#include "access/vocabulary.hpp"
#include "base/expected.hpp"
#include "rules/position.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eboard::access {

/// What the player asks for.
struct InfoRequest {
    enum class Kind : std::uint8_t { Clocks, Moves, Last, Position, Square, Rank, File };
    Kind kind = Kind::Clocks;
    int count = 1; ///< Last: how many plies (>= 1)
    int index = 0; ///< Rank: 0..7 = 1..8; File: 0..7 = a..h
    Square square; ///< Square: the square asked about
};

/// Reads a request as the client API and eboardctl write it: "clocks", "moves", "last [N]"
/// (N plies, default 1, 1..200), "position", "square e4", "rank 4", "file e". Errors name
/// what is wrong: "unknown request 'x'", "bad square 'z9'", "bad rank '9'", "bad file 'k'",
/// "bad count '0'".
[[nodiscard]] Expected<InfoRequest> parse_info_request(std::string_view text);

/// The request a DGT3000 button asks at once (drivers report buttons 0..4, left to right;
/// the DGT protocol doc "clock buttons"): 0 both clocks, 1 number of moves, 2 the last move,
/// 3 the last four plies. nullopt for any other number, 4 (ok) included: ok opens the button
/// menu (access/button_menu.hpp: the whole position, a square, a rank, a file).
[[nodiscard]] std::optional<InfoRequest> info_request_for_button(int button) noexcept;

/// "3 Stunden 1 Minute 5 Sekunden" / "1 hour 5 seconds" / "0 seconds": hours and minutes
/// only when not zero, seconds always (rounded down). Negative times read as 0.
[[nodiscard]] std::string time_words(std::int64_t ms, Vocabulary v);

/// Both clocks, White first: "Weiß 1 Stunde 30 Minuten 0 Sekunden, Schwarz 59 Minuten 59
/// Sekunden". Times in ms as the clock showed them (Art. 6.10.1).
[[nodiscard]] std::string clocks_text(std::int64_t white_ms, std::int64_t black_ms, Vocabulary v);

/// The move number and the side to move, from the game position: "Zug 23, Schwarz am Zug".
[[nodiscard]] std::string moves_text(const Position& current, Vocabulary v);

/// The last `count` plies of the game that led to `current` (its make_move history), oldest
/// first: "Zug 22, Schwarz: Springer Felix sechs. Zug 23, Weiß: Bauer Eva vier." (fewer when
/// the game is shorter; `no_moves` when no move was made).
[[nodiscard]] std::string last_moves_text(const Position& current, int count,
                                          const AnnounceOptions& options = {});

/// The whole position as a piece list, White first, each side king, queens, rooks, bishops,
/// knights, pawns, squares a1..h8: "Weiß: König Gustav eins, Turm Felix eins, ... Schwarz: ...".
[[nodiscard]] std::string position_text(const Position& current, Vocabulary v);

/// What stands on a square: "Eva vier, weißer Bauer" / "Eva vier, leer".
[[nodiscard]] std::string square_text(const Position& current, Square s, Vocabulary v);

/// The occupied squares of a rank (0..7 = 1..8) or a file (0..7 = a..h), in order from a to h
/// or from 1 to 8: "Reihe vier: David vier, weißer Bauer, Eva vier, schwarzer Springer" /
/// "Linie Eva: leer".
[[nodiscard]] std::string rank_text(const Position& current, int rank, Vocabulary v);
[[nodiscard]] std::string file_text(const Position& current, int file, Vocabulary v);

/// The answer to `request` for the game at `current`, with the clock times in ms when known
/// (without a clock, a Clocks request is answered with the move count instead).
[[nodiscard]] std::string answer_info_request(const InfoRequest& request, const Position& current,
                                              std::optional<std::int64_t> white_ms,
                                              std::optional<std::int64_t> black_ms,
                                              const AnnounceOptions& options = {});

} // namespace eboard::access
