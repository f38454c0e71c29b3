// A game played on two boards ([23] Appendix D.1, D.2.9; [05] F1, F2.7-F2.8): the sighted
// player's normal board and the visually impaired player's tactile board. Each move is made
// on one board and repeated on the other; "if during a game different positions occur on the
// two boards", the arbiter must have them corrected. This tells when the two differ and on
// which squares, and when they agree again. Pure; the daemon feeds it the MOVE events of both
// boards and raises ALERT both_boards_differ.
#pragma once

#include "base/sensors.hpp"
#include "base/types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace eboard::access {

/// The squares whose contents differ, a1..h8 order (the boards as their FENs' placement fields
/// give them, base/placement.hpp).
[[nodiscard]] std::vector<Square> differing_squares(const BoardReading& a, const BoardReading& b);

/// The state of a two-board game.
class TwoBoards {
  public:
    enum class Board : std::uint8_t { Sighted = 0, Tactile = 1 };

    /// What changed: the boards now differ (on `squares`), or agree again (squares empty).
    struct Change {
        bool differ = false;
        std::vector<Square> squares;
    };

    /// Both boards at the start position of a new game (`fen`).
    void start(std::string_view fen);

    /// `board` shows the position `fen` after its move `ply` (MOVE made). Returns a change of
    /// state, or nullopt when nothing changed. The rule:
    /// - both at the same ply: they differ when their positions differ;
    /// - one a ply ahead (the move not yet repeated on the other board, the normal case
    ///   between a move and its repetition): the one behind is compared with the position the
    ///   one ahead had at that ply;
    /// - two or more plies apart: a move was not repeated; they differ.
    /// A ply at or below a board's last one replaces its line from there (a move taken back).
    [[nodiscard]] std::optional<Change> moved(Board board, int ply, std::string_view fen);

    /// True while the boards differ.
    [[nodiscard]] bool differ() const noexcept { return differ_; }

  private:
    struct Side {
        int ply = 0;
        std::optional<BoardReading> now, before; ///< after `ply`, after `ply - 1`
    };
    [[nodiscard]] std::vector<Square> compare() const;

    std::array<Side, 2> sides_{};
    bool differ_ = false;
    std::vector<Square> squares_;
};

} // namespace eboard::access
