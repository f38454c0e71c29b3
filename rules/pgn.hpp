// PGN (Portable Game Notation, standard of 1994-03-12, with the clock commands of the
// PGN Specification Supplement: `[%clk h:mm:ss]`, `[%emt h:mm:ss]`): the game record, a reader
// that yields game after game and recovers after a malformed one, and the export-format writer
// the daemon calls after every move.
#pragma once

#include "base/expected.hpp"
#include "rules/position.hpp"
#include "base/types.hpp"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard {

struct GameMove;

/// A variation (Recursive Annotation Variation, PGN 8.2.6): moves that replace the move it is
/// attached to, with the comment that stands before its first move.
struct Variation {
    std::string comment;
    std::vector<GameMove> moves;
};

/// One move of a game record.
struct GameMove {
    /// The move; Move::none() for a null move (written `--`; `Z0` is read too).
    Move move;
    /// SAN as to_san() writes it (English, with `+`/`#`), `--` for a null move.
    std::string san;
    /// The move as it stood in the source text (empty when not read from PGN).
    std::string written;
    /// Clock time left after the move, ms (`[%clk h:mm:ss]`).
    std::optional<std::int64_t> clock_ms;
    /// Time the move took, ms (`[%emt h:mm:ss]`).
    std::optional<std::int64_t> emt_ms;
    /// Numeric annotation glyphs (`$1` = `!` ... `$6` = `?!`, PGN 10).
    std::vector<int> nags;
    /// Comment text after the move (all comments joined with a space, whitespace collapsed,
    /// clock commands taken out).
    std::string comment;
    /// Variations attached to this move (kept only with PgnReadOptions::keep_variations).
    std::vector<Variation> variations;
};

/// A tag pair (PGN 8.1).
struct Tag {
    std::string name;
    std::string value;
    bool operator==(const Tag&) const = default;
};

/// A game as PGN records it.
struct GameRecord {
    /// Tag pairs in the order read or set, Seven Tag Roster included. SetUp and FEN are not
    /// kept here (see start_fen), nor Variant when it names Chess960 (see chess960).
    std::vector<Tag> tags;
    /// FEN of the start position (the FEN tag); empty = the standard initial position.
    std::string start_fen;
    /// Chess960 (Variant "Chess960" / "Fischerandom"; Guidelines II [23]).
    bool chess960 = false;
    /// Comment before the first move.
    std::string comment;
    /// The moves of the main line.
    std::vector<GameMove> moves;
    /// The game termination marker: "1-0", "0-1", "1/2-1/2" or "*" (game in progress).
    std::string result = "*";

    /// The value of tag `name`, nullptr if absent.
    [[nodiscard]] const std::string* tag(std::string_view name) const;
    /// Sets tag `name` (replacing its value in place, else appending).
    void set_tag(std::string_view name, std::string_view value);
    /// The start position (standard, or start_fen read with chess960).
    [[nodiscard]] Expected<Position> start_position() const;
};

/// The game move for the legal move `m` made in `before`: move and SAN filled in.
[[nodiscard]] GameMove make_game_move(const Position& before, Move m);

/// Reader settings.
struct PgnReadOptions {
    /// Keep variations (their moves are checked like the main line); else skip them.
    bool keep_variations = false;
};

/// Reads PGN game after game. Lenient where PGN programs differ: move numbers optional and
/// unchecked, `1.e4` without a space, SAN forms of parse_move(), `!`/`?` turned into NAGs,
/// missing termination marker at the end of a game, `%` escape lines. Each malformed game
/// gives an Error with the 1-based line and column where reading failed (e.g. "illegal move
/// 'Nf5': ...", "unterminated comment", "tag value must be a string"); the reader then goes
/// on at the next game (the next tag section).
class PgnReader {
  public:
    /// Reads from `text`, which must outlive the reader.
    explicit PgnReader(std::string_view text, PgnReadOptions options = {});
    /// Reads the whole stream into the reader first.
    explicit PgnReader(std::istream& in, PgnReadOptions options = {});

    /// The next game; std::nullopt when the text has no more games.
    [[nodiscard]] std::optional<Expected<GameRecord>> next();

  private:
    std::string owned_;
    std::string_view text_;
    PgnReadOptions options_;
    std::size_t offset_ = 0;
    int line_ = 1;
    int column_ = 1;
};

/// The first game in `text` (an error if there is none).
[[nodiscard]] Expected<GameRecord> read_pgn_game(std::string_view text,
                                                 PgnReadOptions options = {});

/// The game in PGN export format (PGN 8.1.1, 8.2.1): the Seven Tag Roster first in the order
/// Event Site Date Round White Black Result ("?" / "????.??.??" when unset; Result = the
/// record's result), then the other tags in their order, then SetUp "1" and FEN when the game
/// does not start from the initial position and Variant "Chess960" for Chess960; a blank line;
/// movetext wrapped to lines of at most 79 characters with move numbers, NAGs, variations,
/// and one comment per move `{[%clk h:mm:ss] [%emt h:mm:ss] text}`; the result. Ends with a
/// newline (join games with an empty line). A '}' inside comment text is written as ')';
/// a word longer than 79 characters is cut.
[[nodiscard]] std::string write_pgn(const GameRecord& game);

/// "h:mm:ss" for a time in ms, with a fraction (".5", ".25") when not whole seconds.
[[nodiscard]] std::string format_clock(std::int64_t ms);
/// Reads "h:mm:ss", "mm:ss" or "ss" with an optional fraction; std::nullopt if malformed.
[[nodiscard]] std::optional<std::int64_t> parse_clock(std::string_view text);

} // namespace eboard
