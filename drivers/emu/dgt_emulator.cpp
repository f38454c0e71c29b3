#include "drivers/emu/dgt_emulator.hpp"

namespace eboard::drivers::emu {

DgtEmulator::DgtEmulator(DgtEmulatorOptions options)
    : model_(options),
      service_(
          WireModel{[this](std::span<const std::uint8_t> b, Millis now) { model_.receive(b, now); },
                    [this](Millis now) { model_.tick(now); },
                    [this] { return model_.take_output(); },
                    [this](Millis now) { model_.power_on(now); }},
          options.fragment_max, options.seed) {}

DgtEmulator::~DgtEmulator() {
    service_.stop();
}

void DgtEmulator::disconnect() {
    service_.stop();
}

void DgtEmulator::lift(Square s) {
    act([&](DgtBoardEmu& m, Millis now) { m.lift(s, now); });
}
void DgtEmulator::place(Square s, Piece p) {
    act([&](DgtBoardEmu& m, Millis now) { m.place(s, p, now); });
}
void DgtEmulator::move(Square from, Square to) {
    act([&](DgtBoardEmu& m, Millis now) {
        const Piece p = m.position().at(from).piece;
        m.lift(from, now);
        if (m.position().at(to).occupied) m.lift(to, now);
        m.place(to, p, now);
    });
}
void DgtEmulator::set_position(const BoardState& b) {
    act([&](DgtBoardEmu& m, Millis now) { m.set_position(b, now); });
}
void DgtEmulator::press_lever(ClockSide side) {
    act([&](DgtBoardEmu& m, Millis now) { m.press_lever(side, now); });
}
void DgtEmulator::press_button(int button) {
    act([&](DgtBoardEmu& m, Millis now) { m.press_button(button, now); });
}
void DgtEmulator::set_clock_connected(bool connected) {
    act([&](DgtBoardEmu& m, Millis now) { m.set_clock_connected(connected, now); });
}
void DgtEmulator::set_drop_acks(int n) {
    const std::lock_guard lock(service_.mutex());
    model_.set_drop_acks(n);
}
BoardState DgtEmulator::position() const {
    const std::lock_guard lock(service_.mutex());
    return model_.position();
}
BoardMode DgtEmulator::mode() const {
    const std::lock_guard lock(service_.mutex());
    return model_.mode();
}
ClockEmuState DgtEmulator::clock() const {
    const std::lock_guard lock(service_.mutex());
    return model_.clock().state();
}
int DgtEmulator::acks_dropped() const {
    const std::lock_guard lock(service_.mutex());
    return model_.acks_dropped();
}
int DgtEmulator::error_acks_sent() const {
    const std::lock_guard lock(service_.mutex());
    return model_.error_acks_sent();
}
std::vector<std::uint8_t> DgtEmulator::received() const {
    const std::lock_guard lock(service_.mutex());
    return model_.received();
}

bool DgtEmulator::wait_until(const std::function<bool(const DgtBoardEmu&)>& pred, int timeout_ms) {
    return service_.wait_until([&] { return pred(model_); }, timeout_ms);
}

} // namespace eboard::drivers::emu
