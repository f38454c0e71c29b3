// Rules profiles: the text format (docs/profiles.md), inheritance, supervision sections, the
// built-in profiles and the helpers the daemon asks (penalty ladder, time-control warning).
#include "rules/profile.hpp"

#include "rules/profile_keys.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace eboard {

using profile_detail::KeyDef;

// --- values ---------------------------------------------------------------------------------

std::string Penalty::text() const {
    switch (kind) {
    case Kind::None:
        return "none";
    case Kind::AddTime: {
        std::string s = "+";
        s += std::to_string(minutes);
        s += "min";
        return s;
    }
    case Kind::Loss:
        return "loss";
    case Kind::WinClaim:
        return "win-claim";
    }
    return "none";
}

bool MinuteRange::contains_seconds(std::int64_t seconds) const noexcept {
    if (any) return true;
    const std::int64_t lo = std::int64_t{low} * 60;
    if (low_inclusive ? seconds < lo : seconds <= lo) return false;
    if (high) {
        const std::int64_t hi = std::int64_t{*high} * 60;
        if (high_inclusive ? seconds > hi : seconds >= hi) return false;
    }
    return true;
}

std::string MinuteRange::text() const {
    if (any) return "any";
    std::string s(1, low_inclusive ? '[' : '(');
    s += std::to_string(low);
    s += ", ";
    if (high) {
        s += std::to_string(*high);
        s += high_inclusive ? "]" : ")";
    } else {
        s += "inf)";
    }
    return s;
}

Penalty Profile::illegal_penalty(int count, bool quickplay) const {
    const std::vector<Penalty>& ladder = quickplay ? illegal_ladder_quickplay : illegal_ladder;
    if (count < 1 || ladder.empty()) return {};
    const std::size_t i = std::min(static_cast<std::size_t>(count), ladder.size()) - 1;
    return ladder[i];
}

std::optional<std::string> Profile::time_control_warning(const TimeControl& tc) const {
    if (category_minutes.any || tc.periods.empty()) return std::nullopt;
    if (tc.kind != TimeControl::Kind::Periods && tc.kind != TimeControl::Kind::Sandclock)
        return std::nullopt;
    std::int64_t ms = 60 * tc.periods.front().increment_ms;
    for (const TimePeriod& p : tc.periods) ms += p.time_ms;
    const std::int64_t seconds = ms / 1000;
    if (category_minutes.contains_seconds(seconds)) return std::nullopt;
    std::string w = "time control " + format_time_control(tc) + " gives " +
                    std::to_string(seconds / 60) + " min " + std::to_string(seconds % 60) +
                    " s per player (allotted time + 60 x increment), outside the " +
                    std::string(to_string(category)) + " range " + category_minutes.text() +
                    " min of " + name;
    if (!articles.category.empty()) w += " (" + articles.category + ")";
    return w;
}

// --- built-ins --------------------------------------------------------------------------------

const std::vector<std::string_view>& builtin_profile_names() {
    // eboardd(8)'s order; the default (fide-2023) first.
    static const std::vector<std::string_view> names = {
        "fide-2023",       "fide-2023-rapid", "fide-2023-blitz", "fide-2005",
        "fide-2005-rapid", "fide-2005-blitz", "fide-2001",       "club-2014"};
    return names;
}

std::optional<std::string_view> builtin_profile_text(std::string_view name) {
    for (int i = 0; i < profile_detail::kBuiltinProfileCount; ++i)
        if (profile_detail::kBuiltinProfiles[i].first == name)
            return profile_detail::kBuiltinProfiles[i].second;
    return std::nullopt;
}

Expected<Profile> builtin_profile(std::string_view name, bool supervised) {
    const auto text = builtin_profile_text(name);
    if (!text) {
        std::string msg = "unknown rules profile '" + std::string(name) + "' (built-in:";
        for (std::string_view n : builtin_profile_names()) (msg += ' ') += n;
        return Error{msg + ")", 0, 0};
    }
    auto p = parse_profile(*text, supervised);
    if (!p) {
        Error e = p.error();
        e.message = "built-in profile '" + std::string(name) + "': " + e.message;
        return e;
    }
    return p;
}

// --- the parser -------------------------------------------------------------------------------

