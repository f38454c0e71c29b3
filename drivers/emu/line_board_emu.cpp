#include "drivers/emu/line_board_emu.hpp"

#include "drivers/line/protocol.hpp"
#include "drivers/sentio/protocol.hpp"

#include <algorithm>
#include <bit>

namespace eboard::drivers::emu {

namespace {

/// Tag n of the set: `3 0 84 x y` for White, `3 0 85 x y` for Black, `3 0 83 x y` for spare
/// pieces, the shapes seen in picochess's captures (certabo-sentio.md 2.1).
certabo::TagId make_tag(std::size_t n, Piece p, bool spare) {
    const std::uint8_t family = spare ? 83 : color_of(p) == Color::White ? 84 : 85;
    return {3, 0, family, static_cast<std::uint8_t>(n & 0xff), static_cast<std::uint8_t>(91 + (n >> 8))};
}

} // namespace

LineBoardEmu::LineBoardEmu(const LineEmulatorOptions& options) : opt_(options), rng_(opt_.seed) {
    // The standard set in a fixed order, then a spare queen of each colour (3.1).
    const BoardReading start = BoardReading::start_position();
    for (int i = 0; i < 64; ++i)
        if (const Piece p = start.at(Square(i)).piece; p != Piece::None)
            tags_.push_back({make_tag(tags_.size(), p, false), p, false});
    for (const Piece q : {Piece::WQueen, Piece::BQueen}) tags_.push_back({make_tag(tags_.size(), q, true), q, true});
    for (int set = 0; set < opt_.extra_sets; ++set)
        for (int i = 0; i < 64; ++i)
            if (const Piece p = start.at(Square(i)).piece; p != Piece::None)
                tags_.push_back({make_tag(tags_.size(), p, true), p, true});
    set_position(opt_.position);
}

bool LineBoardEmu::chance(double p) {
    return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p;
}

std::size_t LineBoardEmu::tag_for(Piece p) {
    // The piece last lifted of this kind (a moved piece keeps its tag) ...
    for (auto it = lifted_.rbegin(); it != lifted_.rend(); ++it) {
        if (tags_[*it].piece != p) continue;
        const std::size_t t = *it;
        lifted_.erase(std::next(it).base());
        return t;
    }
    // ... else the first tag of this kind lying beside the board ...
    for (std::size_t t = 0; t < tags_.size(); ++t) {
        if (tags_[t].piece != p) continue;
        if (std::none_of(tag_on_.begin(), tag_on_.end(), [&](const auto& on) { return on == t; })) return t;
    }
    // ... else one from another set.
    tags_.push_back({make_tag(tags_.size(), p, true), p, true});
    return tags_.size() - 1;
}

void LineBoardEmu::lift(Square s) {
    const auto i = static_cast<std::size_t>(s.index());
    if (tag_on_[i]) lifted_.push_back(*tag_on_[i]);
    tag_on_[i].reset();
    board_.set(s, SquareReading::empty());
}

void LineBoardEmu::place(Square s, Piece p) {
    if (board_.at(s).occupied) lift(s);
    if (p == Piece::None) {  // something without a tag (occupancy boards only see it)
        board_.set(s, SquareReading::unknown());
        return;
    }
    const std::size_t t = tag_for(p);
    tag_on_[static_cast<std::size_t>(s.index())] = t;
    board_.set(s, p);
}

void LineBoardEmu::set_position(const BoardReading& b) {
    tag_on_.fill(std::nullopt);
    lifted_.clear();
    board_ = BoardReading{};
    for (int i = 0; i < 64; ++i)
        if (b.at(Square(i)).occupied) place(Square(i), b.at(Square(i)).piece);
}

void LineBoardEmu::set_calibration_position() {
    BoardReading b = BoardReading::start_position();
    b.set(Square::parse("d3"), Piece::WQueen);
    b.set(Square::parse("d6"), Piece::BQueen);
    set_position(b);
}

certabo::Calibration LineBoardEmu::full_calibration() const {
    certabo::Calibration c;
    for (const EmuTag& t : tags_) c.add(t.id, t.piece);
    return c;
}

void LineBoardEmu::bounce_next_frame(Square s) { bounce_ |= bb(s); }

Bitboard LineBoardEmu::bounced_squares() {
    Bitboard b = std::exchange(bounce_, 0);
    if (chance(opt_.bounce_probability)) {
        std::vector<int> occupied;
        for (int i = 0; i < 64; ++i)
            if (board_.at(Square(i)).occupied) occupied.push_back(i);
        if (!occupied.empty())
            b |= bb(Square(occupied[std::uniform_int_distribution<std::size_t>(0, occupied.size() - 1)(rng_)]));
    }
    bounces_ += std::popcount(b);
    return b;
}

certabo::TagBoard LineBoardEmu::sensed_tags(Bitboard bounced) {
    static constexpr certabo::TagId simulator_noise[] = {{0, 0, 56, 0, 0}, {201, 0, 0, 0, 0}};
    certabo::TagBoard tags{};
    std::vector<std::size_t> occupied;
    for (std::size_t i = 0; i < 64; ++i) {
        if ((bounced & bb(Square(static_cast<int>(i)))) != 0) {
            // A bounce: an occupied square reads nothing, an empty one a bogus id.
            if (!tag_on_[i]) tags[i] = simulator_noise[0];
            continue;
        }
        if (tag_on_[i]) {
            if (!chance(opt_.drop_probability)) tags[i] = tags_[*tag_on_[i]].id;
            occupied.push_back(i);
        } else if (chance(opt_.empty_noise)) {
            const int kind = std::uniform_int_distribution<int>(0, 2)(rng_);
            if (kind < 2) {
                tags[i] = simulator_noise[kind];
            } else {  // a random read; never the `3 0 ..` shape of a real tag
                std::uniform_int_distribution<int> byte(0, 255);
                tags[i] = {static_cast<std::uint8_t>(std::uniform_int_distribution<int>(200, 255)(rng_)),
                           static_cast<std::uint8_t>(byte(rng_)), static_cast<std::uint8_t>(byte(rng_)),
                           static_cast<std::uint8_t>(byte(rng_)), static_cast<std::uint8_t>(byte(rng_))};
            }
        }
    }
    if (occupied.size() >= 2 && chance(opt_.swap_probability)) {
        std::shuffle(occupied.begin(), occupied.end(), rng_);
        std::swap(tags[occupied[0]], tags[occupied[1]]);
    }
    return tags;
}

std::string LineBoardEmu::frame_text() {
    const Bitboard bounced = bounced_squares();
    if (opt_.kind == LineBoardKind::Sentio) {
        const auto n = sentio::numbers_of(board_.occupancy() ^ bounced, opt_.rotated);
        return line::encode_frame(n, opt_.lf_every);
    }
    const auto n = certabo::numbers_of(sensed_tags(bounced), opt_.rotated);
    return line::encode_frame(n, opt_.lf_every);
}

void LineBoardEmu::send_frame() {
    std::string text = frame_text();
    ++frames_;
    if (!pending_ack_.empty()) {  // `…255 254\nL\r\n` (2.4)
        text.resize(text.size() - 3);  // " \r\n"
        text += "\n" + pending_ack_;
        pending_ack_.clear();
    }
    if (frames_ == 1 && opt_.start_mid_frame) text.erase(0, text.size() / 2);
    if (chance(opt_.garbage_probability)) {
        switch (std::uniform_int_distribution<int>(0, 3)(rng_)) {
        case 0: {  // junk before the frame
            static const std::string junk[] = {"\x01\xfe", "xx", "\r\n", "#\x7f\x80"};
            text = junk[std::uniform_int_distribution<std::size_t>(0, 3)(rng_)] + text;
            break;
        }
        case 1:  // cut short: the next frame's ':' ends it
            text.resize(std::uniform_int_distribution<std::size_t>(1, text.size() - 1)(rng_));
            break;
        case 2:  // a number above 255, as the official simulator sends (`202 276 32 4 57`)
            if (const auto sp = text.find(' '); sp != std::string::npos) text.insert(sp, "276");
            break;
        default:  // a run without an end (oversized)
            text = ":" + std::string(line::max_packet_bytes + 10, '7') + text;
            break;
        }
    }
    if (cut_at_ > 0) {  // the cable is pulled in the middle of this frame
        text.resize(std::min(cut_at_, text.size()));
        cut_at_ = 0;
        silent_ = true;
    }
    out_.emplace_back(text.begin(), text.end());
}

void LineBoardEmu::power_on(TimeMs now) {
    silent_ = false;
    next_frame_ = now;
}

void LineBoardEmu::tick(TimeMs now) {
    if (silent_) return;
    if (!next_frame_) next_frame_ = now;
    if (now < *next_frame_) return;
    send_frame();
    *next_frame_ += std::max<TimeMs>(opt_.frame_period_ms, 1);
    if (*next_frame_ <= now) next_frame_ = now + std::max<TimeMs>(opt_.frame_period_ms, 1);  // fell behind
}

void LineBoardEmu::receive(std::span<const std::uint8_t> bytes, TimeMs now) {
    (void)now;
    received_.insert(received_.end(), bytes.begin(), bytes.end());
    in_.insert(in_.end(), bytes.begin(), bytes.end());
    led_input();
}

void LineBoardEmu::led_input() {
    const auto ack = [this](const char* letter) {
        const std::string line = std::string(letter) + "\r\n";
        if (opt_.glue_acks) pending_ack_ = line;
        else out_.emplace_back(line.begin(), line.end());
        ++led_commands_;
    };
    if (!opt_.rgb_leds) {
        // The official simulator: once 8 bytes are in, they are the LEDs and the rest of the
        // input is flushed (4.4).
        if (in_.size() < 8) return;
        leds_ = line::leds_of_command(std::span<const std::uint8_t, 8>(in_.data(), 8), opt_.rotated);
        in_.clear();
        ack("L");
        return;
    }
    // RGB board: `ff 55`, 243 colour bytes, `0d 0a`; anything else is skipped.
    while (!in_.empty()) {
        if (in_[0] != 0xff || (in_.size() >= 2 && in_[1] != 0x55)) {
            in_.erase(in_.begin());
            continue;
        }
        if (in_.size() < line::rgb_command_bytes) return;
        const std::span<const std::uint8_t> cmd(in_.data(), line::rgb_command_bytes);
        if (!line::is_rgb_led_command(cmd)) {
            in_.erase(in_.begin());
            continue;
        }
        rgb_.assign(cmd.begin(), cmd.end());
        in_.erase(in_.begin(), in_.begin() + static_cast<std::ptrdiff_t>(line::rgb_command_bytes));
        ack("D");
    }
}

std::vector<std::vector<std::uint8_t>> LineBoardEmu::take_output() { return std::exchange(out_, {}); }

TimeMs LineBoardEmu::next_tick_ms(TimeMs now) const {
    if (silent_) return kNoTick;
    return next_frame_.value_or(now);
}

} // namespace eboard::drivers::emu
