// Recorded conversations: the record.txt format (data/dgt/README.md), the console log
// of a Node.js app (host writes are `write --- [ Uint8Array(1) [ 66 ] ]` lines; every received
// chunk is a JavaScript array of decimal bytes, possibly over several lines); and eboardd's own
// `--trace` logs (drivers/core/trace.hpp). ChunkPlayer plays recorded device chunks as a device.
#pragma once

#include "drivers/emu/pty_service.hpp"
#include "base/expected.hpp"

#include <cstdint>
#include <cstddef>
#include <string_view>
#include <vector>

namespace eboard::drivers::emu {

/// One host write and the chunks the board sent before the next write.
struct RecordedExchange {
    std::vector<std::uint8_t> host;
    std::vector<std::vector<std::uint8_t>> chunks;
};

/// Parses a record.txt-style log. Chunks before the first write are attached to an exchange
/// with an empty `host`. Errors name the line of a malformed array.
[[nodiscard]] Expected<std::vector<RecordedExchange>> parse_record_log(std::string_view text);

/// Parses a trace log (trace.hpp: "<category> > 40 4d" host writes, "<category> < 93 00 05"
/// device chunks, "<category> : note") keeping the lines of `category`: every host write starts
/// an exchange, chunks before the first write go to one with an empty `host`; notes and other
/// lines are skipped. Errors name the line of a malformed hex byte.
[[nodiscard]] Expected<std::vector<RecordedExchange>> parse_trace_log(std::string_view text,
                                                                      std::string_view category);

/// A device that sends recorded chunks, one every `gap_ms`, in order, whatever the host writes
/// (for boards that stream without being asked, e.g. Certabo and Sentio); host bytes are kept.
class ChunkPlayer final : public WireModel {
  public:
    ChunkPlayer(const std::vector<RecordedExchange>& recording, TimeMs gap_ms);
    void receive(std::span<const std::uint8_t> bytes, TimeMs now) override;
    void tick(TimeMs now) override;
    [[nodiscard]] std::vector<std::vector<std::uint8_t>> take_output() override;
    /// The next chunk's time; kNoTick once all are sent.
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    /// All chunks sent.
    [[nodiscard]] bool done() const noexcept { return next_ >= chunks_.size(); }
    [[nodiscard]] const std::vector<std::uint8_t>& received() const noexcept { return received_; }

  private:
    std::vector<std::vector<std::uint8_t>> chunks_, out_;
    std::vector<std::uint8_t> received_;
    TimeMs gap_ms_;
    std::size_t next_ = 0;
    TimeMs next_at_ = -1;
};

} // namespace eboard::drivers::emu
