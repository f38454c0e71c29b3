#include "drivers/dgt/driver.hpp"

#include "drivers/core/registry.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace eboard::drivers::dgt {

namespace {

std::string ascii_text(std::span<const std::uint8_t> bytes) {
    std::string s;
    for (const std::uint8_t b : bytes) s += (b >= 0x20 && b < 0x7f) ? static_cast<char>(b) : '?';
    return s;
}

/// Auto orientation: the two ranks at field 0..15 and the two at 48..63 each hold only one
/// colour, with at least 8 pieces: that is a (Chess960) start position, normal or rotated.
std::optional<bool> orientation_from_home_ranks(const std::array<std::uint8_t, 64>& codes) {
    int far_white = 0, far_black = 0, near_white = 0, near_black = 0;
    for (std::size_t f = 0; f < 64; ++f) {
        if (f >= 16 && f < 48) continue;
        const Piece p = piece_from_code(codes[f]);
        if (p == Piece::None) continue;
        const bool white = color_of(p) == Color::White;
        (f < 16 ? (white ? far_white : far_black) : (white ? near_white : near_black))++;
    }
    if (far_black >= 8 && far_white == 0 && near_white >= 8 && near_black == 0) return false;
    if (far_white >= 8 && far_black == 0 && near_black >= 8 && near_white == 0) return true;
    return std::nullopt;
}

TimeMs read_ms(const DriverOptions& o, std::string_view key, TimeMs fallback, bool& ok) {
    const auto it = o.params.find(key);
    if (it == o.params.end()) return fallback;
    TimeMs v = 0;
    const auto& s = it->second;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size() || v < 0) ok = false;
    return v;
}

} // namespace

