#include "drivers/emu/millennium_emulator.hpp"

#include "drivers/core/session.hpp"

namespace eboard::drivers::emu {

MillenniumEmulator::MillenniumEmulator(const MillenniumEmulatorOptions& options)
    : model_(options), pty_(model_, options.fragment_max, options.seed) {}

void MillenniumEmulator::lift(Square s) {
    pty_.act([&] { model_.lift(s, steady_now_ms()); });
}
void MillenniumEmulator::place(Square s, Piece p) {
    pty_.act([&] { model_.place(s, p, steady_now_ms()); });
}
void MillenniumEmulator::set_position(const BoardReading& b) {
    pty_.act([&] { model_.set_position(b, steady_now_ms()); });
}
void MillenniumEmulator::move(Square from, Square to) {
    pty_.act([&] {
        const TimeMs now = steady_now_ms();
        const Piece p = model_.position().at(from).piece;
        model_.lift(from, now);
        if (model_.position().at(to).occupied) model_.lift(to, now);
        model_.place(to, p, now);
    });
}
void MillenniumEmulator::cut_next_report(std::size_t keep) {
    pty_.act([&] { model_.cut_next_report(keep); });
}
BoardReading MillenniumEmulator::position() const {
    return pty_.inspect([&] { return model_.position(); });
}
MillenniumBoardEmu MillenniumEmulator::snapshot() const {
    return pty_.inspect([&] { return model_; });
}
bool MillenniumEmulator::wait_until(const std::function<bool(const MillenniumBoardEmu&)>& pred,
                                    int timeout_ms) {
    return pty_.wait_until([&] { return pred(model_); }, timeout_ms);
}

} // namespace eboard::drivers::emu
