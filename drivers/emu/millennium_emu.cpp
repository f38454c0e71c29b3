#include "drivers/emu/millennium_emu.hpp"

#include "drivers/core/trace.hpp"

#include <algorithm>

namespace eboard::drivers::emu {

using namespace millennium;

std::array<std::uint8_t, 256> default_millennium_e2rom() {
    std::array<std::uint8_t, 256> e{};
    e[e2rom::scan_time] = 20;
    return e;
}

MillenniumBoardEmu::MillenniumBoardEmu(MillenniumEmulatorOptions options)
    : opt_(std::move(options)), board_(opt_.position), scanned_(board_), rng_(opt_.seed) {}

std::vector<std::vector<std::uint8_t>> MillenniumBoardEmu::take_output() {
    return std::exchange(out_, {});
}

void MillenniumBoardEmu::power_on(TimeMs now) {
    in_.clear();
    replies_.clear();
    out_.clear();
    leds_ = {};
    has_reported_ = false;
    stable_scans_ = 0;
    reset_until_ = 0;
    next_scan_us_ = now * 1000;
    last_timed_report_ = now;
}

TimeMs MillenniumBoardEmu::scan_period_us() const {
    // E2ROM 01 in 2.048 ms units; values below 15 select 20 (7).
    const int v = opt_.e2rom[e2rom::scan_time] < 15 ? 20 : opt_.e2rom[e2rom::scan_time];
    return TimeMs{v} * 2048;
}

std::vector<std::uint8_t> MillenniumBoardEmu::wire(const std::string& text) const {
    std::vector<std::uint8_t> bytes = encode(text);
    if (!opt_.parity_bit)
        for (auto& b : bytes) b &= 0x7f;
    return bytes;
}

void MillenniumBoardEmu::emit_raw(std::vector<std::uint8_t> chunk) {
    out_.push_back(std::move(chunk));
}

void MillenniumBoardEmu::maybe_noise(std::vector<std::uint8_t>& bytes) {
    if (opt_.noise_probability <= 0) return;
    std::uniform_real_distribution<double> u(0, 1);
    if (u(rng_) >= opt_.noise_probability) return;
    std::uniform_int_distribution<int> kind(0, 3), n(1, 6), byte(0, 255);
    std::uniform_int_distribution<std::size_t> at(0, bytes.size() - 1);
    switch (kind(rng_)) {
    case 0: { // stray bytes before the message
        std::vector<std::uint8_t> g;
        for (int i = n(rng_); i > 0; --i) g.push_back(static_cast<std::uint8_t>(byte(rng_)));
        emit_raw(std::move(g));
        break;
    }
    case 1: { // a report cut short, then this message
        auto cut = wire(message('s', {status_from_board(scanned_, opt_.order)}));
        cut.resize(std::uniform_int_distribution<std::size_t>(1, 60)(rng_));
        emit_raw(std::move(cut));
        break;
    }
    case 2: // a wrong parity bit on one byte; the block check still holds (2)
        bytes[at(rng_)] ^= 0x80;
        break;
    default: { // one character damaged: the block check fails, the message is lost
        const std::size_t i = at(rng_);
        bytes[i] = with_parity(static_cast<char>((bytes[i] & 0x7f) == 'A' ? 'B' : 'A'));
        break;
    }
    }
}

void MillenniumBoardEmu::emit(const std::string& text) {
    auto bytes = wire(text);
    maybe_noise(bytes);
    if (cut_at_ > 0 && text[0] == 's') {
        bytes.resize(std::min(cut_at_, bytes.size()));
        cut_at_ = 0;
    }
    emit_raw(std::move(bytes));
}

void MillenniumBoardEmu::reply(const std::string& text, TimeMs now) {
    replies_.push_back({now + opt_.reply_latency_ms, text});
}

void MillenniumBoardEmu::report() {
    reported_ = scanned_;
    has_reported_ = true;
    ++reports_;
    emit(message('s', {status_from_board(scanned_, opt_.order)}));
}

void MillenniumBoardEmu::scan(TimeMs now) {
    const bool changed = !(board_ == scanned_);
    scanned_ = board_;
    stable_scans_ = changed ? 1 : stable_scans_ + 1;
    if (!opt_.replay.empty()) return; // the recording has its own reports
    const int mode = opt_.e2rom[e2rom::auto_report] & 7;
    const bool differs = !has_reported_ || !(scanned_ == reported_);
    switch (mode) {
    case e2rom::report_every_scan:
        report();
        break;
    case e2rom::report_off:
        break;
    case e2rom::report_timed: {
        const TimeMs interval = TimeMs{opt_.e2rom[e2rom::report_interval]} * 4096 / 1000;
        if (interval > 0 && now - last_timed_report_ >= interval) {
            last_timed_report_ = now;
            report();
        }
        break;
    }
    default:
        // 3: on change; 4..7: on change once it held for 2..5 scans (7).
        if (differs && stable_scans_ >= (mode == e2rom::report_on_change ? 1 : mode - 2)) report();
        break;
    }
}

void MillenniumBoardEmu::tick(TimeMs now) {
    if (!running(now)) return;
    while (!replies_.empty() && replies_.front().due <= now) {
        emit(replies_.front().message);
        replies_.pop_front();
    }
    if (opt_.instant_scan) return; // scans happen at the player's actions
    const TimeMs now_us = now * 1000;
    if (next_scan_us_ == 0) next_scan_us_ = now_us;
    if (now_us < next_scan_us_) return;
    scan(now);
    next_scan_us_ += scan_period_us();
    if (next_scan_us_ <= now_us) next_scan_us_ = now_us + scan_period_us(); // fell behind: skip
}

void MillenniumBoardEmu::receive(std::span<const std::uint8_t> bytes, TimeMs now) {
    received_.insert(received_.end(), bytes.begin(), bytes.end());
    if (!running(now)) return; // resetting: deaf
    in_.insert(in_.end(), bytes.begin(), bytes.end());
    while (!in_.empty()) {
        const std::size_t n = command_length(static_cast<char>(in_[0] & 0x7f));
        if (n == 0) { // not a command letter: skip it
            in_.erase(in_.begin());
            continue;
        }
        if (in_.size() < n) break;
        const std::span<const std::uint8_t> raw(in_.data(), n);
        auto m = decode(raw);
        const bool parity_bad = opt_.check_host_parity && m && m->parity_errors > 0;
        if (!m || parity_bad) {
            // The board ignores it without a reply (2); resync one byte further on.
            ++ignored_;
            trace_channel("emu").note("millennium: command ignored: " +
                                      (m ? std::string("wrong parity bit") : m.error().message));
            in_.erase(in_.begin());
            continue;
        }
        const std::vector<std::uint8_t> frame(in_.begin(),
                                              in_.begin() + static_cast<std::ptrdiff_t>(n));
        in_.erase(in_.begin(), in_.begin() + static_cast<std::ptrdiff_t>(n));
        command(m->text, frame, now);
    }
    tick(now);
}

bool MillenniumBoardEmu::replay(std::span<const std::uint8_t> raw) {
    // The recording runs forward to the next exchange whose host bytes are this command; what
    // the board said in the exchanges skipped on the way goes out too, so the device stream is
    // the recorded one even when the host asks less often (e.g. fewer `S` after resyncs).
    for (std::size_t i = replay_next_; i < opt_.replay.size(); ++i) {
        const RecordedExchange& ex = opt_.replay[i];
        if (!std::equal(ex.host.begin(), ex.host.end(), raw.begin(), raw.end())) continue;
        for (; replay_next_ <= i; ++replay_next_)
            for (const auto& c : opt_.replay[replay_next_].chunks) emit_raw(c);
        return true;
    }
    return false;
}

void MillenniumBoardEmu::command(const std::string& text, std::span<const std::uint8_t> raw,
                                 TimeMs now) {
    commands_.push_back(text);
    if (!opt_.replay.empty()) { // a recording answers, or nobody does
        if (!replay(raw))
            trace_channel("emu").note("millennium: no recorded answer left for " + hex_bytes(raw));
        return;
    }
    const auto hex_at = [&](std::size_t i) {
        return static_cast<std::uint8_t>(parse_hex2(text[i], text[i + 1]));
    };
    switch (text[0]) {
    case 'S':
        reply(message('s', {status_from_board(scanned_, opt_.order)}), now);
        break;
    case 'V':
        reply(message('v', {hex2(static_cast<std::uint8_t>(opt_.version_major)),
                            hex2(static_cast<std::uint8_t>(opt_.version_minor))}),
              now);
        break;
    case 'X':
        leds_ = {};
        if (opt_.acknowledge) reply("x", now);
        break;
    case 'L':
        slot_time_ = hex_at(1);
        for (std::size_t k = 0; k < leds_.size(); ++k) leds_[k] = hex_at(3 + 2 * k);
        if (opt_.acknowledge) reply("l", now);
        break;
    case 'R':
        reply(message('r', {text.substr(1, 2), hex2(opt_.e2rom[hex_at(1)])}), now);
        break;
    case 'W':
        opt_.e2rom[hex_at(1)] = hex_at(3);
        ++e2rom_writes_;
        reply(message('w', {text.substr(1, 4)}), now);
        break;
    case 'T': // hardware reset: ~3 s of silence, status and LEDs cleared (4)
        reset_until_ = now + opt_.reset_ms;
        replies_.clear();
        leds_ = {};
        has_reported_ = false;
        break;
    default: // `I`: undocumented, not answered (4)
        std::string note = "millennium: command not emulated: ";
        note += text;
        trace_channel("emu").note(note);
        break;
    }
}

void MillenniumBoardEmu::lift(Square s, TimeMs now) {
    place(s, Piece::None, now);
}

void MillenniumBoardEmu::place(Square s, Piece p, TimeMs now) {
    board_.set(s, p);
    if (opt_.instant_scan && running(now)) {
        // One scan, plus as many as the debounce needs to accept the change.
        const int mode = opt_.e2rom[e2rom::auto_report] & 7;
        for (int i = 0; i < (mode > e2rom::report_on_change ? mode - 2 : 1); ++i) scan(now);
    }
}

void MillenniumBoardEmu::set_position(const BoardReading& b, TimeMs now) {
    board_ = b;
    if (opt_.instant_scan && running(now)) scan(now);
}

TimeMs MillenniumBoardEmu::next_tick_ms(TimeMs now) const {
    if (!running(now)) return reset_until_;
    TimeMs due = kNoTick;
    if (!replies_.empty()) due = std::min(due, replies_.front().due);
    if (!opt_.instant_scan) due = std::min(due, next_scan_us_ == 0 ? now : (next_scan_us_ + 999) / 1000);
    return due;
}

} // namespace eboard::drivers::emu
