#include "daemon/commands.hpp"

#include <algorithm>
#include <iterator>

#include "rules/game.hpp"

namespace eboard::daemon {

namespace {

Expected<std::string> string_field(const ojson& j, const char* key, bool required) {
    auto it = j.find(key);
    if (it == j.end()) {
        if (required) return Error{std::string("missing field '") + key + "'"};
        return std::string();
    }
    if (!it->is_string()) return Error{std::string("field '") + key + "' must be a string"};
    return it->get<std::string>();
}

Expected<std::int64_t> int_field(const ojson& j, const char* key, std::int64_t lo, std::int64_t hi) {
    auto it = j.find(key);
    if (it == j.end()) return Error{std::string("missing field '") + key + "'"};
    if (!it->is_number_integer()) return Error{std::string("field '") + key + "' must be an integer"};
    const auto v = it->get<std::int64_t>();
    if (v < lo || v > hi)
        return Error{std::string("field '") + key + "' must be between " + std::to_string(lo) +
                     " and " + std::to_string(hi)};
    return v;
}

Expected<bool> bool_field(const ojson& j, const char* key, bool fallback) {
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_boolean()) return Error{std::string("field '") + key + "' must be true or false"};
    return it->get<bool>();
}

// A field that names or opens a board (ATTACH): no control character (a newline would forge a
// log line, a NUL cut the name in the store but not in memory: issue 26), at most `max` bytes.
Expected<bool> check_printable(const std::string& value, const char* key, std::size_t max) {
    if (value.size() > max)
        return Error{std::string("field '") + key + "' is longer than " + std::to_string(max) + " bytes"};
    for (const char c : value)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return Error{std::string("field '") + key + "' has a control character"};
    return true;
}

// Ten hours: more than any clock shows.
constexpr std::int64_t kMaxClockMs = 10LL * 3600 * 1000;

} // namespace

Expected<Request> parse_request(const ojson& j) {
    if (!j.is_object()) return Error{"a request is a JSON object"};
    auto cls = string_field(j, "class", true);
    if (!cls) return cls.error();
    const std::string& c = *cls;
    if (c == "WATCH") {
        auto en = bool_field(j, "enable", true);
        if (!en) return en.error();
        return Request{WatchRequest{*en}};
    }
    if (c == "BOARDS") return Request{BoardsRequest{}};
    if (c == "GAMES") {
        GamesRequest g;
        if (j.contains("limit")) {
            auto l = int_field(j, "limit", 1, 100000);
            if (!l) return l.error();
            g.limit = static_cast<int>(*l);
        }
        return Request{g};
    }
    if (c == "ATTACH") {
        auto uri = string_field(j, "uri", false);
        if (!uri) return uri.error();
        auto device = string_field(j, "device", false);
        if (!device) return device.error();
        auto name = string_field(j, "name", false);
        if (!name) return name.error();
        if (uri->empty() == device->empty()) return Error{"ATTACH needs either 'uri' or 'device'"};
        // The URI is the name when none is given: both are printable.
        if (auto ok = check_printable(*uri, "uri", AttachRequest::kMaxAttachUriBytes); !ok) return ok.error();
        if (auto ok = check_printable(*device, "device", AttachRequest::kMaxAttachUriBytes); !ok) return ok.error();
        if (auto ok = check_printable(*name, "name", AttachRequest::kMaxBoardNameBytes); !ok) return ok.error();
        if (!device->empty() && (*device)[0] != '/') return Error{"field 'device' must be a path under /dev"};
        return Request{AttachRequest{*uri, *device, *name}};
    }
    if (c == "DETACH") {
        auto board = string_field(j, "board", false);
        if (!board) return board.error();
        auto device = string_field(j, "device", false);
        if (!device) return device.error();
        if (board->empty() == device->empty()) return Error{"DETACH needs either 'board' or 'device'"};
        return Request{DetachRequest{*board, *device}};
    }
    static const char* const board_requests[] = {"NEW_GAME", "SET_POSITION", "TAKEBACK",
                                                  "RESULT",   "PENALTY",      "CLOCK",
                                                  "INFO"};
    if (std::find(std::begin(board_requests), std::end(board_requests), c) == std::end(board_requests))
        return Error{"unknown request class '" + c +
                     "' (WATCH, BOARDS, GAMES, NEW_GAME, SET_POSITION, TAKEBACK, RESULT, PENALTY, CLOCK, INFO, ATTACH, DETACH)"};
    // Every other request acts on one board.
    auto board = string_field(j, "board", true);
    if (!board) return board.error();
    if (c == "NEW_GAME") {
        auto fen = string_field(j, "fen", false);
        if (!fen) return fen.error();
        return Request{NewGameRequest{*board, *fen}};
    }
    if (c == "SET_POSITION") {
        auto fen = string_field(j, "fen", true);
        if (!fen) return fen.error();
        return Request{SetPositionRequest{*board, *fen}};
    }
    if (c == "TAKEBACK") {
        auto ply = int_field(j, "ply", 0, 10000);
        if (!ply) return ply.error();
        return Request{TakebackRequest{*board, static_cast<int>(*ply)}};
    }
    if (c == "RESULT") {
        auto result = string_field(j, "result", true);
        if (!result) return result.error();
        if (*result != "1-0" && *result != "0-1" && *result != "1/2-1/2")
            return Error{"field 'result' must be 1-0, 0-1 or 1/2-1/2"};
        auto term = string_field(j, "termination", false);
        if (!term) return term.error();
        // One vocabulary for the RESULT event (rules/game.hpp); earlier spellings are read.
        const auto termination = term->empty() ? std::optional(Termination::Arbiter) : termination_from_string(*term);
        if (!termination || *termination == Termination::None)
            return Error{"field 'termination' must be one of checkmate, stalemate, dead_position, "
                         "fivefold_repetition, seventy_five_moves, threefold_repetition, fifty_moves, "
                         "resignation, agreement, time_forfeit, illegal_moves, arbiter"};
        auto conf = bool_field(j, "confirmed", true);
        if (!conf) return conf.error();
        return Request{ResultRequest{*board, *result, std::string(to_string(*termination)), *conf}};
    }
    if (c == "PENALTY") {
        auto decision = string_field(j, "decision", true);
        if (!decision) return decision.error();
        if (*decision != "apply" && *decision != "decline")
            return Error{"field 'decision' must be apply or decline"};
        return Request{PenaltyRequest{*board, *decision == "apply"}};
    }
    if (c == "CLOCK") {
        auto w = int_field(j, "white_ms", 0, kMaxClockMs);
        if (!w) return w.error();
        auto b = int_field(j, "black_ms", 0, kMaxClockMs);
        if (!b) return b.error();
        return Request{ClockRequest{*board, *w, *b}};
    }
    if (c == "INFO") {
        auto what = string_field(j, "request", true);
        if (!what) return what.error();
        return Request{InfoQuery{*board, *what}};
    }
    return Error{"unknown request class '" + c +
                 "' (WATCH, BOARDS, GAMES, NEW_GAME, SET_POSITION, TAKEBACK, RESULT, PENALTY, CLOCK, INFO, ATTACH, DETACH)"};
}

