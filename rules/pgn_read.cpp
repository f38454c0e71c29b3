// PGN reader: tag pairs, movetext (PGN 8.2), comments with clock commands, NAGs, variations;
// errors with line and column, recovery at the next tag section.
#include "rules/notation.hpp"
#include "rules/pgn.hpp"

#include <istream>

namespace eboard {

namespace {

/// A cursor over the PGN text that keeps 1-based line and column.
struct Lexer {
    std::string_view text;
    std::size_t i = 0;
    int line = 1;
    int column = 1;

    [[nodiscard]] bool eof() const { return i >= text.size(); }
    [[nodiscard]] char peek(std::size_t ahead = 0) const {
        return i + ahead < text.size() ? text[i + ahead] : '\0';
    }
    void advance() {
        if (eof()) return;
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        ++i;
    }
    [[nodiscard]] Error error(std::string msg) const { return Error{std::move(msg), line, column}; }
    [[nodiscard]] Error error_at(std::string msg, int l, int c) const {
        return Error{std::move(msg), l, c};
    }
    [[nodiscard]] bool at_line_start() const { return column == 1; }

    void skip_line() {
        while (!eof() && peek() != '\n') advance();
        advance();
    }
    /// Skips white space and `%` escape lines (PGN 6).
    void skip_space() {
        for (;;) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
                advance();
            } else if (c == '%' && at_line_start()) {
                skip_line();
            } else if (i == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") {
                i = 3; // UTF-8 byte order mark
            } else {
                return;
            }
        }
    }
};

bool is_symbol_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '+' || c == '#' || c == '=' || c == ':' || c == '-' || c == '/' || c == '!' ||
           c == '?' || u >= 0x80;
}

bool is_result(std::string_view s) {
    return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*";
}

bool is_chess960_variant(std::string_view v) {
    std::string k;
    for (const char c : v) {
        if (c == ' ' || c == '-' || c == '_') continue;
        k += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return k == "chess960" || k == "fischerandom" || k == "fischerrandom" || k == "frc" ||
           k == "960";
}

bool is_standard_variant(std::string_view v) {
    std::string k;
    for (const char c : v) k += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return k.empty() || k == "standard" || k == "chess" || k == "normal" || k == "from position";
}

/// NAG of a suffix annotation (PGN 10, 8.2.3.8): ! $1, ? $2, !! $3, ?? $4, !? $5, ?! $6.
int suffix_nag(std::string_view s) {
    if (s == "!") return 1;
    if (s == "?") return 2;
    if (s == "!!") return 3;
    if (s == "??") return 4;
    if (s == "!?") return 5;
    if (s == "?!") return 6;
    return 0;
}

void append_text(std::string& to, std::string_view words) {
    // Collapse white space to single spaces.
    bool space = !to.empty();
    for (const char c : words) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            space = !to.empty();
            continue;
        }
        if (space) to += ' ';
        space = false;
        to += c;
    }
}

/// Reads the game's parts; the Lexer is left after the game (or at the error).
class GameParser {
  public:
    GameParser(Lexer& lx, const PgnReadOptions& options) : lx_(lx), options_(options) {}

    std::optional<Error> parse(GameRecord& game) {
        if (auto e = parse_tags(game)) return e;
        auto start = setup(game);
        if (!start) return start.error();
        Position pos = std::move(start.value());
        return parse_moves(pos, game.moves, &game.comment, false, &game.result);
    }

