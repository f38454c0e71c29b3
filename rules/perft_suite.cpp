#include "rules/perft_suite.hpp"

#include <charconv>

namespace eboard {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

template <typename T>
bool number(std::string_view s, T& out) {
    s = trim(s);
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

Error at_line(int line, std::string what) { return Error{std::move(what), line, 1}; }

} // namespace

Expected<std::vector<PerftCase>> parse_perft_suite(std::string_view text) {
    std::vector<PerftCase> cases;
    std::string pending_id;
    int line_no = 0;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = trim(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        if (line.empty() || line.front() == '#') continue;
        if (line.substr(0, 3) == "id ") {
            pending_id = std::string(trim(line.substr(3)));
        } else if (line.substr(0, 4) == "epd ") {
            PerftCase c;
            c.id = pending_id.empty() ? "line " + std::to_string(line_no) : pending_id;
            c.fen = std::string(trim(line.substr(4)));
            c.line = line_no;
            cases.push_back(std::move(c));
            pending_id.clear();
        } else if (line.substr(0, 6) == "perft ") {
            if (cases.empty()) return at_line(line_no, "perft line before any epd line");
            const std::string_view rest = trim(line.substr(6));
            const auto sp = rest.find(' ');
            int depth = 0;
            std::uint64_t count = 0;
            if (sp == std::string_view::npos || !number(rest.substr(0, sp), depth) ||
                !number(rest.substr(sp + 1), count))
                return at_line(line_no, "bad perft line, want 'perft DEPTH COUNT'");
            cases.back().counts.emplace_back(depth, count);
        } else if (line.find(';') != std::string_view::npos) {
            PerftCase c;
            c.id = "line " + std::to_string(line_no);
            c.line = line_no;
            auto semi = line.find(';');
            c.fen = std::string(trim(line.substr(0, semi)));
            std::string_view rest = line.substr(semi + 1);
            while (!rest.empty()) {
                semi = rest.find(';');
                const std::string_view item = trim(rest.substr(0, semi));
                rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
                const auto sp = item.find(' ');
                int depth = 0;
                std::uint64_t count = 0;
                if (item.size() < 2 || item[0] != 'D' || sp == std::string_view::npos ||
                    !number(item.substr(1, sp - 1), depth) || !number(item.substr(sp + 1), count))
                    return at_line(line_no, "bad EPD perft item, want ';D<depth> <count>'");
                c.counts.emplace_back(depth, count);
            }
            cases.push_back(std::move(c));
        } else {
            return at_line(line_no, "unrecognised line (want id/epd/perft or FEN ;D1 n)");
        }
    }
    return cases;
}

} // namespace eboard
