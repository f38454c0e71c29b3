// The key table of the profile format (docs/profiles.md): value syntax per type.
#include "rules/profile_keys.hpp"

#include "rules/text.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace eboard::profile_detail {
namespace {

/// A member of Profile, possibly nested (Profile::articles then Articles::flag).
template <auto... Ms>
auto& field(Profile& p) {
    return (p.*....*Ms);
}
template <auto... Ms>
const auto& field(const Profile& p) {
    return (p.*....*Ms);
}

constexpr int kMaxInt = 9999;

/// Whole number 0..kMaxInt.
std::optional<int> to_int(std::string_view v) {
    if (v.empty() || v.size() > 4) return std::nullopt;
    int n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc{} || end != v.data() + v.size() || n < 0) return std::nullopt;
    return n;
}

// --- yes/no ---------------------------------------------------------------------------------
template <auto... Ms>
std::optional<ValueError> parse_bool(Profile& p, std::string_view v) {
    if (v == "yes")
        field<Ms...>(p) = true;
    else if (v == "no")
        field<Ms...>(p) = false;
    else
        return ValueError{"expected yes or no", 0};
    return std::nullopt;
}
template <auto... Ms>
std::string print_bool(const Profile& p) {
    return field<Ms...>(p) ? "yes" : "no";
}

// --- whole numbers --------------------------------------------------------------------------
template <auto... Ms>
std::optional<ValueError> parse_int(Profile& p, std::string_view v) {
    const auto n = to_int(v);
    if (!n) return ValueError{"expected a whole number 0.." + std::to_string(kMaxInt), 0};
    field<Ms...>(p) = *n;
    return std::nullopt;
}
template <auto... Ms>
std::string print_int(const Profile& p) {
    return std::to_string(field<Ms...>(p));
}

// --- free text (titles, article numbers); "-" = none ----------------------------------------
template <auto... Ms>
std::optional<ValueError> parse_text(Profile& p, std::string_view v) {
    field<Ms...>(p) = v == "-" ? std::string() : std::string(v);
    return std::nullopt;
}
template <auto... Ms>
std::string print_text(const Profile& p) {
    const std::string& s = field<Ms...>(p);
    return s.empty() ? "-" : s;
}

// --- enumerations -----------------------------------------------------------------------------
template <typename E>
struct EnumName {
    E value;
    std::string_view name;
};
constexpr std::array<EnumName<Edition>, 3> kEditions{
    {{Edition::Fide2001, "2001"}, {Edition::Fide2005, "2005"}, {Edition::Fide2023, "2023"}}};
constexpr std::array<EnumName<Category>, 3> kCategories{
    {{Category::Standard, "standard"}, {Category::Rapid, "rapid"}, {Category::Blitz, "blitz"}}};
constexpr std::array<EnumName<RepetitionCastling>, 2> kRepetition{
    {{RepetitionCastling::Permanent, "permanent"},
     {RepetitionCastling::TemporaryOrPermanent, "temporary-or-permanent"}}};
constexpr std::array<EnumName<Actor>, 3> kActors{{{Actor::Arbiter, "arbiter"},
                                                  {Actor::ArbiterOrClaim, "arbiter-or-claim"},
                                                  {Actor::Claim, "claim"}}};
constexpr std::array<EnumName<BothFlags>, 5> kBothFlags{
    {{BothFlags::PlayOn, "play-on"},
     {BothFlags::Draw, "draw"},
     {BothFlags::DrawInLastPeriod, "draw-in-last-period"},
     {BothFlags::DrawInQuickplay, "draw-in-quickplay"},
     {BothFlags::DrawInLastPeriodWithoutIncrement, "draw-in-last-period-without-increment"}}};

template <typename E, std::size_t N>
std::string_view enum_name(const std::array<EnumName<E>, N>& table, E value) {
    for (const auto& e : table)
        if (e.value == value) return e.name;
    return "?";
}