  private:
    std::optional<Error> parse_tags(GameRecord& game) {
        for (;;) {
            lx_.skip_space();
            if (lx_.peek() != '[') return std::nullopt;
            lx_.advance();
            while (lx_.peek() == ' ' || lx_.peek() == '\t') lx_.advance();
            std::string name;
            while (!lx_.eof() && ((lx_.peek() >= 'A' && lx_.peek() <= 'Z') ||
                                  (lx_.peek() >= 'a' && lx_.peek() <= 'z') ||
                                  (lx_.peek() >= '0' && lx_.peek() <= '9') || lx_.peek() == '_')) {
                name += lx_.peek();
                lx_.advance();
            }
            if (name.empty()) return lx_.error("expected a tag name after '['");
            while (lx_.peek() == ' ' || lx_.peek() == '\t') lx_.advance();
            if (lx_.peek() != '"') return lx_.error("tag value must be a string");
            const int l = lx_.line, c = lx_.column;
            lx_.advance();
            std::string value;
            for (;;) {
                if (lx_.eof() || lx_.peek() == '\n') {
                    return lx_.error_at("unterminated tag value", l, c);
                }
                char ch = lx_.peek();
                if (ch == '"') break;
                if (ch == '\\' && (lx_.peek(1) == '"' || lx_.peek(1) == '\\')) {
                    lx_.advance();
                    ch = lx_.peek();
                }
                value += ch;
                lx_.advance();
            }
            lx_.advance(); // closing quote
            while (lx_.peek() == ' ' || lx_.peek() == '\t') lx_.advance();
            if (lx_.peek() != ']') return lx_.error("expected ']' after the tag value");
            lx_.advance();
            if (name == "FEN") {
                game.start_fen = value;
            } else if (name == "SetUp") {
                // Implied by FEN.
            } else if (name == "Variant" && is_chess960_variant(value)) {
                game.chess960 = true;
            } else {
                if (name == "Variant" && !is_standard_variant(value)) {
                    return lx_.error_at("unsupported variant '" + value + "'", l, c);
                }
                game.tags.push_back(Tag{std::move(name), std::move(value)});
            }
        }
    }

    Expected<Position> setup(const GameRecord& game) {
        auto pos = game.start_position();
        if (!pos) return lx_.error("bad FEN tag: " + pos.error().message);
        return pos;
    }

    /// The text of a `{...}` or `;...` comment; the Lexer is after it.
    Expected<std::string> read_comment() {
        const int l = lx_.line, c = lx_.column;
        const bool brace = lx_.peek() == '{';
        lx_.advance();
        std::string text;
        for (;;) {
            if (lx_.eof()) {
                if (brace) return lx_.error_at("unterminated comment", l, c);
                return text;
            }
            const char ch = lx_.peek();
            if (brace ? ch == '}' : ch == '\n') break;
            text += ch;
            lx_.advance();
        }
        lx_.advance();
        return text;
    }

    /// Takes `[%clk ...]` / `[%emt ...]` out of a comment into the move.
    static std::string take_clock_commands(std::string_view text, GameMove* mv) {
        std::string rest;
        std::size_t i = 0;
        while (i < text.size()) {
            const bool clk = text.substr(i, 6) == "[%clk ";
            const bool emt = text.substr(i, 6) == "[%emt ";
            const std::size_t close = text.find(']', i);
            if (mv != nullptr && (clk || emt) && close != std::string_view::npos) {
                std::string_view value = text.substr(i + 6, close - i - 6);
                while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
                while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
                if (const auto ms = parse_clock(value)) {
                    (clk ? mv->clock_ms : mv->emt_ms) = *ms;
                    i = close + 1;
                    continue;
                }
            }
            rest += text[i++];
        }
        return rest;
    }

    /// Skips a variation whose '(' was just read, comments included.
    std::optional<Error> skip_variation(int l, int c) {
        int depth = 1;
        while (depth > 0) {
            lx_.skip_space();
            if (lx_.eof()) return lx_.error_at("unterminated variation", l, c);
            const char ch = lx_.peek();
            if (ch == '{' || ch == ';') {
                auto text = read_comment();
                if (!text) return text.error();
                continue;
            }
            if (ch == '(') ++depth;
            if (ch == ')') --depth;
            lx_.advance();
        }
        return std::nullopt;
    }

