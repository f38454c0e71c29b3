#include "drivers/line/leds.hpp"

#include <algorithm>

#include "drivers/line/protocol.hpp"

namespace eboard::drivers::line {

std::vector<std::uint8_t> LedChannel::encode(Bitboard on, bool rotated, LedKind as) const {
    if (as == LedKind::Rgb) return rgb_led_command(on, rotated);
    const auto c = led_command(on, rotated);
    return {c.begin(), c.end()};
}

void LedChannel::on_ack(char letter, TimeMs now) {
    (void)now;
    const LedKind k = letter == 'D' ? LedKind::Rgb : letter == 'L' ? LedKind::Classic : kind_;
    if (k == kind_) return;
    trace_.note(k == LedKind::Rgb ? "LED acknowledgement 'D': RGB LEDs" : "LED acknowledgement 'L': classic LEDs");
    kind_ = k;
    // A classic board took the first 8 bytes of the RGB probe as LEDs: show the squares again.
    resend_ = k == LedKind::Classic && rgb_probed_;
}

void LedChannel::tick(TimeMs now, bool rotated, const Send& send) {
    if (kind_ == LedKind::Unknown && probe_at_ && now - *probe_at_ >= opt_.ack_wait_ms) {
        if (!rgb_probed_ && sent_) {
            trace_.note("no 'L' after the classic LED command: trying the RGB form");
            send(encode(*sent_, rotated, LedKind::Rgb));
            rgb_probed_ = true;
            probe_at_ = now;
        } else {
            // The RGB probe may have lit nonsense on a silent classic board: show it again.
            trace_.note("no LED acknowledgement at all: assuming classic LEDs");
            kind_ = LedKind::Classic;
            if (sent_) send(encode(*sent_, rotated, LedKind::Classic));
        }
    }
    if (resend_ && sent_) {
        send(encode(*sent_, rotated, LedKind::Classic));
        resend_ = false;
    }
    if (repeats_left_ > 0 && now >= repeat_at_) {
        send(last_bytes_);
        --repeats_left_;
        repeat_at_ = now + opt_.repeat_gap_ms;
    }
    if (!pending_ || (sent_ && now - sent_at_ < opt_.interval_ms)) return;
    const Bitboard on = *pending_;
    pending_.reset();
    if (sent_ && *sent_ == on && on != 0) return;  // nothing new to show
    last_bytes_ = encode(on, rotated, kind_ == LedKind::Rgb ? LedKind::Rgb : LedKind::Classic);
    send(last_bytes_);
    sent_ = on;
    sent_at_ = now;
    repeats_left_ = opt_.repeats;
    repeat_at_ = now + opt_.repeat_gap_ms;
    if (kind_ == LedKind::Unknown && !probe_at_) probe_at_ = now;
}

TimeMs LedChannel::next_due(TimeMs now) const {
    TimeMs due = kNoTick;
    if (kind_ == LedKind::Unknown && probe_at_) due = std::min(due, *probe_at_ + opt_.ack_wait_ms);
    if (resend_ && sent_) due = now;
    if (repeats_left_ > 0) due = std::min(due, repeat_at_);
    if (pending_) due = std::min(due, sent_ ? std::max(now, sent_at_ + opt_.interval_ms) : now);
    return due;
}

} // namespace eboard::drivers::line