namespace {

enum class Section { Base, Supervised, Unsupervised };

/// One `key = value` line.
struct Entry {
    Section section = Section::Base;
    std::string_view key;
    std::string_view value;
    int line = 0;
    int key_column = 0;
    int value_column = 0;
};

struct Lexed {
    std::vector<Entry> entries;
    int lines = 0;
};

Error error_at(std::string message, int line, int column) {
    return Error{std::move(message), line, column};
}

bool key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/// Splits the text into entries; checks the syntax of every line, the keys and duplicates.
Expected<Lexed> lex(std::string_view text) {
    Lexed out;
    Section section = Section::Base;
    std::set<std::pair<int, std::string_view>> seen;
    std::size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++line_no;
        if (line_no > 10000) return error_at("profile longer than 10000 lines", line_no, 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        for (std::size_t i = 0; i < line.size(); ++i) {
            const auto c = static_cast<unsigned char>(line[i]);
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return error_at("control character in the text", line_no, static_cast<int>(i) + 1);
        }
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        auto col_of = [&line](std::string_view part) {
            return static_cast<int>(part.data() - line.data()) + 1;
        };
        std::size_t b = 0;
        while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
        std::size_t e = line.size();
        while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t')) --e;
        const std::string_view body = line.substr(b, e - b);
        if (body.empty()) continue;
        if (body.front() == '[') {
            if (body == "[supervised]")
                section = Section::Supervised;
            else if (body == "[unsupervised]")
                section = Section::Unsupervised;
            else
                return error_at("unknown section " + std::string(body) +
                                    " (expected [supervised] or [unsupervised])",
                                line_no, col_of(body));
            continue;
        }
        const std::size_t eq = body.find('=');
        if (eq == std::string_view::npos)
            return error_at("expected key = value", line_no, col_of(body));
        std::string_view key = body.substr(0, eq);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
        if (key.empty()) return error_at("missing key before =", line_no, col_of(body));
        for (std::size_t i = 0; i < key.size(); ++i)
            if (!key_char(key[i]))
                return error_at("bad character in key (keys use a-z 0-9 . -)", line_no,
                                col_of(key) + static_cast<int>(i));
        std::string_view value = body.substr(eq + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
            value.remove_prefix(1);
        const int value_col =
            value.empty() ? col_of(body) + static_cast<int>(eq) + 1 : col_of(value);
        const bool special = key == "inherit" || key == "name";
        if (!special && !profile_detail::find_key(key))
            return error_at("unknown key '" + std::string(key) + "'", line_no, col_of(key));
        if (special && section != Section::Base)
            return error_at("'" + std::string(key) + "' belongs before any section", line_no,
                            col_of(key));
        if (value.empty()) return error_at("missing value", line_no, value_col);
        if (!seen.insert({static_cast<int>(section), key}).second)
            return error_at("key '" + std::string(key) + "' set twice", line_no, col_of(key));
        out.entries.push_back({section, key, value, line_no, col_of(key), value_col});
    }
    out.lines = line_no;
    return out;
}

constexpr int kMaxInheritance = 8;

Expected<Profile> resolve(std::string_view text, bool supervised, int depth) {
    auto lexed = lex(text);
    if (!lexed) return lexed.error();
    const std::vector<Entry>& entries = lexed->entries;

    Profile p;
    std::set<std::string_view> set_keys;
    const auto inherit = std::find_if(entries.begin(), entries.end(),
                                      [](const Entry& e) { return e.key == "inherit"; });
    if (inherit != entries.end()) {
        const auto parent_text = builtin_profile_text(inherit->value);
        if (!parent_text) {
            std::string msg =
                "unknown profile to inherit '" + std::string(inherit->value) + "' (built-in:";
            for (std::string_view n : builtin_profile_names()) (msg += ' ') += n;
            return error_at(msg + ")", inherit->line, inherit->value_column);
        }
        if (depth >= kMaxInheritance)
            return error_at("inheritance deeper than 8 profiles (a cycle?)", inherit->line,
                            inherit->value_column);
        auto parent = resolve(*parent_text, supervised, depth + 1);
        if (!parent)
            return error_at("in inherited profile '" + std::string(inherit->value) + "', line " +
                                std::to_string(parent.error().line) + ": " + parent.error().message,
                            inherit->line, inherit->value_column);
        p = std::move(parent.value());
        for (const KeyDef& k : profile_detail::key_table()) set_keys.insert(k.name);
    }
    p.name = "custom"; // `name` is not inherited
    const Section wanted = supervised ? Section::Supervised : Section::Unsupervised;
    for (const Section pass : {Section::Base, wanted}) {
        for (const Entry& e : entries) {
            if (e.section != pass || e.key == "inherit") continue;
            if (e.key == "name") {
                p.name = std::string(e.value);
                continue;
            }
            const KeyDef* def = profile_detail::find_key(e.key);
            if (auto err = def->parse(p, e.value))
                return error_at(err->message, e.line,
                                e.value_column + static_cast<int>(err->offset));
            set_keys.insert(def->name);
        }
    }
    for (const KeyDef& k : profile_detail::key_table())
        if (!set_keys.count(k.name))
            return error_at("missing key '" + std::string(k.name) +
                                "' (a profile without inherit sets every key)",
                            lexed->lines + 1, 1);
    p.supervised = supervised;
    return p;
}

} // namespace

Expected<Profile> parse_profile(std::string_view text, bool supervised) {
    return resolve(text, supervised, 0);
}

std::string to_text(const Profile& p) {
    std::string out = "# rules profile " + p.name + ": every key, no sections\n";
    out += "name = " + (p.name.empty() ? std::string("custom") : p.name) + "\n";
    for (const KeyDef& k : profile_detail::key_table())
        out += std::string(k.name) + " = " + k.print(p) + "\n";
    return out;
}

} // namespace eboard
