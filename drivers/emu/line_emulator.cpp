#include "drivers/emu/line_emulator.hpp"

namespace eboard::drivers::emu {

LineEmulator::LineEmulator(const LineEmulatorOptions& options)
    : model_(options), pty_(model_, options.fragment_max, options.seed) {}

void LineEmulator::lift(Square s) {
    pty_.act([&] { model_.lift(s); });
}
void LineEmulator::place(Square s, Piece p) {
    pty_.act([&] { model_.place(s, p); });
}
void LineEmulator::move(Square from, Square to) {
    pty_.act([&] {
        const Piece p = model_.position().at(from).piece;
        model_.lift(from);
        if (model_.position().at(to).occupied) model_.lift(to);
        model_.place(to, p);
    });
}
void LineEmulator::set_position(const BoardReading& b) {
    pty_.act([&] { model_.set_position(b); });
}
void LineEmulator::set_calibration_position() {
    pty_.act([&] { model_.set_calibration_position(); });
}
void LineEmulator::bounce_next_frame(Square s) {
    pty_.act([&] { model_.bounce_next_frame(s); });
}
void LineEmulator::cut_next_frame(std::size_t keep) {
    pty_.act([&] { model_.cut_next_frame(keep); });
}
BoardReading LineEmulator::position() const {
    return pty_.inspect([&] { return model_.position(); });
}
Bitboard LineEmulator::leds() const {
    return pty_.inspect([&] { return model_.leds(); });
}
int LineEmulator::led_commands() const {
    return pty_.inspect([&] { return model_.led_commands(); });
}
int LineEmulator::frames_sent() const {
    return pty_.inspect([&] { return model_.frames_sent(); });
}
std::vector<std::uint8_t> LineEmulator::received() const {
    return pty_.inspect([&] { return model_.received(); });
}
certabo::Calibration LineEmulator::full_calibration() const {
    return pty_.inspect([&] { return model_.full_calibration(); });
}

bool LineEmulator::wait_until(const std::function<bool(const LineBoardEmu&)>& pred, int timeout_ms) {
    return pty_.wait_until([&] { return pred(model_); }, timeout_ms);
}

} // namespace eboard::drivers::emu
