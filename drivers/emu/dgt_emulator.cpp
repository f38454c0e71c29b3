#include "drivers/emu/dgt_emulator.hpp"

#include "drivers/core/session.hpp"

namespace eboard::drivers::emu {

DgtEmulator::DgtEmulator(const DgtEmulatorOptions& options)
    : model_(options), pty_(model_, options.fragment_max, options.seed) {}

void DgtEmulator::lift(Square s) {
    pty_.act([&] { model_.lift(s, steady_now_ms()); });
}
void DgtEmulator::place(Square s, Piece p) {
    pty_.act([&] { model_.place(s, p, steady_now_ms()); });
}
void DgtEmulator::move(Square from, Square to) {
    pty_.act([&] {
        const TimeMs now = steady_now_ms();
        const Piece p = model_.position().at(from).piece;
        model_.lift(from, now);
        if (model_.position().at(to).occupied) model_.lift(to, now);
        model_.place(to, p, now);
    });
}
void DgtEmulator::set_position(const BoardReading& b) {
    pty_.act([&] { model_.set_position(b, steady_now_ms()); });
}
void DgtEmulator::press_lever(ClockSide side) {
    pty_.act([&] { model_.press_lever(side, steady_now_ms()); });
}
void DgtEmulator::press_button(int button) {
    pty_.act([&] { model_.press_button(button, steady_now_ms()); });
}
void DgtEmulator::set_clock_connected(bool connected) {
    pty_.act([&] { model_.set_clock_connected(connected, steady_now_ms()); });
}
void DgtEmulator::set_drop_acks(int n) {
    pty_.act([&] { model_.set_drop_acks(n); });
}
void DgtEmulator::set_battery(std::optional<int> percent, bool charging) {
    pty_.act([&] { model_.set_battery(percent, charging); });
}
BoardReading DgtEmulator::position() const {
    return pty_.inspect([&] { return model_.position(); });
}
BoardMode DgtEmulator::mode() const {
    return pty_.inspect([&] { return model_.mode(); });
}
ClockEmuState DgtEmulator::clock() const {
    return pty_.inspect([&] { return model_.clock().state(); });
}
int DgtEmulator::acks_dropped() const {
    return pty_.inspect([&] { return model_.acks_dropped(); });
}
int DgtEmulator::error_acks_sent() const {
    return pty_.inspect([&] { return model_.error_acks_sent(); });
}
std::vector<std::uint8_t> DgtEmulator::received() const {
    return pty_.inspect([&] { return model_.received(); });
}

bool DgtEmulator::wait_until(const std::function<bool(const DgtBoardEmu&)>& pred, int timeout_ms) {
    return pty_.wait_until([&] { return pred(model_); }, timeout_ms);
}

} // namespace eboard::drivers::emu
