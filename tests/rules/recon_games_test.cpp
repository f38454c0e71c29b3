// Every game of data/games handled the human way (rules/handling.hpp: seeded capture,
// castling, en passant and promotion orders, slides, bounce, adjusting, DGT scan dynamics) on
// occupancy-only and identity boards, as square changes or whole-board reports, must come out
// exactly, with no irregularity alert.
#include <catch2/catch.hpp>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

struct Variant {
    const char* name;
    bool identity, dgt_scan, clock, rotated;
    /// -1: square changes (DGT, Millennium, Certabo, Sentio); 0: the whole board in a report on
    /// every change (Chessnut); > 0: such reports read by a late host, stamped with the time it
    /// reads them, every report_ms (the changes of a period share a time stamp: one report).
    TimeMs report_ms = -1;
};
constexpr Variant kVariants[] = {
    {"occupancy, clock", false, false, true, false},
    {"identity DGT scan, clock", true, true, true, false},
    {"occupancy, no clock", false, false, false, false},
    {"identity, rotated board, no clock", true, false, false, true},
    {"occupancy, rotated board, clock", false, false, true, true},
    {"identity, whole-board reports, no clock", true, false, false, false, 0},
    {"identity, whole-board reports read every 30 ms, no clock", true, false, false, false, 30},
};

/// The hands' square changes as the whole-board reports of Variant::report_ms.
std::vector<SensorEvent> as_reports(const std::vector<SensorEvent>& in, TimeMs report_ms) {
    std::vector<SensorEvent> out;
    BoardReading board{};
    std::vector<BoardSnapshot> unread;  // reports the host reads at their (common) time stamp
    for (const SensorEvent& e : in) {
        const TimeMs t = time_of(e);
        if (!unread.empty() && t >= unread.front().t_ms) {
            out.insert(out.end(), unread.begin(), unread.end());
            unread.clear();
        }
        if (const auto* c = std::get_if<SquareChange>(&e)) {
            board[static_cast<std::size_t>(c->square.index())] = c->reading;
            const TimeMs read = report_ms > 0 ? (t / report_ms + 1) * report_ms : t;
            if (read == t) out.emplace_back(BoardSnapshot{t, board});
            else unread.push_back(BoardSnapshot{read, board});
            continue;
        }
        if (const auto* s = std::get_if<BoardSnapshot>(&e)) board = s->board;
        out.push_back(e);
    }
    out.insert(out.end(), unread.begin(), unread.end());
    return out;
}

/// Plays `g` under `v` and checks the reconstruction; returns a failure description or "".
std::string check_game(const PgnGame& g, const Variant& v, std::uint64_t seed) {
    Position start = g.start();
    const std::vector<Move>& moves = g.moves;
    HandlingOptions o;
    o.seed = seed;
    o.identity = v.identity;
    o.dgt_scan = v.dgt_scan;
    o.clock = v.clock;
    o.rotated = v.rotated;
    ReconConfig cfg;
    cfg.clock = v.clock;
    // An occupancy-only board cannot tell the Chess960 arrays apart: the arbiter sets it.
    cfg.chess960_number = g.chess960_number();
    Run r(cfg);
    bool standard_start = start.fen() == Position::startpos().fen() || cfg.chess960_number >= 0;
    if (!standard_start) {
        // Not a start array: the arbiter starts the game from the FEN.
        r.take(r.rec.start_game(start, 0));
    }
    std::vector<SensorEvent> events = handle_game(start, moves, o);
    if (v.report_ms >= 0) events = as_reports(events, v.report_ms);
    r.feed(events);
    std::vector<std::string> want = uci_list(start, moves);
    std::string why;
    if (r.games_started != 1) why += "games started: " + std::to_string(r.games_started) + "\n";
    if (r.made != want) {
        std::size_t i = 0;
        while (i < want.size() && i < r.made.size() && want[i] == r.made[i]) ++i;
        why += "moves differ at ply " + std::to_string(i + 1) + ": got " +
               (i < r.made.size() ? r.made[i] : "-") + ", want " +
               (i < want.size() ? want[i] : "-") + " (made " + std::to_string(r.made.size()) +
               "/" + std::to_string(want.size()) + ")\n";
    }
    if (v.clock && static_cast<int>(r.completed.size()) != static_cast<int>(want.size()))
        why += "completed " + std::to_string(r.completed.size()) + "\n";
    if (r.irregularities() != 0) why += r.alert_list();
    if (!why.empty()) why = std::string(v.name) + ", seed " + std::to_string(seed) + ": " + why;
    return why;
}

void check_file(const std::string& file, std::size_t every = 1) {
    int unreadable = 0;
    auto games = read_pgn_file(std::string(EBOARD_REPO_DATA) + "/games/" + file, &unreadable);
    REQUIRE(!games.empty());
    CHECK(unreadable == 0);
    std::size_t checked = 0;
    for (std::size_t i = 0; i < games.size(); i += every) {
        for (std::size_t vi = 0; vi < std::size(kVariants); ++vi) {
            std::string why = check_game(games[i], kVariants[vi], 1000 * i + vi + 1);
            INFO(file << " game " << i + 1);
            CHECK(why == "");
            ++checked;
        }
    }
    CHECK(checked > 0);
}

} // namespace

TEST_CASE("games: anastasian-lewis come out exactly with zero alerts") { check_file("anastasian-lewis.pgn"); }
TEST_CASE("games: carlsen-grischuk-linares come out exactly with zero alerts") { check_file("carlsen-grischuk-linares.pgn"); }
TEST_CASE("games: cutechess-fischerrandom (Chess960) come out exactly with zero alerts") { check_file("cutechess-fischerrandom.pgn"); }
TEST_CASE("games: kasparov-deep-blue-1997 come out exactly with zero alerts") { check_file("kasparov-deep-blue-1997.pgn"); }
TEST_CASE("games: molinari-bordais-1979 come out exactly with zero alerts") { check_file("molinari-bordais-1979.pgn"); }
TEST_CASE("games: nepomniachtchi-liren-game1 come out exactly with zero alerts") { check_file("nepomniachtchi-liren-game1.pgn"); }
TEST_CASE("games: ushenina-girya-2013 come out exactly with zero alerts") { check_file("ushenina-girya-2013.pgn"); }
TEST_CASE("games: lichess-db-sample (every game) come out exactly with zero alerts") {
    check_file("lichess-db-sample.pgn");
}
