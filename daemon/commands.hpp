// The requests of the client API (docs/client-api.md): one JSON object per line, `class`
// names the request, an optional `id` (any JSON value) is echoed in the reply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "base/expected.hpp"

namespace eboard::daemon {

using ojson = nlohmann::ordered_json;

/// Start (enable=true) or stop streaming events to this client.
struct WatchRequest {
    bool enable = true;
};
/// The boards and their state.
struct BoardsRequest {};
/// The recorded games, newest first.
struct GamesRequest {
    int limit = 100;
};
/// A new game on a board, from `fen` (default: the standard start position); the board's
/// game in progress, if any, ends unfinished.
struct NewGameRequest {
    std::string board;
    std::string fen;
};
/// The arbiter sets the position of the board's game (Art. 7.1/7.2 restorations).
struct SetPositionRequest {
    std::string board;
    std::string fen;
};
/// Take the board's game back to `ply` (0 = the start position).
struct TakebackRequest {
    std::string board;
    int ply = 0;
};
/// The result by agreement, resignation or an arbiter's decision (Art. 5, 8.7).
struct ResultRequest {
    std::string board;
    std::string result;      ///< "1-0", "0-1", "1/2-1/2"
    std::string termination; ///< rules/game.hpp to_string(Termination); default "arbiter"
    bool confirmed = true;
};
/// The arbiter applies or declines the penalty the profile prescribes for the board's last
/// illegal move (Art. 7.5.5: +2 min to the opponent ...; 7.5.5 second one: loss).
struct PenaltyRequest {
    std::string board;
    bool apply = true;
};
/// The arbiter sets the clock (set-and-run), in milliseconds.
struct ClockRequest {
    std::string board;
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
};

/// Information on request for a visually impaired player ([23] D.2.10.4): `request` as
/// access::parse_info_request reads it ("clocks", "last 3", "square e4", ...); spoken too.
struct InfoQuery {
    std::string board;
    std::string request;
};

/// Open a board at run time (eboardd-device@.service, `eboardctl attach`): `uri` as
/// `--board` takes it, or `device`, a device node whose udev properties name the driver
/// (board_attach.hpp); `name` defaults to the URI.
/// Parsed requests hold printable text only (no control character, issue 26): `name` at most
/// kMaxBoardNameBytes, `uri` and `device` at most kMaxAttachUriBytes.
struct AttachRequest {
    static constexpr std::size_t kMaxBoardNameBytes = 64;
    static constexpr std::size_t kMaxAttachUriBytes = 4096;
    std::string uri;
    std::string device;
    std::string name;
};
/// Close a board: `board` (name or URI), or the board attached by `device`.
struct DetachRequest {
    std::string board;
    std::string device;
};

using Request = std::variant<WatchRequest, BoardsRequest, GamesRequest, NewGameRequest,
                             SetPositionRequest, TakebackRequest, ResultRequest, PenaltyRequest,
                             ClockRequest, InfoQuery, AttachRequest, DetachRequest>;

/// Parses one request object. Errors say which field is missing or wrong.
[[nodiscard]] Expected<Request> parse_request(const ojson& object);

/// The request class names, in the order of Request's alternatives.
[[nodiscard]] const char* request_class(const Request& request);

/// Whether `name` is the class of a request (WATCH ... DETACH).
[[nodiscard]] bool is_request_class(std::string_view name);

/// Why a request was refused, for programs (docs/client-api.md "Error codes"): the `code` of
/// every ERROR reply, beside its `message` for people. A fixed vocabulary (proto_minor 3);
/// a client treats a code it does not know as a refusal.
enum class ErrorCode {
    BadRequest,    ///< not JSON, not an object, too long, a field missing or of a wrong type or value
    UnknownClass,  ///< `class` names no request
    UnknownBoard,  ///< no board of that name or URI
    NoGame,        ///< the board has no game in progress
    BadFen,        ///< the FEN is not a position the daemon can play from
    BadPly,        ///< TAKEBACK to a ply the game does not have
    Refused,       ///< the board's rules profile refuses the result ([23] 5.1.2, 5.2.3)
    NoPenalty,     ///< no illegal move awaits a decision, or the profile prescribes no penalty
    NoClock,       ///< no clock connected, or its times are not known yet
    BadUri,        ///< ATTACH: the URI opens nothing (driver, model, emulator, its PGN, its options)
    UnknownDevice, ///< ATTACH `device`: not a board udev knows
    NameTaken,     ///< ATTACH `name`: another board has it
    TooManyClients, ///< on connect: the daemon serves its most clients (--max-clients); retry later
    Internal,      ///< the daemon failed (the store, an exception); the request may be retried
};

/// The code as the ERROR reply writes it: "bad_request", "unknown_class", ...
[[nodiscard]] const char* to_string(ErrorCode code);

/// `{"class":"ERROR","code":...,"message":...}`, with the request's class and id when known.
[[nodiscard]] ojson error_reply(ErrorCode code, const std::string& message, const ojson& request = ojson());

/// `{"class":"OK","request":CLASS}` plus the request's id.
[[nodiscard]] ojson ok_reply(const ojson& request);

/// One line a client sent, decoded: line -> JSON -> Request (the client API's input side, kept
/// pure so that tests and fuzz/client_request.cpp reach it without a socket).
// bugprone-exception-escape flags its implicit noexcept members, which only move or destroy
// std::optional<std::variant> and nlohmann::json (noexcept): the check follows library paths
// inside them that throw only on a broken invariant.
// NOLINTNEXTLINE(bugprone-exception-escape): see above
struct DecodedLine {
    std::optional<Request> request; ///< set when the line is a valid request
    ojson raw;                      ///< the parsed JSON (discarded if the line is not JSON)
    ojson error;                    ///< the ERROR reply when there is no request; null for a blank line
};

/// Decodes one request line (with or without its '\n'). Never throws: a line that is not JSON
/// or not a valid request yields the ERROR reply to send back; a blank line yields neither.
[[nodiscard]] DecodedLine decode_request_line(std::string_view line);

/// `{"class":"WATCH","enable":...}` plus the request's id: the reply to WATCH.
[[nodiscard]] ojson watch_reply(bool enable, const ojson& request);

/// A reply as the line sent to the client: compact JSON and '\n'; bytes that are not UTF-8
/// (echoed from a request) become U+FFFD, never an exception.
[[nodiscard]] std::string reply_line(const ojson& reply);

/// What executes the arbiter's requests (all but WATCH, which the socket server handles).
/// Returns the reply object (ERROR on failure); called on the event loop's thread.
class CommandHandler {
  public:
    virtual ~CommandHandler() = default;
    [[nodiscard]] virtual ojson execute(const Request& request, const ojson& raw) = 0;
};

} // namespace eboard::daemon
