#include "console/model.hpp"

#include <algorithm>

namespace eboard::console {
namespace {

std::string string_field(const nlohmann::json& j, const char* name) {
    const auto it = j.find(name);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::int64_t> int_field(const nlohmann::json& j, const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

/// {"white_ms","black_ms"} of an event, if both are there.
std::optional<std::pair<std::int64_t, std::int64_t>> clock_field(const nlohmann::json& j) {
    const auto it = j.find("clock");
    if (it == j.end() || !it->is_object()) return std::nullopt;
    const auto w = int_field(*it, "white_ms");
    const auto b = int_field(*it, "black_ms");
    if (!w || !b) return std::nullopt;
    return std::make_pair(*w, *b);
}

void stop_clock(Board& b, std::int64_t mono_ms) {
    if (!b.clock || !b.clock->white_running) return;
    const std::int64_t spent = mono_ms - b.clock->mono_ms;
    (*b.clock->white_running ? b.clock->white_ms : b.clock->black_ms) -= spent;
    b.clock->white_running.reset();
    b.clock->mono_ms = mono_ms;
}

} // namespace

Board& Model::board_for(const std::string& id) {
    auto [it, added] = boards_.try_emplace(id);
    if (added) it->second.id = id;
    return it->second;
}

const Board* Model::board(const std::string& id) const {
    const auto it = boards_.find(id);
    return it == boards_.end() ? nullptr : &it->second;
}

std::optional<std::string> Model::apply(const nlohmann::json& e, std::int64_t mono_ms, std::int64_t wall_ms) {
    if (!e.is_object()) return std::nullopt;
    const std::string cls = string_field(e, "class");
    const std::string name = string_field(e, "board");
    if (cls.empty() || name.empty() || cls == "TOUCH" || cls == "VERSION") return std::nullopt;
    const std::string host = string_field(e, "host");
    const std::string id = host.empty() ? name : host + "/" + name;
    Board& b = board_for(id);
    if (cls == "BOARD") {
        b.connected = string_field(e, "state") == "connected";
        // Each BOARD event says the battery as it is now: absent, it is not known.
        b.battery.reset();
        if (const auto it = e.find("battery"); it != e.end() && it->is_object())
            if (const auto percent = int_field(*it, "percent"))
                b.battery = Battery{static_cast<int>(*percent), it->value("charging", false)};
        return id;
    }
    const std::string game = string_field(e, "game");
    if (cls == "GAME") {
        const std::string kind = string_field(e, "event");
        if (kind == "start") {
            b.game = game;
            b.fen = string_field(e, "fen");
            b.result.clear();
            b.moves.clear();
            b.alerts.clear();
            if (b.clock) stop_clock(b, mono_ms);
        } else if (kind == "takeback") {
            const auto ply = int_field(e, "ply").value_or(0);
            while (!b.moves.empty() && b.moves.back().ply > ply) b.moves.pop_back();
            b.fen = string_field(e, "fen");
            b.result.clear();
        }
        b.connected = true;
        return id;
    }
    if (!game.empty() && game != b.game) { // a game the page missed the start of (a late subscriber)
        b.game = game;
        b.moves.clear();
        b.alerts.clear();
        b.result.clear();
    }
    if (cls == "MOVE") {
        const auto ply = int_field(e, "ply");
        if (!ply || *ply < 1) return std::nullopt;
        MoveRow row{static_cast<int>(*ply), string_field(e, "san"), string_field(e, "status") == "completed",
                    clock_field(e)};
        // A move at a ply the list already has replaces it and what follows (a correction).
        while (!b.moves.empty() && b.moves.back().ply >= row.ply) b.moves.pop_back();
        b.moves.push_back(row);
        b.fen = string_field(e, "fen");
        if (row.completed && row.clock) {
            // The side to move's clock runs after a completed move (Art. 6.2.1): the FEN's side.
            const auto space = b.fen.find(' ');
            const bool white_to_move = space != std::string::npos && b.fen.compare(space + 1, 1, "w") == 0;
            b.clock = Clock{row.clock->first, row.clock->second, white_to_move, mono_ms};
        }
        return id;
    }
    if (cls == "ALERT") {
        nlohmann::json shown = nlohmann::json::object();
        for (const char* f : {"kind", "article", "text", "ply", "count", "penalty", "player", "squares", "winnability"})
            if (const auto it = e.find(f); it != e.end()) shown[f] = *it;
        b.alerts.push_back(Alert{next_alert_++, std::move(shown), wall_ms, true});
        return id;
    }
    if (cls == "RESULT") {
        b.result = string_field(e, "result");
        stop_clock(b, mono_ms);
        return id;
    }
    return std::nullopt;
}

void Model::set_pairing(const std::string& id, std::string label, std::optional<int> number, std::optional<int> round,
                        std::string white, std::string black) {
    Board& b = board_for(id);
    b.label = std::move(label);
    b.number = number;
    b.round = round;
    b.white = std::move(white);
    b.black = std::move(black);
}

bool Model::set_clock(const std::string& id, Clock clock) {
    const auto it = boards_.find(id);
    if (it == boards_.end()) return false;
    it->second.clock = clock;
    return true;
}

bool Model::acknowledge(const std::string& id, std::uint64_t alert_id) {
    const auto it = boards_.find(id);
    if (it == boards_.end()) return false;
    for (auto& a : it->second.alerts)
        if (a.id == alert_id && a.open) {
            a.open = false;
            return true;
        }
    return false;
}

void Model::close_alerts(const std::string& id) {
    const auto it = boards_.find(id);
    if (it == boards_.end()) return;
    for (auto& a : it->second.alerts) a.open = false;
}

nlohmann::json Model::board_json(const std::string& id, std::int64_t mono_ms) const {
    const Board* b = board(id);
    if (!b) return nullptr;
    nlohmann::json j{{"id", b->id}, {"state", b->connected ? "connected" : "disconnected"}, {"fen", b->fen}};
    if (!b->label.empty()) j["label"] = b->label;
    if (b->number) j["number"] = *b->number;
    if (b->round) j["round"] = *b->round;
    if (!b->white.empty()) j["white"] = b->white;
    if (!b->black.empty()) j["black"] = b->black;
    if (b->battery)
        j["battery"] = {{"percent", b->battery->percent},
                        {"charging", b->battery->charging},
                        {"low", b->battery->percent <= kLowBatteryPercent}};
    if (!b->game.empty()) j["game"] = b->game;
    if (!b->result.empty()) j["result"] = b->result;
    auto moves = nlohmann::json::array();
    for (const auto& m : b->moves) {
        nlohmann::json row{{"ply", m.ply}, {"san", m.san}, {"status", m.completed ? "completed" : "made"}};
        if (m.clock) row["clock"] = {{"white_ms", m.clock->first}, {"black_ms", m.clock->second}};
        moves.push_back(std::move(row));
    }
    j["moves"] = std::move(moves);
    if (b->clock) {
        Clock c = *b->clock;
        if (c.white_running) {
            auto& running = *c.white_running ? c.white_ms : c.black_ms;
            running = std::max<std::int64_t>(0, running - (mono_ms - c.mono_ms));
        }
        j["clock"] = {{"white_ms", c.white_ms}, {"black_ms", c.black_ms}, {"running", nullptr}};
        if (c.white_running) j["clock"]["running"] = *c.white_running ? "white" : "black";
    }
    auto alerts = nlohmann::json::array();
    for (const auto& a : b->alerts) {
        nlohmann::json row = a.event;
        row["id"] = a.id;
        row["time"] = a.wall_ms;
        row["open"] = a.open;
        alerts.push_back(std::move(row));
    }
    j["alerts"] = std::move(alerts);
    return j;
}

nlohmann::json Model::state_json(bool logged_in, std::int64_t mono_ms) const {
    std::vector<const Board*> order;
    order.reserve(boards_.size());
    for (const auto& [id, b] : boards_) order.push_back(&b);
    std::stable_sort(order.begin(), order.end(), [](const Board* x, const Board* y) {
        const int nx = x->number.value_or(1 << 30);
        const int ny = y->number.value_or(1 << 30);
        return nx != ny ? nx < ny : x->id < y->id;
    });
    auto boards = nlohmann::json::array();
    for (const Board* b : order) boards.push_back(board_json(b->id, mono_ms));
    return {{"server", server_}, {"logged_in", logged_in}, {"boards", std::move(boards)}};
}

} // namespace eboard::console