template <const auto& Table, auto... Ms>
std::optional<ValueError> parse_enum(Profile& p, std::string_view v) {
    for (const auto& e : Table)
        if (e.name == v) {
            field<Ms...>(p) = e.value;
            return std::nullopt;
        }
    std::string msg = "expected one of:";
    for (const auto& e : Table) (msg += ' ') += e.name;
    return ValueError{msg, 0};
}
template <const auto& Table, auto... Ms>
std::string print_enum(const Profile& p) {
    return std::string(enum_name(Table, field<Ms...>(p)));
}

// --- comma-separated lists; "none" = empty --------------------------------------------------
/// Calls item(text, offset) for each comma-separated item; stops at the first error.
template <typename F>
std::optional<ValueError> for_each_item(std::string_view v, F item) {
    if (v == "none") return std::nullopt;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = v.find(',', start);
        const std::string_view raw = v.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        const std::string_view t = trim_blanks(raw);
        const std::size_t offset =
            start + static_cast<std::size_t>(t.empty() ? 0 : t.data() - raw.data());
        if (t.empty()) return ValueError{"empty list item (write none for an empty list)", offset};
        if (auto err = item(t, offset)) return err;
        if (comma == std::string_view::npos) return std::nullopt;
        start = comma + 1;
    }
}

template <auto... Ms>
std::optional<ValueError> parse_ladder(Profile& p, std::string_view v) {
    std::vector<Penalty> ladder;
    auto err =
        for_each_item(v, [&](std::string_view t, std::size_t off) -> std::optional<ValueError> {
            if (ladder.size() >= 16) return ValueError{"at most 16 penalties", off};
            if (t == "loss")
                ladder.push_back({Penalty::Kind::Loss, 0});
            else if (t == "win-claim")
                ladder.push_back({Penalty::Kind::WinClaim, 0});
            else if (t.size() > 4 && t.front() == '+' && t.substr(t.size() - 3) == "min") {
                const auto n = to_int(t.substr(1, t.size() - 4));
                if (!n || *n < 1 || *n > 60) return ValueError{"expected +1min .. +60min", off};
                ladder.push_back({Penalty::Kind::AddTime, *n});
            } else {
                return ValueError{"expected a penalty: +Nmin, loss or win-claim", off};
            }
            return std::nullopt;
        });
    if (err) return err;
    field<Ms...>(p) = std::move(ladder);
    return std::nullopt;
}
template <auto... Ms>
std::string print_ladder(const Profile& p) {
    const auto& ladder = field<Ms...>(p);
    if (ladder.empty()) return "none";
    std::string out;
    for (const Penalty& step : ladder) {
        if (!out.empty()) out += ", ";
        out += step.text();
    }
    return out;
}

/// Material signatures: "K" then any of QRBNP, stored in the canonical order KQRBNP.
template <auto... Ms>
std::optional<ValueError> parse_material(Profile& p, std::string_view v) {
    std::vector<std::string> list;
    auto err =
        for_each_item(v, [&](std::string_view t, std::size_t off) -> std::optional<ValueError> {
            static constexpr std::string_view kOrder = "QRBNP";
            if (list.size() >= 32) return ValueError{"at most 32 material signatures", off};
            if (t.size() > 16 || t.front() != 'K')
                return ValueError{"expected material such as K, KN, KB (the king first)", off};
            std::string sig = "K";
            std::string rest(t.substr(1));
            for (char c : rest)
                if (kOrder.find(c) == std::string_view::npos)
                    return ValueError{"expected piece letters Q R B N P after the K", off};
            std::stable_sort(rest.begin(), rest.end(),
                             [](char a, char b) { return kOrder.find(a) < kOrder.find(b); });
            list.push_back(sig + rest);
            return std::nullopt;
        });
    if (err) return err;
    field<Ms...>(p) = std::move(list);
    return std::nullopt;
}
template <auto... Ms>
std::string print_material(const Profile& p) {
    const auto& list = field<Ms...>(p);
    if (list.empty()) return "none";
    std::string out;
    for (const std::string& s : list) {
        if (!out.empty()) out += ", ";
        out += s;
    }
    return out;
}

