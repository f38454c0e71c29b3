#include "drivers/chessnut/driver.hpp"

#include <algorithm>
#include <charconv>

namespace eboard::drivers::chessnut {

Expected<ChessnutOptions> ChessnutOptions::from_params(const DriverOptions& o) {
    ChessnutOptions opt;
    if (const auto it = o.params.find("orientation"); it != o.params.end()) {
        if (it->second == "normal") opt.orientation = Orientation::Normal;
        else if (it->second == "rotated") opt.orientation = Orientation::Rotated;
        else if (it->second == "auto") opt.orientation = Orientation::Auto;
        else return Error{"orientation must be normal, rotated or auto, not '" + it->second + "'"};
    }
    if (const auto it = o.params.find("write-spacing-ms"); it != o.params.end()) {
        const std::string& s = it->second;
        TimeMs v = 0;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc{} || p != s.data() + s.size() || v < 0)
            return Error{"chessnut: write-spacing-ms takes a number of milliseconds, not '" + s + "'"};
        opt.write_spacing_ms = v;
    }
    return opt;
}

ChessnutDriver::ChessnutDriver(ChessnutOptions options)
    : opt_(options), trace_(trace_channel("chessnut")), rotated_(options.orientation == Orientation::Rotated) {}

void ChessnutDriver::start(DriverHost& host, TimeMs now) {
    host_ = &host;
    queue_.clear();
    physical_.reset();
    dump_requested_ = false;
    reported_rotated_ = false; // a connection starts in the normal orientation (BoardOrientation)
    // Nothing is reported before realtime mode (section 3); then who the board is.
    queue(realtime_mode);
    realtime_sent_ = now;
    queue(mcu_version_request);
    queue(ble_version_request);
    if (opt_.quirks & quirk::battery) {
        queue(battery_request);
        last_battery_request_ = now;
    }
    if (leds_set_) queue(led_command(leds_, rotated_));  // a re-plugged board starts dark
    flush(now);
}

void ChessnutDriver::queue(std::span<const std::uint8_t> command) {
    // LED states are complete: a newer one replaces one still waiting (section 5).
    if (!command.empty() && command[0] == cmd::leds) {
        for (auto& q : queue_) {
            if (!q.empty() && q[0] == cmd::leds) {
                q.assign(command.begin(), command.end());
                return;
            }
        }
    }
    queue_.emplace_back(command.begin(), command.end());
}

void ChessnutDriver::flush(TimeMs now) {
    if (!host_ || queue_.empty()) return;
    if (written_ && now - last_write_ < opt_.write_spacing_ms) return;
    const std::vector<std::uint8_t> c = std::move(queue_.front());
    queue_.pop_front();
    host_->send(c);
    // The next slot counts from the end of this write (the SDK sleeps after a write returns):
    // a write held up by a busy machine then never reaches the board sooner than 200 ms
    // after the one before.
    written_ = true;
    last_write_ = host_->clock_ms().value_or(now);
}

void ChessnutDriver::on_tick(TimeMs now) {
    if (!host_) return;
    if (!physical_ && now - realtime_sent_ >= opt_.realtime_retry_ms) {
        trace_.note("no position report yet; sending realtime mode again");
        queue(realtime_mode);
        realtime_sent_ = now;
    }
    if ((opt_.quirks & quirk::battery) && !(opt_.quirks & quirk::unsolicited_battery) &&
        now - last_battery_request_ >= opt_.battery_poll_ms) {
        queue(battery_request);
        last_battery_request_ = now;
    }
    if (dump_requested_) {
        if (!dump_deadline_) {
            dump_deadline_ = now + opt_.realtime_retry_ms;
        } else if (now >= *dump_deadline_ && physical_) {
            // The board reports every change, so the last report is the board as it stands.
            trace_.note("no report after realtime mode: the last reported board stands");
            dump_requested_ = false;
            host_->emit(BoardSnapshot{now, board()});
        }
    }
    flush(now);
}

void ChessnutDriver::on_packet(std::span<const std::uint8_t> p, TimeMs now) {
    switch (p[0]) {
    case report::position: on_position(p, now); break;
    case report::battery:
        if (const auto b = decode_battery(p)) host_->emit(BatteryInfo{now, b->percent, b->charging, !b->charging});
        else trace_.note([&] { return "battery report without a level ignored: " + hex_bytes(p); });
        break;
    case report::version:
        if (const auto v = decode_version(p)) {
            (v->mcu ? mcu_version_ : ble_version_) = v->text;
            emit_info(now);
        }
        break;
    case report::game_count:
        trace_.note("board holds " + std::to_string(p.size() > 2 ? p[2] : 0) + " stored game(s)");
        break;
    case report::file_marker: trace_.note("file transfer marker ignored (upload mode is not used)"); break;
    default:
        trace_.note([&] { return "unknown report " + hex_bytes(p.first(std::min<std::size_t>(p.size(), 4))) + ".. ignored"; });
    }
}

void ChessnutDriver::on_position(std::span<const std::uint8_t> report, TimeMs now) {
    auto decoded = decode_position(report, false);
    if (!decoded) {
        // picochess drops these; the next report on a change brings the board back (section 4).
        ++invalid_reports_;
        trace_.note("position report dropped: " + decoded.error().message);
        return;
    }
    const bool changed = !physical_ || !(*physical_ == decoded.value());
    const bool first = !physical_;
    physical_ = decoded.value();
    bool flipped = false;
    if (opt_.orientation == Orientation::Auto) {
        if (const auto rot = orientation_from_board(*physical_); rot && *rot != rotated_) {
            trace_.note(*rot ? "pieces set up with white at the far side: board turned round"
                             : "pieces set up with white at the near side: normal orientation");
            rotated_ = *rot;
            flipped = true;
            if (leds_set_) queue(led_command(leds_, rotated_));
        }
    }
    if (first) emit_info(now);
    if (rotated_ != reported_rotated_) { // before the board it turns round
        reported_rotated_ = rotated_;
        host_->emit(BoardOrientation{now, rotated_});
    }
    // Repeated identical reports say nothing new (picochess ignores them).
    if (!changed && !flipped && !dump_requested_) return;
    dump_requested_ = false;
    host_->emit(BoardSnapshot{now, board()});
}