Expected<DgtOptions> DgtOptions::from_params(const DriverOptions& o) {
    DgtOptions opt;
    if (const auto it = o.params.find("orientation"); it != o.params.end()) {
        if (it->second == "normal") opt.orientation = Orientation::Normal;
        else if (it->second == "rotated") opt.orientation = Orientation::Rotated;
        else if (it->second == "auto") opt.orientation = Orientation::Auto;
        else return Error{"orientation must be normal, rotated or auto, not '" + it->second + "'"};
    }
    if (const auto it = o.params.find("update-mode"); it != o.params.end()) {
        if (it->second == "nice") opt.update_nice = true;
        else if (it->second == "update") opt.update_nice = false;
        else return Error{"update-mode must be nice or update, not '" + it->second + "'"};
    }
    bool ok = true;
    opt.clock.ack_timeout_ms = read_ms(o, "ack-timeout-ms", opt.clock.ack_timeout_ms, ok);
    opt.startup_delay_ms = read_ms(o, "startup-delay-ms", opt.startup_delay_ms, ok);
    opt.battery_poll_ms = read_ms(o, "battery-poll-ms", opt.battery_poll_ms, ok);
    if (!ok) return Error{"dgt: timing options take a number of milliseconds"};
    if (const auto it = o.params.find("developer-key"); it != o.params.end()) {
        const std::string& hex = it->second;
        const auto nibble = [](char c) {
            return std::isxdigit(static_cast<unsigned char>(c))
                       ? std::stoi(std::string(1, c), nullptr, 16) : -1;
        };
        if (hex.size() != 12 || !std::all_of(hex.begin(), hex.end(), [&](char c) { return nibble(c) >= 0; }))
            return Error{"developer-key must be 12 hex digits (the 6 bytes of DGT's Pegasus developer key), not '" + hex + "'"};
        for (std::size_t i = 0; i < hex.size(); i += 2)
            opt.developer_key.push_back(static_cast<std::uint8_t>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
    } else if (o.model == "pegasus") {
        return Error{"dgt.pegasus needs developer-key=HEX: a Pegasus reports nothing before it is "
                     "authorised with DGT's developer key (drivers/dgt/README.md, Pegasus)"};
    }
    return opt;
}

DgtDriver::DgtDriver(const DgtOptions& options)
    : opt_(options), trace_(trace_channel("dgt")),
      rotated_(options.orientation == Orientation::Rotated),
      clock_queue_(
          options.clock, [this](const std::vector<std::uint8_t>& f) { host_->send(f); },
          [this](const ClockCommandDone& d) {
              if (!d.ok) trace_.note("clock command " + hex_bytes(std::array{d.command}) + " failed: " + d.error);
              if (d.command == clk::version) {
                  clock_probe_pending_ = false;
                  if (!d.ok) {  // no clock answered: report it, probe again later
                      clock_model_ = ClockModel::None;
                      host_->emit(ClockInfo{d.t_ms, ClockModel::None, 0, 0});
                  }
              }
              host_->emit(d);
          }) {}

void DgtDriver::send(std::initializer_list<std::uint8_t> bytes) {
    host_->send(std::span<const std::uint8_t>(bytes.begin(), bytes.size()));
}

void DgtDriver::start(DriverHost& host, TimeMs now) {
    host_ = &host;
    started_at_ = last_rx_ = now;
    state_ = State::Opening;
    linked_ = true;
    reported_rotated_ = false; // a connection starts in the normal orientation (BoardOrientation)
}

void DgtDriver::on_tick(TimeMs now) {
    if (!host_) return;
    switch (state_) {
    case State::Opening:
        if (now - started_at_ < opt_.startup_delay_ms) return;
        if (!opt_.developer_key.empty()) {
            // Pegasus: authorise first (dgt.md 18), on every connection.
            std::vector<std::uint8_t> key{0x63, 0x07};
            key.insert(key.end(), opt_.developer_key.begin(), opt_.developer_key.end());
            key.push_back(0x00);
            host_->send(key);
        }
        // 40 leaves bus mode (the power-up mode) without a reply; 4d proves a DGT board (15).
        send({cmd::reset, cmd::send_version});
        state_ = State::WaitVersion;
        last_version_request_ = now;
        return;
    case State::WaitVersion:
        if (now - last_version_request_ >= opt_.version_retry_ms) {
            trace_.note("no VERSION reply; asking again");
            send({cmd::send_version});
            last_version_request_ = now;
        }
        return;
    case State::Ready: break;
    }
    if (now - last_rx_ >= opt_.keepalive_ms && now - last_ping_ >= opt_.keepalive_ms) {
        if (missed_ >= opt_.max_missed_keepalives) {
            lost(now, "board stopped answering");
            return;
        }
        ++missed_;
        last_ping_ = now;
        send({cmd::return_serialnr});
    }
    if (clock_model_ == ClockModel::None && !clock_probe_pending_ &&
        now - last_clock_probe_ >= opt_.clock_probe_ms)
        request_version();
    if ((opt_.quirks & quirk::bluetooth) && now - last_battery_request_ >= opt_.battery_poll_ms) request_battery(now);
    clock_queue_.tick(now, state_ == State::Ready);
}

TimeMs DgtDriver::next_tick_ms(TimeMs now) const {
    if (!host_) return kNoTick;
    switch (state_) {
    case State::Opening: return started_at_ + opt_.startup_delay_ms;
    case State::WaitVersion: return last_version_request_ + opt_.version_retry_ms;
    case State::Ready: break;
    }
    TimeMs due = std::max(last_rx_, last_ping_) + opt_.keepalive_ms;
    if (clock_model_ == ClockModel::None && !clock_probe_pending_)
        due = std::min(due, last_clock_probe_ + opt_.clock_probe_ms);
    if (opt_.quirks & quirk::bluetooth) due = std::min(due, last_battery_request_ + opt_.battery_poll_ms);
    return std::min(due, clock_queue_.next_due(now, true));
}

void DgtDriver::lost(TimeMs now, const std::string& why) {
    trace_.note(why + "; restarting the start-up sequence");
    if (linked_) host_->emit(LinkStatus{now, false, why});
    linked_ = false;
    reported_rotated_ = false;
    clock_queue_.fail_all(now, why);
    clock_probe_pending_ = false;
    state_ = State::WaitVersion;
    missed_ = 0;
    send({cmd::reset, cmd::send_version});
    last_version_request_ = now;
}

void DgtDriver::on_version(int major, int minor, TimeMs now) {
    info_.driver = "dgt";
    info_.version_major = major;
    info_.version_minor = minor;
    info_.t_ms = now;
    host_->emit(info_);
    if (state_ == State::Ready) return;
    if (!linked_) host_->emit(LinkStatus{now, true, "board answers again"});
    linked_ = true;
    state_ = State::Ready;
    alive_serial_.clear(); // maybe another board on this line now: its first answer is its own
    // Fewer than 10 bytes in one go: the board's input buffer is about 10 bytes (1).
    send({cmd::return_serialnr, cmd::send_brd,
          opt_.update_nice ? cmd::send_update_nice : cmd::send_update});
    if (opt_.quirks & quirk::long_serial) send({cmd::return_long_serialnr});
    if (opt_.quirks & quirk::bluetooth) request_battery(now);
    request_version();  // clock present? (15 step 6)
}

void DgtDriver::request_battery(TimeMs now) {
    send({cmd::send_battery});
    last_battery_request_ = now;
}

bool DgtDriver::proves_alive(std::span<const std::uint8_t> p) const {
    // Noise on the line frames now and then by chance (a message id, then a length that fits):
    // only what a board that is there sends counts (issue 26). The fixed-length messages
    // rarely frame by chance; text is the keep-alive's answer, the board's own serial number.
    const auto data = p.subspan(3);
    switch (p[0]) {
    case msg::board_dump:
    case msg::bwtime:
    case msg::version: return true;
    case msg::field_update: return data[0] < 64;
    case msg::serialnr: {
        const std::string serial = ascii_text(data);
        return !serial.empty() && serial.find('?') == std::string::npos &&
               (alive_serial_.empty() || serial == alive_serial_);
    }
    default: return false;
    }
}

void DgtDriver::on_packet(std::span<const std::uint8_t> p, TimeMs now) {
    if (proves_alive(p)) {
        last_rx_ = now;
        missed_ = 0;
        if (p[0] == msg::serialnr && alive_serial_.empty()) alive_serial_ = ascii_text(p.subspan(3));
    }
    const std::uint8_t id = p[0];
    const auto data = p.subspan(3);
    switch (id) {
    case msg::board_dump: on_board_dump(data.first<64>(), now); break;
    case msg::field_update: on_field_update(data[0], data[1], now); break;
    case msg::bwtime: on_bwtime(data.first<7>(), now); break;
    case msg::version: on_version(data[0], data[1], now); break;
    case msg::serialnr:
        info_.serial = ascii_text(data);
        info_.t_ms = now;
        host_->emit(info_);
        break;
    case msg::long_serialnr:
        info_.long_serial = ascii_text(data);
        info_.t_ms = now;
        host_->emit(info_);
        break;
    case msg::trademark:
        info_.trademark = ascii_text(data);
        info_.t_ms = now;
        host_->emit(info_);
        break;
    case msg::busadres:
        info_.bus_address = (data[0] << 7) | data[1];
        info_.t_ms = now;
        host_->emit(info_);
        break;
    case msg::battery:
        host_->emit(BatteryInfo{now, std::min<int>(data[0], 100), (data[8] & 1) != 0, (data[8] & 2) != 0});
        break;
    case msg::ee_moves: trace_.note("EEPROM dump ignored (" + std::to_string(p.size()) + " bytes)"); break;
    default: trace_.note([&] { return "unknown message " + hex_bytes(p.first(1)) + " ignored"; }); break;
    }
}

void DgtDriver::on_board_dump(std::span<const std::uint8_t, 64> codes, TimeMs now) {
    std::copy(codes.begin(), codes.end(), codes_.begin());
    if (opt_.orientation == Orientation::Auto) {
        if (const auto rot = orientation_from_home_ranks(codes_); rot && *rot != rotated_) {
            trace_.note(*rot ? "board is rotated (white on the connector's right)"
                             : "board is in normal orientation");
            rotated_ = *rot;
        }
    }
    if (rotated_ != reported_rotated_) { // before the board it turns round
        reported_rotated_ = rotated_;
        host_->emit(BoardOrientation{now, rotated_});
    }
    have_dump_ = true;
    host_->emit(BoardSnapshot{now, board()});
}

void DgtDriver::on_field_update(std::uint8_t field, std::uint8_t code, TimeMs now) {
    if (field >= 64) {
        trace_.note("field update for field " + std::to_string(field) + " ignored");
        return;
    }
    if (code > 12)
        trace_.note([&] {
            return "field update with code " + hex_bytes(std::array{code}) + " (magic piece or S bit): treated as empty";
        });
    codes_[field] = code;
    host_->emit(SquareChange{now, field_to_square(field, rotated_), reading(code)});
}

void DgtDriver::on_bwtime(std::span<const std::uint8_t, 7> data, TimeMs now) {
    if (is_clock_ack(data)) {
        on_clock_ack(decode_clock_ack(data), now);
        return;
    }
    if (std::all_of(data.begin(), data.end(), [](std::uint8_t b) { return b == 0; })) {
        trace_.note("all-zero BWTIME ignored (Bluetooth firmware quirk, 10.1)");
        return;
    }
    auto t = decode_time_report(data);
    if (!t) {
        trace_.note(t.error().message);
        return;
    }
    t->t_ms = now;
    if (!t->connected && last_connected_.value_or(true)) {
        clock_model_ = ClockModel::None;
        host_->emit(ClockInfo{now, ClockModel::None, 0, 0});
    } else if (t->connected && !last_connected_.value_or(true) && !clock_probe_pending_) {
        request_version();  // a clock was plugged in
    }
    last_connected_ = t->connected;
    if (!t->connected) {
        last_report_.reset();
        host_->emit(*t);
        return;
    }
    // Whose clock runs is what the clock shows; the status bits are a hint (10.1, issue 23).
    const ClockSide hint = t->turn;
    t->turn = running_side(*t, last_report_ ? &*last_report_ : nullptr);
    if (hint != ClockSide::None && t->turn != ClockSide::None && hint != t->turn)
        trace_.note("clock status bits say the other side runs; the lever and the times decide");
    const bool pressed = last_lever_ && *last_lever_ != t->lever_high;
    last_lever_ = t->lever_high;
    last_report_ = *t;
    // The times first: the report that shows a press shows the times after it (the increment
    // added), which are the move's clock (interfaces: MOVE clock, "right after the move").
    host_->emit(*t);
    if (pressed) host_->emit(ClockLever{now, t->lever_high});
}

void DgtDriver::on_clock_ack(const ClockAck& ack, TimeMs now) {
    if (ack.ack1 >= 0x80) {  // generated by the clock on its own (10.2)
        if (ack.ack1 == clk::auto_button) {
            host_->emit(ClockButton{now, button_from_code(ack.ack3), ack.ack3, ack.ack2});
        } else {
            trace_.note("clock says " + hex_bytes(std::array{ack.ack1}));
        }
        return;
    }
    if (ack.ack0 == clk::ack_ok && ack.ack1 == clk::version) {
        const int major = ack.ack2 >> 4, minor = ack.ack2 & 15;
        // python-asyncdgt: version 2.x is a DGT3000 (ASCII text), anything else a DGT XL.
        clock_model_ = major == 2 ? ClockModel::Dgt3000 : ClockModel::DgtXl;
        host_->emit(ClockInfo{now, clock_model_, major, minor});
    }
    if (!clock_queue_.on_ack(ack, now))
        trace_.note([&] {
            return "ACK without a matching command in flight: " +
                   hex_bytes(std::array{ack.ack0, ack.ack1, ack.ack2, ack.ack3});
        });
}

void DgtDriver::on_resync(TimeMs now) {
    (void)now;
    // After garbage the shadow board may have missed an update: read it whole (8).
    if (state_ == State::Ready) request_board_dump();
}

void DgtDriver::on_link_down(TimeMs now) {
    // The board went away with the tty: clock commands in flight fail now (reported), the
    // start-up runs again from start() when the session has the board back.
    clock_queue_.fail_all(now, "board disconnected");
    clock_probe_pending_ = false;
    state_ = State::Opening;
}

void DgtDriver::request_board_dump() {
    if (host_) send({cmd::send_brd});
}

BoardReading DgtDriver::board() const {
    BoardReading b = board_from_codes(std::span<const std::uint8_t, 64>(codes_), rotated_);
    if (opt_.quirks & quirk::pegasus)
        for (int f = 0; f < 64; ++f)
            b.set(field_to_square(f, rotated_), reading(codes_[static_cast<std::size_t>(f)]));
    return b;
}

SquareReading DgtDriver::reading(std::uint8_t code) const {
    if ((opt_.quirks & quirk::pegasus) && code != 0) return SquareReading::unknown(); // occupancy only (18)
    return SquareReading::of(piece_from_code(code));
}

void DgtDriver::send_clock(std::uint8_t command, std::vector<std::uint8_t> frame) {
    clock_queue_.push(command, std::move(frame));
}

void DgtDriver::set_and_run(TimeMs left_ms, TimeMs right_ms, ClockRun run) {
    send_clock(clk::setnrun, setnrun_frame(left_ms, right_ms, run));
}

void DgtDriver::show_text(std::string_view text, bool beep_too) {
    switch (clock_model_) {
    case ClockModel::Dgt3000: send_clock(clk::ascii, ascii_frame(text, beep_too ? 2 : 0)); break;
    case ClockModel::DgtXl: send_clock(clk::display, xl_display_frame(text, beep_too)); break;
    case ClockModel::None:
        if (host_) host_->emit(ClockCommandDone{last_rx_, clk::ascii, false, 0, "no clock connected"});
        break;
    }
}

void DgtDriver::beep(TimeMs duration_ms) { send_clock(clk::beep, beep_frame(duration_ms)); }
void DgtDriver::end_display() { send_clock(clk::end, clock_frame(clk::end, {})); }

void DgtDriver::request_version() {
    clock_probe_pending_ = true;
    last_clock_probe_ = last_rx_;
    send_clock(clk::version, clock_frame(clk::version, {}));
}

void DgtDriver::request_times() {
    if (host_) send({cmd::send_clk});
}

namespace {

/// DGT Pegasus: the Nordic UART service (dgt.md 18; DGTCentaurMods game/pegasus.py,
/// adrian-dybwad/DGTCentaurMods tools/clients/pegasus_client.py).
constexpr BleProfile pegasus_ble{
    "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
    {"6e400003-b5a3-f393-e0a9-e50e24dcca9e", ""},
};

const DriverRegistration registration{DriverInfo{
    "dgt",
    "DGT electronic boards (serial, USB, Bluetooth, Revelation II) with DGT3000/XL clock",
    {
        {"classic", "USB or RS-232 board", SerialSettings{}, 0},
        {"bluetooth", "Bluetooth board (/dev/rfcommN)", SerialSettings{},
         quirk::bluetooth | quirk::long_serial},
        {"revelation2", "Revelation II", SerialSettings{}, quirk::bluetooth | quirk::long_serial},
        {"pegasus", "DGT Pegasus over Bluetooth LE (ble:ADDRESS or ble:NAME; occupancy only)",
         SerialSettings{}, quirk::bluetooth | quirk::pegasus, &pegasus_ble},
    },
    {
        // dgt.md 19: none of these comes from DGT; probe with 4d before trusting them.
        {0x04d8, 0x000a, "Microchip CDC-ACM (picochess #150)", false},
        {0x045b, 0x8111, "WebSerial filter (fnogatz/dgtchess #14)", false},
        {0x0403, 0x6001, "FTDI FT232, older USB boards (picochess #44)", false},
    },
    [](const DriverOptions& o) -> std::unique_ptr<Driver> {
        auto opt = DgtOptions::from_params(o);
        if (!opt) return nullptr;
        const DriverInfo* self = find_driver("dgt");
        if (const ModelInfo* m = self ? self->model(o.model) : nullptr) opt->quirks = m->quirks;
        return std::make_unique<DgtDriver>(opt.value());
    },
    {
        {"orientation", "auto|normal|rotated",
         "auto (default): decided from a start position on the board; rotated: white at the board's rank-8 edge"},
        {"update-mode", "nice|update",
         "nice (default): UPDATE_NICE 4b, clock times on change; update: UPDATE 43, clock times every second"},
        {"ack-timeout-ms", "MS", "a clock command not acknowledged in this time is sent again (default 2000)"},
        {"startup-delay-ms", "MS", "quiet time after the device opens before the first command (default 300)"},
        {"battery-poll-ms", "MS", "Bluetooth boards: ask the battery this often (default 60000)"},
        {"developer-key", "HEX", "DGT Pegasus only, required there: the 6-byte developer key (12 hex digits) sent as 63 07 KEY 00"},
    },
    check_by(&DgtOptions::from_params),
}};

} // namespace

} // namespace eboard::drivers::dgt
