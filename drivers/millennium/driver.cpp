#include "drivers/millennium/driver.hpp"

#include <algorithm>
#include <charconv>

namespace eboard::drivers::millennium {

namespace {

bool read_number(const DriverOptions& o, std::string_view key, TimeMs& value) {
    const auto it = o.params.find(key);
    if (it == o.params.end()) return true;
    const auto& s = it->second;
    TimeMs v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size() || v < 0) return false;
    value = v;
    return true;
}

} // namespace

Expected<MillenniumOptions> MillenniumOptions::from_params(const DriverOptions& o) {
    MillenniumOptions opt;
    if (const auto it = o.params.find("orientation"); it != o.params.end()) {
        const std::string& v = it->second;
        if (v == "auto")
            opt.orientation = Orientation::Auto;
        else if (v == "h1-first" || v == "normal")
            opt.orientation = Orientation::H1First;
        else if (v == "a8-first" || v == "rotated")
            opt.orientation = Orientation::A8First;
        else
            return Error{"millennium: orientation must be auto, h1-first or a8-first, not '" + v +
                         "'"};
    }
    TimeMs debounce = opt.debounce;
    if (!read_number(o, "debounce", debounce) || debounce > 4)
        return Error{"millennium: debounce must be 0..4 (extra stable scans)"};
    opt.debounce = static_cast<int>(debounce);
    if (!read_number(o, "startup-delay-ms", opt.startup_delay_ms) ||
        !read_number(o, "reply-timeout-ms", opt.reply_timeout_ms))
        return Error{"millennium: timing options take a number of milliseconds"};
    return opt;
}

MillenniumDriver::MillenniumDriver(MillenniumOptions options)
    : opt_(options), trace_(trace_channel("millennium")),
      order_(options.orientation == Orientation::A8First ? SquareOrder::A8First
                                                         : SquareOrder::H1First) {}

void MillenniumDriver::start(DriverHost& host, TimeMs now) {
    host_ = &host;
    started_at_ = last_rx_ = now_ = now;
    state_ = State::Opening;
    linked_ = true;
    dump_wanted_ = true;
    eight_bit_line_ = false;
    have_version_ = false;
    stopping_ = false;
    queue_.clear();
    in_flight_.reset();
    missed_ = 0;
}

void MillenniumDriver::send_now(std::string_view text) {
    const auto bytes = encode(text);
    host_->send(bytes);
}

void MillenniumDriver::queue(Command c) {
    // A newer LED picture replaces one still waiting (the board shows one picture at a time).
    if (c.text[0] == 'L' || c.text[0] == 'X') {
        for (auto& q : queue_)
            if (q.text[0] == 'L' || q.text[0] == 'X') {
                q = std::move(c);
                return;
            }
    }
    queue_.push_back(std::move(c));
}

void MillenniumDriver::pump(TimeMs now) {
    while (!in_flight_ && !queue_.empty() && host_) {
        Command c = std::move(queue_.front());
        queue_.pop_front();
        send_now(c.text);
        if (c.reply == 0) {
            if (c.done) c.done(nullptr, now);
            continue;
        }
        in_flight_ = std::move(c);
        sent_at_ = now;
        attempts_ = 1;
    }
}

void MillenniumDriver::on_tick(TimeMs now) {
    if (!host_) return;
    now_ = now;
    switch (state_) {
    case State::Opening:
        if (now - started_at_ < opt_.startup_delay_ms) return;
        send_now("V"); // proves a ChessLink board (1)
        state_ = State::WaitVersion;
        last_version_request_ = now;
        return;
    case State::WaitVersion:
        if (now - last_version_request_ >= opt_.version_retry_ms) {
            trace_.note("no version reply; asking again");
            send_now("V");
            last_version_request_ = now;
        }
        return;
    case State::Configure:
    case State::Ready:
        break;
    }
    if (in_flight_ && now - sent_at_ >= opt_.reply_timeout_ms) {
        if (attempts_ <= opt_.max_retries) {
            trace_.note("no '" + std::string(1, in_flight_->reply) + "' reply; sending " +
                        in_flight_->text + " again");
            send_now(in_flight_->text);
            sent_at_ = now;
            ++attempts_;
        } else {
            trace_.note("command " + in_flight_->text + " not answered; given up");
            Command c = std::move(*in_flight_);
            in_flight_.reset();
            if (c.done) c.done(nullptr, now);
        }
    }
    pump(now);
    if (state_ != State::Ready) return;
    if (now - last_rx_ >= opt_.keepalive_ms && now - last_ping_ >= opt_.keepalive_ms) {
        if (missed_ >= opt_.max_missed_keepalives) {
            lost(now, "board stopped answering");
            return;
        }
        ++missed_;
        last_ping_ = now;
        send_now("V");
    }
}

