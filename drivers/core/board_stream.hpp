// Boards that stream whole-board readings again and again (Certabo, Sentio; also a fit for
// Millennium status messages and Chessnut reports): a per-square majority vote over the last
// frames against sensor noise, and the events for what changed. The first settled board (and
// the next one after request_dump()) is a BoardSnapshot; after that, one SquareChange per square
// whose voted reading changed. Source of the vote: certabo-sentio.md 3.2 (certabo-lichess
// keeps 3 frames per square; picochess "low gain" mode).
#pragma once

#include "drivers/core/driver.hpp"

#include <deque>
#include <optional>

namespace eboard::drivers {

class BoardStream {
  public:
    /// `vote_frames` >= 1 (smaller values count as 1): a square takes a new reading once that
    /// reading is in more than half of the last `vote_frames` frames; 1 = every frame as is.
    explicit BoardStream(int vote_frames = 1);

    /// One whole-board reading (already in eboard squares) at `now`. Emits a BoardSnapshot when
    /// the first `vote_frames` frames are in (squares without a majority then take the newest
    /// reading) or a dump was requested, else SquareChange events in square order a1..h8.
    void push(const BoardReading& raw, TimeMs now, DriverHost& host);
    /// The next push emits the whole board as a BoardSnapshot.
    void request_dump() noexcept { dump_requested_ = true; }
    /// Forgets the history and the reported board: the next settled board is a BoardSnapshot.
    void reset();

    /// The board as last reported (meaningful once settled()).
    [[nodiscard]] const BoardReading& board() const noexcept { return board_; }
    [[nodiscard]] bool settled() const noexcept { return settled_; }
    [[nodiscard]] int vote_frames() const noexcept { return vote_frames_; }

  private:
    /// The reading of square `s` in more than half of the history, if any.
    [[nodiscard]] std::optional<SquareReading> majority(Square s) const;

    int vote_frames_;
    std::deque<BoardReading> history_;  // newest last, at most vote_frames_
    BoardReading board_;
    bool settled_ = false;
    bool dump_requested_ = false;
};

} // namespace eboard::drivers
