#include "console/server.hpp"

#include "console/page.hpp"

#include <chrono>

namespace eboard::console {
namespace {

web::Response json_response(unsigned status, const nlohmann::json& body) {
    return web::Response{status, "application/json", body.dump(), {{"Cache-Control", "no-store"}}};
}

web::Response message(unsigned status, const std::string& text) { return json_response(status, {{"message", text}}); }

} // namespace

std::int64_t mono_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::int64_t wall_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Server::Server(web::Server& web, std::string server_name, std::optional<std::string> password, Hooks hooks)
    : name_(std::move(server_name)), hooks_(std::move(hooks)), model_(name_), sessions_(std::move(password)) {
    for (const char* path : {"/", "/console.js", "/console.css"}) {
        web.get(path, [](const web::Request& r) {
            const auto file = page_file(r.path);
            if (!file) return web::Response{404, "text/plain", "not found\n", {}};
            return web::Response{200, std::string(file->content_type), std::string(file->body),
                                 {{"Cache-Control", "no-cache"}, {"X-Content-Type-Options", "nosniff"},
                                  {"X-Frame-Options", "DENY"}}};
        });
    }
    web.get("/api/state", [this](const web::Request& r) {
        return json_response(200, model_.state_json(logged_in(r), mono_now_ms()));
    });
    web.post("/api/login", [this](const web::Request& r) { return login(r); });
    web.post("/api/logout", [this](const web::Request& r) { return logout(r); });
    web.post_async("/api/request",
                   [this](const web::Request& r, const std::function<void(web::Response)>& respond) { request(r, respond); });
    web.post("/api/ack", [this](const web::Request& r) { return acknowledge(r); });
    web::WebSocketHandlers live;
    live.on_open = [this](const std::shared_ptr<web::WebSocket>& ws) {
        pages_.insert(ws);
        auto state = model_.state_json(logged_in(ws->request()), mono_now_ms());
        state["type"] = "state";
        ws->send(state.dump());
    };
    live.on_close = [this](const std::shared_ptr<web::WebSocket>& ws) { pages_.erase(ws); };
    web.websocket("/api/live", std::move(live));
}

bool Server::logged_in(const web::Request& r) const {
    return sessions_.valid(session_from_cookie_header(r.header("Cookie")), wall_now_ms());
}

std::optional<web::Response> Server::refusal(const web::Request& r, bool need_session) const {
    const RequestOrigin origin{std::string(r.header("Content-Type")), std::string(r.header("Origin")),
                               std::string(r.header("Host")), std::string(r.header("Sec-Fetch-Site"))};
    if (auto why = cross_site_refusal(origin)) return message(403, *why);
    if (need_session && !logged_in(r)) return message(401, "log in as arbiter first");
    return std::nullopt;
}

web::Response Server::login(const web::Request& r) {
    if (auto no = refusal(r, false)) return *no;
    const auto body = nlohmann::json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("password") || !body["password"].is_string())
        return message(400, "the body must be {\"password\": \"...\"}");
    if (!sessions_.enabled()) return message(403, "no arbiter password is configured (--arbiter-password-file)");
    const auto token = sessions_.login(body["password"].get<std::string>(), wall_now_ms());
    if (!token) return message(403, "wrong password");
    auto res = json_response(200, {{"ok", true}});
    res.headers.emplace_back("Set-Cookie", set_cookie_value(*token));
    return res;
}

web::Response Server::logout(const web::Request& r) {
    if (auto no = refusal(r, false)) return *no;
    sessions_.logout(session_from_cookie_header(r.header("Cookie")));
    auto res = json_response(200, {{"ok", true}});
    res.headers.emplace_back("Set-Cookie", set_cookie_value(""));
    return res;
}

void Server::request(const web::Request& r, const std::function<void(web::Response)>& respond) {
    if (auto no = refusal(r, true)) return respond(*no);
    const auto body = nlohmann::json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("class") || !body["class"].is_string())
        return respond(message(400, "the body must be a client API request object"));
    const auto cls = body["class"].get<std::string>();
    if (cls != "RESULT" && cls != "PENALTY" && cls != "CLOCK" && cls != "TAKEBACK" && cls != "SET_POSITION")
        return respond(message(400, "the console carries out RESULT, PENALTY, CLOCK, TAKEBACK and SET_POSITION, not " + cls));
    if (hooks_.execute_async) {
        hooks_.execute_async(body, [this, body, respond](const nlohmann::json& reply) { respond(replied(body, reply)); });
        return;
    }
    if (!hooks_.execute) return respond(message(501, "this server cannot carry out requests"));
    respond(replied(body, hooks_.execute(body)));
}

web::Response Server::replied(const nlohmann::json& body, const nlohmann::json& reply) {
    // An accepted action on a board settles its open alerts (docs/console.md).
    if (reply.is_object() && reply.value("class", "") == "OK" && body.contains("board") && body["board"].is_string()) {
        std::string id = body["board"].get<std::string>();
        if (body.contains("host") && body["host"].is_string()) id = body["host"].get<std::string>() + "/" + id;
        model_.close_alerts(id);
        broadcast(id);
    }
    return json_response(200, reply);
}

web::Response Server::acknowledge(const web::Request& r) {
    if (auto no = refusal(r, true)) return *no;
    const auto body = nlohmann::json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("board") || !body["board"].is_string() || !body.contains("alert") ||
        !body["alert"].is_number_unsigned())
        return message(400, "the body must be {\"board\": ID, \"alert\": N}");
    const auto id = body["board"].get<std::string>();
    if (!model_.acknowledge(id, body["alert"].get<std::uint64_t>())) return message(404, "no such open alert");
    broadcast(id);
    return json_response(200, {{"ok", true}});
}

void Server::on_event(const nlohmann::json& event) {
    if (const auto id = model_.apply(event, mono_now_ms(), wall_now_ms())) broadcast(*id);
}

void Server::set_pairing(const std::string& id, std::string label, std::optional<int> number,
                         std::optional<int> round, std::string white, std::string black) {
    model_.set_pairing(id, std::move(label), number, round, std::move(white), std::move(black));
    broadcast(id);
}

void Server::set_clock(const std::string& id, Clock clock) {
    if (model_.set_clock(id, clock)) broadcast(id);
}

void Server::broadcast(const std::string& id) {
    if (pages_.empty()) return;
    const std::string text = nlohmann::json{{"type", "board"}, {"board", model_.board_json(id, mono_now_ms())}}.dump();
    for (const auto& ws : pages_) ws->send(text);
}

} // namespace eboard::console
