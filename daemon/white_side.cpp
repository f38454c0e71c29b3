#include "daemon/white_side.hpp"

namespace eboard::daemon {

using drivers::ClockSide;

WhiteSideLearner::WhiteSideLearner(WhiteSide mode) : auto_(mode == WhiteSide::Auto) {
    if (mode == WhiteSide::Left) white_ = ClockSide::Left;
    if (mode == WhiteSide::Right) white_ = ClockSide::Right;
}

void WhiteSideLearner::game_begins(std::optional<ClockSide> kept) {
    if (!auto_) return;
    held_press_.reset();
    touched_at_start_ = false;
    learnt_ = kept.has_value();
    if (kept) white_ = *kept;
    // else: a game of its own, perhaps with the clock turned round; it learns its side.
}

void WhiteSideLearner::touched_at_start(TimeMs t_ms) {
    touched_at_start_ = true;
    if (held_press_ && !held_touch_) held_touch_ = t_ms;
}

std::vector<WhiteSideLearner::Action> WhiteSideLearner::lever(const drivers::ClockLever& lever, const Game& game) {
    std::vector<Action> out;
    // The player presses his own side down, so the other side goes up (dgt.md 13).
    const ClockSide pressed = drivers::other_side(lever.high);
    if (pressed == ClockSide::None) return out;
    if (open(game) && learnt_ && !touched_at_start_) {
        // Before the first move and before any piece was touched: the first mover's press (his
        // move not reported yet) or the clock being set up. The board decides.
        if (held_press_) decide_held_press(std::nullopt, game, out); // two set-up presses
        held_press_ = lever;
        held_touch_.reset();
        return out;
    }
    if (auto_ && !learnt_ && game.exists && game.plies <= 1) {
        // No lever read before the first move: the first press of a game completes its first
        // move, White's unless the game started with Black to move (a position set by the
        // arbiter).
        learn(game.first_to_move == Color::Black ? drivers::other_side(pressed) : pressed, "its first press", out);
    }
    out.emplace_back(LeverPressed{lever.t_ms, color_of(pressed)});
    return out;
}

std::vector<WhiteSideLearner::Action> WhiteSideLearner::clock_report(const drivers::ClockReport& report,
                                                                     const Game& game) {
    std::vector<Action> out;
    // A press held since longer than the board's lag, with no touch, was the clock being set up.
    if (held_press_ && report.t_ms - held_press_->t_ms > kBoardLagMs) decide_held_press(std::nullopt, game, out);
    if (open(game) && !held_press_) learn_from_lever(report.lever_high, game, out);
    return out;
}

std::vector<WhiteSideLearner::Action> WhiteSideLearner::after_input(const Game& game) {
    std::vector<Action> out;
    if (held_press_ && held_touch_) decide_held_press(held_touch_, game, out);
    return out;
}

std::vector<WhiteSideLearner::Action> WhiteSideLearner::game_started(ClockSide high, const Game& game) {
    std::vector<Action> out;
    if (open(game)) learn_from_lever(high, game, out);
    return out;
}

Color WhiteSideLearner::color_of(ClockSide side) const {
    return side == white_.value_or(ClockSide::Left) ? Color::White : Color::Black;
}

ClockSide WhiteSideLearner::side_of(Color c) const {
    const ClockSide white = white_.value_or(ClockSide::Left);
    return c == Color::White ? white : drivers::other_side(white);
}

bool WhiteSideLearner::open(const Game& game) const {
    return auto_ && game.exists && game.plies == 0 && game.plies_on_board == 0;
}

void WhiteSideLearner::learn(ClockSide white, const char* how, std::vector<Action>& out) {
    const bool changed = white_ != white || !learnt_;
    white_ = white;
    learnt_ = true;
    out.emplace_back(Learnt{white, how, changed});
}

void WhiteSideLearner::learn_from_lever(ClockSide high, const Game& game, std::vector<Action>& out) {
    // The lever's high side is the side whose clock runs (or will run when started): the first
    // mover's (dgt.md 10.1 status bit 1).
    if (high == ClockSide::None || !game.exists) return;
    learn(game.first_to_move == Color::Black ? drivers::other_side(high) : high, "its lever before the first move",
          out);
}

void WhiteSideLearner::decide_held_press(std::optional<TimeMs> touch_ms, const Game& game, std::vector<Action>& out) {
    const drivers::ClockLever press = *held_press_;
    held_press_.reset();
    held_touch_.reset();
    const ClockSide pressed = drivers::other_side(press.high);
    if (touch_ms && *touch_ms - press.t_ms <= kBoardLagMs) {
        // The first mover pressed; his move reached us after the press.
        out.emplace_back(LeverPressed{press.t_ms, color_of(pressed)});
        return;
    }
    // Nobody had touched a piece: the clock was set up; its lever now shows whose clock runs.
    if (open(game)) learn_from_lever(press.high, game, out);
}

} // namespace eboard::daemon
