// PGN writer in export format (PGN 8.1.1 tag order, 8.2 movetext, lines under 80 columns), and
// the h:mm:ss clock values of `[%clk]` / `[%emt]`.
#include "rules/pgn.hpp"

#include <array>

namespace eboard {

namespace {

constexpr std::size_t kMaxLine = 79;

constexpr std::array<std::string_view, 7> kSevenTagRoster = {"Event", "Site",  "Date",  "Round",
                                                             "White", "Black", "Result"};

/// Tags written from the record's own fields rather than from `tags`.
bool written_apart(std::string_view name, const GameRecord& game) {
    for (const auto n : kSevenTagRoster) {
        if (n == name) return true;
    }
    return name == "SetUp" || name == "FEN" || (name == "Variant" && game.chess960);
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
    out += '[';
    out += name;
    out += " \"";
    for (const char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    }
    out += "\"]\n";
}

/// Collects movetext tokens and wraps them into lines of at most kMaxLine characters.
class Wrapper {
  public:
    void token(std::string_view text) {
        std::string t = std::move(prefix_);
        prefix_.clear();
        t += text;
        std::string_view v = t;
        while (v.size() > kMaxLine) { // only an over-long comment word; cut it
            put(v.substr(0, kMaxLine));
            v.remove_prefix(kMaxLine);
        }
        put(v);
    }
    /// Put `p` (a '(') before the next token, without a space.
    void prefix(std::string_view p) { prefix_ += p; }
    /// Append `c` (a ')') to the last token, without a space.
    void glue(char c) {
        if (!prefix_.empty()) {
            token(std::string(1, c));
            return;
        }
        if (line_.size() + 1 > kMaxLine) flush();
        line_ += c;
    }
    std::string finish() {
        flush();
        return std::move(out_);
    }

