#include "drivers/emu/board_emu.hpp"

#include "drivers/core/trace.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace eboard::drivers::emu {

using namespace dgt;

namespace {

std::vector<std::uint8_t> message(std::uint8_t id, std::span<const std::uint8_t> data) {
    const std::size_t len = data.size() + 3;
    std::vector<std::uint8_t> m;
    m.reserve(len);
    m.push_back(id);
    m.push_back(static_cast<std::uint8_t>(len >> 7));
    m.push_back(static_cast<std::uint8_t>(len & 0x7f));
    for (const std::uint8_t b : data) m.push_back(b);  // (insert() trips a g++ 12 false -Warray-bounds)
    return m;
}

std::vector<std::uint8_t> text_bytes(std::string_view s, std::size_t n) {
    std::vector<std::uint8_t> v;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = i < s.size() ? s[i] : ' ';
        v.push_back(static_cast<std::uint8_t>(c & 0x7f));  // data bytes never have the MSB (4)
    }
    return v;
}

} // namespace

DgtBoardEmu::DgtBoardEmu(DgtEmulatorOptions options)
    : opt_(std::move(options)), board_(opt_.position),
      mode_(opt_.start_in_bus_mode ? BoardMode::Bus : BoardMode::Idle), clock_(opt_.clock),
      rng_(opt_.seed) {
    reported_ = wire_codes();
}

bool DgtBoardEmu::update_mode() const {
    return mode_ == BoardMode::UpdateBoard || mode_ == BoardMode::Update || mode_ == BoardMode::UpdateNice;
}

std::vector<std::vector<std::uint8_t>> DgtBoardEmu::take_output() { return std::exchange(out_, {}); }

void DgtBoardEmu::emit_raw(std::vector<std::uint8_t> chunk) { out_.push_back(std::move(chunk)); }

void DgtBoardEmu::maybe_noise() {
    if (opt_.noise_probability <= 0) return;
    std::uniform_real_distribution<double> u(0, 1);
    if (u(rng_) >= opt_.noise_probability) return;
    std::uniform_int_distribution<int> kind(0, 2), n(1, 5), data(0, 0x7f);
    std::vector<std::uint8_t> g;
    switch (kind(rng_)) {
    case 0: break;                                   // stray data bytes
    case 1: g = {msg::field_update, 0x00, 0x7f}; break;  // header with an impossible length
    default: g = {msg::board_dump, 0x00, 0x43}; break;   // a dump cut short
    }
    for (int i = n(rng_); i > 0; --i) g.push_back(static_cast<std::uint8_t>(data(rng_)));
    emit_raw(std::move(g));
}

void DgtBoardEmu::emit(std::vector<std::uint8_t> m) {
    maybe_noise();
    emit_raw(std::move(m));
}

void DgtBoardEmu::report_field(int field, std::uint8_t code) {
    reported_[static_cast<std::size_t>(field)] = code;
    trace_channel("emu").note("field " + std::to_string(field) + " = " + std::to_string(code) +
                              (update_mode() ? "" : " (not reported: not in an update mode)"));
    if (!update_mode()) return;  // the board scans, but says nothing outside the update modes
    const auto fu = [&](std::uint8_t c) {
        const std::array<std::uint8_t, 2> d = {static_cast<std::uint8_t>(field), c};
        emit(message(msg::field_update, d));
    };
    std::uniform_real_distribution<double> u(0, 1);
    if (code != 0 && opt_.bounce_probability > 0 && u(rng_) < opt_.bounce_probability) {
        fu(code);  // sensor bounce: seen, lost, seen again
        fu(0);
    }
    fu(code);
}

void DgtBoardEmu::scan(TimeMs now) {
    (void)now;
    // Fields in scan order a8..h1: a move toward rank 8 is reported destination first, and a
    // captured piece lifted within the same scan is never reported empty (dgt.md 8).
    const auto codes = wire_codes();
    for (int f = 0; f < 64; ++f)
        if (codes[static_cast<std::size_t>(f)] != reported_[static_cast<std::size_t>(f)])
            report_field(f, codes[static_cast<std::size_t>(f)]);
}

