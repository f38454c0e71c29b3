// Reconstructor::next_deadline(): a caller that feeds a Tick only when the reconstruction says
// a timer is due (the daemon's one shared deadline timer, daemon/deadlines.hpp) gets exactly
// the events of a caller that ticks every millisecond: same events, same times. Checked on
// real games handled the human way with every injected irregularity (the bounce filter, the
// settle time, the press grace and the position_mismatch grace all fire).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

std::string describe(const ReconEvent& e) {
    return std::to_string(e.index()) + std::visit(
        [](const auto& x) {
            std::string s;
            if constexpr (requires { x.t_ms; }) s += " t=" + std::to_string(x.t_ms);
            if constexpr (requires { x.ply.value_or(0); }) s += " ply=" + std::to_string(x.ply.value_or(0));
            else if constexpr (requires { x.ply; }) s += " ply=" + std::to_string(x.ply);
            if constexpr (requires { x.uci; }) s += " " + x.uci;
            if constexpr (requires { x.kind; }) s += " kind=" + std::to_string(static_cast<int>(x.kind));
            if constexpr (requires { x.cleared; }) s += x.cleared ? " cleared" : "";
            if constexpr (requires { x.completed; }) s += " completed=" + std::to_string(static_cast<int>(x.completed));
            return s;
        },
        e);
}

// The events of one handled game with their Ticks taken out, in time order.
std::vector<SensorEvent> game_inputs(const PgnGame& g, bool identity, std::uint64_t seed) {
    HandlingOptions o;
    o.seed = seed;
    o.identity = identity;
    o.dgt_scan = identity;
    BoardHands h(o);
    Position p = g.start();
    h.setup(p);
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        // Every few plies one of the irregularities, in turn (a flag fall would end the game);
        // play_with() plays the move too.
        const Irregularity what = kIrregularities[(i / 7) % std::size(kIrregularities)];
        std::vector<Move> these{g.moves[i]};
        if (i % 7 == 3 && what != Irregularity::FlagFall) these = h.play_with(p, g.moves[i], what);
        else h.play(p, g.moves[i]);
        for (Move m : these) p.make_move(m);
    }
    h.wait(8000); // the last timers run out
    std::vector<SensorEvent> out;
    for (const auto& e : h.take_events())
        if (!std::holds_alternative<Tick>(e)) out.push_back(e);
    return out;
}

std::vector<std::string> ticked_every_ms(const std::vector<SensorEvent>& in, TimeMs end) {
    Reconstructor r;
    std::vector<std::string> out;
    auto take = [&](const std::vector<ReconEvent>& evs) {
        for (const auto& e : evs) out.push_back(describe(e));
    };
    TimeMs t = 0;
    for (const auto& e : in) {
        for (; t < time_of(e); ++t) take(r.feed(Tick{t}));
        take(r.feed(e));
    }
    for (; t <= end; ++t) take(r.feed(Tick{t}));
    return out;
}

std::vector<std::string> ticked_at_deadlines(const std::vector<SensorEvent>& in, TimeMs end, int* ticks) {
    Reconstructor r;
    std::vector<std::string> out;
    auto take = [&](const std::vector<ReconEvent>& evs) {
        for (const auto& e : evs) out.push_back(describe(e));
    };
    auto tick_until = [&](TimeMs before) {
        while (auto due = r.next_deadline()) {
            if (*due >= before) break;
            take(r.feed(Tick{*due}));
            ++*ticks;
        }
    };
    for (const auto& e : in) {
        tick_until(time_of(e));
        take(r.feed(e));
    }
    tick_until(end + 1);
    return out;
}

} // namespace

TEST_CASE("recon deadlines: ticking only when next_deadline() is due gives the events of ticking every ms") {
    int unreadable = 0;
    const auto games = read_pgn_file(std::string(EBOARD_REPO_DATA) + "/games/lichess-db-sample.pgn", &unreadable);
    REQUIRE(games.size() >= 2);
    for (std::size_t gi = 0; gi < 2; ++gi) {
        for (const bool identity : {false, true}) {
            const auto inputs = game_inputs(games[gi], identity, 77 + gi);
            REQUIRE_FALSE(inputs.empty());
            const TimeMs end = time_of(inputs.back()) + 10000;
            int ticks = 0;
            const auto dense = ticked_every_ms(inputs, end);
            const auto sparse = ticked_at_deadlines(inputs, end, &ticks);
            INFO("game " << gi + 1 << (identity ? ", identity board" : ", occupancy board"));
            CHECK(dense.size() > games[gi].moves.size()); // moves made, touches, alerts
            CHECK(sparse == dense);
            // Far fewer ticks than milliseconds: at most a few per input.
            CHECK(ticks < 4 * static_cast<int>(inputs.size()));
        }
    }
}