    std::optional<Error> parse_moves(Position& pos, std::vector<GameMove>& moves,
                                     std::string* before, bool in_variation, std::string* result) {
        const int var_line = lx_.line, var_col = lx_.column - 1;
        for (;;) {
            lx_.skip_space();
            const int l = lx_.line, c = lx_.column;
            if (lx_.eof()) {
                if (in_variation) return lx_.error_at("unterminated variation", var_line, var_col);
                return std::nullopt; // no termination marker: lenient
            }
            const char ch = lx_.peek();
            if (ch == '[' && lx_.at_line_start() && !in_variation) return std::nullopt;
            if (ch == '{' || ch == ';') {
                auto text = read_comment();
                if (!text) return text.error();
                if (moves.empty()) {
                    append_text(*before, *text);
                    continue;
                }
                // White space collapsed, so "[%clk\n0:05:00]" reads too. The commands are taken
                // from the move's whole comment, again until none is left: two comments in a row,
                // or the text around a command taken out, can form one only together, and the
                // writer puts the rest back as one comment, which must read the same (fuzz/pgn.cpp).
                GameMove& mv = moves.back();
                std::string words = std::move(mv.comment);
                append_text(words, *text);
                for (;;) {
                    std::string rest;
                    append_text(rest, take_clock_commands(words, &mv));
                    if (rest == words) break;
                    words = std::move(rest);
                }
                mv.comment = std::move(words);
                continue;
            }
            if (ch == '(') {
                lx_.advance();
                if (!options_.keep_variations) {
                    if (auto e = skip_variation(l, c)) return e;
                    continue;
                }
                if (moves.empty()) return lx_.error_at("variation before any move", l, c);
                if (depth_ >= kMaxVariationDepth) {
                    return lx_.error_at("variations nested too deeply", l, c);
                }
                Position vpos = pos.copy();
                vpos.unmake_move();
                Variation var;
                ++depth_;
                auto e = parse_moves(vpos, var.moves, &var.comment, true, nullptr);
                --depth_;
                if (e) return e;
                moves.back().variations.push_back(std::move(var));
                continue;
            }
            if (ch == ')') {
                if (!in_variation) return lx_.error("')' without a variation");
                lx_.advance();
                return std::nullopt;
            }
            if (ch == '.') {
                lx_.advance();
                continue;
            }
            if (ch == '$') {
                lx_.advance();
                int nag = 0;
                bool digits = false;
                while (lx_.peek() >= '0' && lx_.peek() <= '9') {
                    nag = nag * 10 + (lx_.peek() - '0');
                    digits = true;
                    lx_.advance();
                    if (nag > 255) return lx_.error_at("NAG out of range 0..255", l, c);
                }
                if (!digits) return lx_.error_at("expected digits after '$'", l, c);
                if (!moves.empty()) moves.back().nags.push_back(nag);
                continue;
            }
            if (ch == '*' || is_symbol_char(ch)) {
                std::string sym(1, ch);
                lx_.advance();
                if (ch != '*') {
                    while (is_symbol_char(lx_.peek())) {
                        sym += lx_.peek();
                        lx_.advance();
                    }
                }
                if (auto e = symbol(pos, moves, sym, in_variation, result, l, c)) return e;
                if (!in_variation && is_result(sym)) return std::nullopt;
                continue;
            }
            return lx_.error(std::string("unexpected character '") + ch + "'");
        }
    }

    std::optional<Error> symbol(Position& pos, std::vector<GameMove>& moves, const std::string& sym,
                                bool in_variation, std::string* result, int l, int c) {
        if (is_result(sym)) {
            if (in_variation) return lx_.error_at("game result inside a variation", l, c);
            *result = sym;
            return std::nullopt;
        }
        if (sym.find_first_not_of("0123456789") == std::string::npos) return std::nullopt;
        if (sym == "e" && lx_.text.substr(lx_.i, 3) == ".p.") { // "exd6 e.p."
            for (int k = 0; k < 3; ++k) lx_.advance();
            return std::nullopt;
        }
        // Suffix annotations: "e4!?" or a separate "!?".
        const std::size_t end = sym.find_last_not_of("!?");
        const std::string suffix = end == std::string::npos ? sym : sym.substr(end + 1);
        if (end == std::string::npos) {
            if (moves.empty() || suffix_nag(suffix) == 0) {
                return lx_.error_at("unexpected '" + sym + "'", l, c);
            }
            moves.back().nags.push_back(suffix_nag(suffix));
            return std::nullopt;
        }
        GameMove mv;
        mv.written = sym.substr(0, end + 1);
        if (!suffix.empty()) {
            if (suffix_nag(suffix) == 0) {
                return lx_.error_at("unknown annotation '" + suffix + "'", l, c);
            }
            mv.nags.push_back(suffix_nag(suffix));
        }
        if (mv.written == "--" || mv.written == "Z0") {
            if (pos.in_check()) return lx_.error_at("null move while in check", l, c);
            pos.make_null_move();
            mv.san = "--";
        } else {
            auto m = parse_move(pos, mv.written);
            if (!m)
                return lx_.error_at(m.error().message, l, c + std::max(0, m.error().column - 1));
            mv.move = *m;
            mv.san = to_san(pos, *m);
            pos.make_move(*m);
        }
        moves.push_back(std::move(mv));
        return std::nullopt;
    }

