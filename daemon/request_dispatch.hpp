// The client API's requests executed (docs/client-api.md "Requests"): one handler per request
// type, chosen by std::visit over the Request variant, each returning the reply object: the
// request's own reply (BOARDS, GAMES, INFO, OK with what it did) or an ERROR with its code
// (commands.hpp ErrorCode) and message.
//
// Contract: runs on the event loop's thread (ClientServer calls execute()); it holds no state of
// its own, only references to the boards, the recorder and the speech sink, which outlive it.
// Opening and closing boards (ATTACH, DETACH) is the daemon's: those two go to the functions it
// gives. WATCH is the socket server's and never reaches it.
#pragma once

#include <functional>

#include "daemon/commands.hpp"

namespace eboard::daemon {

struct BoardRecord;
class BoardRegistry;
class Recorder;
class SpeechSink;

class RequestDispatcher final : public CommandHandler {
  public:
    using AttachFn = std::function<ojson(const AttachRequest&, const ojson& raw)>;
    using DetachFn = std::function<ojson(const DetachRequest&, const ojson& raw)>;

    RequestDispatcher(BoardRegistry& boards, Recorder& recorder, SpeechSink& speech, AttachFn attach,
                      DetachFn detach);

    /// The reply to `request` (`raw`: the request as sent, for its `class` and `id`).
    ojson execute(const Request& request, const ojson& raw) override;

  private:
    ojson handle(const WatchRequest& r, const ojson& raw);
    ojson handle(const BoardsRequest& r, const ojson& raw);
    ojson handle(const GamesRequest& r, const ojson& raw);
    ojson handle(const InfoQuery& r, const ojson& raw);
    ojson handle(const AttachRequest& r, const ojson& raw);
    ojson handle(const DetachRequest& r, const ojson& raw);
    ojson handle(const NewGameRequest& r, const ojson& raw);
    ojson handle(const SetPositionRequest& r, const ojson& raw);
    ojson handle(const TakebackRequest& r, const ojson& raw);
    ojson handle(const ResultRequest& r, const ojson& raw);
    ojson handle(const PenaltyRequest& r, const ojson& raw);
    ojson handle(const ClockRequest& r, const ojson& raw);

    /// The board a board request names; nullptr after setting `error` (unknown_board).
    [[nodiscard]] BoardRecord* board_of(const std::string& name, const ojson& raw, ojson& error);
    /// OK with the board's game (when it has one), after a new game, a set position or a
    /// take-back restarted the reconstruction from it.
    [[nodiscard]] static ojson game_changed(BoardRecord& board, const ojson& raw);

    BoardRegistry& boards_;
    Recorder& recorder_;
    SpeechSink& speech_;
    AttachFn attach_;
    DetachFn detach_;
};

} // namespace eboard::daemon
