// A reed contact bouncing for a moment just as a Sentio frame is taken (certabo-sentio.md 3.2):
// one frame shows an occupied square empty, which the host would take for a lift of a whole
// frame period (100 ms), long enough to pass the reconstruction's 40 ms bounce filter and to
// count as a touched piece (Art. 4.3). The Sentio driver therefore votes 2 of the last 3 frames
// by default (drivers/sentio/README.md "Bounce"): a one-frame glitch never leaves the driver, at
// the price of one frame period of latency.
#include "line_harness.hpp"

#include "tests/rules/recon_support.hpp"

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

constexpr Millis kFrameMs = 100;  // the frame period the daemon's emulated Sentio uses

/// A Sentio from the registry with `params` (e.g. vote-frames), as eboardd makes it.
std::unique_ptr<Driver> sentio_driver(const std::map<std::string, std::string>& params = {}) {
    const DriverInfo* info = find_driver("sentio");
    REQUIRE(info != nullptr);
    DriverOptions o;
    for (const auto& [k, v] : params) o.params.emplace(k, v);
    auto d = info->create(o);
    REQUIRE(d != nullptr);
    return d;
}

emu::LineEmulatorOptions sentio_board() {
    emu::LineEmulatorOptions eo;
    eo.kind = emu::LineBoardKind::Sentio;
    eo.frame_period_ms = kFrameMs;
    return eo;
}

/// The squares (game numbering) that changed in SquareChanged events from index `from` on.
std::vector<std::string> changes_since(const RecordingHost& host, std::size_t from) {
    std::vector<std::string> out;
    const auto all = host.all<SquareChanged>();
    for (std::size_t i = from; i < all.size(); ++i)
        out.push_back(all[i].square.name() + (all[i].reading.occupied ? "+" : "-"));
    return out;
}

/// Driver events as the daemon feeds them to the reconstruction (daemon/device_link.cpp).
void feed_recon(eboard::test::Run& r, const DriverEvent& e) {
    if (const auto* c = std::get_if<SquareChanged>(&e)) {
        r.take(r.rec.feed(SquareChange{c->at_ms, c->square, eboard::SquareReading{c->reading.occupied, c->reading.piece}}));
    } else if (const auto* d = std::get_if<BoardDump>(&e)) {
        BoardSnapshot snap{d->at_ms, {}};
        for (int s = 0; s < 64; ++s) {
            const auto x = d->board.at(Square(s));
            snap.board[static_cast<std::size_t>(s)] = eboard::SquareReading{x.occupied, x.piece};
        }
        r.take(r.rec.feed(snap));
    }
}

/// Plays the first game of kasparov-deep-blue-1997.pgn on an emulated Sentio (a frame every
/// 100 ms) read by a driver made with `params`; before every move one piece of the side to
/// move that is not part of the move bounces in one frame. Everything the driver reports goes
/// into a reconstructor without a clock, as in eboardd. Returns the reconstruction's run.
eboard::test::Run play_with_bounces(const std::map<std::string, std::string>& params, std::size_t* bounces) {
    const auto games = read_pgn_games(std::string(EBOARD_SHARED_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1);
    REQUIRE(games.size() == 1);
    const std::vector<BoardState> boards = game_boards(games[0]);
    emu::LineBoardEmu board(sentio_board());
    auto driver = sentio_driver(params);
    Loopback loop(board, *driver);
    ReconConfig cfg;
    cfg.clock = false;
    eboard::test::Run run(cfg);
    std::size_t fed = 0;
    const auto advance = [&](Millis ms) {
        for (const Millis end = loop.now + ms; loop.now < end;) {
            loop.run(10, 10);
            for (; fed < loop.host.events.size(); ++fed) feed_recon(run, loop.host.events[fed]);
            run.take(run.rec.feed(Tick{loop.now}));
        }
    };
    advance(1000);  // the start position is on the board
    *bounces = 0;
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << games[0].san[i - 1]);
        const Color mover = i % 2 == 1 ? Color::White : Color::Black;
        // An own piece that the move leaves where it stands.
        for (int s = 0; s < 64; ++s) {
            const auto r = boards[i - 1].at(Square(s));
            if (r.piece == Piece::None || color_of(r.piece) != mover || boards[i].at(Square(s)) != r) continue;
            board.bounce_next_frame(Square(s));
            ++*bounces;
            break;
        }
        advance(2 * kFrameMs);  // the bounce frame has been sent
        // By hand, 300 ms an action: a captured piece is taken off first, then the piece
        // (pieces) moved are lifted, then put down.
        for (int pass = 0; pass < 3; ++pass)
            for (int s = 0; s < 64; ++s) {
                const auto was = boards[i - 1].at(Square(s)), now = boards[i].at(Square(s));
                if (was == now) continue;
                const bool victim = was.occupied && now.occupied, emptied = was.occupied && !now.occupied;
                if (pass == 0 && victim) board.lift(Square(s));
                else if (pass == 1 && emptied) board.lift(Square(s));
                else if (pass == 2 && now.occupied) board.place(Square(s), now.piece);
                else continue;
                advance(300);
            }
        advance(800);  // the move stands: made (settle 300 ms) with the vote's frame on top
    }
    CHECK(run.made.size() == boards.size() - 1);
    return run;
}

} // namespace