void MillenniumDriver::lost(TimeMs now, const std::string& why) {
    trace_.note(why + "; restarting the start-up sequence");
    if (linked_) host_->emit(LinkStatus{now, false, why});
    linked_ = false;
    queue_.clear();
    in_flight_.reset();
    missed_ = 0;
    dump_wanted_ = true;
    state_ = State::WaitVersion;
    send_now("V");
    last_version_request_ = now;
}

void MillenniumDriver::on_packet(std::span<const std::uint8_t> packet, TimeMs now) {
    last_rx_ = now_ = now;
    missed_ = 0;
    for (const std::uint8_t b : packet) eight_bit_line_ = eight_bit_line_ || (b & 0x80) != 0;
    auto m = decode(packet);
    if (!m) { // the framer already checked it; only a direct caller gets here
        trace_.note("message dropped: " + m.error().message);
        return;
    }
    if (m->parity_errors > 0 && eight_bit_line_ && !(opt_.quirks & quirk::parity_unreliable)) {
        // The block check passed, so the characters are right; only the parity bit is not (2).
        if (parity_errors_ == 0)
            trace_.note("parity bit wrong on a message whose block check is right; accepted");
        parity_errors_ += m->parity_errors;
    }
    on_reply(m->text, now);
}

void MillenniumDriver::on_reply(const std::string& text, TimeMs now) {
    const char letter = text[0];
    if (letter == 'v') on_version(text, now);
    if (letter == 's') {
        if (state_ == State::Opening || state_ == State::WaitVersion) {
            // Reports flow (the default is one per scan) but no version came: the board is
            // there anyway (Performance boards may not answer commands reliably, 4).
            trace_.note("status report before a version reply: board present");
            if (!linked_) host_->emit(LinkStatus{now, true, "board reports again"});
            linked_ = true;
            configure(now);
        }
        on_status(std::string_view(text).substr(1), now);
    }
    // Automatic status reports may come between a command and its acknowledgement: match by
    // letter, never by order (3).
    if (in_flight_ && in_flight_->reply == letter) {
        Command c = std::move(*in_flight_);
        in_flight_.reset();
        if (c.done) c.done(&text, now);
    }
    pump(now);
}

void MillenniumDriver::on_version(const std::string& text, TimeMs now) {
    if (!have_version_) {
        have_version_ = true;
        DeviceInfo info;
        info.t_ms = now;
        info.driver = "millennium";
        info.version_major = parse_hex2(text[1], text[2]);
        info.version_minor = parse_hex2(text[3], text[4]);
        host_->emit(info);
        // chesslinkdriver: major 0 Exclusive, 1 Performance, 2 eONE; python-mchess saw 01.03
        // on an Exclusive, so this is a hint only (1).
        trace_.note("version " + text.substr(1, 2) + "." + text.substr(3, 2));
    }
    if (state_ != State::WaitVersion && state_ != State::Opening) return; // a keep-alive answer
    if (!linked_) host_->emit(LinkStatus{now, true, "board answers again"});
    linked_ = true;
    configure(now);
}

