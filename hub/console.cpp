#include "hub/console.hpp"

#include "daemon/hall_requests.hpp"

#include <boost/asio/post.hpp>

namespace eboard::hub {

namespace {

nlohmann::json error(const nlohmann::json& request, const std::string& code, const std::string& message) {
    nlohmann::json e{{"class", "ERROR"}, {"code", code}, {"message", message}};
    if (request.contains("class")) e["request"] = request["class"];
    return e;
}

bool ends_with(const std::string& s, std::string_view tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

HubConsole::HubConsole(boost::asio::io_context& io, web::Server& web, std::optional<std::string> password,
                       const Hall& hall, const HallStore& store, std::chrono::milliseconds reply_timeout)
    : io_(io), hall_(hall), store_(store), reply_timeout_(reply_timeout) {
    console::Hooks hooks;
    hooks.execute_async = [this](const nlohmann::json& request, std::function<void(nlohmann::json)> done) {
        execute(request, std::move(done));
    };
    console_ = std::make_unique<console::Server>(web, "eboard-hub", std::move(password), std::move(hooks));
}

void HubConsole::refresh_pairings() {
    for (const auto& r : hall_.round(hall_.current_round()))
        console_->set_pairing(r.pairing.source, "Board " + std::to_string(r.board), r.board, r.round, r.pairing.white,
                              r.pairing.black);
}

void HubConsole::seed() {
    refresh_pairings();
    // The current round's games as the store has them, as the events that made them (the
    // alerts of before the hub's start are not kept: the store counts them only).
    for (const auto& r : hall_.round(hall_.current_round())) {
        if (!r.game) continue;
        const auto g = store_.load(r.game->host, r.game->game);
        if (!g) continue;
        const nlohmann::json who{{"host", r.game->host}, {"board", r.game->board}, {"game", r.game->game}};
        nlohmann::json start = who;
        start.update({{"class", "GAME"}, {"event", "start"}, {"fen", g->start_fen}});
        console_->on_event(start);
        for (const auto& m : g->moves) {
            nlohmann::json move = who;
            move.update({{"class", "MOVE"}, {"ply", m.ply}, {"san", m.san}, {"uci", m.uci}, {"fen", m.fen},
                         {"status", m.completed ? "completed" : "made"}});
            if (m.clock) move["clock"] = {{"white_ms", m.clock->white_ms}, {"black_ms", m.clock->black_ms}};
            console_->on_event(move);
        }
        if (g->result != "*") {
            nlohmann::json result = who;
            result.update({{"class", "RESULT"}, {"result", g->result}});
            console_->on_event(result);
        }
    }
}

bool HubConsole::take(const mqtt::Message& m) {
    if (ends_with(m.topic, "/request")) return true; // the hub's own, back from its subscription
    if (!ends_with(m.topic, "/reply")) return false;
    boost::asio::post(io_, [this, payload = m.payload] { on_reply(payload); });
    return true;
}

void HubConsole::ingested(const mqtt::Message& m, const Ingested& what) {
    if (what.duplicate || what.board.empty()) return;
    boost::asio::post(io_, [this, payload = m.payload] {
        const auto event = nlohmann::json::parse(payload, nullptr, false);
        if (event.is_object()) on_event(event);
    });
}

void HubConsole::on_event(const nlohmann::json& event) {
    console_->on_event(event);
    // A game that starts may start a new round: its boards' pairings.
    // One refresh for the games that start together (a round's start: reading the round for each
    // of 1,000 boards kept the loop, and so /live/, busy for seconds), after the events queued.
    if (event.value("class", "") == "GAME" && event.value("event", "") == "start" && !refresh_posted_) {
        refresh_posted_ = true;
        boost::asio::post(io_, [this] {
            refresh_posted_ = false;
            refresh_pairings();
        });
    }
}

void HubConsole::execute(const nlohmann::json& request, std::function<void(nlohmann::json)> done) {
    // The page names a board `<host>/<board>` (its id on the hub).
    const std::string id = request.value("board", "");
    const auto slash = id.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == id.size() || console_->model().board(id) == nullptr)
        return done(error(request, "unknown_board", "no board " + id + " in the hall"));
    const std::string host = id.substr(0, slash);
    const std::string board = id.substr(slash + 1);
    nlohmann::json out = request;
    out["board"] = board;
    const std::int64_t rid = next_id_++;
    out["id"] = rid;
    if (client_ == nullptr ||
        !client_->publish(daemon::request_topic(host, board), out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 1, false))
        return done(error(request, "no_reply", "the hub is not connected to the broker; try again"));
    auto timer = std::make_unique<boost::asio::steady_timer>(io_, reply_timeout_);
    timer->async_wait([this, rid, request, host](const boost::system::error_code& ec) {
        if (ec) return;
        const auto it = pending_.find(rid);
        if (it == pending_.end()) return;
        auto finish = std::move(it->second.done);
        pending_.erase(it);
        finish(error(request, "no_reply",
                     "host " + host + " did not answer within " + std::to_string(reply_timeout_.count() / 1000) +
                         " s (is its eboardd running and connected to the broker?)"));
    });
    pending_.emplace(rid, Pending{std::move(done), std::move(timer)});
}

void HubConsole::on_reply(const std::string& payload) {
    auto reply = nlohmann::json::parse(payload, nullptr, false);
    if (!reply.is_object() || !reply.contains("id") || !reply["id"].is_number_integer()) return;
    const auto it = pending_.find(reply["id"].get<std::int64_t>());
    if (it == pending_.end()) return; // timed out already, or another hub's
    auto finish = std::move(it->second.done);
    pending_.erase(it);
    reply.erase("id");
    finish(std::move(reply));
}

} // namespace eboard::hub
