// TRF16 reader (standings/trf.hpp). Columns are counted in characters (UTF-8 code points), so
// that a name with accents keeps the columns after it where an editor shows them.
#include "standings/trf.hpp"

#include "standings/lines.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <utility>

namespace eboard::standings {
namespace {

/// One line split into characters: the byte offset of each character (plus the end).
class Columns {
  public:
    explicit Columns(std::string_view line) : line_(line) {
        for (std::size_t i = 0; i < line.size(); ++i) {
            // A UTF-8 continuation byte (10xxxxxx) belongs to the character before it.
            if ((static_cast<unsigned char>(line[i]) & 0xC0U) != 0x80U) starts_.push_back(i);
        }
        starts_.push_back(line.size());
    }
    /// Number of characters.
    [[nodiscard]] int size() const { return static_cast<int>(starts_.size()) - 1; }
    /// Characters [first, last] (1-based, inclusive), cut at the end of the line.
    [[nodiscard]] std::string_view field(int first, int last) const {
        if (first > size()) return {};
        last = std::min(last, size());
        const std::size_t b = starts_[static_cast<std::size_t>(first - 1)];
        const std::size_t e = starts_[static_cast<std::size_t>(last)];
        return line_.substr(b, e - b);
    }
    /// Characters from `first` to the end.
    [[nodiscard]] std::string_view rest(int first) const { return field(first, size()); }

