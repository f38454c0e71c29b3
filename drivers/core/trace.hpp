// Protocol traces switchable at run time (BRLTTY's lesson): `--trace dgt` turns on the "dgt"
// category; each channel logs the wire both ways in hex plus protocol notes, so a user can
// send a trace with a bug report and eboard-emu can replay it.
//
// Line format (one event per line, to the sink; default stderr):
//   "<category> > 40 4d"         host -> device bytes
//   "<category> < 93 00 05 03 01" device -> host bytes
//   "<category> : text"          notes (resync, dropped bytes, retries)
#pragma once

#include <atomic>
#include <concepts>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace eboard::drivers {

/// One trace category. Obtain with trace_channel(); the object lives for the whole program,
/// so keep a reference. enabled() is a relaxed atomic load: cheap enough for every byte.
class TraceChannel {
  public:
    explicit TraceChannel(std::string name) : name_(std::move(name)) {}
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] bool enabled() const noexcept { return on_.load(std::memory_order_relaxed); }
    void set_enabled(bool on) noexcept { on_.store(on, std::memory_order_relaxed); }

    /// Host -> device bytes ("> ..").
    void sent(std::span<const std::uint8_t> bytes) const;
    /// Device -> host bytes ("< ..").
    void received(std::span<const std::uint8_t> bytes) const;
    /// A note (": ..").
    void note(std::string_view text) const;
    /// A note whose text `make()` builds (returns std::string) only when the channel is on:
    /// for notes on per-packet paths (the Framer's resync notes with hex dumps), so a board
    /// streaming garbage costs no string building while tracing is off.
    template <typename Make>
        requires std::invocable<Make&>
    void note(Make&& make) const {
        if (enabled()) note(std::string_view(make()));
    }

  private:
    std::string name_;
    std::atomic<bool> on_{false};
};

/// The channel of a category, created on first use (thread-safe).
[[nodiscard]] TraceChannel& trace_channel(std::string_view category);

/// Enables the comma-separated categories ("dgt,core"; "all" = every channel, also those
/// created later). Returns false if the list is empty.
bool enable_traces(std::string_view list);
/// Turns every channel off.
void disable_traces();

/// Where trace lines go (one line without newline per call); nullptr restores stderr.
void set_trace_sink(std::function<void(std::string_view line)> sink);

/// "40 4d 2b" for the bytes.
[[nodiscard]] std::string hex_bytes(std::span<const std::uint8_t> bytes);

} // namespace eboard::drivers
