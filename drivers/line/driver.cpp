#include "drivers/line/driver.hpp"

#include <algorithm>

namespace eboard::drivers::line {

Expected<LineOptions> LineOptions::from_params(const DriverOptions& o, LineOptions d) {
    if (const auto it = o.params.find("orientation"); it != o.params.end()) {
        if (it->second == "normal") d.rotated = false;
        else if (it->second == "rotated") d.rotated = true;
        else return Error{"orientation must be normal or rotated, not '" + it->second + "'"};
    }
    const auto vote = int_param(o, "vote-frames", d.vote_frames);
    const auto silence = int_param(o, "silence-ms", d.silence_ms);
    const auto interval = int_param(o, "led-interval-ms", d.leds.interval_ms);
    const auto repeats = int_param(o, "led-repeats", d.leds.repeats);
    for (const auto* v : {&vote, &silence, &interval, &repeats})
        if (!*v) return v->error();
    if (*vote < 1 || *vote > 15) return Error{"vote-frames must be 1..15"};
    if (*repeats > 5) return Error{"led-repeats must be 0..5"};
    d.vote_frames = static_cast<int>(*vote);
    d.silence_ms = *silence;
    d.leds.interval_ms = *interval;
    d.leds.repeats = static_cast<int>(*repeats);
    return d;
}

std::vector<OptionInfo> line_options() {
    return {
        {"orientation", "normal|rotated", "normal (default) | rotated: white at the board's rank-8 edge"},
        {"vote-frames", "1..15",
         "a square changes once the majority of this many frames agrees (default 3; 1 = every frame)"},
        {"silence-ms", "MS", "no valid frame this long: the board counts as gone (default 5000)"},
        {"led-interval-ms", "MS", "at most one LED command per interval (default 600)"},
        {"led-repeats", "0..5", "each LED command is sent this many extra times (default 0)"},
    };
}

LineDriver::LineDriver(std::string name, std::size_t numbers, LineOptions options)
    : trace_(trace_channel(name)), opt_(options), stream_(options.vote_frames), name_(std::move(name)),
      numbers_(numbers), leds_(options.leds, trace_) {}

void LineDriver::start(DriverHost& host, TimeMs now) {
    // Nothing to send: the board streams frames on its own (2.1). A start after a
    // reconnection begins a fresh board (the session's contract: the start-up ends in a
    // BoardSnapshot): pieces may have moved while the cable was out.
    host_ = &host;
    last_frame_ = now;
    linked_ = true;
    stream_.reset();
}

void LineDriver::on_bad_frame(const std::string& why, TimeMs now) {
    ++bad_frames_;
    // One note a second at most: a wrong board type would otherwise note every frame.
    if (last_bad_note_ >= 0 && now - last_bad_note_ < 1000) return;
    last_bad_note_ = now;
    trace_.note("frame dropped: " + why);
}

void LineDriver::on_packet(std::span<const std::uint8_t> packet, TimeMs now) {
    const auto line = decode(packet);
    if (!line) {
        on_bad_frame(line.error().message, now);
        return;
    }
    if (line->ack != 0) leds_.on_ack(line->ack, now);
    if (line->numbers.empty()) return;  // an acknowledgement line
    if (line->numbers.size() != numbers_) {
        const std::size_t n = line->numbers.size();
        on_bad_frame(std::to_string(n) + " numbers, not " + std::to_string(numbers_) +
                         (n == certabo_numbers ? " (a Certabo board: use the certabo driver)"
                          : n == sentio_numbers ? " (a Sentio board: use the sentio driver)"
                                                : ""),
                     now);
        return;
    }
    last_frame_ = now;
    if (!linked_) {
        linked_ = true;
        trace_.note("frames again");
        stream_.reset();
        host_->emit(LinkStatus{now, true, "the board sends frames again"});
    }
    if (!seen_frame_) {
        seen_frame_ = true;
        report_info(now);
    }
    on_frame(line->numbers, now);
}

void LineDriver::report_info(TimeMs now) {
    DeviceInfo info;
    info.t_ms = now;
    info.driver = name_;
    info.trademark = description();
    host_->emit(info);
}

void LineDriver::on_tick(TimeMs now) {
    if (!host_) return;
    if (linked_ && now - last_frame_ >= opt_.silence_ms) {
        linked_ = false;
        const std::string why = "no frame for " + std::to_string(now - last_frame_) + " ms";
        trace_.note(why);
        host_->emit(LinkStatus{now, false, why});
    }
    leds_.tick(now, opt_.rotated, [this](std::span<const std::uint8_t> b) { host_->send(b); });
}

TimeMs LineDriver::next_tick_ms(TimeMs now) const {
    TimeMs due = leds_.next_due(now);
    if (linked_) due = std::min(due, last_frame_ + opt_.silence_ms);
    return due;
}

} // namespace eboard::drivers::line