bool DgtBoardEmu::scan_pending() const {
    return opt_.scan_period_ms > 0 && wire_codes() != reported_;
}

void DgtBoardEmu::keep_scan_phase(TimeMs now) {
    // The scans the service skipped while nothing changed (next_tick_ms) happened all the
    // same: the first change after a quiet spell is seen by the next scan of the same grid,
    // anywhere within a period, not by one started at the change (dgt.md 8).
    if (opt_.scan_period_ms <= 0 || now < next_scan_ || scan_pending()) return;
    next_scan_ += ((now - next_scan_) / opt_.scan_period_ms + 1) * opt_.scan_period_ms;
}

void DgtBoardEmu::power_on(TimeMs now) {
    mode_ = opt_.start_in_bus_mode ? BoardMode::Bus : BoardMode::Idle;
    authorised_ = false;
    in_.clear();
    acks_.clear();
    out_.clear();
    reported_ = wire_codes();
    next_scan_ = now;
}

std::uint8_t DgtBoardEmu::wire_code(Piece p) const {
    const std::uint8_t code = dgt::code_from_piece(p);
    return opt_.occupancy_only && code != 0 ? 1 : code;
}

std::array<std::uint8_t, 64> DgtBoardEmu::wire_codes() const {
    auto codes = dgt::codes_from_board(board_, opt_.rotated);
    if (opt_.occupancy_only)
        for (auto& c : codes) c = c != 0 ? 1 : 0;
    return codes;
}

void DgtBoardEmu::lift(Square s, TimeMs now) { place(s, Piece::None, now); }

void DgtBoardEmu::place(Square s, Piece p, TimeMs now) {
    keep_scan_phase(now);
    board_.set(s, p);
    if (opt_.scan_period_ms == 0) {
        const int f = square_to_field(s, opt_.rotated);
        if (reported_[static_cast<std::size_t>(f)] != wire_code(p)) report_field(f, wire_code(p));
    }
}

void DgtBoardEmu::set_position(const BoardReading& b, TimeMs now) {
    keep_scan_phase(now);
    board_ = b;
    if (opt_.scan_period_ms == 0) scan(now);
}

void DgtBoardEmu::press_lever(ClockSide side, TimeMs now) {
    clock_.advance(now);
    clock_.press_lever(side);
    // UPDATE_NICE reports every change of the clock (dgt.md 3): each press gets its BWTIME at
    // once. Left to the next tick(), two presses between ticks would cancel out in one report.
    if (mode_ == BoardMode::UpdateNice) {
        const auto report = clock_.time_report();
        emit(std::vector<std::uint8_t>(report.begin(), report.end()));
        last_report_ = report;
        last_bwtime_ = now;
    }
}

void DgtBoardEmu::press_button(int button, TimeMs now) {
    (void)now;
    if (const auto ack = clock_.press_button(button); ack && update_mode()) send_ack(*ack);
}

void DgtBoardEmu::set_clock_connected(bool connected, TimeMs now) {
    clock_.advance(now);
    clock_.set_connected(connected);
}

void DgtBoardEmu::send_ack(const ClockAck& ack) {
    const auto m = encode_clock_ack(ack);
    emit(std::vector<std::uint8_t>(m.begin(), m.end()));
}

std::size_t DgtBoardEmu::frame_size(std::span<const std::uint8_t> in) const {
    const std::uint8_t c = in[0];
    if (mode_ == BoardMode::Bus && (c & 0x80)) return 4;  // bus command: cmd addr addr checksum
    if (c == cmd::clock_message || c == 0x60 || c == 0x63) return in.size() < 2 ? 0 : std::size_t{in[1]} + 2;
    return 1;
}

