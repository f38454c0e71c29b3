// The hub's store and views (hub/store.hpp, hub/hall.hpp, hub/pairings.hpp) fed with the
// contract's messages: duplicates and out-of-order resends, a made move replaced, a takeback, an
// illegal move that stood (A.5.2), the DGT kings-in-the-centre signal, pairings, index.json, the
// group commit's staged batch.
#include "hall_fixture.hpp"

#include "daemon/hall_topics.hpp"
#include "daemon/pgn_export.hpp"
#include "hub/hall.hpp"
#include "hub/pairings.hpp"
#include "hub/store.hpp"

#include "../support/process.hpp"

#include <nlohmann/json.hpp>

using namespace hubtest;
using eboard::hub::Hall;
using eboard::hub::HallStore;

namespace {

std::unique_ptr<HallStore> open_store(const eboard::test::TempDir& dir) {
    auto s = HallStore::open(dir.path);
    REQUIRE(s);
    return std::move(*s);
}

void feed(HallStore& store, const std::vector<Msg>& msgs) {
    for (const auto& m : msgs) REQUIRE(store.ingest(m.topic, m.payload, 1'764'000'000'000));
}

// The movetext of a PGN text: everything after the tag section of each record.
std::string movetext(const std::string& pgn) {
    std::string out;
    std::istringstream in(pgn);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '[') out += line + "\n";
    return out;
}

// eboardd's own PGN of the game (daemon/pgn_export.hpp) from the same moves.
std::string board_pgn(const std::vector<Ply>& plies, const std::string& result, const std::string& termination) {
    eboard::daemon::StoredGame g;
    for (const auto& p : plies) {
        eboard::daemon::RecordedMove m;
        m.ply = p.ply;
        m.san = p.san;
        m.uci = p.uci;
        m.fen = p.fen;
        m.completed = true;
        m.clock = p.clock;
        g.moves.push_back(m);
    }
    g.result = result;
    g.termination = termination;
    return eboard::daemon::to_pgn(g);
}

} // namespace

TEST_CASE("a real game sent twice over, and resent out of order, is in games.pgn once, as the board's own PGN") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"));
    REQUIRE(plies.size() > 40);
    const auto msgs = game_messages("pi1", "t1", "g1", plies, "1-0");
    std::size_t dups = 0;
    for (const auto& m : msgs) {
        auto first = store->ingest(m.topic, m.payload, 1);
        REQUIRE(first);
        CHECK_FALSE(first->duplicate);
        auto again = store->ingest(m.topic, m.payload, 2); // a PUBACK lost: the same message again
        REQUIRE(again);
        CHECK(again->duplicate);
        ++dups;
    }
    // After a reconnect the publisher sends its outbox again from an older message, in order.
    for (std::size_t i = 10; i < 30; ++i) {
        auto r = store->ingest(msgs[i].topic, msgs[i].payload, 3);
        REQUIRE(r);
        CHECK(r->duplicate);
        ++dups;
    }
    CHECK(store->duplicates() == static_cast<std::int64_t>(dups));
    Hall hall(*store, "Hall test", "Here");
    const std::string pgn = hall.round_pgn(1);
    const auto lines = lines_of(pgn);
    REQUIRE(lines.size() == 1);
    REQUIRE(lines[0].san.size() == plies.size());
    for (std::size_t i = 0; i < plies.size(); ++i) {
        CHECK(lines[0].san[i] == plies[i].san);
        const auto& c = plies[i].clock;
        CHECK(lines[0].clk[i] == ((i % 2 == 0 ? c.white_ms : c.black_ms) / 1000) * 1000);
    }
    CHECK(lines[0].result == "1-0");
    CHECK(movetext(pgn) == movetext(board_pgn(plies, "1-0", "resignation")));
    CHECK(pgn.find("[Round \"1.1\"]") != std::string::npos);
    CHECK(pgn.find("[GameId \"pi1/g1\"]") != std::string::npos);
    CHECK(pgn.find("[Event \"Hall test\"]") != std::string::npos);
}

