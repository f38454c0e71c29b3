#include "drivers/core/board_stream.hpp"

#include <algorithm>

namespace eboard::drivers {

BoardStream::BoardStream(int vote_frames) : vote_frames_(std::max(vote_frames, 1)) {}

void BoardStream::reset() {
    history_.clear();
    board_ = BoardReading{};
    settled_ = false;
    dump_requested_ = false;
}

std::optional<SquareReading> BoardStream::majority(Square s) const {
    const std::size_t n = history_.size();
    for (std::size_t i = 0; i < n; ++i) {
        const SquareReading r = history_[i].at(s);
        std::size_t count = 0;
        for (std::size_t j = 0; j < n; ++j) count += history_[j].at(s) == r;
        if (2 * count > n) return r;
    }
    return std::nullopt;
}

void BoardStream::push(const BoardReading& raw, TimeMs now, DriverHost& host) {
    history_.push_back(raw);
    while (history_.size() > static_cast<std::size_t>(vote_frames_)) history_.pop_front();
    if (!settled_ && history_.size() < static_cast<std::size_t>(vote_frames_)) return;

    BoardReading voted = settled_ ? board_ : raw;
    for (int i = 0; i < 64; ++i)
        if (const auto m = majority(Square(i))) voted.set(Square(i), *m);

    if (!settled_ || dump_requested_) {
        settled_ = true;
        dump_requested_ = false;
        board_ = voted;
        host.emit(BoardSnapshot{now, board_});
        return;
    }
    for (int i = 0; i < 64; ++i) {
        const Square s(i);
        if (voted.at(s) == board_.at(s)) continue;
        board_.set(s, voted.at(s));
        host.emit(SquareChange{now, s, voted.at(s)});
    }
}

} // namespace eboard::drivers
