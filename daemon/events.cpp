#include "daemon/events.hpp"

#ifndef EBOARD_RELEASE
#define EBOARD_RELEASE "0.1.0"
#endif

namespace eboard::daemon {
using json = nlohmann::ordered_json;

namespace {

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

// The game field is required everywhere but ALERT may be tied to no game (a board
// disconnected at rest): then it is left out rather than written empty.
void put_game(json& j, const std::string& game) {
    if (!game.empty()) j["game"] = game;
}

Expected<std::string> need_string(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return Error{std::string("missing string field '") + key + "'"};
    return it->get<std::string>();
}

std::string opt_string(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <typename T>
Expected<T> need_choice(const json& j, const char* key, const char* yes, const char* no) {
    auto v = need_string(j, key);
    if (!v) return v.error();
    if (*v == yes) return true;
    if (*v == no) return false;
    return Error{std::string("field '") + key + "' is not " + yes + "/" + no};
}

const char* game_kind_name(GameEvent::Kind k) {
    switch (k) {
    case GameEvent::Kind::Start: return "start";
    case GameEvent::Kind::End: return "end";
    case GameEvent::Kind::Takeback: return "takeback";
    }
    return "start";
}

Expected<Event> move_from_json(const json& j) {
    MoveEvent m;
    m.board = opt_string(j, "board");
    m.game = opt_string(j, "game");
    auto ply = j.find("ply");
    if (ply == j.end() || !ply->is_number_integer()) return Error{"missing integer field 'ply'"};
    m.ply = ply->get<int>();
    for (auto [key, out] : {std::pair{"san", &m.san}, {"uci", &m.uci}, {"fen", &m.fen}}) {
        auto v = need_string(j, key);
        if (!v) return v.error();
        *out = *v;
    }
    auto status = need_choice<bool>(j, "status", "completed", "made");
    if (!status) return status.error();
    m.completed = *status ? Completion::Recorded : Completion::None;
    if (auto c = j.find("clock"); c != j.end()) {
        if (!c->is_object() || !c->contains("white_ms") || !c->contains("black_ms") ||
            !(*c)["white_ms"].is_number_integer() || !(*c)["black_ms"].is_number_integer())
            return Error{"field 'clock' needs integer white_ms and black_ms"};
        m.clock = MoveClock{(*c)["white_ms"].get<std::int64_t>(), (*c)["black_ms"].get<std::int64_t>()};
    }
    return Event{m};
}

Expected<Event> alert_from_json(const json& j) {
    AlertEvent a;
    a.board = opt_string(j, "board");
    a.game = opt_string(j, "game");
    auto kind = need_string(j, "kind");
    if (!kind) return kind.error();
    const std::optional<AlertKind> k = alert_kind_from_string(*kind);
    if (!k) return Error{"field 'kind' is not an ALERT kind: '" + *kind + "'"};
    a.kind = *k;
    for (auto [key, out] : {std::pair{"article", &a.article}, {"text", &a.text}}) {
        auto v = need_string(j, key);
        if (!v) return v.error();
        *out = *v;
    }
    if (auto p = j.find("ply"); p != j.end() && p->is_number_integer()) a.ply = p->get<int>();
    if (auto p = j.find("count"); p != j.end() && p->is_number_integer()) a.count = p->get<int>();
    a.penalty = opt_string(j, "penalty");
    if (auto p = j.find("squares"); p != j.end() && p->is_array())
        for (const auto& s : *p)
            if (const Square sq = s.is_string() ? Square::parse(s.get<std::string>()) : Square{}; sq.valid())
                a.squares |= Bitboard{1} << sq.index();
    if (const std::string player = opt_string(j, "player"); player == "white" || player == "black")
        a.player = player == "white" ? Color::White : Color::Black;
    a.result = opt_string(j, "result");
    a.fen = opt_string(j, "fen");
    a.winnability = opt_string(j, "winnability");
    if (auto p = j.find("earlier_ply"); p != j.end() && p->is_number_integer()) a.earlier_ply = p->get<int>();
    a.earlier_fen = opt_string(j, "earlier_fen");
    return Event{a};
}

} // namespace

json battery_json(const Battery& battery) {
    return json{{"percent", battery.percent}, {"charging", battery.charging}};
}

json to_json(const Event& event) {
    return std::visit(
        overloaded{
            [](const VersionEvent& e) {
                return json{{"class", "VERSION"}, {"release", e.release},
                            {"proto_major", kProtoMajor}, {"proto_minor", kProtoMinor}};
            },
            [](const BoardEvent& e) {
                json j{{"class", "BOARD"}, {"board", e.board},
                       {"state", e.connected ? "connected" : "disconnected"}, {"driver", e.driver}};
                if (e.battery) j["battery"] = battery_json(*e.battery);
                return j;
            },
            [](const GameEvent& e) {
                json j{{"class", "GAME"}, {"board", e.board}};
                put_game(j, e.game);
                j["event"] = game_kind_name(e.kind);
                j["fen"] = e.fen;
                if (e.ply) j["ply"] = *e.ply;
                return j;
            },
            [](const TouchEvent& e) {
                json j{{"class", "TOUCH"}, {"board", e.board}};
                put_game(j, e.game);
                j["square"] = e.square.name();
                j["action"] = e.lift ? "lift" : "place";
                if (e.piece != Piece::None) j["piece"] = std::string(1, piece_to_char(e.piece));
                return j;
            },
            [](const MoveEvent& e) {
                json j{{"class", "MOVE"}, {"board", e.board}};
                put_game(j, e.game);
                j["ply"] = e.ply;
                j["san"] = e.san;
                j["uci"] = e.uci;
                j["fen"] = e.fen;
                j["status"] = e.is_completed() ? "completed" : "made";
                if (e.clock)
                    j["clock"] = json{{"white_ms", e.clock->white_ms}, {"black_ms", e.clock->black_ms}};
                return j;
            },
            [](const AlertEvent& e) {
                json j{{"class", "ALERT"}, {"board", e.board}};
                put_game(j, e.game);
                j["kind"] = to_string(e.kind);
                j["article"] = e.article;
                j["text"] = e.text;
                if (e.ply) j["ply"] = *e.ply;
                if (e.player) j["player"] = *e.player == Color::White ? "white" : "black";
                if (e.count) j["count"] = *e.count;
                if (!e.penalty.empty()) j["penalty"] = e.penalty;
                if (e.squares != 0) {
                    json names = json::array();
                    for (int s = 0; s < 64; ++s)
                        if ((e.squares >> s) & 1U) names.push_back(Square(s).name());
                    j["squares"] = std::move(names);
                }
                if (!e.result.empty()) j["result"] = e.result;
                if (!e.winnability.empty()) j["winnability"] = e.winnability;
                if (!e.fen.empty()) j["fen"] = e.fen;
                if (e.earlier_ply) j["earlier_ply"] = *e.earlier_ply;
                if (!e.earlier_fen.empty()) j["earlier_fen"] = e.earlier_fen;
                return j;
            },
            [](const ResultEvent& e) {
                json j{{"class", "RESULT"}, {"board", e.board}};
                put_game(j, e.game);
                j["result"] = e.result;
                j["termination"] = e.termination;
                j["confirmed"] = e.confirmed;
                if (!e.winnability.empty()) j["winnability"] = e.winnability;
                return j;
            },
        },
        event);
}

std::string to_line(const Event& event) {
    std::string s = to_json(event).dump(-1, ' ', false, json::error_handler_t::replace);
    s.push_back('\n');
    return s;
}

Expected<Event> event_from_json(const json& j) {
    if (!j.is_object()) return Error{"not a JSON object"};
    auto cls = need_string(j, "class");
    if (!cls) return cls.error();
    if (*cls == "VERSION") return Event{VersionEvent{opt_string(j, "release")}};
    if (*cls == "BOARD") {
        auto st = need_choice<bool>(j, "state", "connected", "disconnected");
        if (!st) return st.error();
        BoardEvent b{opt_string(j, "board"), *st, opt_string(j, "driver"), std::nullopt};
        if (const auto bat = j.find("battery"); bat != j.end()) {
            const auto percent = bat->is_object() ? bat->find("percent") : bat->end();
            if (percent == bat->end() || !percent->is_number_integer())
                return Error{"field 'battery' must be an object with an integer 'percent'"};
            const auto charging = bat->find("charging");
            b.battery = Battery{percent->get<int>(), charging != bat->end() && charging->is_boolean() && charging->get<bool>()};
        }
        return Event{b};
    }
    if (*cls == "GAME") {
        auto ev = need_string(j, "event");
        if (!ev) return ev.error();
        GameEvent g = GameEvent::of(opt_string(j, "board"), opt_string(j, "game"), GameEvent::Kind::Start,
                                    opt_string(j, "fen"));
        if (*ev == "end") g.kind = GameEvent::Kind::End;
        else if (*ev == "takeback") g.kind = GameEvent::Kind::Takeback;
        else if (*ev != "start") return Error{"field 'event' is not start/end/takeback"};
        if (auto p = j.find("ply"); p != j.end() && p->is_number_integer()) g.ply = p->get<int>();
        return Event{g};
    }
    if (*cls == "TOUCH") {
        auto act = need_choice<bool>(j, "action", "lift", "place");
        if (!act) return act.error();
        auto sq = need_string(j, "square");
        if (!sq) return sq.error();
        const Square square = Square::parse(*sq);
        if (!square.valid()) return Error{"field 'square' is not a square: '" + *sq + "'"};
        const std::string piece = opt_string(j, "piece");
        const Piece p = piece.size() == 1 ? piece_from_char(piece[0]) : Piece::None;
        return Event{TouchEvent{{0, square, *act, p}, opt_string(j, "board"), opt_string(j, "game")}};
    }
    if (*cls == "MOVE") return move_from_json(j);
    if (*cls == "ALERT") return alert_from_json(j);
    if (*cls == "RESULT") {
        auto r = need_string(j, "result");
        if (!r) return r.error();
        auto c = j.find("confirmed");
        ResultEvent result;
        result.board = opt_string(j, "board");
        result.game = opt_string(j, "game");
        result.result = *r;
        result.termination = opt_string(j, "termination");
        result.confirmed = c != j.end() && c->is_boolean() && c->get<bool>();
        result.winnability = opt_string(j, "winnability");
        return Event{result};
    }
    return Error{"unknown event class '" + *cls + "'"};
}

const char* event_class(const Event& event) {
    static constexpr const char* names[] = {"VERSION", "BOARD", "GAME", "TOUCH",
                                            "MOVE",    "ALERT", "RESULT"};
    return names[event.index()];
}

const std::string& event_board(const Event& event) {
    static const std::string none;
    // cppcheck-suppress returnTempReference ; std::visit returns the lambdas' references (none, e.board)
    return std::visit(overloaded{[](const VersionEvent&) -> const std::string& { return none; },
                                 [](const auto& e) -> const std::string& { return e.board; }},
                      event);
}

const std::string& event_game(const Event& event) {
    static const std::string none;
    // cppcheck-suppress returnTempReference ; std::visit returns the lambdas' references (none, e.game)
    return std::visit(
        overloaded{[](const VersionEvent&) -> const std::string& { return none; },
                   [](const BoardEvent&) -> const std::string& { return none; },
                   [](const auto& e) -> const std::string& { return e.game; }},
        event);
}

VersionEvent version_event() { return VersionEvent{EBOARD_RELEASE}; }

} // namespace eboard::daemon