void MillenniumDriver::configure(TimeMs now) {
    state_ = State::Configure;
    if (!have_version_) queue({"V", 'v', nullptr}); // came up on a report: still ask who it is
    // Reports on change (with the configured debounce) rather than ~24 a second. E2ROM writes
    // persist and affect other programs: read first, write only if different (7).
    const auto wanted = static_cast<std::uint8_t>(e2rom::report_on_change + opt_.debounce);
    queue({read_e2rom_command(e2rom::auto_report), 'r',
           [this, wanted](const std::string* r, TimeMs t) {
               const int value = r && r->size() == 5 ? parse_hex2((*r)[3], (*r)[4]) : -1;
               if (r && value != wanted && !stopping_) {
                   if (!found_report_mode_ && value >= 0) found_report_mode_ = static_cast<std::uint8_t>(value);
                   trace_.note(
                       "report mode " +
                       (value < 0 ? std::string("?") : hex2(static_cast<std::uint8_t>(value))) +
                       " -> " + hex2(wanted));
                   queue({write_e2rom_command(e2rom::auto_report, wanted), 'w', nullptr});
               }
               queue({"S", 's', nullptr});
               pump(t);
           }});
    pump(now);
}

void MillenniumDriver::on_status(std::string_view squares, TimeMs now) {
    auto board = board_from_status(squares, order_);
    if (!board) {
        trace_.note("status dropped: " + board.error().message);
        return;
    }
    if (opt_.orientation == Orientation::Auto) {
        if (const auto turned = start_position_rotated(*board); turned && *turned) {
            order_ = order_ == SquareOrder::H1First ? SquareOrder::A8First : SquareOrder::H1First;
            trace_.note(order_ == SquareOrder::A8First ? "start position: first square is a8"
                                                       : "start position: first square is h1");
            board = board_from_status(squares, order_);
            dump_wanted_ = true;
        }
    }
    if (state_ == State::Configure) state_ = State::Ready;
    if (dump_wanted_) {
        dump_wanted_ = false;
        board_ = *board;
        host_->emit(BoardSnapshot{now, board_});
        return;
    }
    // Square changes in the board's scan order (several per report when pieces move fast).
    for (int i = 0; i < 64; ++i) {
        const Square s = index_to_square(i, order_);
        if (board->at(s) == board_.at(s)) continue;
        board_.set(s, board->at(s));
        host_->emit(SquareChange{now, s, board_.at(s)});
    }
}

void MillenniumDriver::on_resync(TimeMs now) {
    // A report was lost or damaged; with reports on change the next one may be far away.
    if (state_ == State::Ready) {
        request_board_dump();
        pump(now);
    }
}

void MillenniumDriver::on_link_down(TimeMs now) {
    // Nothing in flight will be answered; start() runs the start-up again when the board is
    // back, and the orientation found so far is kept.
    now_ = now;
    queue_.clear();
    in_flight_.reset();
    state_ = State::Opening;
    dump_wanted_ = true;
}

void MillenniumDriver::stop(TimeMs now) {
    now_ = now;
    stopping_ = true;
    if (!host_ || !found_report_mode_ || state_ == State::Opening || state_ == State::WaitVersion) return;
    const std::uint8_t old = *found_report_mode_;
    trace_.note("restoring report mode " + hex2(old));
    queue({write_e2rom_command(e2rom::auto_report, old), 'w', [this, old](const std::string* r, TimeMs) {
               if (!r) trace_.note("report mode " + hex2(old) + " not restored: the board did not answer");
               else found_report_mode_.reset();
           }});
    pump(now);
}

bool MillenniumDriver::stopped() const { return !stopping_ || (!in_flight_ && queue_.empty()); }

void MillenniumDriver::request_board_dump() {
    if (!host_) return;
    dump_wanted_ = true;
    // One `S` waiting is enough: any status that comes next is the dump.
    const auto is_status = [](const Command& c) { return c.text == "S"; };
    if ((in_flight_ && is_status(*in_flight_)) ||
        std::any_of(queue_.begin(), queue_.end(), is_status))
        return;
    queue({"S", 's', nullptr});
    pump(now_);
}

void MillenniumDriver::set_led_patterns(std::span<const std::uint8_t, led_count> codes,
                                std::uint8_t slot_time) {
    if (!host_) return;
    queue({led_command(slot_time, codes), (opt_.quirks & quirk::no_ack) ? '\0' : 'l', nullptr});
    pump(now_);
}

void MillenniumDriver::show_squares(Bitboard squares, std::uint8_t pattern,
                                    std::uint8_t slot_time) {
    std::array<std::uint8_t, led_count> codes{};
    for (int i = 0; i < 64; ++i)
        if (squares & bb(Square(i)))
            for (const int k : square_leds(Square(i), order_))
                codes[static_cast<std::size_t>(k)] = pattern;
    set_led_patterns(codes, slot_time);
}

