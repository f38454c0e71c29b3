// The DGT3000's buttons as a spoken menu ([23] D.2.10.4: information on request "through the
// clock" for a visually impaired player): buttons 0..3 answer at once (both clocks, number of
// moves, last move, last four plies); button 4 (ok) opens a menu of the answers that need a
// square, rank or file named: the whole position, one square, a rank, a file. Speech only: the
// clock's display keeps showing both clocks (Art. 6.10.1). Buttons are numbered 0..4 left to
// right: back, minus, run, plus, ok (docs/protocols/dgt.md § 13; the clock reports
// presses only, never releases). The levels and what each button does there are tabled in
// docs/accessibility.md. Pure: no I/O, no clock of its own (the press times come with the
// presses); one per board.
#pragma once

#include "access/information.hpp"
#include "access/vocabulary.hpp"
#include "rules/position.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace eboard::access {

/// The clock's buttons, left to right (dgt.md § 13: codes '1'..'5').
enum ClockKey : int { kKeyBack = 0, kKeyMinus = 1, kKeyRun = 2, kKeyPlus = 3, kKeyOk = 4 };

/// A press more than this long (ms) after the previous one finds the menu closed: the player
/// who left it half-way and presses again later hears the buttons' usual answers.
inline constexpr std::int64_t kMenuTimeoutMs = 30000;

/// What one press asks to say: either an answer (through the announcer's answer path, so that
/// the clock request reads the live clock) or a prompt of the menu's own words.
struct MenuReply {
    std::optional<InfoRequest> request; ///< an answer, or nullopt for `prompt`
    std::string prompt;                 ///< "Menü, Stellung", "Reihe", "Eva", "Menü Ende"
    /// Said from within the menu (prompts and the menu's answers): a newer menu utterance may
    /// drop it while it still waits in the speech queue (speech::Utterance::menu).
    bool menu = false;
};

/// One board's clock-button menu.
class ButtonMenu {
  public:
    /// Where the menu is. Closed: the buttons answer directly.
    enum class Level : std::uint8_t { Closed, Items, Rank, File, FileChoice, SquareWalk };
    /// The menu's items, in the order minus/plus step through them.
    enum class Item : std::uint8_t { Position, Square, Rank, File };

    /// Prompts in the words of `v` (the answers are in the announcer's).
    explicit ButtonMenu(Vocabulary v = Vocabulary::AppendixD) : vocabulary_(v) {}

    /// Button `button` (0..4) pressed at `at_ms` (the driver's time of the press, ms; only
    /// differences count) in the game at `current`. Returns what to say; nullopt for a
    /// button outside 0..4 (ignored, the menu stays as it was). A press more than
    /// kMenuTimeoutMs after the previous one, or earlier than it (the driver's time started
    /// again), finds the menu closed.
    [[nodiscard]] std::optional<MenuReply> press(int button, std::int64_t at_ms,
                                                 const Position& current);

    /// Closes the menu without a word (a new game starts).
    void close() noexcept { level_ = Level::Closed; }

    [[nodiscard]] Level level() const noexcept { return level_; }
    [[nodiscard]] Item item() const noexcept { return item_; }

    /// Where a rank, file or square walk starts: the arrival square of the last move made in
    /// the game at `current` (where the game just happened), else e1 (no move known: a square
    /// on the first rank, the same for both sides).
    [[nodiscard]] static Square start_square(const Position& current) noexcept;

  private:
    [[nodiscard]] MenuReply prompt(std::string text) const;
    /// The name of the file in hand ("Eva"), as a prompt.
    [[nodiscard]] MenuReply file_prompt() const;
    [[nodiscard]] std::string item_name() const;
    [[nodiscard]] std::optional<MenuReply> choose(const Position& current);

    Vocabulary vocabulary_;
    Level level_ = Level::Closed;
    Item item_ = Item::Position;
    int file_ = 0, rank_ = 0; ///< the rank, file or square in hand (0..7)
    std::int64_t last_ms_ = 0;
};

} // namespace eboard::access
