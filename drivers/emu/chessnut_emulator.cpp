#include "drivers/emu/chessnut_emulator.hpp"

#include "drivers/core/session.hpp"

namespace eboard::drivers::emu {

ChessnutEmulator::ChessnutEmulator(ChessnutEmulatorOptions options) : model_(std::move(options)) {}

template <typename F>
void ChessnutEmulator::act(F&& f) {
    {
        const std::lock_guard lock(mutex_);
        f(steady_now_ms());
        for (auto& r : model_.take_output()) pending_.push_back(std::move(r));
    }
    changed_.notify_all();
}

void ChessnutEmulator::out_report(std::span<const std::uint8_t> report, TimeMs now) {
    act([&](TimeMs) { model_.receive(report, now); });
}

std::optional<std::vector<std::uint8_t>> ChessnutEmulator::in_report(TimeMs now) {
    std::optional<std::vector<std::uint8_t>> out;
    {
        const std::lock_guard lock(mutex_);
        model_.tick(now);
        for (auto& r : model_.take_output()) pending_.push_back(std::move(r));
        if (pending_.empty()) return std::nullopt;
        out = std::move(pending_.front());
        pending_.pop_front();
    }
    changed_.notify_all();
    return out;
}

void ChessnutEmulator::wait_for_activity(int timeout_ms) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return !pending_.empty(); });
}

void ChessnutEmulator::power_on(TimeMs now) {
    act([&](TimeMs) {
        pending_.clear();
        model_.power_on(now);
    });
}

void ChessnutEmulator::lift(Square s) {
    act([&](TimeMs now) { model_.lift(s, now); });
}
void ChessnutEmulator::place(Square s, Piece p) {
    act([&](TimeMs now) { model_.place(s, p, now); });
}
void ChessnutEmulator::move(Square from, Square to) {
    act([&](TimeMs now) {
        const Piece p = model_.position().at(from).piece;
        model_.lift(from, now);
        if (model_.position().at(to).occupied) model_.lift(to, now);
        model_.place(to, p, now);
    });
}
void ChessnutEmulator::set_position(const BoardReading& b) {
    act([&](TimeMs now) { model_.set_position(b, now); });
}
void ChessnutEmulator::set_battery(chessnut::Battery b) {
    act([&](TimeMs) { model_.set_battery(b); });
}

BoardReading ChessnutEmulator::position() const {
    const std::lock_guard lock(mutex_);
    return model_.position();
}
ChessnutMode ChessnutEmulator::mode() const {
    const std::lock_guard lock(mutex_);
    return model_.mode();
}
Bitboard ChessnutEmulator::leds() const {
    const std::lock_guard lock(mutex_);
    return model_.leds();
}
int ChessnutEmulator::beeps() const {
    const std::lock_guard lock(mutex_);
    return model_.beeps();
}
std::vector<std::vector<std::uint8_t>> ChessnutEmulator::commands() const {
    const std::lock_guard lock(mutex_);
    return model_.commands();
}
int ChessnutEmulator::spacing_violations() const {
    const std::lock_guard lock(mutex_);
    return model_.spacing_violations();
}

bool ChessnutEmulator::wait_until(const std::function<bool(const ChessnutBoardEmu&)>& pred, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return pred(model_); });
}

} // namespace eboard::drivers::emu