  private:
    void put(std::string_view t) {
        if (!line_.empty() && line_.size() + 1 + t.size() > kMaxLine) flush();
        if (!line_.empty()) line_ += ' ';
        line_ += t;
    }
    void flush() {
        if (line_.empty()) return;
        out_ += line_;
        out_ += '\n';
        line_.clear();
    }
    std::string out_;
    std::string line_;
    std::string prefix_;
};

/// The comment `{...}` split into words, so that it can wrap.
void comment_tokens(Wrapper& w, const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    for (char c : text) {
        if (c == '}') c = ')';
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    if (words.empty()) return;
    // Keep a command such as "[%clk 0:05:00]" on one line.
    std::vector<std::string> joined;
    for (auto& x : words) {
        const bool open_command = !joined.empty() && joined.back().rfind("[%", 0) == 0 &&
                                  joined.back().find(']') == std::string::npos;
        if (open_command && joined.back().size() + 1 + x.size() <= kMaxLine) {
            joined.back() += ' ';
            joined.back() += x;
        } else {
            joined.push_back(std::move(x));
        }
    }
    words = std::move(joined);
    words.front().insert(0, 1, '{');
    words.back() += '}';
    for (const auto& x : words) w.token(x);
}

/// Writes moves starting at ply `ply` (0 = the start position's side and number).
class MovetextWriter {
  public:
    MovetextWriter(Wrapper& w, int first_move, bool black_first)
        : w_(w), first_move_(first_move), black_first_(black_first) {}

    void line(const std::vector<GameMove>& moves, int ply, const std::string& before,
              bool variation) {
        bool need_number = true;
        if (variation) w_.prefix("(");
        if (!before.empty()) comment_tokens(w_, before);
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const GameMove& mv = moves[i];
            const int p = ply + static_cast<int>(i);
            const int half = p + (black_first_ ? 1 : 0);
            const int number = first_move_ + half / 2;
            const bool black = (half % 2) != 0;
            if (!black) {
                w_.token(std::to_string(number).append("."));
            } else if (need_number) {
                w_.token(std::to_string(number).append("..."));
            }
            std::string t;
            t += mv.san.empty() ? "--" : mv.san;
            w_.token(t);
            for (const int nag : mv.nags) w_.token(std::string(1, '$').append(std::to_string(nag)));
            need_number = false;
            std::string comment;
            if (mv.clock_ms)
                comment.append("[%clk ").append(format_clock(*mv.clock_ms)).append("]");
            if (mv.emt_ms) {
                if (!comment.empty()) comment += ' ';
                comment.append("[%emt ").append(format_clock(*mv.emt_ms)).append("]");
            }
            if (!mv.comment.empty()) {
                if (!comment.empty()) comment += ' ';
                comment += mv.comment;
            }
            if (!comment.empty()) {
                comment_tokens(w_, comment);
                need_number = true;
            }
            for (const Variation& v : mv.variations) {
                line(v.moves, p, v.comment, true);
                need_number = true;
            }
        }
        if (variation) w_.glue(')');
    }

  private:
    Wrapper& w_;
    int first_move_;
    bool black_first_;
};

} // namespace

std::string format_clock(std::int64_t ms) {
    if (ms < 0) ms = 0;
    const std::int64_t s = ms / 1000;
    std::string out = std::to_string(s / 3600);
    out += ':';
    const auto two = [&out](std::int64_t v) {
        if (v < 10) out += '0';
        out += std::to_string(v);
    };
    two((s / 60) % 60);
    out += ':';
    two(s % 60);
    if (const std::int64_t frac = ms % 1000; frac != 0) {
        std::string d = std::to_string(frac);
        d.insert(0, 3 - d.size(), '0');
        while (d.back() == '0') d.pop_back();
        out += '.';
        out += d;
    }
    return out;
}

std::optional<std::int64_t> parse_clock(std::string_view text) {
    std::int64_t total = 0;
    int fields = 0;
    std::size_t i = 0;
    for (;;) {
        std::int64_t v = 0;
        std::size_t digits = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            v = v * 10 + (text[i] - '0');
            if (++digits > 9) return std::nullopt;
            ++i;
        }
        if (digits == 0) return std::nullopt;
        if (fields > 0 && v >= 60) return std::nullopt;
        total = total * 60 + v;
        ++fields;
        if (i < text.size() && text[i] == ':' && fields < 3) {
            ++i;
            continue;
        }
        break;
    }
    total *= 1000;
    if (i < text.size() && text[i] == '.') {
        ++i;
        std::int64_t scale = 100;
        std::size_t digits = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            total += (text[i] - '0') * scale; // digits past the millisecond are dropped
            scale /= 10;
            ++digits;
            ++i;
        }
        if (digits == 0) return std::nullopt;
    }
    if (i != text.size()) return std::nullopt;
    return total;
}

std::string write_pgn(const GameRecord& game) {
    std::string out;
    for (const auto name : kSevenTagRoster) {
        if (name == "Result") {
            write_tag(out, name, game.result.empty() ? "*" : game.result);
            continue;
        }
        const std::string* v = game.tag(name);
        write_tag(out, name, v != nullptr ? *v : (name == "Date" ? "????.??.??" : "?"));
    }
    for (const Tag& t : game.tags) {
        if (!written_apart(t.name, game)) write_tag(out, t.name, t.value);
    }
    int first_move = 1;
    bool black_first = false;
    if (game.chess960) write_tag(out, "Variant", "Chess960");
    if (!game.start_fen.empty()) {
        write_tag(out, "SetUp", "1");
        write_tag(out, "FEN", game.start_fen);
        if (auto pos = game.start_position()) {
            first_move = pos->fullmove_number();
            black_first = pos->side_to_move() == Color::Black;
        }
    }
    out += '\n';

    Wrapper w;
    MovetextWriter mw(w, first_move, black_first);
    mw.line(game.moves, 0, game.comment, false);
    w.token(game.result.empty() ? "*" : game.result);
    out += w.finish();
    return out;
}

} // namespace eboard