/// `any`, or `[a, b)`, `(a, b]`, `[a, inf)` in whole minutes.
template <auto... Ms>
std::optional<ValueError> parse_range(Profile& p, std::string_view v) {
    MinuteRange r;
    if (v == "any") {
        field<Ms...>(p) = r;
        return std::nullopt;
    }
    const char* kShape = "expected any, or a range such as [60, inf), (10, 60) or [0, 10]";
    if (v.size() < 5 || (v.front() != '[' && v.front() != '(') ||
        (v.back() != ']' && v.back() != ')'))
        return ValueError{kShape, 0};
    const std::size_t comma = v.find(',');
    if (comma == std::string_view::npos) return ValueError{kShape, 0};
    r.any = false;
    r.low_inclusive = v.front() == '[';
    r.high_inclusive = v.back() == ']';
    const std::string_view lo_raw = v.substr(1, comma - 1);
    const std::string_view hi_raw = v.substr(comma + 1, v.size() - comma - 2);
    const std::string_view lo = trim_blanks(lo_raw), hi = trim_blanks(hi_raw);
    const auto offset_of = [&v](std::string_view part) {
        return static_cast<std::size_t>(part.data() - v.data());
    };
    const auto lo_n = to_int(lo);
    if (!lo_n) return ValueError{"expected the lower bound in whole minutes", offset_of(lo)};
    r.low = *lo_n;
    if (hi == "inf") {
        if (r.high_inclusive) return ValueError{"inf needs ), not ]", v.size() - 1};
    } else {
        const auto hi_n = to_int(hi);
        if (!hi_n)
            return ValueError{"expected the upper bound in whole minutes or inf", offset_of(hi)};
        if (*hi_n < r.low)
            return ValueError{"the upper bound is below the lower bound", offset_of(hi)};
        r.high = *hi_n;
    }
    field<Ms...>(p) = r;
    return std::nullopt;
}
template <auto... Ms>
std::string print_range(const Profile& p) {
    return field<Ms...>(p).text();
}

/// `none`, or a PGN TimeControl (rules/time_control.hpp).
template <auto... Ms>
std::optional<ValueError> parse_tc(Profile& p, std::string_view v) {
    if (v == "none") {
        field<Ms...>(p) = TimeControl{};
        return std::nullopt;
    }
    auto tc = parse_time_control(v);
    if (!tc) {
        const int col = tc.error().column;
        return ValueError{tc.error().message, col > 0 ? static_cast<std::size_t>(col - 1) : 0};
    }
    field<Ms...>(p) = std::move(tc.value());
    return std::nullopt;
}
template <auto... Ms>
std::string print_tc(const Profile& p) {
    const TimeControl& tc = field<Ms...>(p);
    return tc.kind == TimeControl::Kind::Unknown ? "none" : format_time_control(tc);
}

#define EB_KEY(NAME, KIND, ...)                                                                    \
    KeyDef {                                                                                       \
        NAME, &parse_##KIND<__VA_ARGS__>, &print_##KIND<__VA_ARGS__>                               \
    }
#define EB_ENUM(NAME, TABLE, ...)                                                                  \
    KeyDef {                                                                                       \
        NAME, &parse_enum<TABLE, __VA_ARGS__>, &print_enum<TABLE, __VA_ARGS__>                     \
    }
#define EB_ART(NAME, MEMBER) EB_KEY("article." NAME, text, &Profile::articles, &Articles::MEMBER)

} // namespace

