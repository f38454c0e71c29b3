#include "drivers/emu/replay.hpp"

#include <string>
#include <utility>

namespace eboard::drivers::emu {

namespace {

/// All decimal integers in `s`, each must be 0..255.
bool integers(std::string_view s, std::vector<std::uint8_t>& out) {
    int value = -1;
    for (const char c : s) {
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
            if (value > 255) return false;
        } else if (value >= 0) {
            out.push_back(static_cast<std::uint8_t>(value));
            value = -1;
        }
    }
    if (value >= 0) out.push_back(static_cast<std::uint8_t>(value));
    return true;
}

} // namespace

Expected<std::vector<RecordedExchange>> parse_record_log(std::string_view text) {
    std::vector<RecordedExchange> out;
    std::string pending;  // an array spread over several lines
    int pending_line = 0;
    int line_no = 0;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        if (pending.empty() && line.starts_with("write ")) {
            // "write ---- [ Uint8Array(1) [ 66 ] ]": the bytes are in the inner brackets.
            const auto open = line.find('[', line.find("Uint8Array"));
            const auto close = line.find(']', open == std::string_view::npos ? 0 : open);
            if (line.find("Uint8Array") == std::string_view::npos || open == std::string_view::npos ||
                close == std::string_view::npos)
                return Error{"malformed write line", line_no, 1};
            RecordedExchange ex;
            if (!integers(line.substr(open + 1, close - open - 1), ex.host))
                return Error{"byte value out of range", line_no, 1};
            out.push_back(std::move(ex));
            continue;
        }
        if (pending.empty() && !line.starts_with("[")) continue;  // banner, trace, Position blocks
        if (pending.empty()) pending_line = line_no;
        pending += line;
        pending += ' ';
        if (line.find(']') == std::string_view::npos) continue;
        std::vector<std::uint8_t> chunk;
        if (!integers(pending, chunk)) return Error{"byte value out of range", pending_line, 1};
        pending.clear();
        if (out.empty()) out.push_back({});
        out.back().chunks.push_back(std::move(chunk));
    }
    if (!pending.empty()) return Error{"unterminated array", pending_line, 1};
    return out;
}

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// "93 00 05" -> bytes; false on anything but pairs of hex digits separated by spaces.
bool hex_pairs(std::string_view s, std::vector<std::uint8_t>& out) {
    std::size_t i = 0;
    while (i < s.size()) {
        if (s[i] == ' ') {
            ++i;
            continue;
        }
        if (i + 1 >= s.size()) return false;
        const int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
        if (hi < 0 || lo < 0 || (i + 2 < s.size() && s[i + 2] != ' ')) return false;
        out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
        i += 2;
    }
    return true;
}

} // namespace

Expected<std::vector<RecordedExchange>> parse_trace_log(std::string_view text, std::string_view category) {
    std::vector<RecordedExchange> out;
    int line_no = 0;
    const std::string host_tag = std::string(category) + " > ", device_tag = std::string(category) + " < ";
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const bool host = line.starts_with(host_tag), device = line.starts_with(device_tag);
        if (!host && !device) continue;
        std::vector<std::uint8_t> bytes;
        if (!hex_pairs(line.substr(host_tag.size()), bytes)) return Error{"malformed hex bytes", line_no, 1};
        if (host) {
            out.push_back({std::move(bytes), {}});
            continue;
        }
        if (out.empty()) out.push_back({});
        out.back().chunks.push_back(std::move(bytes));
    }
    return out;
}

ChunkPlayer::ChunkPlayer(const std::vector<RecordedExchange>& recording, TimeMs gap_ms) : gap_ms_(gap_ms) {
    for (const auto& ex : recording)
        for (const auto& c : ex.chunks) chunks_.push_back(c);
}

void ChunkPlayer::receive(std::span<const std::uint8_t> bytes, TimeMs now) {
    (void)now;
    received_.insert(received_.end(), bytes.begin(), bytes.end());
}

void ChunkPlayer::tick(TimeMs now) {
    if (next_at_ < 0) next_at_ = now;
    while (next_ < chunks_.size() && now >= next_at_) {
        out_.push_back(chunks_[next_++]);
        next_at_ += gap_ms_;
    }
}

std::vector<std::vector<std::uint8_t>> ChunkPlayer::take_output() { return std::exchange(out_, {}); }

TimeMs ChunkPlayer::next_tick_ms(TimeMs now) const {
    if (next_ >= chunks_.size()) return kNoTick;
    return next_at_ < 0 ? now : next_at_;
}

} // namespace eboard::drivers::emu