void ChessnutDriver::emit_info(TimeMs now) {
    DeviceInfo info;
    info.t_ms = now;
    info.driver = "chessnut";
    info.firmware = mcu_version_;
    if (!ble_version_.empty()) info.firmware += (info.firmware.empty() ? "BLE " : " BLE ") + ble_version_;
    host_->emit(info);
}

void ChessnutDriver::on_resync(TimeMs now) {
    // A report was cut or garbled: ask for the position again, at most once a retry period.
    if (!host_ || now - last_resync_request_ < opt_.realtime_retry_ms) return;
    last_resync_request_ = now;
    queue(realtime_mode);
    flush(now);
}

void ChessnutDriver::request_board_dump() {
    if (!host_) return;
    dump_requested_ = true;
    dump_deadline_.reset();  // set by the next tick
    queue(realtime_mode);
}

void ChessnutDriver::set_leds(Bitboard lit) {
    leds_ = lit;
    leds_set_ = true;
    if (host_) queue(led_command(lit, rotated_));
}

void ChessnutDriver::beep(int frequency_hz, TimeMs duration_ms) {
    if (host_) queue(beep_command(frequency_hz, duration_ms));
}

BoardReading ChessnutDriver::board() const {
    if (!physical_) return {};
    return rotated_ ? physical_->rotated() : *physical_;
}

namespace {

// USB ids (chessnut.md 1): VID 2d80 is the SDK's; the SDK accepts any PID of the families
// 80xx Air, 81xx Pro, 82xx Air+, 83xx Evo, 85xx Go (PID & ff00). These are the PIDs seen in
// the wild, plus 8101 for the Pro, whose exact PID no source shows; `usb:BUS.ADDR` opens any
// 2d80 device.
/// Chessnut's GATT services (chessnutech/Chessnut_eBoards README, "Bluetooth Connection"):
/// the FEN service 1b7e8261 notifies positions on 1b7e8262; the operation service 1b7e8271
/// takes commands on 1b7e8272 and notifies replies on 1b7e8273. Each notification is one
/// report, the same bytes as a USB HID report (chessnut.md 4).
constexpr BleProfile chessnut_ble{
    "1b7e8261-2877-41c3-b46e-cf057c562023",
    "1b7e8272-2877-41c3-b46e-cf057c562023",
    {"1b7e8262-2877-41c3-b46e-cf057c562023", "1b7e8273-2877-41c3-b46e-cf057c562023"},
    true,
};

const DriverRegistration registration{DriverInfo{
    "chessnut",
    "Chessnut Air / Pro (and Air+, Go) over USB HID with libusb or Bluetooth LE; pieces identified, LEDs",
    {
        {"air", "Chessnut Air (PID 80xx)", SerialSettings{}, quirk::battery, &chessnut_ble},
        {"pro", "Chessnut Pro (PID 81xx)", SerialSettings{}, quirk::battery | quirk::unsolicited_battery, &chessnut_ble},
        {"air-plus", "Chessnut Air+ (PID 82xx)", SerialSettings{}, quirk::battery | quirk::unsolicited_battery, &chessnut_ble},
        {"go", "Chessnut Go (PID 85xx)", SerialSettings{}, quirk::battery, &chessnut_ble},
    },
    {
        // As the vendor SDK takes them: any product id whose high byte is 0x80..0x86 (Air 80xx,
        // Pro 81xx, Air+ 82xx, Go 85xx; ids seen in the wild: 8001, 8002, 8003, 8202, 8501).
        {0x2d80, 0x8000, "Chessnut boards, PID 80xx-86xx as the vendor SDK takes them (chessnut.md 1)", true,
         UsbAccess::Libusb, 0x86ff},
    },
    [](const DriverOptions& o) -> std::unique_ptr<Driver> {
        auto opt = ChessnutOptions::from_params(o);
        if (!opt) return nullptr;
        const DriverInfo* self = find_driver("chessnut");
        if (const ModelInfo* m = self ? self->model(o.model) : nullptr) opt->quirks = m->quirks;
        return std::make_unique<ChessnutDriver>(opt.value());
    },
    {
        {"orientation", "auto|normal|rotated",
         "auto (default): picochess's rule on every position; rotated: white at the board's rank-8 edge"},
        {"write-spacing-ms", "MS", "least time between two writes to the board (default 200)"},
    },
    check_by(&ChessnutOptions::from_params),
}};

} // namespace

TimeMs ChessnutDriver::next_tick_ms(TimeMs now) const {
    if (!host_) return kNoTick;
    TimeMs due = kNoTick;
    if (!physical_) due = realtime_sent_ + opt_.realtime_retry_ms;
    if ((opt_.quirks & quirk::battery) && !(opt_.quirks & quirk::unsolicited_battery))
        due = std::min(due, last_battery_request_ + opt_.battery_poll_ms);
    // A dump waits for its deadline only once a position came (before, a report ends it).
    if (dump_requested_ && !dump_deadline_) due = now;
    else if (dump_requested_ && physical_) due = std::min(due, *dump_deadline_);
    if (!queue_.empty()) due = std::min(due, written_ ? std::max(now, last_write_ + opt_.write_spacing_ms) : now);
    return due;
}

} // namespace eboard::drivers::chessnut