const std::vector<KeyDef>& key_table() {
    using P = Profile;
    static const std::vector<KeyDef> table = {
        EB_KEY("title", text, &P::title),
        EB_ENUM("edition", kEditions, &P::edition),
        EB_ENUM("category", kCategories, &P::category),
        EB_KEY("draw.claim.repetitions", int, &P::claim_repetitions),
        EB_KEY("draw.claim.moves", int, &P::claim_moves),
        EB_KEY("draw.automatic.repetitions", int, &P::automatic_repetitions),
        EB_KEY("draw.automatic.moves", int, &P::automatic_moves),
        EB_KEY("draw.automatic.mate-prevails", bool, &P::mate_prevails),
        EB_ENUM("repetition.castling", kRepetition, &P::repetition_castling),
        EB_ENUM("illegal.actor", kActors, &P::illegal_actor),
        EB_KEY("illegal.stands-if-unclaimed", bool, &P::illegal_stands_if_unclaimed),
        EB_KEY("illegal.ladder", ladder, &P::illegal_ladder),
        EB_KEY("illegal.ladder-quickplay", ladder, &P::illegal_ladder_quickplay),
        EB_KEY("illegal.loss-draw-if-cannot-mate", bool, &P::illegal_loss_draw_if_cannot_mate),
        EB_KEY("illegal.press-without-move", bool, &P::press_without_move_illegal),
        EB_KEY("illegal.unpromoted-pawn-becomes-queen", bool, &P::unpromoted_pawn_becomes_queen),
        EB_KEY("illegal.visible-to-players", bool, &P::illegal_visible_to_players),
        EB_KEY("claim.incorrect.opponent-minutes", int, &P::incorrect_claim_opponent_minutes),
        EB_KEY("claim.incorrect.cut-claimant", bool, &P::incorrect_claim_cut_claimant),
        EB_ENUM("flag.actor", kActors, &P::flag_actor),
        EB_KEY("flag.visible-to-players", bool, &P::flag_visible_to_players),
        EB_KEY("flag.draw-if-cannot-mate", bool, &P::flag_draw_if_cannot_mate),
        EB_KEY("flag.cannot-win-with", material, &P::flag_cannot_win_with),
        EB_ENUM("flag.both", kBothFlags, &P::both_flags),
        EB_KEY("game.next-move-completes", bool, &P::next_move_completes),
        EB_KEY("game.players-take-back", bool, &P::players_take_back),
        EB_KEY("game.resignation-draw-if-cannot-mate", bool, &P::resignation_draw_if_cannot_mate),
        EB_KEY("game.agreement-min-moves", int, &P::agreement_min_moves),
        EB_KEY("quickplay.allowed", bool, &P::quickplay_allowed),
        EB_KEY("recording.required", bool, &P::recording_required),
        EB_KEY("time.category-minutes", range, &P::category_minutes),
        EB_KEY("time.control", tc, &P::time_control),
        EB_ART("checkmate", checkmate),
        EB_ART("stalemate", stalemate),
        EB_ART("dead-position", dead_position),
        EB_ART("threefold", threefold),
        EB_ART("fifty-moves", fifty_moves),
        EB_ART("fivefold", fivefold),
        EB_ART("seventy-five-moves", seventy_five_moves),
        EB_ART("illegal-move", illegal_move),
        EB_ART("illegal-move-quickplay", illegal_move_quickplay),
        EB_ART("press-without-move", press_without_move),
        EB_ART("unpromoted-pawn", unpromoted_pawn),
        EB_ART("illegal-penalty", illegal_penalty),
        EB_ART("incorrect-claim", incorrect_claim),
        EB_ART("flag", flag),
        EB_ART("both-flags", both_flags),
        EB_ART("touch-move", touch_move),
        EB_ART("displaced", displaced),
        EB_ART("wrong-squares", wrong_squares),
        EB_ART("category", category),
    };
    return table;
}

#undef EB_KEY
#undef EB_ENUM
#undef EB_ART

const KeyDef* find_key(std::string_view name) {
    for (const KeyDef& k : key_table())
        if (k.name == name) return &k;
    return nullptr;
}

} // namespace eboard::profile_detail

namespace eboard {

std::string_view to_string(Edition e) noexcept {
    return profile_detail::enum_name(profile_detail::kEditions, e);
}
std::string_view to_string(Category c) noexcept {
    return profile_detail::enum_name(profile_detail::kCategories, c);
}

} // namespace eboard
