#include "access/button_menu.hpp"

namespace eboard::access {

namespace {

constexpr int kItems = 4;

/// `i` one step on (+1) or back (-1) among 0..n-1, wrapping at both ends.
int step(int i, int by, int n) noexcept {
    return (i + by + n) % n;
}

/// minus = -1, plus = +1, any other button 0.
int direction(int button) noexcept {
    return button == kKeyPlus ? 1 : button == kKeyMinus ? -1 : 0;
}

InfoRequest request(InfoRequest::Kind kind, int index, Square square = Square::none()) {
    return InfoRequest{kind, 1, index, square};
}

} // namespace

Square ButtonMenu::start_square(const Position& current) noexcept {
    if (current.history_size() == 0) return Square::at(4, 0); // e1
    const Move m = current.last_move();
    // Castling is stored as the king taking its rook: the king's arrival is king_to().
    return m.is_castling() ? m.king_to() : m.to();
}

MenuReply ButtonMenu::prompt(std::string text) const {
    return MenuReply{std::nullopt, std::move(text), true};
}

MenuReply ButtonMenu::file_prompt() const {
    return prompt(std::string(words(vocabulary_).file[static_cast<std::size_t>(file_)]));
}

std::string ButtonMenu::item_name() const {
    const Words& w = words(vocabulary_);
    switch (item_) {
    case Item::Position:
        return std::string(w.position_word);
    case Item::Square:
        return std::string(w.square_word);
    case Item::Rank:
        return std::string(w.rank_word);
    case Item::File:
        return std::string(w.file_word);
    }
    return {};
}

std::optional<MenuReply> ButtonMenu::choose(const Position& current) {
    const Square start = start_square(current);
    file_ = start.file();
    rank_ = start.rank();
    switch (item_) {
    case Item::Position:
        level_ = Level::Closed;
        return MenuReply{request(InfoRequest::Kind::Position, 0), {}, true};
    case Item::Square:
        level_ = Level::FileChoice;
        return file_prompt();
    case Item::Rank:
        level_ = Level::Rank;
        return MenuReply{request(InfoRequest::Kind::Rank, rank_), {}, true};
    case Item::File:
        level_ = Level::File;
        return MenuReply{request(InfoRequest::Kind::File, file_), {}, true};
    }
    return std::nullopt;
}

std::optional<MenuReply> ButtonMenu::press(int button, std::int64_t at_ms,
                                           const Position& current) {
    if (button < kKeyBack || button > kKeyOk) return std::nullopt;
    if (level_ != Level::Closed && (at_ms - last_ms_ > kMenuTimeoutMs || at_ms < last_ms_))
        level_ = Level::Closed;
    last_ms_ = at_ms;
    const Words& w = words(vocabulary_);
    const int by = direction(button);
    switch (level_) {
    case Level::Closed:
        if (button != kKeyOk) return MenuReply{info_request_for_button(button), {}, false};
        level_ = Level::Items;
        item_ = Item::Position;
        return prompt(std::string(w.menu) + ", " + item_name());
    case Level::Items:
        if (button == kKeyBack) {
            level_ = Level::Closed;
            return prompt(std::string(w.menu_closed));
        }
        if (button == kKeyOk) return choose(current);
        if (button == kKeyRun) return prompt(std::string(w.menu) + ", " + item_name());
        item_ = static_cast<Item>(step(static_cast<int>(item_), by, kItems));
        return prompt(item_name());
    case Level::Rank:
    case Level::File: {
        if (button == kKeyBack) {
            level_ = Level::Items;
            return prompt(item_name());
        }
        const bool rank = level_ == Level::Rank;
        int& index = rank ? rank_ : file_;
        index = step(index, by, 8); // run and ok: by 0, the same line again
        return MenuReply{
            request(rank ? InfoRequest::Kind::Rank : InfoRequest::Kind::File, index), {}, true};
    }
    case Level::FileChoice:
        if (button == kKeyBack) {
            level_ = Level::Items;
            return prompt(item_name());
        }
        if (button == kKeyOk) {
            level_ = Level::SquareWalk;
            return MenuReply{
                request(InfoRequest::Kind::Square, 0, Square::at(file_, rank_)), {}, true};
        }
        file_ = step(file_, by, 8); // run: by 0, the file again
        return file_prompt();
    case Level::SquareWalk:
        if (button == kKeyBack) {
            level_ = Level::FileChoice;
            return file_prompt();
        }
        rank_ = step(rank_, by, 8); // run and ok: by 0, the square again
        return MenuReply{request(InfoRequest::Kind::Square, 0, Square::at(file_, rank_)), {}, true};
    }
    return std::nullopt;
}

} // namespace eboard::access