void DgtBoardEmu::receive(std::span<const std::uint8_t> bytes, TimeMs now) {
    if (opt_.input_buffer > 0 && bytes.size() > opt_.input_buffer) bytes = bytes.first(opt_.input_buffer);
    received_.insert(received_.end(), bytes.begin(), bytes.end());
    in_.insert(in_.end(), bytes.begin(), bytes.end());
    clock_.advance(now);
    while (!in_.empty()) {
        const std::size_t n = frame_size(in_);
        if (n == 0 || in_.size() < n) break;
        const std::vector<std::uint8_t> frame(in_.begin(), in_.begin() + static_cast<std::ptrdiff_t>(n));
        in_.erase(in_.begin(), in_.begin() + static_cast<std::ptrdiff_t>(n));
        command(frame[0], frame, now);
    }
}

bool DgtBoardEmu::replay(std::uint8_t c) {
    // The first unused recorded exchange for this command answers it: the host may send its
    // commands in another order than the recorded program did (e.g. 4d before 45).
    replay_used_.resize(opt_.replay.size());
    for (std::size_t i = 0; i < opt_.replay.size(); ++i) {
        const RecordedExchange& ex = opt_.replay[i];
        if (replay_used_[i] || ex.host.size() != 1 || ex.host[0] != c) continue;
        replay_used_[i] = true;
        if (ex.chunks.empty()) return false;  // e.g. 40: the model changes mode
        std::vector<std::uint8_t> all;
        for (const auto& ch : ex.chunks) {
            all.insert(all.end(), ch.begin(), ch.end());
            emit_raw(ch);
        }
        if (all.size() == 67 && all[0] == msg::board_dump) {  // keep the model's board in step
            board_ = board_from_codes(std::span<const std::uint8_t, 64>(all.data() + 3, 64), opt_.rotated);
            reported_ = wire_codes();
        }
        return true;
    }
    return false;
}

