#include "drivers/core/framer.hpp"

#include <algorithm>
#include <string>

namespace eboard::drivers {

void Framer::push(std::span<const std::uint8_t> bytes, const PacketHandler& on_packet) {
    for (const std::uint8_t b : bytes) take(b, on_packet);
    flush_garbage();
    reported_ = stats_;
}

void Framer::push(std::span<const std::uint8_t> bytes, const PacketHandler& on_packet,
                  const ResyncHandler& on_resync) {
    on_resync_ = &on_resync;
    for (const std::uint8_t b : bytes) take(b, on_packet);
    flush_garbage();
    resync_if_due();
    on_resync_ = nullptr;
}

void Framer::resync_if_due() {
    const bool due = stats_.garbage_bytes != reported_.garbage_bytes || stats_.bad_headers != reported_.bad_headers ||
                     stats_.truncated != reported_.truncated || stats_.bad_checks != reported_.bad_checks ||
                     stats_.oversized != reported_.oversized;
    reported_ = stats_;
    if (due && on_resync_ && *on_resync_) (*on_resync_)();
}

void Framer::flush_garbage() {
    if (garbage_run_ == 0) return;
    trace_.note([&] { return "resync: skipped " + std::to_string(garbage_run_) + " byte(s) of garbage"; });
    garbage_run_ = 0;
}

void Framer::take(std::uint8_t b, const PacketHandler& on_packet) {
    if (buf_.empty()) {
        if (rule_.is_padding(b)) {
            ++stats_.padding_bytes;
            return;
        }
        if (!rule_.starts_packet(b)) {
            ++stats_.garbage_bytes;
            ++garbage_run_;
            return;
        }
        flush_garbage();
        buf_.push_back(b);
    } else if (!rule_.continues_packet(b)) {
        // The current packet was cut short; this byte may start the next one.
        ++stats_.truncated;
        trace_.note([&] {
            return "truncated packet dropped (" + std::to_string(buf_.size()) + " byte(s)): " + hex_bytes(buf_);
        });
        buf_.clear();
        expected_ = 0;
        delimited_ = {};
        take(b, on_packet);
        return;
    } else {
        buf_.push_back(b);
    }

    const bool delimited = delimited_.kind == FrameLength::Kind::Delimited;
    if (expected_ == 0 && !delimited && buf_.size() == rule_.header_size()) {
        const FrameLength len = rule_.packet_length(buf_);
        if (len.kind == FrameLength::Kind::Invalid || len.length < rule_.header_size() ||
            (len.kind == FrameLength::Kind::Delimited && len.terminator.empty())) {
            restart_after_bad_header(on_packet);
            return;
        }
        if (len.kind == FrameLength::Kind::Delimited) delimited_ = len;
        else expected_ = len.length;
    }
    if (delimited_.kind == FrameLength::Kind::Delimited) {
        const std::string_view end = delimited_.terminator;
        if (buf_.size() >= rule_.header_size() + end.size() &&
            std::equal(end.begin(), end.end(), buf_.end() - static_cast<std::ptrdiff_t>(end.size()),
                       [](char t, std::uint8_t c) { return static_cast<std::uint8_t>(t) == c; }))
            deliver(on_packet);
        else if (buf_.size() >= delimited_.length)
            drop_oversized();
        return;
    }
    if (expected_ != 0 && buf_.size() == expected_) deliver(on_packet);
}

void Framer::deliver(const PacketHandler& on_packet) {
    if (!rule_.packet_valid(buf_)) {
        ++stats_.bad_checks;
        trace_.note([&] { return "bad check, packet dropped: " + hex_bytes(buf_); });
        delimited_ = {};
        rescan_after_first_byte(on_packet);
        return;
    }
    ++stats_.packets;
    const std::vector<std::uint8_t> packet = std::move(buf_);
    buf_.clear();
    expected_ = 0;
    delimited_ = {};
    resync_if_due();  // what went wrong before this packet is reported before it
    on_packet(packet);
}

void Framer::drop_oversized() {
    ++stats_.oversized;
    const std::size_t shown = std::min<std::size_t>(buf_.size(), 16);
    trace_.note([&] {
        return "oversized packet dropped (" + std::to_string(buf_.size()) + " byte(s) without its end): " +
               hex_bytes(std::span<const std::uint8_t>(buf_.data(), shown)) + " ...";
    });
    buf_.clear();
    delimited_ = {};  // what follows is skipped as garbage up to the next start byte
}

void Framer::restart_after_bad_header(const PacketHandler& on_packet) {
    ++stats_.bad_headers;
    trace_.note([&] { return "bad header dropped: " + hex_bytes(buf_); });
    rescan_after_first_byte(on_packet);
}

void Framer::rescan_after_first_byte(const PacketHandler& on_packet) {
    // Rescan the bytes after the rejected first byte: one of them may start a packet.
    const std::vector<std::uint8_t> rest(buf_.begin() + 1, buf_.end());
    ++stats_.garbage_bytes;
    buf_.clear();
    expected_ = 0;
    delimited_ = {};
    for (const std::uint8_t b : rest) take(b, on_packet);
}

void Framer::end_of_message(const ResyncHandler& on_resync) {
    flush_garbage();
    if (!buf_.empty()) {
        ++stats_.truncated;
        trace_.note([&] {
            return "packet cut short by the end of its report, dropped (" + std::to_string(buf_.size()) +
                   " byte(s)): " + hex_bytes(buf_);
        });
        buf_.clear();
        expected_ = 0;
        delimited_ = {};
    }
    on_resync_ = &on_resync;
    resync_if_due();
    on_resync_ = nullptr;
}

void Framer::reset() {
    if (!buf_.empty()) {
        ++stats_.dropped_partial;
        trace_.note([&] {
            return "partial packet dropped at reset (" + std::to_string(buf_.size()) + " byte(s)): " + hex_bytes(buf_);
        });
    }
    buf_.clear();
    expected_ = 0;
    garbage_run_ = 0;
    delimited_ = {};
}

} // namespace eboard::drivers