    /// Kept variations are read recursively; deeper nesting is refused, not a stack overflow.
    static constexpr int kMaxVariationDepth = 100;

    Lexer& lx_;
    const PgnReadOptions& options_;
    int depth_ = 0;
};

bool at_tag_line(const Lexer& lx) {
    const char n = lx.peek(1);
    return lx.peek() == '[' && ((n >= 'A' && n <= 'Z') || (n >= 'a' && n <= 'z'));
}

/// Goes from the start of a game (`lx`) to the next tag section after an error on line
/// `error_line`: the first tag line after a line that is not a tag line.
void recover(Lexer& lx, int error_line) {
    while (!lx.eof() && lx.line < error_line) lx.advance();
    bool left_tags = !at_tag_line(lx);
    lx.skip_line();
    while (!lx.eof()) {
        const bool tag_line = at_tag_line(lx);
        if (tag_line && left_tags) return;
        if (!tag_line) left_tags = true;
        lx.skip_line();
    }
}

} // namespace

const std::string* GameRecord::tag(std::string_view name) const {
    for (const Tag& t : tags) {
        if (t.name == name) return &t.value;
    }
    return nullptr;
}

void GameRecord::set_tag(std::string_view name, std::string_view value) {
    for (Tag& t : tags) {
        if (t.name == name) {
            t.value = value;
            return;
        }
    }
    tags.push_back(Tag{std::string(name), std::string(value)});
}

Expected<Position> GameRecord::start_position() const {
    if (start_fen.empty()) {
        if (chess960) return Error{"Chess960 game without a FEN tag", 0, 0};
        return Position::startpos();
    }
    return Position::from_fen(start_fen, chess960);
}

GameMove make_game_move(const Position& before, Move m) {
    GameMove mv;
    mv.move = m;
    mv.san = to_san(before, m);
    return mv;
}

PgnReader::PgnReader(std::string_view text, PgnReadOptions options)
    : text_(text), options_(options) {}

PgnReader::PgnReader(std::istream& in, PgnReadOptions options) : options_(options) {
    char buf[1 << 14];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        owned_.append(buf, static_cast<std::size_t>(in.gcount()));
    }
    text_ = owned_;
}

std::optional<Expected<GameRecord>> PgnReader::next() {
    Lexer lx{text_, offset_, line_, column_};
    lx.skip_space();
    if (lx.eof()) {
        offset_ = lx.i;
        return std::nullopt;
    }
    const Lexer start = lx;
    GameRecord game;
    GameParser parser(lx, options_);
    std::optional<Error> err = parser.parse(game);
    if (!err && lx.i == start.i) err = lx.error("no game here");
    if (err) {
        lx = start;
        recover(lx, err->line);
    }
    offset_ = lx.i;
    line_ = lx.line;
    column_ = lx.column;
    if (err) return Expected<GameRecord>(std::move(*err));
    return Expected<GameRecord>(std::move(game));
}

Expected<GameRecord> read_pgn_game(std::string_view text, PgnReadOptions options) {
    PgnReader reader(text, options);
    auto game = reader.next();
    if (!game) return Error{"no game in the text", 1, 1};
    return std::move(*game);
}

} // namespace eboard