void MillenniumDriver::set_leds(Bitboard lit) {
    if (lit == 0) leds_off();
    else show_squares(lit);
}

void MillenniumDriver::leds_off() {
    if (!host_) return;
    queue({"X", (opt_.quirks & quirk::no_ack) ? '\0' : 'x', nullptr});
    pump(now_);
}

namespace {

// millennium.md 2: the documented line is 38400 7O1. python-mchess clears DTR after opening.
SerialSettings line(std::string_view text) {
    SerialSettings s = SerialSettings::parse(text).value();
    s.dtr = false;
    return s;
}

/// The ChessLink module's Bluetooth LE side: Microchip's transparent UART service (python-mchess
/// mchess/chess_link_bluepy.py: notify 49535343-1e4d..., write 49535343-8841...). The bytes
/// carry their parity bit as on the USB line; the driver handles bit 7 (parity_unreliable).
constexpr BleProfile chesslink_ble{
    "49535343-fe7d-4ae5-8fa9-9fafd205e455",
    "49535343-8841-43f4-a8d4-ecbe34729bb3",
    {"49535343-1e4d-4bd9-ba61-23c647249616", ""},
};

const DriverRegistration registration{DriverInfo{
    "millennium",
    "Millennium ChessLink boards (eONE, Exclusive, Performance), USB serial or a serial link",
    {
        // eONE firmware may send a wrong parity bit (2): on a 7O1 line the UART would turn such
        // bytes into NULs, so the eONE line is 8N1 and the driver handles bit 7 itself (what
        // python-mchess and chesslinkdriver do for every board). The bytes on the wire are the
        // same.
        {"eone", "eONE (USB or Bluetooth LE)", line("38400/8n1"), quirk::parity_unreliable, &chesslink_ble},
        {"exclusive", "Exclusive with the ChessLink module's serial line", line("38400/7o1"), 0},
        {"performance", "Performance (may not acknowledge commands)", line("38400/7o1"),
         quirk::no_ack},
        {"chesslink", "a board with the ChessLink module over Bluetooth LE (ble:ADDRESS or ble:NAME)",
         line("38400/8n1"), quirk::parity_unreliable, &chesslink_ble},
    },
    {}, // USB VID:PID not known from any source (1): probe with `V`
    [](const DriverOptions& o) -> std::unique_ptr<Driver> {
        auto opt = MillenniumOptions::from_params(o);
        if (!opt) return nullptr;
        const DriverInfo* self = find_driver("millennium");
        if (const ModelInfo* m = self ? self->model(o.model) : nullptr) opt->quirks = m->quirks;
        return std::make_unique<MillenniumDriver>(opt.value());
    },
    {
        {"orientation", "auto|h1-first|a8-first|normal|rotated",
         "which square the board reports first; auto (default): from a start position, then remembered "
         "(normal = h1-first, rotated = a8-first)",
         OptionSource::Learned},
        {"debounce", "0..4", "extra stable scans before the board reports a change (default 1)"},
        {"startup-delay-ms", "MS", "quiet time after the device opens before the first V (default 100)"},
        {"reply-timeout-ms", "MS", "a command not answered in this time is sent again (default 1000)"},
    },
    check_by(&MillenniumOptions::from_params),
}};

} // namespace

TimeMs MillenniumDriver::next_tick_ms(TimeMs now) const {
    if (!host_) return kNoTick;
    switch (state_) {
    case State::Opening: return started_at_ + opt_.startup_delay_ms;
    case State::WaitVersion: return last_version_request_ + opt_.version_retry_ms;
    case State::Configure:
    case State::Ready: break;
    }
    TimeMs due = kNoTick;
    if (in_flight_) due = sent_at_ + opt_.reply_timeout_ms;
    else if (!queue_.empty()) due = now;
    if (state_ == State::Ready) due = std::min(due, std::max(last_rx_, last_ping_) + opt_.keepalive_ms);
    return due;
}

} // namespace eboard::drivers::millennium