TEST_CASE("a made move replaced before completion, a takeback, and an older unconfirmed RESULT resent") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    const auto plies = plies_of(real_game("kasparov-deep-blue-1997.pgn"), 4);
    std::vector<Msg> msgs{game_start("h", "b", "g")};
    for (int i = 0; i < 3; ++i)
        for (auto& m : move_messages("h", "b", "g", plies[static_cast<std::size_t>(i)])) msgs.push_back(m);
    feed(*store, msgs);
    // Ply 3 made again as another move (the player changed his mind before pressing).
    auto pos = eboard::Position::from_fen(plies[1].fen).value();
    const auto other = eboard::move_from_uci(pos, "a2a3");
    REQUIRE(other != eboard::Move::none());
    pos.make_move(other);
    using eboard::daemon::MoveEvent;
    feed(*store, {message("h", MoveEvent::of("b", "g", 3, "a3", "a2a3", pos.fen(), false, std::nullopt))});
    Hall hall(*store, "", "");
    auto lines = lines_of(hall.round_pgn(1));
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].san == std::vector<std::string>{plies[0].san, plies[1].san, "a3"});
    // The arbiter takes the game back to ply 1.
    using eboard::daemon::GameEvent;
    feed(*store, {message("h", GameEvent::of("b", "g", GameEvent::Kind::Takeback, plies[0].fen, 1))});
    lines = lines_of(hall.round_pgn(1));
    CHECK(lines[0].san == std::vector<std::string>{plies[0].san});
    // A confirmed result is not undone by the unconfirmed one resent after it.
    feed(*store, {result("h", "b", "g", "0-1", "resignation", false), result("h", "b", "g", "0-1", "resignation", true)});
    auto late = store->ingest(result("h", "b", "g", "0-1", "resignation", false).topic,
                              result("h", "b", "g", "0-1", "resignation", false).payload, 5);
    REQUIRE(late);
    CHECK(late->duplicate);
    const auto index = nlohmann::json::parse(hall.index_json(1));
    CHECK(index["games"][0]["result"] == "0-1");
    CHECK(index["games"][0]["confirmed"] == true);
    CHECK(index["games"][0]["state"] == "finished");
}

TEST_CASE("an illegal move that stood (A.5.2, no MOVE of its own) stays in the game as eboardd's PGN writes it") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    using eboard::daemon::MoveEvent;
    auto pos = eboard::Position::startpos();
    const auto e4 = eboard::move_from_uci(pos, "e2e4");
    pos.make_move(e4);
    const std::string after_e4 = pos.fen();
    // Black's knight g8 to g5, illegal, unclaimed; White's d4 follows: its fen is after both.
    const std::string stood = "rnbqkb1r/pppppppp/8/6n1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    auto after = eboard::Position::from_fen(stood).value();
    after.make_move(eboard::move_from_uci(after, "d2d4"));
    feed(*store, {game_start("h", "b", "g"),
                  message("h", MoveEvent::of("b", "g", 1, "e4", "e2e4", after_e4, true, eboard::MoveClock{1000, 2000})),
                  message("h", MoveEvent::of("b", "g", 3, "d4", "d2d4", after.fen(), true, eboard::MoveClock{900, 1900}))});
    Hall hall(*store, "", "");
    const std::string pgn = hall.round_pgn(1);
    const auto lines = lines_of(pgn); // standard PGN: both records read
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].san == std::vector<std::string>{"e4"});
    CHECK(lines[0].result == "*");
    CHECK(lines[1].san == std::vector<std::string>{"d4"});
    CHECK(pgn.find("illegal move g8-g5 stood") != std::string::npos);
    CHECK(pgn.find("[FEN \"rnbqkb1r/pppppppp/8/6n1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq") != std::string::npos);
    // Never as a move.
    CHECK(pgn.find("Ng5") == std::string::npos);
}

TEST_CASE("the DGT kings-in-the-centre result signal never becomes moves") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    const auto plies = plies_of(real_game("anastasian-lewis.pgn"), 12);
    auto msgs = game_messages("h", "b", "g", plies);
    // The kings lifted and set on the centre squares (TOUCH), then eboardd's RESULT and GAME end.
    for (const char* sq : {"e1", "e4", "e8", "d5"}) {
        eboard::daemon::TouchEvent t;
        t.board = "b";
        t.game = "g";
        t.square = eboard::Square::parse(sq);
        t.lift = sq[1] == '1' || sq[1] == '8';
        msgs.push_back(message("h", t));
    }
    msgs.push_back(result("h", "b", "g", "1/2-1/2", "agreement", false));
    using eboard::daemon::GameEvent;
    msgs.push_back(message("h", GameEvent::of("b", "g", GameEvent::Kind::End, plies.back().fen)));
    feed(*store, msgs);
    Hall hall(*store, "", "");
    const auto lines = lines_of(hall.round_pgn(1));
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].san.size() == plies.size());
    CHECK(lines[0].result == "1/2-1/2");
}

