#include "drivers/emu/clock_emu.hpp"

#include <algorithm>

namespace eboard::drivers::emu {

using namespace dgt;

ClockEmu::ClockEmu(ClockEmuOptions o) : opt_(o) {
    st_.times.left_ms = o.left_ms;
    st_.times.right_ms = o.right_ms;
    st_.times.lever_high = o.lever_high;
    st_.times.connected = o.connected;
}

void ClockEmu::advance(TimeMs now) {
    const TimeMs dt = last_ < 0 ? 0 : now - last_;
    last_ = now;
    ClockReport& t = st_.times;
    if (!t.running || st_.run == ClockRun::None || dt <= 0) return;
    TimeMs& left = st_.run == ClockRun::Left ? t.left_ms : t.right_ms;
    left = std::max<TimeMs>(0, left - dt);
    if (left == 0) {  // flag falls; the clock blocks at zero (10.1 bit 4)
        (st_.run == ClockRun::Left ? t.left_flag : t.right_flag) = true;
        t.running = false;
    }
}

std::optional<ClockAck> ClockEmu::command(std::span<const std::uint8_t> f) {
    if (!opt_.connected || f.size() < 5) return std::nullopt;
    ++st_.commands;
    st_.last_command.assign(f.begin(), f.end());
    const std::uint8_t c = f[3];
    const auto payload = f.subspan(4, f.size() - 5);
    const ClockAck ok{clk::ack_ok, c, 0, 0};
    switch (c) {
    case clk::setnrun: {
        if (payload.size() < 7) return ClockAck{0x40, c, 0, 0};
        if (!opt_.mode23) return ClockAck{0x40, c, 0, 0};  // 11: only in mode 23
        const auto ms = [&](std::size_t i) {
            return ((payload[i] & 0x0f) * 3600 + payload[i + 1] * 60 + payload[i + 2]) * TimeMs{1000};
        };
        ClockReport& t = st_.times;
        t.left_ms = ms(0);
        t.right_ms = ms(3);
        t.left_flag = t.right_flag = false;
        const std::uint8_t flags = payload[6];
        st_.run = (flags & 0x01) ? ClockRun::Left : (flags & 0x02) ? ClockRun::Right : ClockRun::None;
        t.running = st_.run != ClockRun::None && !(flags & 0x04);
        t.turn = st_.run == ClockRun::Left ? ClockSide::Left
                 : st_.run == ClockRun::Right ? ClockSide::Right : ClockSide::None;
        st_.text.clear();
        return ok;
    }
    case clk::ascii: {
        if (opt_.model != ClockModel::Dgt3000 || payload.size() < 9) return std::nullopt;
        st_.text.assign(payload.begin(), payload.begin() + 8);
        if (payload[8]) ++st_.beeps;
        return ok;
    }
    case clk::display: {
        if (payload.size() < 8) return std::nullopt;
        // Wire order C B A F E D (12.1) back to display order A..F.
        const std::array<std::uint8_t, 6> seg = {payload[2], payload[1], payload[0],
                                                 payload[5], payload[4], payload[3]};
        st_.text = segments_to_text(seg);
        if (payload[7] == 0x03) ++st_.beeps;
        return ok;
    }
    case clk::end: st_.text.clear(); return ok;
    case clk::beep: ++st_.beeps; return ok;
    case clk::icons:
    case clk::button: return ok;
    case clk::version: {
        const std::uint8_t v = opt_.model == ClockModel::Dgt3000 ? 0x20 : 0x12;
        return ClockAck{clk::ack_ok, c, v, 0};
    }
    default: return ClockAck{0x40, c, 0, 0};
    }
}

void ClockEmu::press_lever(ClockSide side) {
    ClockReport& t = st_.times;
    const bool his_clock_ran = t.running && st_.run == (side == ClockSide::Left ? ClockRun::Left : ClockRun::Right);
    if (his_clock_ran) (side == ClockSide::Left ? t.left_ms : t.right_ms) += opt_.increment_ms;
    t.lever_high = side == ClockSide::Left ? ClockSide::Right : ClockSide::Left;
    // The lever is a see-saw: the side that went up is the one whose time now runs (10.1).
    st_.run = t.lever_high == ClockSide::Left ? ClockRun::Left : ClockRun::Right;
    t.turn = t.lever_high;
    const bool flagged = st_.run == ClockRun::Left ? t.left_flag : t.right_flag;
    t.running = !flagged;
}

std::optional<ClockAck> ClockEmu::press_button(int button) {
    if (!opt_.connected || button < 0 || button > 4) return std::nullopt;
    return ClockAck{clk::ack_ok, clk::auto_button,
                    static_cast<std::uint8_t>(0x01 | button_mask_bit(button)), button_code(button)};
}

void ClockEmu::set_connected(bool connected) {
    opt_.connected = connected;
    st_.times.connected = connected;
}

std::array<std::uint8_t, 10> ClockEmu::time_report() const { return encode_time_report(st_.times); }

} // namespace eboard::drivers::emu