namespace {
constexpr const char* kRequestClasses[] = {"WATCH",  "BOARDS",  "GAMES", "NEW_GAME", "SET_POSITION", "TAKEBACK",
                                           "RESULT", "PENALTY", "CLOCK", "INFO",     "ATTACH",       "DETACH"};
static_assert(std::size(kRequestClasses) == std::variant_size_v<Request>);
} // namespace

const char* request_class(const Request& request) { return kRequestClasses[request.index()]; }

bool is_request_class(std::string_view name) {
    return std::find(std::begin(kRequestClasses), std::end(kRequestClasses), name) != std::end(kRequestClasses);
}

const char* to_string(ErrorCode code) {
    switch (code) {
    case ErrorCode::BadRequest: return "bad_request";
    case ErrorCode::UnknownClass: return "unknown_class";
    case ErrorCode::UnknownBoard: return "unknown_board";
    case ErrorCode::NoGame: return "no_game";
    case ErrorCode::BadFen: return "bad_fen";
    case ErrorCode::BadPly: return "bad_ply";
    case ErrorCode::Refused: return "refused";
    case ErrorCode::NoPenalty: return "no_penalty";
    case ErrorCode::NoClock: return "no_clock";
    case ErrorCode::BadUri: return "bad_uri";
    case ErrorCode::UnknownDevice: return "unknown_device";
    case ErrorCode::NameTaken: return "name_taken";
    case ErrorCode::TooManyClients: return "too_many_clients";
    case ErrorCode::Internal: return "internal";
    }
    return "internal";
}

ojson error_reply(ErrorCode code, const std::string& message, const ojson& request) {
    ojson e{{"class", "ERROR"}, {"code", to_string(code)}, {"message", message}};
    if (request.is_object()) {
        if (auto c = request.find("class"); c != request.end() && c->is_string()) e["request"] = *c;
        if (auto id = request.find("id"); id != request.end()) e["id"] = *id;
    }
    return e;
}

DecodedLine decode_request_line(std::string_view line) {
    DecodedLine out;
    if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) return out; // blank line
    out.raw = ojson::parse(line.begin(), line.end(), nullptr, false);
    if (out.raw.is_discarded()) {
        out.error = error_reply(ErrorCode::BadRequest, "not JSON: " + std::string(line.substr(0, line.find('\n'))));
        return out;
    }
    auto request = parse_request(out.raw);
    if (!request) {
        // A string `class` that names no request; anything else wrong is a bad request.
        const auto cls = out.raw.is_object() ? out.raw.find("class") : out.raw.end();
        const bool unknown = cls != out.raw.end() && cls->is_string() && !is_request_class(cls->get<std::string>());
        out.error = error_reply(unknown ? ErrorCode::UnknownClass : ErrorCode::BadRequest, request.error().message,
                                out.raw);
        return out;
    }
    out.request = std::move(*request);
    return out;
}

ojson watch_reply(bool enable, const ojson& request) {
    ojson reply{{"class", "WATCH"}, {"enable", enable}};
    if (auto id = request.find("id"); id != request.end()) reply["id"] = *id;
    return reply;
}

std::string reply_line(const ojson& reply) {
    return reply.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
}

ojson ok_reply(const ojson& request) {
    ojson r{{"class", "OK"}};
    if (auto c = request.find("class"); c != request.end()) r["request"] = *c;
    if (auto id = request.find("id"); id != request.end()) r["id"] = *id;
    return r;
}

} // namespace eboard::daemon
