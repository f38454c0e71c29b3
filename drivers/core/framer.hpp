// Packet framing and resync, owned by the core (BRLTTY's lesson): a driver only describes its
// packets through a FrameRule (which byte can start a packet, which bytes may follow, how long
// a packet is once its header is in, or which bytes end it for line protocols); the Framer
// collects bytes arriving in arbitrary chunks, hands out whole packets, skips garbage, restarts
// after truncated packets, drops oversized ones, and says so on the trace channel.
#pragma once

#include "drivers/core/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace eboard::drivers {

/// Result of FrameRule::packet_length on a complete header.
struct FrameLength {
    /// Ok: fixed length; Delimited: the packet ends with `terminator` (line protocols such as
    /// Certabo's `:... \r\n`); Invalid: bad header.
    enum class Kind : std::uint8_t { Ok, Invalid, Delimited } kind = Kind::Invalid;
    std::size_t length = 0;       ///< Ok: total length incl. header; Delimited: the maximum
    std::string_view terminator;  ///< Delimited: the last bytes of every packet (a literal)
    [[nodiscard]] static constexpr FrameLength ok(std::size_t n) noexcept { return {Kind::Ok, n, {}}; }
    [[nodiscard]] static constexpr FrameLength invalid() noexcept { return {}; }
    /// A packet that ends with `terminator` (kept in the packet), at most `max_length` bytes
    /// long; a longer one is dropped as oversized and the framer resyncs at the next start byte.
    /// `terminator` must outlive the framer (use a string literal).
    [[nodiscard]] static constexpr FrameLength until(std::string_view terminator,
                                                     std::size_t max_length) noexcept {
        return {Kind::Delimited, max_length, terminator};
    }
};

/// How a protocol frames its device -> host packets.
class FrameRule {
  public:
    virtual ~FrameRule() = default;
    /// True if `b` can be the first byte of a packet (e.g. DGT: MSB set).
    [[nodiscard]] virtual bool starts_packet(std::uint8_t b) const = 0;
    /// True if `b` can appear after the first byte (e.g. DGT: MSB clear). A byte that cannot
    /// is taken as the start of the next packet: the current one was truncated.
    [[nodiscard]] virtual bool continues_packet(std::uint8_t b) const = 0;
    /// Bytes needed (first byte included) before packet_length can decide.
    [[nodiscard]] virtual std::size_t header_size() const = 0;
    /// Total length from a complete header, or invalid (bad header: resync after its first byte).
    [[nodiscard]] virtual FrameLength packet_length(std::span<const std::uint8_t> header) const = 0;
    /// Checks a complete packet (e.g. its block check). False: the framer drops the packet's
    /// first byte and looks for a packet start in the rest, so one corrupted message costs
    /// no more than itself (millennium.md 3: "on failure drop one byte and retry").
    [[nodiscard]] virtual bool packet_valid(std::span<const std::uint8_t> packet) const {
        (void)packet;
        return true;
    }
    /// True if `b`, seen between packets, is filler the device pads its reports with (e.g. the
    /// zeros after a Chessnut report in a 64-byte HID report): skipped without counting it as
    /// garbage or starting a resync. Default: no padding.
    [[nodiscard]] virtual bool is_padding(std::uint8_t b) const {
        (void)b;
        return false;
    }
};

/// Counters a test or a status page can read.
struct FramerStats {
    std::size_t packets = 0;
    std::size_t garbage_bytes = 0;   ///< bytes skipped while looking for a packet start
    std::size_t bad_headers = 0;     ///< headers the rule rejected
    std::size_t truncated = 0;       ///< packets cut short by the start of another
    std::size_t bad_checks = 0;      ///< complete packets FrameRule::packet_valid rejected
    std::size_t dropped_partial = 0; ///< partial packets dropped by reset() (disconnect)
    std::size_t oversized = 0;       ///< delimited packets longer than their maximum
    std::size_t padding_bytes = 0;   ///< filler between packets (FrameRule::is_padding)
};

/// Reassembles packets from a byte stream. Not thread-safe; one per connection.
class Framer {
  public:
    using PacketHandler = std::function<void(std::span<const std::uint8_t> packet)>;
    using ResyncHandler = std::function<void()>;

    Framer(const FrameRule& rule, const TraceChannel& trace) : rule_(rule), trace_(trace) {}

    /// Feeds received bytes; calls `on_packet` for every complete packet, in order.
    void push(std::span<const std::uint8_t> bytes, const PacketHandler& on_packet);
    /// The same, and `on_resync` once after garbage, a bad header, a truncated packet or a bad
    /// check, at that point of the stream (before the next packet is handed out): what a
    /// driver does about it then does not depend on how the bytes were cut into chunks.
    void push(std::span<const std::uint8_t> bytes, const PacketHandler& on_packet,
              const ResyncHandler& on_resync);
    /// Drops a partial packet (e.g. the link went down mid-message) and logs it.
    void reset();
    /// The device message the last push() came from ended (message-oriented transports such as
    /// USB HID: one read = one report). A packet still incomplete was cut short by the end of
    /// its report: dropped, logged and counted as truncated, never completed from the next one.
    void end_of_message(const ResyncHandler& on_resync = {});
    /// True while part of a packet is buffered.
    [[nodiscard]] bool in_packet() const noexcept { return !buf_.empty(); }
    [[nodiscard]] const FramerStats& stats() const noexcept { return stats_; }

  private:
    void take(std::uint8_t b, const PacketHandler& on_packet);
    void restart_after_bad_header(const PacketHandler& on_packet);
    void rescan_after_first_byte(const PacketHandler& on_packet);
    void flush_garbage();
    void drop_oversized();
    void deliver(const PacketHandler& on_packet);

    const FrameRule& rule_;
    const TraceChannel& trace_;
    std::vector<std::uint8_t> buf_;
    std::size_t expected_ = 0;  // 0 until the header is complete
    FrameLength delimited_;     // kind Delimited while collecting a delimited packet
    std::size_t garbage_run_ = 0;
    FramerStats stats_;
    FramerStats reported_;                       // stats when on_resync was last due
    const ResyncHandler* on_resync_ = nullptr;   // during push() only
    void resync_if_due();
};

} // namespace eboard::drivers