TEST_CASE("pairings give rounds, board numbers, names and FIDE ids, and games are matched in order per source") {
    auto p = eboard::hub::parse_pairings(
        "round,board,source,white,black,white_fide_id,black_fide_id\n"
        "1,1,pi1/t1,\"Carlsen, Magnus\",\"Grischuk, Alexander\",1503014,4126025\n"
        "1,2,pi2/t1,A,B,,\n"
        "2,1,pi2/t1,B,A,,\n"
        "2,2,pi1/t1,C,D,,\n");
    REQUIRE(p);
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 6);
    feed(*store, game_messages("pi1", "t1", "r1", plies, "1-0"));
    feed(*store, game_messages("pi2", "t1", "x1", plies, "0-1"));
    feed(*store, {game_start("pi1", "t1", "aborted")}); // set up again, no move: not counted
    feed(*store, game_messages("pi1", "t1", "r2", plies));
    Hall hall(*store, "", "");
    hall.set_pairings(std::move(*p));
    CHECK(hall.current_round() == 2);
    const auto r1 = hall.round(1);
    REQUIRE(r1.size() == 2);
    REQUIRE(r1[0].game);
    CHECK(r1[0].game->game == "r1");
    REQUIRE(r1[1].game);
    CHECK(r1[1].game->game == "x1");
    const auto r2 = hall.round(2);
    REQUIRE(r2.size() == 2);
    CHECK_FALSE(r2[0].game); // pi2/t1 has played one game only
    REQUIRE(r2[1].game);
    CHECK(r2[1].game->game == "r2");
    CHECK(hall.round_of("pi1", "r2") == 2);
    const std::string pgn = hall.round_pgn(1);
    CHECK(pgn.find("[White \"Carlsen, Magnus\"]") != std::string::npos);
    CHECK(pgn.find("[WhiteFideId \"1503014\"]") != std::string::npos);
    CHECK(pgn.find("[BlackFideId \"4126025\"]") != std::string::npos);
    CHECK(pgn.find("[Round \"1.2\"]") != std::string::npos);
    CHECK(pgn.find("[Round \"1.1\"]") < pgn.find("[Round \"1.2\"]"));
    const auto index = nlohmann::json::parse(hall.index_json(2));
    CHECK(index["round"] == 2);
    CHECK(index["games"][0]["state"] == "not_started");
    CHECK(index["games"][0]["white"] == "B");
    CHECK(index["games"][1]["game"] == "pi1/r2");
    CHECK(index["games"][1]["state"] == "live");
    CHECK(index["games"][1]["plies"] == 6);
}

TEST_CASE("without pairings boards are numbered in the order of their host/board names") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 2);
    feed(*store, game_messages("pi2", "a", "g1", plies));
    feed(*store, game_messages("pi1", "z", "g1", plies));
    Hall hall(*store, "", "");
    const auto r = hall.round(1);
    REQUIRE(r.size() == 2);
    CHECK(r[0].pairing.source == "pi1/z");
    CHECK(r[0].board == 1);
    CHECK(r[1].pairing.source == "pi2/a");
    CHECK(hall.answer("/live/round-1/game-2.pgn").body.find("[GameId \"pi2/g1\"]") != std::string::npos);
    CHECK(hall.answer("/live/round-1/game-3.pgn").status == 404);
    CHECK(hall.answer("/live/round-x/games.pgn").status == 404);
}

TEST_CASE("pairings files that are wrong are refused with the line at fault") {
    using eboard::hub::parse_pairings;
    auto bad = [](const std::string& csv) {
        auto p = parse_pairings(csv);
        REQUIRE_FALSE(p);
        return p.error().message;
    };
    CHECK(bad("round,board,white,black\n").find("no column 'source'") != std::string::npos);
    CHECK(bad("round,board,source,white,black\n1,1,pi1/t1,a,b\n1,1,pi1/t2,c,d\n").find("line 3") != std::string::npos);
    CHECK(bad("round,board,source,white,black\n1,1,pi1/t1,a,b\n1,2,pi1/t1,c,d\n").find("twice") != std::string::npos);
    CHECK(bad("round,board,source,white,black\n0,1,pi1/t1,a,b\n").find("round '0'") != std::string::npos);
    CHECK(bad("round,board,source,white,black\n1,1,t1,a,b\n").find("not <host>/<board>") != std::string::npos);
    CHECK(bad("round,board,source,white,black\n1,1,pi1/t1,\"a,b\n").find("quote") != std::string::npos);
}