void DgtBoardEmu::command(std::uint8_t c, std::span<const std::uint8_t> frame, TimeMs now) {
    if (opt_.developer_key && !authorised_) {
        // A Pegasus reports nothing before it is authorised (dgt.md 18): 63 07 k1..k6 00.
        const auto& key = *opt_.developer_key;
        authorised_ = c == 0x63 && frame.size() == 9 && frame[1] == 0x07 &&
                      std::equal(key.begin(), key.end(), frame.begin() + 2) && frame[8] == 0x00;
        return;
    }
    if (mode_ == BoardMode::Bus) {
        if (c & 0x80) return;  // bus commands are not emulated (only framed and skipped)
        mode_ = BoardMode::Idle;  // the first single-board command leaves bus mode and runs (2)
    }
    if (replay(c)) return;
    switch (c) {
    case cmd::reset: mode_ = BoardMode::Idle; break;
    case cmd::send_clk: {
        const auto report = clock_.time_report();
        emit(std::vector<std::uint8_t>(report.begin(), report.end()));
        break;
    }
    case cmd::send_brd:
        // The dump comes from the board's scan memory, the same data the FIELD_UPDATEs are
        // derived from; a change not scanned yet shows in neither (dgt.md 8).
        emit(message(msg::board_dump, reported_));
        break;
    case cmd::send_update:
    case cmd::send_update_brd:
    case cmd::send_update_nice:
        mode_ = c == cmd::send_update ? BoardMode::Update
                : c == cmd::send_update_brd ? BoardMode::UpdateBoard : BoardMode::UpdateNice;
        last_report_ = {};
        last_bwtime_ = now;
        break;
    case cmd::return_serialnr: emit(message(msg::serialnr, text_bytes(opt_.serial, 5))); break;
    case cmd::return_long_serialnr: emit(message(msg::long_serialnr, text_bytes(opt_.long_serial, 10))); break;
    case cmd::return_busadres: {
        const auto addr = std::strtol(opt_.serial.c_str(), nullptr, 10) & 0x3fff;  // 4.1: may not fit, UNCERTAIN
        const std::array<std::uint8_t, 2> d = {static_cast<std::uint8_t>(addr >> 7),
                                               static_cast<std::uint8_t>(addr & 0x7f)};
        emit(message(msg::busadres, d));
        break;
    }
    case cmd::send_trademark: emit(message(msg::trademark, text_bytes(opt_.trademark, std::min<std::size_t>(opt_.trademark.size(), 256)))); break;
    case cmd::send_version: {
        const std::array<std::uint8_t, 2> d = {static_cast<std::uint8_t>(opt_.version_major & 0x7f),
                                               static_cast<std::uint8_t>(opt_.version_minor & 0x7f)};
        emit(message(msg::version, d));
        break;
    }
    case cmd::send_battery:
        if (opt_.battery_percent) {
            const std::array<std::uint8_t, 9> d = {static_cast<std::uint8_t>(*opt_.battery_percent & 0x7f),
                                                   0x7f, 0x7f, 0, 0, 0, 0, 0,
                                                   static_cast<std::uint8_t>(opt_.battery_charging ? 0x01 : 0x02)};
            emit(message(msg::battery, d));
        }
        break;
    case cmd::send_ee_moves: {
        // EEPROM log (17): only EE_NOPs and the closing EE_EOF; the event records are not kept.
        std::vector<std::uint8_t> d(0x1f00, 0x7f);
        d.back() = 0x6b;
        emit(message(msg::ee_moves, d));
        break;
    }
    case cmd::to_busmode: mode_ = BoardMode::Bus; break;
    case cmd::clock_message: {
        if (!acks_.empty() && update_mode()) {
            // A second command before the first was acknowledged: error ACK (20, inference).
            ++error_acks_;
            send_ack(ClockAck{0x20, 0, 0, 0});
            break;
        }
        const auto ack = clock_.command(frame);
        if (!ack || !update_mode()) break;  // ACKs only in UPDATE / UPDATE_NICE (11)
        if (opt_.drop_acks > 0) {
            --opt_.drop_acks;
            ++acks_dropped_;
            break;
        }
        acks_.push_back({now + opt_.ack_latency_ms, *ack});
        break;
    }
    default: break;  // 4e, 51/53/54 (EEPROM writes), 60/63 and unknown bytes: ignored
    }
    tick(now);
}

void DgtBoardEmu::tick(TimeMs now) {
    clock_.advance(now);
    while (!acks_.empty() && acks_.front().due <= now) {
        send_ack(acks_.front().ack);
        acks_.pop_front();
    }
    if (opt_.scan_period_ms > 0 && now >= next_scan_) {
        scan(now);
        next_scan_ = now + opt_.scan_period_ms;
    }
    if (mode_ == BoardMode::Update || mode_ == BoardMode::UpdateNice) {
        const auto report = clock_.time_report();
        const bool due = mode_ == BoardMode::Update ? now - last_bwtime_ >= 1000 : report != last_report_;
        if (due) {
            emit(std::vector<std::uint8_t>(report.begin(), report.end()));
            last_report_ = report;
            last_bwtime_ = now;
        }
    }
}

TimeMs DgtBoardEmu::next_tick_ms(TimeMs now) const {
    TimeMs due = kNoTick;
    if (!acks_.empty()) due = std::min(due, acks_.front().due);
    if (scan_pending()) due = std::min(due, next_scan_);
    if (mode_ == BoardMode::Update) due = std::min(due, last_bwtime_ + 1000);
    if (mode_ == BoardMode::UpdateNice) {
        const ClockEmuState& c = clock_.state();
        if (c.times.running && c.run != ClockRun::None) {
            // The report shows whole seconds: it changes when the running time crosses one.
            const TimeMs left = c.run == ClockRun::Left ? c.times.left_ms : c.times.right_ms;
            due = std::min(due, now + left % 1000 + 1);
        }
    }
    return due;
}

} // namespace eboard::drivers::emu
