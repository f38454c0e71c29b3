// The LED side of the Certabo/Sentio line protocol (certabo-sentio.md section 4), shared by
// both drivers: rate limiting, coalescing, optional repeats, and the classic/RGB detection by
// acknowledgement letter. Pure logic: time is passed in, bytes go out through a callback.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/events.hpp"
#include "drivers/core/trace.hpp"
#include "base/types.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace eboard::drivers::line {

/// Which LED command the board understands (4.3).
enum class LedKind : std::uint8_t {
    Unknown,  ///< no acknowledgement seen yet
    Classic,  ///< one LED per square, 8-byte command, acknowledged with 'L'
    Rgb,      ///< "Spectrum" corner LEDs, 247-byte command, acknowledged with 'D'
};

struct LedOptions {
    TimeMs interval_ms = 600;      ///< at most one command per interval (picochess, 4.4)
    int repeats = 0;               ///< send each command this many extra times (certabodriver: 2)
    TimeMs repeat_gap_ms = 100;    ///< between repeats (certabodriver)
    TimeMs ack_wait_ms = 400;      ///< no 'L' this long after the first command: try RGB (4.3)
    LedKind kind = LedKind::Unknown;  ///< known from the model: no detection
};

/// Turns set() calls into LED commands. The latest set() wins; a command identical to the one
/// last sent is skipped, except "all off", which always goes through (picochess, 4.4).
/// Detection (4.3): the first command goes out in the classic form; with no 'L' within
/// ack_wait_ms the RGB form follows; a 'D' switches to RGB, an 'L' to classic; with no
/// acknowledgement to either, classic is assumed.
class LedChannel {
  public:
    using Send = std::function<void(std::span<const std::uint8_t>)>;

    LedChannel(LedOptions options, const TraceChannel& trace)
        : opt_(options), trace_(trace), kind_(options.kind) {}

    /// Wants exactly `on` lit (eboard squares).
    void set(Bitboard on) { pending_ = on; }
    /// An acknowledgement letter arrived ('L' or 'D').
    void on_ack(char letter, TimeMs now);
    /// Sends what is due at `now`; `rotated` = the board stands turned round.
    void tick(TimeMs now, bool rotated, const Send& send);
    /// When tick() has something to do next: the end of the acknowledgement wait, a repeat, a
    /// wanted change once the interval since the last command passed; kNoTick when nothing
    /// waits (set() and on_ack() come with a tick of their own).
    [[nodiscard]] TimeMs next_due(TimeMs now) const;

    [[nodiscard]] LedKind kind() const noexcept { return kind_; }
    /// The squares last sent to the board, if any.
    [[nodiscard]] std::optional<Bitboard> shown() const noexcept { return sent_; }

  private:
    [[nodiscard]] std::vector<std::uint8_t> encode(Bitboard on, bool rotated, LedKind as) const;

    LedOptions opt_;
    const TraceChannel& trace_;
    LedKind kind_ = LedKind::Unknown;
    std::optional<Bitboard> pending_, sent_;
    std::vector<std::uint8_t> last_bytes_;
    TimeMs sent_at_ = 0, repeat_at_ = 0;
    int repeats_left_ = 0;
    std::optional<TimeMs> probe_at_;  // when the first classic command went out
    bool rgb_probed_ = false;
    bool resend_ = false;  // the last command must go out again in the classic form
};

} // namespace eboard::drivers::line