TEST_CASE("alerts are kept once, a host's status, and a message that is not the contract's changes nothing") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = open_store(dir);
    eboard::daemon::AlertEvent a;
    a.board = "t1";
    a.game = "g";
    a.kind = eboard::AlertKind::Flag;
    a.article = "6.9";
    a.text = "White's flag fell";
    const Msg m = message("pi1", a);
    feed(*store, {m, m});
    CHECK(store->alert_count("pi1", "t1") == 1);
    feed(*store, {{"eboard/v1/pi1/status", "online"}});
    CHECK(store->host_status("pi1") == "online");
    feed(*store, {{"eboard/v1/pi1/status", "{\"status\":\"offline\"}"}});
    CHECK(store->host_status("pi1") == "offline");
    CHECK_FALSE(store->ingest("eboard/v1/pi1/t1/move", "{not json", 1));
    CHECK_FALSE(store->ingest("eboard/v1/pi1/t1/move", "{\"board\":\"t1\",\"game\":\"g\"}", 1));
    CHECK(store->games().size() == 0);
}

TEST_CASE("group commit: staged rows are seen only after the commit, and what has no other copy is committed first") {
    eboard::test::TempDir dir("eboard-hub-batch");
    auto store = open_store(dir);
    const auto plies = plies_of(real_game("kasparov-deep-blue-1997.pgn"), 6);
    const auto msgs = game_messages("pi1", "t1", "g1", plies);
    // As eboardd --mqtt-confirm sends them: each message names its outbox row 1, 2, 3, ...
    std::vector<Msg> rows;
    for (std::size_t i = 0; i < msgs.size(); ++i)
        rows.push_back({msgs[i].topic, eboard::daemon::with_outbox_seq(msgs[i].payload, "0123456789abcdef",
                                                                       static_cast<std::int64_t>(i + 1))});
    auto moves = [&store] {
        const auto g = store->load("pi1", "g1");
        return g ? static_cast<int>(g->moves.size()) : -1;
    };
    auto mark = [&store] {
        const auto m = store->received_marks();
        return m.empty() ? std::int64_t{0} : m.front().seq;
    };
    // The host's first row starts its mark: committed before its PUBACK.
    REQUIRE(store->stage(rows[0].topic, rows[0].payload, 1'764'000'000'000));
    CHECK(store->must_commit());
    REQUIRE(store->commit());
    CHECK(mark() == 1);
    // The following rows wait for the batch: neither the readers nor the mark see them.
    for (std::size_t i = 1; i < rows.size(); ++i) {
        REQUIRE(store->stage(rows[i].topic, rows[i].payload, 1'764'000'000'000));
        CHECK_FALSE(store->must_commit());
    }
    CHECK(store->staged() == rows.size() - 1);
    CHECK(moves() == 0);
    CHECK(mark() == 1);
    REQUIRE(store->commit());
    CHECK(store->staged() == 0);
    CHECK(moves() == static_cast<int>(plies.size()));
    CHECK(mark() == static_cast<std::int64_t>(rows.size()));
    // A message without a row (a host without --mqtt-confirm, a status) has no other copy.
    REQUIRE(store->stage("eboard/v1/pi1/status", "online", 1'764'000'000'000));
    CHECK(store->must_commit());
    REQUIRE(store->commit());
    CHECK(store->host_status("pi1") == "online");
    // A row of another outbox (the host's store made anew) starts the mark again.
    const auto other = game_messages("pi1", "t1", "g2", {});
    REQUIRE(store->stage(other[0].topic, eboard::daemon::with_outbox_seq(other[0].payload, "fedcba9876543210", 1),
                         1'764'000'000'000));
    CHECK(store->must_commit());
    REQUIRE(store->commit());
    // A staged batch that is never committed is gone, as after a crash.
    const auto third = game_messages("pi1", "t1", "g3", {});
    REQUIRE(store->stage(third[0].topic, eboard::daemon::with_outbox_seq(third[0].payload, "fedcba9876543210", 2),
                         1'764'000'000'000));
    CHECK_FALSE(store->must_commit());
    store.reset();
    store = open_store(dir);
    CHECK_FALSE(store->load("pi1", "g3"));
    CHECK(moves() == static_cast<int>(plies.size()));
}
