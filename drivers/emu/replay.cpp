#include "drivers/emu/replay.hpp"

#include <charconv>
#include <string>

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

Expected<std::vector<RecordedExchange>> parse_trace_log(std::string_view text) {
    std::vector<RecordedExchange> out;
    int line_no = 0;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        const auto sp = line.find(' ');
        if (sp == std::string_view::npos || sp == 0 || line.size() < sp + 3 || line[sp + 2] != ' ') continue;
        const char dir = line[sp + 1];
        if (dir != '>' && dir != '<') continue;
        std::vector<std::uint8_t> bytes;
        for (std::string_view rest = line.substr(sp + 3); !rest.empty();) {
            const auto end = rest.find(' ');
            const std::string_view tok = rest.substr(0, end);
            rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
            if (tok.empty()) continue;
            unsigned v = 0;
            const auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v, 16);
            if (ec != std::errc{} || p != tok.data() + tok.size() || v > 255 || tok.size() > 2)
                return Error{"not a hex byte: '" + std::string(tok) + "'", line_no, 1};
            bytes.push_back(static_cast<std::uint8_t>(v));
        }
        if (dir == '>') {
            out.push_back({std::move(bytes), {}});
        } else {
            if (out.empty()) out.push_back({});
            out.back().chunks.push_back(std::move(bytes));
        }
    }
    return out;
}

} // namespace eboard::drivers::emu
