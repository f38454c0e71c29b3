#include "drivers/emu/chessnut_emu.hpp"

#include <algorithm>

namespace eboard::drivers::emu {

using namespace chessnut;

namespace {

/// A host report without the zero padding after its `len + 2` bytes.
std::span<const std::uint8_t> trimmed(std::span<const std::uint8_t> c) {
    if (c.size() >= 2 && std::size_t{2} + c[1] <= c.size()) return c.first(std::size_t{2} + c[1]);
    return c;
}

} // namespace

ChessnutBoardEmu::ChessnutBoardEmu(ChessnutEmulatorOptions options)
    : opt_(std::move(options)), board_(opt_.position), rng_(opt_.seed),
      replay_used_(opt_.replay.size(), false) {}

void ChessnutBoardEmu::power_on(TimeMs now) {
    mode_ = ChessnutMode::Idle;
    leds_ = 0;
    out_.clear();
    last_command_.reset();
    next_battery_ = now + opt_.battery_report_ms;
    for (std::size_t i = 0; i < opt_.replay.size(); ++i) {
        if (replay_used_[i] || !opt_.replay[i].host.empty()) continue;
        replay_used_[i] = true;  // recorded before the first host write
        for (const auto& r : opt_.replay[i].chunks) out_.push_back(r);
    }
}

void ChessnutBoardEmu::send(std::span<const std::uint8_t> report) {
    std::vector<std::uint8_t> r(report.begin(), report.end());
    if (opt_.report_size > r.size()) r.resize(opt_.report_size, 0);
    out_.push_back(std::move(r));
}

void ChessnutBoardEmu::maybe_bad_report() {
    std::uniform_real_distribution<double> u(0, 1);
    if (opt_.invalid_probability > 0 && u(rng_) < opt_.invalid_probability) {
        auto r = encode_position(board_, opt_.rotated);
        std::uniform_int_distribution<std::size_t> at(2, 33);
        std::uniform_int_distribution<int> bad(13, 15);
        r[at(rng_)] = static_cast<std::uint8_t>(0x70 | bad(rng_));  // low nibble 13..15
        send(r);
    }
    if (opt_.noise_probability > 0 && u(rng_) < opt_.noise_probability) {
        std::uniform_int_distribution<int> kind(0, 2), byte(0, 255);
        switch (kind(rng_)) {
        case 0: {  // a report cut short (no padding: the transfer ended early)
            const auto r = encode_position(board_, opt_.rotated);
            out_.emplace_back(r.begin(), r.begin() + 20);
            break;
        }
        case 1: {  // an impossible header: longer than any report
            const std::uint8_t bad[] = {report::position, 0xff, 0x12, 0x34};
            send(bad);
            break;
        }
        default: {  // random bytes
            std::vector<std::uint8_t> g(8);
            for (auto& b : g) b = static_cast<std::uint8_t>(byte(rng_));
            send(g);
        }
        }
    }
}

void ChessnutBoardEmu::send_position() {
    maybe_bad_report();
    send(encode_position(board_, opt_.rotated));
    ++position_reports_;
}

bool ChessnutBoardEmu::replay(std::span<const std::uint8_t> c) {
    const auto host = trimmed(c);
    for (std::size_t i = 0; i < opt_.replay.size(); ++i) {
        const RecordedExchange& ex = opt_.replay[i];
        if (replay_used_[i] || ex.host.empty() || !std::equal(host.begin(), host.end(), ex.host.begin(), ex.host.end()))
            continue;
        replay_used_[i] = true;
        for (const auto& r : ex.chunks) out_.push_back(r);  // verbatim, as recorded
        return true;
    }
    return false;
}

void ChessnutBoardEmu::receive(std::span<const std::uint8_t> report, TimeMs now) {
    if (report.empty()) return;
    commands_.emplace_back(report.begin(), report.end());
    if (last_command_ && now - *last_command_ < opt_.min_write_spacing_ms) ++spacing_violations_;
    last_command_ = now;
    // A replayed board is the recording: what it does not answer stays unanswered.
    if (!opt_.replay.empty()) {
        (void)replay(report);
        return;
    }
    command(trimmed(report), now);
}

void ChessnutBoardEmu::command(std::span<const std::uint8_t> c, TimeMs now) {
    const auto arg = [&](std::size_t i) -> int { return c.size() > i ? c[i] : -1; };
    switch (c[0]) {
    case cmd::mode:
        if (arg(2) == 0) {
            mode_ = ChessnutMode::Realtime;
            next_repeat_ = now + opt_.repeat_ms;
            send_position();  // the board as it stands, at once (inference, README)
            return;
        }
        if (arg(2) == 1) {
            mode_ = ChessnutMode::Upload;
            return;
        }
        break;
    case cmd::leds:
        if (c.size() >= 10) {
            leds_ = leds_from_command(c, opt_.rotated);
            return;
        }
        break;
    case cmd::beep:
        if (c.size() >= 6) {
            ++beeps_;
            last_beep_ = {(c[2] << 8) | c[3], (c[4] << 8) | c[5]};
            return;
        }
        break;
    case cmd::version:
        if (arg(2) == 0 || arg(2) == 1) {
            send(encode_version({arg(2) == 1, arg(2) == 1 ? opt_.mcu_version : opt_.ble_version}));
            return;
        }
        break;
    case cmd::battery: send(encode_battery(opt_.battery, opt_.battery_bit7)); return;
    case cmd::game_count: {
        const std::uint8_t r[] = {report::game_count, 0x01, static_cast<std::uint8_t>(opt_.stored_games.size())};
        send(r);
        return;
    }
    case cmd::download: return;  // announces the download; 34 01 01 starts it
    case cmd::download_go:
        if (mode_ == ChessnutMode::Upload) {
            const std::uint8_t begin[] = {report::file_marker, 0x01, 0xbe}, end[] = {report::file_marker, 0x01, 0xed};
            send(begin);
            for (const BoardReading& b : opt_.stored_games) send(encode_position(b, false));
            send(end);
            return;
        }
        break;
    case cmd::delete_file: opt_.stored_games.clear(); return;
    default: break;
    }
    ++unknown_;
}

void ChessnutBoardEmu::tick(TimeMs now) {
    if (mode_ == ChessnutMode::Realtime && opt_.repeat_ms > 0 && now >= next_repeat_) {
        send_position();
        next_repeat_ = now + opt_.repeat_ms;
    }
    if (opt_.battery_report_ms > 0 && now >= next_battery_) {
        send(encode_battery(opt_.battery, opt_.battery_bit7));
        next_battery_ = now + opt_.battery_report_ms;
    }
}

std::vector<std::vector<std::uint8_t>> ChessnutBoardEmu::take_output() { return std::exchange(out_, {}); }

void ChessnutBoardEmu::lift(Square s, TimeMs now) {
    if (!board_.at(s).occupied) return;
    board_.set(s, SquareReading::empty());
    if (mode_ == ChessnutMode::Realtime) {
        send_position();
        next_repeat_ = now + opt_.repeat_ms;
    }
}

void ChessnutBoardEmu::place(Square s, Piece p, TimeMs now) {
    if (board_.at(s) == SquareReading::of(p)) return;
    board_.set(s, p);
    if (mode_ == ChessnutMode::Realtime) {
        send_position();
        next_repeat_ = now + opt_.repeat_ms;
    }
}

void ChessnutBoardEmu::set_position(const BoardReading& b, TimeMs now) {
    if (board_ == b) return;
    board_ = b;
    if (mode_ == ChessnutMode::Realtime) {
        send_position();
        next_repeat_ = now + opt_.repeat_ms;
    }
}

} // namespace eboard::drivers::emu
