#include "rules/time_control.hpp"

#include <cstddef>

namespace eboard {

namespace {

constexpr std::int64_t kMaxSeconds = 1'000'000'000; // ~31 years: beyond any real clock
constexpr int kMaxMoves = 10'000;

/// A cursor over the tag value that reports 1-based columns.
class Reader {
  public:
    explicit Reader(std::string_view s) : s_(s) {}
    [[nodiscard]] bool done() const { return i_ >= s_.size(); }
    [[nodiscard]] char peek() const { return done() ? '\0' : s_[i_]; }
    void next() { ++i_; }
    [[nodiscard]] int column() const { return static_cast<int>(i_) + 1; }
    [[nodiscard]] Error error(std::string message) const {
        return Error{std::move(message), 1, column()};
    }
    [[nodiscard]] bool digit() const { return peek() >= '0' && peek() <= '9'; }

    /// Digits with an optional fraction of up to 3 digits, as milliseconds.
    Expected<std::int64_t> seconds_ms(const char* what) {
        if (!digit()) return error(std::string("expected ") + what + " (seconds)");
        std::int64_t whole = 0;
        while (digit()) {
            whole = whole * 10 + (peek() - '0');
            if (whole > kMaxSeconds) return error(std::string(what) + " too large");
            next();
        }
        std::int64_t ms = whole * 1000;
        if (peek() == '.') {
            next();
            if (!digit()) return error("expected a digit after '.'");
            std::int64_t scale = 100;
            while (digit()) {
                if (scale == 0) return error("more than millisecond precision");
                ms += (peek() - '0') * scale;
                scale /= 10;
                next();
            }
        }
        return ms;
    }

    /// A positive integer (a move count).
    Expected<int> count() {
        int n = 0;
        while (digit()) {
            n = n * 10 + (peek() - '0');
            if (n > kMaxMoves) return error("move count too large");
            next();
        }
        return n;
    }

  private:
    std::string_view s_;
    std::size_t i_ = 0;
};

Expected<TimePeriod> parse_period(Reader& r) {
    TimePeriod p;
    // "M/S": look ahead for a '/' after the leading digits.
    const int start = r.column();
    if (!r.digit()) return r.error("expected a period (moves/seconds or seconds)");
    auto first = r.seconds_ms("seconds");
    if (!first) return first.error();
    if (r.peek() == '/') {
        if (*first % 1000 != 0) return Error{"move count must be a whole number", 1, start};
        const std::int64_t moves = *first / 1000;
        if (moves <= 0) return Error{"move count must be positive", 1, start};
        if (moves > kMaxMoves) return Error{"move count too large", 1, start};
        p.moves = static_cast<int>(moves);
        r.next();
        auto secs = r.seconds_ms("period time");
        if (!secs) return secs.error();
        p.time_ms = *secs;
    } else {
        p.time_ms = *first;
    }
    if (r.peek() == '+') {
        r.next();
        auto inc = r.seconds_ms("increment");
        if (!inc) return inc.error();
        p.increment_ms = *inc;
    }
    if (r.peek() == 'd') {
        r.next();
        auto delay = r.seconds_ms("delay");
        if (!delay) return delay.error();
        p.delay_ms = *delay;
    }
    if (!r.done() && r.peek() != ':') {
        return r.error(std::string("unexpected '") + r.peek() + "' in period");
    }
    return p;
}

void append_seconds(std::string& out, std::int64_t ms) {
    out += std::to_string(ms / 1000);
    std::int64_t frac = ms % 1000;
    if (frac == 0) return;
    std::string digits = std::to_string(frac);
    digits.insert(0, 3 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += '.';
    out += digits;
}

} // namespace

Expected<TimeControl> parse_time_control(std::string_view text) {
    TimeControl tc;
    if (text.empty()) return Error{"empty TimeControl", 1, 1};
    if (text == "?") return tc;
    if (text == "-") {
        tc.kind = TimeControl::Kind::None;
        return tc;
    }
    Reader r(text);
    if (r.peek() == '*') {
        r.next();
        auto secs = r.seconds_ms("sandclock time");
        if (!secs) return secs.error();
        if (!r.done()) return r.error("unexpected text after the sandclock time");
        tc.kind = TimeControl::Kind::Sandclock;
        tc.periods.push_back(TimePeriod{0, *secs, 0, 0});
        return tc;
    }
    tc.kind = TimeControl::Kind::Periods;
    for (;;) {
        auto p = parse_period(r);
        if (!p) return p.error();
        tc.periods.push_back(*p);
        if (r.done()) break;
        // r.peek() == ':' here (parse_period checked).
        if (tc.periods.back().moves == 0) {
            return r.error("a period for all remaining moves must be the last");
        }
        r.next();
        if (r.done()) return r.error("expected a period after ':'");
    }
    return tc;
}

std::string format_time_control(const TimeControl& tc) {
    switch (tc.kind) {
    case TimeControl::Kind::Unknown:
        return "?";
    case TimeControl::Kind::None:
        return "-";
    case TimeControl::Kind::Sandclock: {
        std::string out = "*";
        append_seconds(out, tc.periods.empty() ? 0 : tc.periods.front().time_ms);
        return out;
    }
    case TimeControl::Kind::Periods:
        break;
    }
    std::string out;
    for (const TimePeriod& p : tc.periods) {
        if (!out.empty()) out += ':';
        if (p.moves > 0) out += std::to_string(p.moves) + '/';
        append_seconds(out, p.time_ms);
        if (p.increment_ms != 0) {
            out += '+';
            append_seconds(out, p.increment_ms);
        }
        if (p.delay_ms != 0) {
            out += 'd';
            append_seconds(out, p.delay_ms);
        }
    }
    return out.empty() ? "?" : out;
}

int TimeControl::period_of_move(int move) const {
    if (periods.empty()) return -1;
    if (kind != Kind::Periods) return 0;
    int first = 1;
    for (std::size_t i = 0; i < periods.size(); ++i) {
        const int quota = periods[i].moves;
        if (quota == 0 || move < first + quota) return static_cast<int>(i);
        if (i + 1 == periods.size()) return static_cast<int>(i); // the last period repeats
        first += quota;
    }
    return static_cast<int>(periods.size()) - 1;
}

int TimeControl::first_move_of_period(int index) const {
    if (index < 0 || static_cast<std::size_t>(index) >= periods.size()) return 0;
    int first = 1;
    for (int i = 0; i < index; ++i) {
        const int quota = periods[static_cast<std::size_t>(i)].moves;
        if (quota == 0) return 0;
        first += quota;
    }
    return first;
}

} // namespace eboard
