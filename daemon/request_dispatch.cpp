#include "daemon/request_dispatch.hpp"

#include <utility>

#include "access/information.hpp"
#include "daemon/board_registry.hpp"
#include "daemon/game_tracker.hpp"
#include "daemon/recorder.hpp"
#include "daemon/speech_sink.hpp"
#include "daemon/store.hpp"

namespace eboard::daemon {

namespace {

// The reply `r` with the request's id, when it had one.
ojson with_id(ojson r, const ojson& raw) {
    if (raw.contains("id")) r["id"] = raw["id"];
    return r;
}

} // namespace

RequestDispatcher::RequestDispatcher(BoardRegistry& boards, Recorder& recorder, SpeechSink& speech,
                                     AttachFn attach, DetachFn detach)
    : boards_(boards), recorder_(recorder), speech_(speech), attach_(std::move(attach)), detach_(std::move(detach)) {}

ojson RequestDispatcher::execute(const Request& request, const ojson& raw) {
    return std::visit([&](const auto& r) { return handle(r, raw); }, request);
}

BoardRecord* RequestDispatcher::board_of(const std::string& name, const ojson& raw, ojson& error) {
    BoardRecord* board = boards_.find(name);
    if (!board) error = error_reply(ErrorCode::UnknownBoard, "no board '" + name + "'", raw);
    return board;
}

ojson RequestDispatcher::game_changed(BoardRecord& board, const ojson& raw) {
    board.link->restart_game();
    ojson reply = ok_reply(raw);
    if (board.session->game()) reply["game"] = board.session->game()->game();
    return reply;
}

ojson RequestDispatcher::handle(const WatchRequest&, const ojson& raw) {
    return error_reply(ErrorCode::BadRequest, "WATCH is answered by the socket server", raw);
}

ojson RequestDispatcher::handle(const BoardsRequest&, const ojson& raw) {
    ojson list = ojson::array();
    for (const auto& b : boards_.records()) list.push_back(b.session->status_json());
    return with_id(ojson{{"class", "BOARDS"}, {"boards", list}}, raw);
}

ojson RequestDispatcher::handle(const GamesRequest& g, const ojson& raw) {
    ojson list = ojson::array();
    recorder_.flush();
    recorder_.sync_pgn_files(); // the files the reply names show what the store holds
    for (const auto& s : recorder_.store().list_games(g.limit)) {
        ojson j{{"game", s.id}, {"board", s.board}, {"result", s.result}, {"plies", s.plies}, {"ended", s.ended}};
        const std::string path = recorder_.pgn_path(s.id);
        if (!path.empty()) j["pgn"] = path;
        list.push_back(j);
    }
    return with_id(ojson{{"class", "GAMES"}, {"games", list}}, raw);
}

ojson RequestDispatcher::handle(const InfoQuery& q, const ojson& raw) {
    ojson error;
    if (!board_of(q.board, raw, error)) return error;
    if (auto parsed = access::parse_info_request(q.request); !parsed)
        return error_reply(ErrorCode::BadRequest, parsed.error().message, raw);
    auto said = speech_.info(q.board, q.request);
    // The request reads (above): the speech sink knows no board of that name.
    if (!said) return error_reply(ErrorCode::UnknownBoard, said.error().message, raw);
    return with_id(ojson{{"class", "INFO"}, {"board", q.board}, {"text", said->text},
                         {"language", std::string(said->language)}},
                   raw);
}

ojson RequestDispatcher::handle(const AttachRequest& a, const ojson& raw) { return attach_(a, raw); }

ojson RequestDispatcher::handle(const DetachRequest& d, const ojson& raw) { return detach_(d, raw); }

ojson RequestDispatcher::handle(const NewGameRequest& n, const ojson& raw) {
    ojson error;
    BoardRecord* board = board_of(n.board, raw, error);
    if (!board) return error;
    if (!n.fen.empty())
        if (auto check = GameTracker::start(n.board, "", n.fen); !check)
            return error_reply(ErrorCode::BadFen, check.error().message, raw);
    auto id = board->session->new_game(n.fen, wall_clock_ms());
    if (!id) return error_reply(ErrorCode::Internal, id.error().message, raw); // the store failed
    return game_changed(*board, raw);
}

ojson RequestDispatcher::handle(const SetPositionRequest& p, const ojson& raw) {
    ojson error;
    BoardRecord* board = board_of(p.board, raw, error);
    if (!board) return error;
    if (auto check = GameTracker::start(p.board, "", p.fen); !check)
        return error_reply(ErrorCode::BadFen, check.error().message, raw);
    if (auto ok = board->session->set_position(p.fen, wall_clock_ms()); !ok)
        return error_reply(ErrorCode::Internal, ok.error().message, raw);
    return game_changed(*board, raw);
}

ojson RequestDispatcher::handle(const TakebackRequest& t, const ojson& raw) {
    ojson error;
    BoardRecord* board = board_of(t.board, raw, error);
    if (!board) return error;
    auto ok = board->session->take_back(t.ply, wall_clock_ms());
    if (!ok)
        return error_reply(board->session->game() ? ErrorCode::BadPly : ErrorCode::NoGame, ok.error().message, raw);
    return game_changed(*board, raw);
}

ojson RequestDispatcher::handle(const ResultRequest& r, const ojson& raw) {
    ojson error;
    BoardRecord* board = board_of(r.board, raw, error);
    if (!board) return error;
    BoardSession& session = *board->session;
    auto ok = session.check_result_command(r.result, r.termination);
    if (!ok) return error_reply(session.game() ? ErrorCode::Refused : ErrorCode::NoGame, ok.error().message, raw);
    if (auto done = session.result(r.result, r.termination, r.confirmed, wall_clock_ms(), *ok); !done)
        return error_reply(ErrorCode::NoGame, done.error().message, raw);
    ojson reply = ok_reply(raw);
    if (session.game()) reply["game"] = session.game()->game();
    if (!ok->empty()) reply["winnability"] = *ok;
    return reply;
}

ojson RequestDispatcher::handle(const PenaltyRequest& p, const ojson& raw) {
    ojson error;
    BoardRecord* board = board_of(p.board, raw, error);
    if (!board) return error;
    // Time added to the opponent ("+2min") fails only for the clock (none connected, its times
    // not known); anything else fails for want of a penalty to decide on.
    const auto& pending = board->session->pending_illegal();
    const bool timed = p.apply && pending && !pending->penalty.empty() && pending->penalty[0] == '+';
    auto done = board->link->penalty(p.apply);
    if (!done) return error_reply(timed ? ErrorCode::NoClock : ErrorCode::NoPenalty, done.error().message, raw);
    ojson reply = ok_reply(raw);
    reply["penalty"] = done->penalty;
    if (board->session->game()) reply["game"] = board->session->game()->game();
    if (!done->winnability.empty()) reply["winnability"] = done->winnability;
    return reply;
}

ojson RequestDispatcher::handle(const ClockRequest& c, const ojson& raw) {
    ojson error;
    BoardRecord* board = board_of(c.board, raw, error);
    if (!board) return error;
    if (auto ok = board->link->set_clock(c.white_ms, c.black_ms); !ok)
        return error_reply(ErrorCode::NoClock, ok.error().message, raw);
    const std::int64_t now = wall_clock_ms();
    recorder_.submit([name = board->session->name(), game = board->session->game_id(), text = raw.dump(), now](
                         Store& store) { return store.record_note(name, game, "CLOCK", text, now); });
    ojson reply = ok_reply(raw);
    if (board->session->game()) reply["game"] = board->session->game()->game();
    return reply;
}

} // namespace eboard::daemon