TEST_CASE("sentio 3.2 a bounce caught by one frame is no lift with the default 2-of-3 vote") {
    const BoardState start = sentio::board_of(BoardState::start_position().occupancy());
    for (const bool vote_one : {false, true}) {
        INFO(std::string(vote_one ? "vote-frames=1" : "default"));
        emu::LineBoardEmu board(sentio_board());
        auto driver = vote_one ? sentio_driver({{"vote-frames", "1"}}) : sentio_driver();
        Loopback loop(board, *driver);
        REQUIRE(loop.run_until([&] { return !loop.host.all<BoardDump>().empty(); }, 10 * kFrameMs));
        CHECK(loop.host.all<BoardDump>().back().board == start);
        const std::size_t before = loop.host.all<SquareChanged>().size();

        board.bounce_next_frame(Square::parse("g1"));
        loop.run(5 * kFrameMs);
        if (vote_one) CHECK(changes_since(loop.host, before) == std::vector<std::string>{"g1-", "g1+"});
        else CHECK(changes_since(loop.host, before).empty());

        // A real lift is reported: with the vote, one frame later than without.
        const std::size_t lifted_at = loop.host.all<SquareChanged>().size();
        const Millis t0 = loop.now;
        board.lift(Square::parse("g1"));
        REQUIRE(loop.run_until([&] { return loop.host.all<SquareChanged>().size() > lifted_at; }, 5 * kFrameMs));
        CHECK(changes_since(loop.host, lifted_at) == std::vector<std::string>{"g1-"});
        CHECK(loop.now - t0 <= (vote_one ? 1 : 2) * kFrameMs);
    }
}

TEST_CASE("4.3 Sentio: an own piece bouncing in one frame before each move is no touched piece") {
    // With the default vote: no touch_move alert and the game as played. With vote-frames=1 the
    // same bounces reach the reconstruction as lifts of 100 ms (this is what the vote is for).
    std::size_t bounces = 0;
    const eboard::test::Run voted = play_with_bounces({}, &bounces);
    CHECK(bounces > 80);  // 89 moves; a bounce before each that leaves an own piece standing
    INFO(voted.alert_list());
    CHECK(voted.count(AlertKind::TouchMove) == 0);
    CHECK(voted.irregularities() == 0);

    const eboard::test::Run unvoted = play_with_bounces({{"vote-frames", "1"}}, &bounces);
    WARN("vote-frames=1: " << unvoted.count(AlertKind::TouchMove) << " touch_move alerts from " << bounces
                           << " one-frame bounces");
    CHECK(unvoted.touches.size() > voted.touches.size());
}
