#include "drivers/emu/millennium_emulator.hpp"

namespace eboard::drivers::emu {

MillenniumEmulator::MillenniumEmulator(MillenniumEmulatorOptions options)
    : model_(options),
      service_(
          WireModel{[this](std::span<const std::uint8_t> b, Millis now) { model_.receive(b, now); },
                    [this](Millis now) { model_.tick(now); },
                    [this] { return model_.take_output(); },
                    [this](Millis now) { model_.power_on(now); }},
          options.fragment_max, options.seed) {}

MillenniumEmulator::~MillenniumEmulator() {
    service_.stop();
}

void MillenniumEmulator::lift(Square s) {
    act([&](MillenniumBoardEmu& m, Millis now) { m.lift(s, now); });
}
void MillenniumEmulator::place(Square s, Piece p) {
    act([&](MillenniumBoardEmu& m, Millis now) { m.place(s, p, now); });
}
void MillenniumEmulator::set_position(const BoardState& b) {
    act([&](MillenniumBoardEmu& m, Millis now) { m.set_position(b, now); });
}
void MillenniumEmulator::move(Square from, Square to) {
    act([&](MillenniumBoardEmu& m, Millis now) {
        const Piece p = m.position().at(from).piece;
        m.lift(from, now);
        if (m.position().at(to).occupied) m.lift(to, now);
        m.place(to, p, now);
    });
}
void MillenniumEmulator::cut_next_report(std::size_t keep) {
    act([&](MillenniumBoardEmu& m, Millis) { m.cut_next_report(keep); });
}
BoardState MillenniumEmulator::position() const {
    const std::lock_guard lock(service_.mutex());
    return model_.position();
}
MillenniumBoardEmu MillenniumEmulator::snapshot() const {
    const std::lock_guard lock(service_.mutex());
    return model_;
}
bool MillenniumEmulator::wait_until(const std::function<bool(const MillenniumBoardEmu&)>& pred,
                                    int timeout_ms) {
    return service_.wait_until([&] { return pred(model_); }, timeout_ms);
}

} // namespace eboard::drivers::emu