  private:
    std::string_view line_;
    std::vector<std::size_t> starts_;
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

std::string trim_right(std::string_view s) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return std::string(s);
}

/// A whole number of at most 9 digits, blanks around it allowed; empty -> `blank`.
std::optional<int> number(std::string_view field, int blank) {
    const std::string_view t = trim(field);
    if (t.empty()) return blank;
    if (t.size() > 9) return std::nullopt;
    int v = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

Error at(int line, int column, std::string message) {
    return Error{std::move(message), line, column};
}

constexpr int kFirstRound = 92;  // column of the first round's opponent
constexpr int kRoundWidth = 10;

bool known_result(char c) {
    return std::string_view("1=0WDL+-HFUZ ").find(c) != std::string_view::npos;
}

Expected<PlayerRecord> read_player(std::string_view text, int line_no) {
    const Columns c(text);
    PlayerRecord p;
    p.line = line_no;
    const auto startno = number(c.field(5, 8), -1);
    if (!startno || *startno <= 0)
        return at(line_no, 5, "starting number (columns 5-8) is not a positive number");
    p.startno = *startno;
    const std::string_view sex = c.field(10, 10);
    p.sex = sex.size() == 1 ? sex[0] : ' ';
    p.title = trim_right(c.field(11, 13));
    p.name = trim_right(c.field(15, 47));
    const auto rating = number(c.field(49, 52), 0);
    if (!rating) return at(line_no, 49, "rating (columns 49-52) is not a number");
    p.rating = *rating;
    p.federation = trim_right(c.field(54, 56));
    p.fide_id = std::string(trim(c.field(58, 68)));
    p.birth = trim_right(c.field(70, 79));
    p.points = std::string(trim(c.field(81, 84)));
    p.rank = std::string(trim(c.field(86, 89)));
    for (int col = kFirstRound; col <= c.size(); col += kRoundWidth) {
        const std::string_view block = c.field(col, col + kRoundWidth - 1);
        if (trim(block).empty()) {
            p.rounds.push_back(RoundEntry{});
            continue;
        }
        const std::string_view gap1 = c.field(col + 4, col + 4);
        const std::string_view gap2 = c.field(col + 6, col + 6);
        if (trim(gap1).size() + trim(gap2).size() != 0)
            return at(line_no, trim(gap1).empty() ? col + 6 : col + 4,
                      "round " + std::to_string(p.rounds.size() + 1) +
                          ": expected a blank between the fields of the 10-column block");
        RoundEntry r;
        const auto opp = number(c.field(col, col + 3), 0);
        if (!opp)
            return at(line_no, col,
                      "round " + std::to_string(p.rounds.size() + 1) +
                          ": opponent (4 columns) is not a starting number");
        r.opponent = *opp;
        const std::string_view colour = c.field(col + 5, col + 5);
        r.colour = colour.size() == 1 ? colour[0] : ' ';
        if (r.colour == ' ') r.colour = '-';
        if (r.colour != 'w' && r.colour != 'b' && r.colour != '-')
            return at(line_no, col + 5,
                      "round " + std::to_string(p.rounds.size() + 1) +
                          ": colour is not w, b or -");
        const std::string_view result = c.field(col + 7, col + 7);
        r.result = result.size() == 1 ? result[0] : ' ';
        if (result.size() > 1 || !known_result(r.result))
            return at(line_no, col + 7,
                      "round " + std::to_string(p.rounds.size() + 1) +
                          ": unknown result code (1 = 0 W D L + - H F U Z)");
        if (!trim(c.field(col + 8, col + 9)).empty())
            return at(line_no, col + 8,
                      "round " + std::to_string(p.rounds.size() + 1) +
                          ": text after the result inside the 10-column block");
        const bool bye = std::string_view("HFUZ ").find(r.result) != std::string_view::npos;
        if (bye && r.opponent != 0)
            return at(line_no, col, "round " + std::to_string(p.rounds.size() + 1) +
                                        ": a bye has opponent 0000");
        if (!bye && r.opponent == 0)
            return at(line_no, col, "round " + std::to_string(p.rounds.size() + 1) +
                                        ": a game needs an opponent");
        p.rounds.push_back(r);
    }
    while (!p.rounds.empty() && p.rounds.back() == RoundEntry{}) p.rounds.pop_back();
    return p;
}

/// The result the opponent's record must show for a given one.
char mirror(char result) {
    switch (result) {
    case '1': return '0';
    case '0': return '1';
    case 'W': return 'L';
    case 'L': return 'W';
    case '+': return '-';
    case '-': return '+';
    default: return result;  // '=' 'D'
    }
}

/// Both sides of every game agree (opponent, colours, results). A double forfeit ('-' on both
/// sides, the club's 0-0) is accepted.
std::optional<Error> check_games(const TrfFile& f) {
    std::map<int, const PlayerRecord*> by_no;
    for (const auto& p : f.players) by_no[p.startno] = &p;
    for (const auto& p : f.players) {
        for (std::size_t r = 0; r < p.rounds.size(); ++r) {
            const RoundEntry& e = p.rounds[r];
            if (e.opponent == 0) continue;
            const int col = kFirstRound + static_cast<int>(r) * kRoundWidth;
            const std::string round = "round " + std::to_string(r + 1) + ": ";
            const auto it = by_no.find(e.opponent);
            if (it == by_no.end())
                return at(p.line, col, round + "opponent " + std::to_string(e.opponent) +
                                           " is not a player of the file");
            if (e.opponent == p.startno) return at(p.line, col, round + "a player against himself");
            const PlayerRecord& o = *it->second;
            const RoundEntry other = r < o.rounds.size() ? o.rounds[r] : RoundEntry{};
            const bool colours_ok = (e.colour == '-' && other.colour == '-') ||
                                    (e.colour == 'w' && other.colour == 'b') ||
                                    (e.colour == 'b' && other.colour == 'w');
            const bool results_ok =
                other.result == mirror(e.result) || (e.result == '-' && other.result == '-');
            if (other.opponent != p.startno || !colours_ok || !results_ok)
                return at(p.line, col,
                          round + "the record of player " + std::to_string(e.opponent) +
                              " (line " + std::to_string(o.line) +
                              ") does not show the other side of this game");
        }
    }
    return std::nullopt;
}

} // namespace

std::string TrfFile::header(std::string_view code) const {
    for (const auto& o : others)
        if (o.code == code) return std::string(trim(o.text));
    return {};
}

Expected<TrfFile> read_trf(std::string_view text) {
    TrfFile f;
    std::map<int, int> lines_of;  // starting number -> line
    int line_no = 0;
    while (!text.empty()) {
        ++line_no;
        std::string_view line = detail::take_line(text);
        if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // BOM
        if (trim(line).empty()) continue;
        if (const std::size_t i = detail::first_control(line); i != std::string_view::npos)
            return at(line_no, Columns(line.substr(0, i)).size() + 1, "control character in the file");
        if (line.size() < 3 || (line.size() > 3 && line[3] != ' '))
            return at(line_no, 1, "a record starts with a 3-character code and a blank");
        const std::string_view code = line.substr(0, 3);
        // Codes are printable ASCII ("001", "012", "XXR"): a stray byte such as a BOM past the
        // file's start is not a record the writer could give back.
        for (const char c : code)
            if (c <= ' ' || c > '~') return at(line_no, 1, "a record starts with a 3-character code and a blank");
        if (code == "001") {
            auto p = read_player(line, line_no);
            if (!p) return p.error();
            const auto [it, fresh] = lines_of.emplace(p->startno, line_no);
            if (!fresh)
                return at(line_no, 5, "starting number " + std::to_string(p->startno) +
                                          " already used on line " + std::to_string(it->second));
            f.players.push_back(std::move(p.value()));
            f.order += 'P';
        } else {
            f.others.push_back(OtherRecord{
                std::string(code), line.size() > 4 ? std::string(line.substr(4)) : std::string()});
            f.order += 'O';
        }
    }
    if (auto e = check_games(f)) return *e;
    return f;
}

} // namespace eboard::standings
