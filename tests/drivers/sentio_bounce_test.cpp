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

constexpr TimeMs kFrameMs = 100;  // the frame period the daemon's emulated Sentio uses

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

/// The squares (game numbering) that changed in SquareChange events from index `from` on.
std::vector<std::string> changes_since(const RecordingHost& host, std::size_t from) {
    std::vector<std::string> out;
    const auto all = host.all<SquareChange>();
    for (std::size_t i = from; i < all.size(); ++i)
        out.push_back(all[i].square.name() + (all[i].reading.occupied ? "+" : "-"));
    return out;
}

/// Driver events as the daemon feeds them to the reconstruction (daemon/device_link.cpp).
void feed_recon(eboard::test::Run& r, const DriverEvent& e) {
    if (const auto* c = std::get_if<SquareChange>(&e)) {
        r.take(r.rec.feed(SquareChange{c->t_ms, c->square, eboard::SquareReading{c->reading.occupied, c->reading.piece}}));
    } else if (const auto* d = std::get_if<BoardSnapshot>(&e)) {
        BoardSnapshot snap{d->t_ms, {}};
        for (int s = 0; s < 64; ++s) {
            const auto x = d->board.at(Square(s));
            snap.board[static_cast<std::size_t>(s)] = eboard::SquareReading{x.occupied, x.piece};
        }
        r.take(r.rec.feed(snap));
    }
}

/// Plays `game` on an emulated Sentio (a frame every 100 ms) read by a driver made with
/// `params`, by hand (300 ms an action: a captured piece off first, then the piece moved lifted
/// (castling: the king first), then put down). Bounces: with `forced`, before every move one piece of the side to move that
/// the move leaves standing bounces in one frame; `bounce_probability` adds random ones (one
/// occupied square per frame, emulator option). Everything the driver reports goes into a
/// reconstructor without a clock, as in eboardd. Returns the reconstruction's run; `*bounces`
/// = bounces the board sent.
eboard::test::Run play_with_bounces(const PgnGame& game, const std::map<std::string, std::string>& params,
                                    bool forced, double bounce_probability, int* bounces) {
    const std::vector<BoardReading> boards = game_boards(game);
    emu::LineEmulatorOptions eo = sentio_board();
    eo.bounce_probability = bounce_probability;
    eo.position = boards.front();
    emu::LineBoardEmu board(eo);
    auto driver = sentio_driver(params);
    Loopback loop(board, *driver);
    ReconConfig cfg;
    cfg.clock = false;
    eboard::test::Run run(cfg);
    std::size_t fed = 0;
    const auto advance = [&](TimeMs ms) {
        for (const TimeMs end = loop.now + ms; loop.now < end;) {
            loop.run(10, 10);
            for (; fed < loop.host.events.size(); ++fed) feed_recon(run, loop.host.events[fed]);
            run.take(run.rec.feed(Tick{loop.now}));
        }
    };
    advance(1000);  // the start position is on the board
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << game.san[i - 1]);
        const Color mover = i % 2 == 1 ? Color::White : Color::Black;
        for (int s = 0; forced && s < 64; ++s) {  // an own piece that the move leaves standing
            const auto r = boards[i - 1].at(Square(s));
            if (r.piece == Piece::None || color_of(r.piece) != mover || boards[i].at(Square(s)) != r) continue;
            board.bounce_next_frame(Square(s));
            break;
        }
        advance(2 * kFrameMs);  // the bounce frame has been sent
        for (int pass = 0; pass < 4; ++pass)
            for (int s = 0; s < 64; ++s) {
                const auto was = boards[i - 1].at(Square(s)), now = boards[i].at(Square(s));
                if (was == now) continue;
                const bool victim = was.occupied && now.occupied, emptied = was.occupied && !now.occupied;
                const bool king = was.piece != Piece::None && type_of(was.piece) == PieceType::King;
                // The lifts: a victim, then a king (castling: the king first, 4.4.2), then the rest.
                const bool lift_now = (pass == 0 && victim) || (pass == 1 && emptied && king) ||
                                      (pass == 2 && emptied && !king);
                if (lift_now) board.lift(Square(s));
                else if (pass == 3 && now.occupied) board.place(Square(s), now.piece);
                else continue;
                advance(300);
            }
        advance(800);  // the move stands: made (settle 300 ms) with the vote's frame on top
    }
    *bounces = board.bounces_sent();
    return run;
}

