// What is said at one board, event by event: the game line as the events tell it (GAME start
// FEN, then each MOVE made with its UCI and FEN), so that each move made is announced from the
// position before it ([23] D.2.1, D.2.3.3: announcing is part of making the move), the
// alerts the player must hear, and answers to requests (D.2.10.4). Pure: no I/O, no clock;
// the daemon's speech sink feeds it and passes what it returns to speech/.
#pragma once

#include "access/alerts.hpp"
#include "access/announce.hpp"
#include "access/information.hpp"
#include "rules/game.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace eboard::access {

/// Whose moves are announced at a board: both sides, or only one side's (the visually impaired
/// player's opponent), or none.
enum class SpokenSides : std::uint8_t { Both, White, Black, None };

/// "both", "white", "black", "none"; nullopt for anything else.
[[nodiscard]] std::optional<SpokenSides> spoken_sides_from_text(std::string_view text) noexcept;

/// The speech settings of one board.
struct SpeechSettings {
    AnnounceOptions announce;              ///< vocabulary, long form
    SpokenSides moves = SpokenSides::Both; ///< whose moves made are announced
    bool alerts = true;                    ///< speak the alerts of alerts.hpp
};

/// Something to say: the text, its speech language, and whether it is an alert.
struct Spoken {
    std::string text;
    std::string_view language; ///< Words::language of the vocabulary
    bool important = false;
};

/// The speech of one board's game.
class Announcer {
  public:
    explicit Announcer(SpeechSettings settings = {});

    /// A game starts from `fen` (GAME start). A bad FEN leaves the standard start position.
    void game_started(std::string_view fen);

    /// A move made (MOVE status=made): ply (1 = White's first move of a standard game), UCI
    /// and the FEN after it. Returns the announcement when this side's moves are spoken.
    /// A ply at or below the last one replaces the moves from there (a move taken back and
    /// made again). When the move does not follow from the line it knows (a game joined late,
    /// a position set by the arbiter), it takes the FEN as the new line and names only the
    /// piece and its arrival square ("Springer Felix drei").
    [[nodiscard]] std::optional<Spoken> move_made(int ply, std::string_view uci,
                                                  std::string_view fen_after);

    /// The game was taken back to `ply` (0 = its start), showing `fen` (an arbiter's
    /// take-back). Moves made after it are forgotten.
    void taken_back(int ply, std::string_view fen);

    /// The latest clock times known (ms), for the clock request: the clock's live reading when
    /// the daemon has one (Art. 6.10.1), else those of the last completed move.
    void clock_times(std::int64_t white_ms, std::int64_t black_ms);

    /// An alert (ALERT kind of docs/client-api.md, or "boards_agree"): its words when spoken,
    /// important (said before waiting moves).
    [[nodiscard]] std::optional<Spoken>
    alert(std::string_view kind, std::span<const Square> squares, std::optional<Color> side) const;

    /// The answer to a request (D.2.10.4), asked through a clock button or the client API.
    [[nodiscard]] Spoken answer(const InfoRequest& request) const;

    /// `text` (a menu prompt, access/button_menu.hpp) in this board's speech language.
    [[nodiscard]] Spoken prompt(std::string text) const { return spoken(std::move(text), false); }

    /// The position after the last move made (its undo stack holds the moves since
    /// the line's start).
    [[nodiscard]] const Position& position() const { return line_.position(); }
    [[nodiscard]] const SpeechSettings& settings() const { return settings_; }

  private:
    [[nodiscard]] Spoken spoken(std::string text, bool important) const;

    SpeechSettings settings_;
    /// The game line as the events tell it (rules/game.hpp; the record's own Game is the
    /// daemon's, this one follows the events a client sees).
    Game line_;
    int base_ply_ = 0; ///< ply of the line's start position
    std::optional<std::int64_t> white_ms_, black_ms_;
};

} // namespace eboard::access
