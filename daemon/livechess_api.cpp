#include "daemon/livechess_api.hpp"

#include <boost/asio/post.hpp>

#include <regex>
#include <utility>

#include "base/placement.hpp"
#include "daemon/log.hpp"
#include "daemon/recorder.hpp"
#include "rules/position.hpp"

namespace eboard::daemon {

namespace {

constexpr const char* kPath = "/api/v1.0";
constexpr const char* kEboardsPath = "/api/v1.0/eboards";
/// Plies before the game's ply at a setup where its position may still be found.
constexpr int kSetupSlack = 2;

/// The first `n` space-separated fields of a FEN.
std::string_view fen_fields(std::string_view fen, int n) {
    std::size_t end = 0;
    for (int i = 0; i < n && end != std::string_view::npos; ++i) {
        end = fen.find(' ', i == 0 ? 0 : end + 1);
    }
    return end == std::string_view::npos ? fen : fen.substr(0, end);
}

/// The same position for a client's purpose: placement, side to move, castling rights (the en
/// passant field is written differently by different programs).
bool same_position(std::string_view a, std::string_view b) { return fen_fields(a, 3) == fen_fields(b, 3); }

/// What the sensors read, White at the bottom; an unknown occupant (occupancy-only boards)
/// shown as the piece `expected` has there, '?' when it has none.
std::string board_placement(const BoardLive& live, bool flipped, const std::string& expected_fen) {
    if (!live.sensors) return "8/8/8/8/8/8/8/8";
    BoardReading reading = flipped ? live.sensors->rotated() : *live.sensors;
    std::optional<BoardReading> expected;
    for (int i = 0; i < 64; ++i) {
        const Square s(i);
        const auto r = reading.at(s);
        if (!r.occupied || r.known()) continue;
        if (!expected) {
            auto parsed = read_placement(fen_fields(expected_fen, 1));
            expected = parsed ? *parsed : BoardReading{};
        }
        if (expected->at(s).known()) reading.set(s, expected->at(s));
    }
    return write_placement(reading);
}

/// The board stands reversed (White's pieces at the far side): the driver turns its readings
/// round (DGT, Chessnut: from the start position or `orientation=rotated`), or the
/// reconstruction does (boards that read occupancy only), not both.
bool stands_reversed(const BoardLive& live) { return live.driver_rotated != live.flipped; }

std::optional<ojson> clock_json(const BoardLive& live) {
    if (!live.clock) return std::nullopt;
    ojson c = ojson::object();
    c["white"] = live.clock->white_ms / 1000;
    c["black"] = live.clock->black_ms / 1000;
    if (live.clock->running) c["run"] = live.clock->running_side == Color::White;
    else c["run"] = nullptr;
    return c;
}

ojson with_time(std::optional<ojson> clock, std::int64_t at_ms) {
    if (!clock) return nullptr;
    (*clock)["time"] = at_ms;
    return *clock;
}

const char* state_of(const BoardSession& b) {
    if (b.connected()) return b.live().sensors ? "ACTIVE" : "INACTIVE";
    return b.live().ever_connected ? "NOTRESPONDING" : "INACTIVE";
}

/// The request's numeric id, if it has one.
std::optional<std::int64_t> id_of(const ojson& j) {
    if (!j.is_object()) return std::nullopt;
    const auto it = j.find("id");
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

} // namespace

// --- LiveChessFollower ------------------------------------------------------------------------

void LiveChessFollower::setup(std::string fen, const std::string& game, int ply) {
    setup_fen_ = std::move(fen);
    setup_game_ = game;
    setup_ply_ = ply;
    anchor_.reset();
    sent_.clear();
}

void LiveChessFollower::follow(const GameTracker* game, std::string& start, std::vector<std::string>& san,
                               std::string& fen_after_san) {
    san.clear();
    if (!setup_fen_.empty() && game) {
        // The list starts once the game reaches the set-up position: at the setup or after it
        // (a move or two before it: made while the client's setup was on its way), never
        // further back (an old game's start when the board shows another game).
        const int from = std::max(game->line_start(), game->game() == setup_game_ ? setup_ply_ - kSetupSlack : 0);
        for (int p = from; p <= game->plies(); ++p)
            if (same_position(game->fen_after(p), setup_fen_)) {
                anchor_ = LiveChessAnchor{game->game(), p};
                start_ = setup_fen_;
                setup_fen_.clear();
                sent_.clear();
                break;
            }
    }
    if (!setup_fen_.empty() || !game) {
        start = start_ = !setup_fen_.empty() ? setup_fen_ : Position::startpos().fen();
        anchor_.reset();
        sent_.clear();
        fen_after_san = start;
        return;
    }
    const int plies = game->plies();
    if (!anchor_ || anchor_->game != game->game()) {
        // A new game (or the first look): the list starts from its line's start.
        anchor_ = LiveChessAnchor{game->game(), game->line_start()};
        start_ = game->fen_after(anchor_->ply);
        sent_.clear();
    } else if (anchor_->ply < game->line_start() || anchor_->ply > plies) {
        // Taken back before the list's start, or an illegal move that stood: from here.
        anchor_->ply = plies;
        start_ = game->fen_after(plies);
        sent_.clear();
    }
    for (int p = anchor_->ply + 1; p <= plies; ++p) san.push_back(game->san(p));
    std::size_t common = 0;
    while (common < sent_.size() && common < san.size() && sent_[common] == san[common]) ++common;
    if (common < sent_.size()) {
        // A take-back or a corrected move: a new list from the last position both share.
        anchor_->ply += static_cast<int>(common);
        start_ = game->fen_after(anchor_->ply);
        san.erase(san.begin(), san.begin() + static_cast<std::ptrdiff_t>(common));
    }
    start = start_;
    sent_ = san;
    fen_after_san = game->fen_after(plies);
}

// --- LiveChessApi -----------------------------------------------------------------------------

LiveChessApi::LiveChessApi(boost::asio::io_context& io, const BoardRegistry& boards)
    : io_(io), boards_(boards), server_(io) {
    server_.get(kEboardsPath, [this](const web::Request&) {
        return web::Response{200, "application/json", eboards().dump(), {{"Access-Control-Allow-Origin", "*"}}};
    });
    web::WebSocketHandlers h;
    h.on_open = [this](const std::shared_ptr<web::WebSocket>& ws) {
        clients_[ws.get()].socket = ws;
        log_info("livechess: client " + ws->peer() + " connected (Origin " + std::string(ws->request().header("origin")) + ")");
    };
    h.on_message = [this](const std::shared_ptr<web::WebSocket>& ws, std::string_view text) { on_message(ws, text); };
    h.on_oversize = [this](const std::shared_ptr<web::WebSocket>& ws, std::string_view prefix, std::size_t size) {
        // The id, if the request starts with it as clients write it.
        static const std::regex leading_id(R"(^\s*\{\s*"id"\s*:\s*(\d{1,15})\s*[,}])");
        std::optional<std::int64_t> id;
        std::match_results<std::string_view::const_iterator> m;
        if (std::regex_search(prefix.begin(), prefix.end(), m, leading_id)) id = std::stoll(m[1].str());
        reply_error(*ws, id, "request of " + std::to_string(size) + " bytes is too large");
    };
    h.on_close = [this](const std::shared_ptr<web::WebSocket>& ws) { clients_.erase(ws.get()); };
    server_.websocket(kPath, std::move(h));
}

LiveChessApi::~LiveChessApi() {
    *alive_ = false;
    server_.close();
}

Expected<std::unique_ptr<LiveChessApi>> LiveChessApi::open(boost::asio::io_context& io, const BoardRegistry& boards,
                                                          Recorder& recorder, const std::string& address) {
    auto where = web::parse_listen_address(address);
    if (!where) return Error{"--livechess-api: " + where.error().message};
    auto api = std::make_unique<LiveChessApi>(io, boards);
    if (auto ok = api->listen(*where); !ok) return ok.error();
    recorder.add_sink([self = api.get(), alive = api->alive_](const Event& e, const std::string&) {
        if (!*alive) return; // the recorder outlives the API at exit
        if (const std::string& board = event_board(e); !board.empty()) self->board_changed(board);
    });
    return api;
}

Expected<bool> LiveChessApi::listen(const web::ListenAddress& address) {
    auto ok = server_.listen(address);
    if (!ok) return Error{"--livechess-api: " + ok.error().message};
    log_notice("livechess: the LiveChess eBoards API on ws://" +
               (address.address.find(':') != std::string::npos ? "[" + address.address + "]" : address.address) + ":" +
               std::to_string(server_.port()) + kPath +
               (web::is_loopback(address) ? "" : " (not loopback: reachable from other hosts)"));
    return true;
}

void LiveChessApi::close() {
    server_.close();
    clients_.clear();
}

std::string LiveChessApi::serialnr(const BoardSession& board) {
    return board.live().serial.empty() ? board.name() : board.live().serial;
}

ojson LiveChessApi::eboard_json(const BoardSession& b) {
    const auto& live = b.live();
    const std::string expected = b.game() ? b.game()->position().fen() : Position::startpos().fen();
    ojson e = ojson::object();
    e["serialnr"] = serialnr(b);
    e["source"] = b.board_config().uri;
    e["state"] = state_of(b);
    if (live.battery) e["battery"] = std::to_string(live.battery->percent) + "%";
    else e["battery"] = nullptr;
    e["comment"] = b.name();
    e["board"] = board_placement(live, live.flipped, expected);
    e["flipped"] = stands_reversed(live);
    e["clock"] = with_time(clock_json(live), live.clock_at_ms);
    return e;
}

ojson LiveChessApi::eboards() const {
    ojson list = ojson::array();
    for (const auto& r : boards_.records()) list.push_back(eboard_json(*r.session));
    return list;
}

const BoardSession* LiveChessApi::find(const std::string& serial) const {
    for (const auto& r : boards_.records())
        if (serialnr(*r.session) == serial) return r.session.get();
    for (const auto& r : boards_.records()) // its name also names it, whatever its serial
        if (r.session->name() == serial) return r.session.get();
    return nullptr;
}

const BoardSession* LiveChessApi::session(const std::string& name) const {
    for (const auto& r : boards_.records())
        if (r.session->name() == name) return r.session.get();
    return nullptr;
}

void LiveChessApi::reply_error(web::WebSocket& ws, const std::optional<std::int64_t>& id, const std::string& message) {
    ojson out = ojson::object();
    out["response"] = "error";
    if (id) out["id"] = *id;
    else out["id"] = nullptr;
    out["param"] = ojson{{"message", message}};
    out["time"] = wall_clock_ms();
    ws.send(out.dump());
}

void LiveChessApi::on_message(const std::shared_ptr<web::WebSocket>& ws, std::string_view text) {
    const ojson request = ojson::parse(text, nullptr, false);
    if (request.is_discarded() || !request.is_object()) return reply_error(*ws, std::nullopt, "not a JSON object");
    const auto id = id_of(request);
    if (!id) return reply_error(*ws, std::nullopt, "a request needs a numeric \"id\"");
    const auto call = request.find("call");
    if (call == request.end() || !call->is_string()) return reply_error(*ws, id, "a request needs a \"call\"");
    const ojson param = request.contains("param") ? request["param"] : ojson(nullptr);
    auto reply = [&](ojson result) {
        ojson out = ojson::object();
        out["response"] = "call";
        out["id"] = *id;
        out["param"] = std::move(result);
        out["time"] = wall_clock_ms();
        ws->send(out.dump());
    };
    auto& client = clients_[ws.get()];
    client.socket = ws;
    const std::string name = call->get<std::string>();
    if (name == "eboards") return reply(eboards());
    if (name == "subscribe" || name == "unsubscribe") {
        const auto feed_id = id_of(param);
        if (!feed_id) return reply_error(*ws, id, name + ": param needs a numeric \"id\" (the feed's)");
        if (name == "unsubscribe") {
            if (client.feeds.erase(*feed_id) == 0) return reply_error(*ws, id, "no feed " + std::to_string(*feed_id));
            return reply(nullptr);
        }
        if (!param.contains("feed") || param["feed"] != "eboardevent")
            return reply_error(*ws, id, "subscribe: unknown feed (this server has \"eboardevent\")");
        const ojson inner = param.contains("param") ? param["param"] : ojson(nullptr);
        if (!inner.is_object() || !inner.contains("serialnr") || !inner["serialnr"].is_string())
            return reply_error(*ws, id, "subscribe: param.param needs a \"serialnr\"");
        const auto serial = inner["serialnr"].get<std::string>();
        const BoardSession* board = find(serial);
        if (!board) return reply_error(*ws, id, "no board with serialnr '" + serial + "'");
        Feed feed;
        feed.id = *feed_id;
        feed.board = board->name();
        auto& stored = client.feeds[*feed_id] = std::move(feed);
        reply(nullptr);
        return update(*ws, stored);
    }
    if (name == "call") {
        const auto feed_id = id_of(param);
        if (!feed_id) return reply_error(*ws, id, "call: param needs a numeric \"id\" (the feed's)");
        const auto found = client.feeds.find(*feed_id);
        if (found == client.feeds.end()) return reply_error(*ws, id, "no feed " + std::to_string(*feed_id));
        const auto method = param.contains("method") && param["method"].is_string() ? param["method"].get<std::string>() : "";
        const ojson args = param.contains("param") ? param["param"] : ojson(nullptr);
        if (method == "flip") {
            // The client says how the board stands (true: turned round); its feed's `board`
            // is the reading turned round accordingly. The moves are eboardd's, whose
            // reconstruction finds the orientation itself.
            if (!args.is_object() || !args.contains("flip") || !args["flip"].is_boolean())
                return reply_error(*ws, id, "flip: param needs a boolean \"flip\"");
            found->second.flip = args["flip"].get<bool>();
            reply(nullptr);
            return update(*ws, found->second);
        }
        if (method != "setup")
            return reply_error(*ws, id, "call: unknown method '" + method + "' (this server has \"setup\" and \"flip\")");
        if (!args.is_object() || !args.contains("fen") || !args["fen"].is_string())
            return reply_error(*ws, id, "setup: param needs a \"fen\"");
        const auto fen = args["fen"].get<std::string>();
        if (auto pos = Position::from_fen(fen); !pos) return reply_error(*ws, id, "setup: " + pos.error().message);
        const BoardSession* board = session(found->second.board);
        const GameTracker* game = board && board->game() ? &*board->game() : nullptr;
        found->second.follower.setup(fen, game ? game->game() : "", game ? game->plies() : 0);
        found->second.sent.reset(); // the client hears where its list now starts
        reply(nullptr);
        return update(*ws, found->second);
    }
    reply_error(*ws, id, "unknown call '" + name + "'");
}

void LiveChessApi::update(web::WebSocket& ws, Feed& feed) {
    const BoardSession* board = session(feed.board);
    if (!board) return; // detached: its feed stays silent
    const BoardSession& b = *board;
    LiveChessFeedState now;
    now.serialnr = serialnr(b);
    now.flipped = feed.flip.value_or(stands_reversed(b.live()));
    std::string reached;
    feed.follower.follow(b.game() ? &*b.game() : nullptr, now.start, now.san, reached);
    now.board = board_placement(b.live(), feed.flip.value_or(b.live().flipped), reached);
    now.clock = clock_json(b.live());
    const auto target = read_placement(fen_fields(reached, 1));
    now.match = target && now.board == write_placement(*target);
    if (feed.sent && *feed.sent == now) return;
    auto send = [&](const LiveChessFeedState& s) {
        ojson p = ojson::object();
        p["serialnr"] = s.serialnr;
        p["flipped"] = s.flipped;
        p["board"] = s.board;
        p["clock"] = with_time(s.clock, b.live().clock_at_ms);
        p["start"] = s.start;
        p["san"] = s.san;
        p["match"] = s.match;
        ojson out = ojson::object();
        out["response"] = "feed";
        out["id"] = feed.id;
        out["param"] = std::move(p);
        out["time"] = wall_clock_ms();
        ws.send(out.dump());
    };
    // One new move per message (clients take the last moves as the new ones).
    if (feed.sent && feed.sent->start == now.start && feed.sent->san.size() + 1 < now.san.size() &&
        std::equal(feed.sent->san.begin(), feed.sent->san.end(), now.san.begin())) {
        LiveChessFeedState step = now;
        step.match = false;
        for (std::size_t n = feed.sent->san.size() + 1; n < now.san.size(); ++n) {
            step.san.assign(now.san.begin(), now.san.begin() + static_cast<std::ptrdiff_t>(n));
            send(step);
        }
    }
    send(now);
    feed.sent = std::move(now);
}

void LiveChessApi::board_changed(const std::string& name) {
    if (clients_.empty()) return;
    dirty_.insert(name);
    if (flush_posted_) return;
    flush_posted_ = true;
    boost::asio::post(io_, [this, alive = alive_] {
        if (*alive) flush();
    });
}

void LiveChessApi::flush() {
    flush_posted_ = false;
    const auto dirty = std::move(dirty_);
    dirty_.clear();
    for (auto& [key, client] : clients_) {
        auto ws = client.socket.lock();
        if (!ws || !ws->is_open()) continue;
        for (auto& [id, feed] : client.feeds)
            if (dirty.contains(feed.board)) update(*ws, feed);
    }
}

} // namespace eboard::daemon