PgnGame kasparov_game_1() {
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1);
    REQUIRE(games.size() == 1);
    return games[0];
}

} // namespace

TEST_CASE("sentio 3.2 a bounce caught by one frame is no lift with the default 2-of-3 vote") {
    const BoardReading start = sentio::board_of(BoardReading::start_position().occupancy());
    for (const bool vote_one : {false, true}) {
        INFO(std::string(vote_one ? "vote-frames=1" : "default"));
        emu::LineBoardEmu board(sentio_board());
        auto driver = vote_one ? sentio_driver({{"vote-frames", "1"}}) : sentio_driver();
        Loopback loop(board, *driver);
        REQUIRE(loop.run_until([&] { return !loop.host.all<BoardSnapshot>().empty(); }, 10 * kFrameMs));
        CHECK(loop.host.all<BoardSnapshot>().back().board == start);
        const std::size_t before = loop.host.all<SquareChange>().size();

        board.bounce_next_frame(Square::parse("g1"));
        loop.run(5 * kFrameMs);
        if (vote_one) CHECK(changes_since(loop.host, before) == std::vector<std::string>{"g1-", "g1+"});
        else CHECK(changes_since(loop.host, before).empty());

        // A real lift is reported: with the vote, one frame later than without.
        const std::size_t lifted_at = loop.host.all<SquareChange>().size();
        const TimeMs t0 = loop.now;
        board.lift(Square::parse("g1"));
        REQUIRE(loop.run_until([&] { return loop.host.all<SquareChange>().size() > lifted_at; }, 5 * kFrameMs));
        CHECK(changes_since(loop.host, lifted_at) == std::vector<std::string>{"g1-"});
        CHECK(loop.now - t0 <= (vote_one ? 1 : 2) * kFrameMs);
    }
}

TEST_CASE("4.3 Sentio: an own piece bouncing in one frame before each move is no touched piece") {
    // With the default vote: no touch_move alert and the game as played. With vote-frames=1 the
    // same bounces reach the reconstruction as lifts of 100 ms (this is what the vote is for).
    const PgnGame game = kasparov_game_1();
    int bounces = 0;
    const eboard::test::Run voted = play_with_bounces(game, {}, true, 0, &bounces);
    CHECK(bounces > 80);  // 89 moves; a bounce before each that leaves an own piece standing
    INFO(voted.alert_list());
    CHECK(voted.made.size() == game.san.size());
    CHECK(voted.count(AlertKind::TouchMove) == 0);
    CHECK(voted.irregularities() == 0);

    const eboard::test::Run unvoted = play_with_bounces(game, {{"vote-frames", "1"}}, true, 0, &bounces);
    WARN("vote-frames=1: " << unvoted.count(AlertKind::TouchMove) << " touch_move alerts from " << bounces
                           << " one-frame bounces");
    CHECK(unvoted.touches.size() > voted.touches.size());
}

TEST_CASE("sentio bounce rate: random one-frame bounces over lichess games, vote 1 and 3", "[.measure]") {
    // A measurement, not run by ctest: build/tests/test_drivers "[.measure]" (docs/drivers-conformance.md).
    // Each 100 ms frame reads one random occupied square empty with probability 2 %.
    const auto games = read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/lichess-db-sample.pgn", 60);
    for (const int vote : {1, 3}) {
        int played = 0, moves = 0, bounces = 0, touch = 0, other = 0, lost = 0;
        for (const PgnGame& g : games) {
            if (!g.fen.empty()) continue;
            int b = 0;
            const eboard::test::Run r =
                play_with_bounces(g, {{"vote-frames", std::to_string(vote)}}, false, 0.02, &b);
            ++played;
            moves += static_cast<int>(g.san.size());
            bounces += b;
            touch += r.count(AlertKind::TouchMove);
            other += r.irregularities() - r.count(AlertKind::TouchMove);
            lost += r.made.size() == g.san.size() ? 0 : 1;
        }
        WARN("vote-frames=" << vote << ": " << played << " games, " << moves << " moves, " << bounces
                            << " one-frame bounces, " << touch << " touch_move alerts, " << other
                            << " other irregularities, " << lost << " games not followed to the end");
    }
}
