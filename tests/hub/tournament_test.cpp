// GET /live/tournament.trf (hub/tournament_trf.hpp): the pairings' players and rounds as TRF16,
// a result once it is confirmed (Art. 8.7), the forfeits of the pairings' result column, the
// ratings and FIDE ids of the pairings, the header from --event and the games' days; ETag and
// 304 like every /live/ answer; 404 without pairings.
#include "hall_fixture.hpp"
#include "http_client.hpp"

#include "hub/hall.hpp"
#include "hub/http_server.hpp"
#include "hub/pairings.hpp"
#include "hub/store.hpp"
#include "standings/trf.hpp"

#include "../support/process.hpp"

#include <thread>

using namespace hubtest;
using eboard::standings::RoundEntry;

namespace {

constexpr std::int64_t k2026_03_05 = 1772704800000; // 2026-03-05 10:00 UTC, in ms

void feed(eboard::hub::HallStore& store, const std::vector<Msg>& msgs) {
    for (const auto& m : msgs) REQUIRE(store.ingest(m.topic, m.payload, k2026_03_05));
}

} // namespace

TEST_CASE("/live/tournament.trf: players and rounds of the pairings, confirmed results, forfeits, ETag and 304") {
    eboard::test::TempDir dir("eboard-hub-test");
    auto store = eboard::hub::HallStore::open(dir.path);
    REQUIRE(store);
    auto pairings = eboard::hub::parse_pairings(
        "round,board,source,white,black,white_fide_id,black_fide_id,white_rating,black_rating,result\n"
        "1,1,pi1/t1,\"Alpha, Ann\",\"Delta, Dan\",1503014,,2100,1850,\n"
        "1,2,pi2/t1,\"Bravo, Bob\",\"Charlie, Cid\",,,,1900,\n"
        "2,1,,\"Delta, Dan\",\"Charlie, Cid\",,,,,-+\n"
        "2,2,pi1/t1,\"Alpha, Ann\",\"Bravo, Bob\",1503014,,,,\n");
    REQUIRE(pairings);
    const auto plies = plies_of(real_game("nepomniachtchi-liren-game1.pgn"), 6);
    feed(**store, game_messages("pi1", "t1", "g1", plies, "1-0"));
    feed(**store, game_messages("pi2", "t1", "h1", plies));
    feed(**store, {result("pi2", "t1", "h1", "1/2-1/2", "agreement", false)}); // not confirmed yet
    feed(**store, game_messages("pi1", "t1", "g2", plies));                      // in progress
    eboard::hub::Hall hall(**store, "Club RR", "Gent");

    boost::asio::io_context io;
    auto server = eboard::hub::HttpServer::listen(io, "127.0.0.1", 0, [&](const std::string& t) { return hall.answer(t); });
    REQUIRE(server);
    const unsigned short port = (*server)->port();
    std::thread loop([&] { io.run(); });

    // Without pairings there are no players: 404.
    CHECK(http_get("127.0.0.1", port, "/live/tournament.trf").status == 404);
    hall.set_pairings(std::move(*pairings));

    const Got first = http_get("127.0.0.1", port, "/live/tournament.trf");
    REQUIRE(first.status == 200);
    CHECK(first.content_type == "text/plain; charset=utf-8");
    CHECK(first.cache_control == "no-cache");
    REQUIRE(first.etag.size() > 2);
    INFO(first.body);
    auto trf = eboard::standings::read_trf(first.body);
    REQUIRE(trf);
    CHECK(trf->header("012") == "Club RR");
    CHECK(trf->header("022") == "Gent");
    CHECK(trf->header("042") == "2026/03/05");
    CHECK(trf->header("052") == "2026/03/05");
    CHECK(trf->header("062") == "4");
    CHECK(trf->header("XXR") == "2");
    REQUIRE(trf->players.size() == 4);
    const auto& p = trf->players;
    // Starting numbers in the order of first appearance: round 1 board 1 White, Black, board 2...
    CHECK(p[0].name == "Alpha, Ann");
    CHECK(p[0].fide_id == "1503014");
    CHECK(p[0].rating == 2100);
    CHECK(p[1].name == "Delta, Dan");
    CHECK(p[1].rating == 1850);
    CHECK(p[2].name == "Bravo, Bob");
    CHECK(p[2].rating == 0);
    CHECK(p[3].name == "Charlie, Cid");
    CHECK(p[3].rating == 1900);
    const RoundEntry none{};
    // A blank block (no result yet) at the end of a line is not written (the reader reads none).
    CHECK(p[0].rounds == std::vector<RoundEntry>{{2, 'w', '1'}}); // round 2 in progress
    CHECK(p[1].rounds == std::vector<RoundEntry>{{1, 'b', '0'}, {4, 'w', '-'}});
    CHECK(p[2].rounds.empty());                                   // round 1 not confirmed yet
    CHECK(p[3].rounds == std::vector<RoundEntry>{none, {2, 'b', '+'}});

    // The same tournament: 304 and no body.
    const Got same = http_get("127.0.0.1", port, "/live/tournament.trf", first.etag);
    CHECK(same.status == 304);
    CHECK(same.body.empty());
    // The draw confirmed: a new ETag, the game in the report.
    feed(**store, {result("pi2", "t1", "h1", "1/2-1/2", "agreement", true)});
    const Got confirmed = http_get("127.0.0.1", port, "/live/tournament.trf", first.etag);
    CHECK(confirmed.status == 200);
    CHECK(confirmed.etag != first.etag);
    auto again = eboard::standings::read_trf(confirmed.body);
    REQUIRE(again);
    CHECK(again->players.at(2).rounds.at(0) == RoundEntry{4, 'w', '='});
    CHECK(again->players.at(3).rounds.at(0) == RoundEntry{3, 'b', '='});
    io.stop();
    loop.join();
}

TEST_CASE("pairings: the result column takes forfeits only, ratings are numbers, a forfeit needs no source") {
    using eboard::hub::parse_pairings;
    const std::string head = "round,board,source,white,black,white_rating,result\n";
    auto ok = parse_pairings(head + "1,1,,A,B,,--\n1,2,pi1/t1,C,D,2400,\n");
    REQUIRE(ok);
    CHECK(ok->lines[0].forfeit == "--");
    CHECK(ok->lines[1].white_rating == 2400);
    CHECK(ok->rounds_of("pi1/t1") == std::vector<int>{1});
    auto bad_result = parse_pairings(head + "1,1,pi1/t1,A,B,,1-0\n");
    REQUIRE_FALSE(bad_result);
    CHECK(bad_result.error().message == "line 2: result '1-0' is not a forfeit (+-, -+ or --) or empty");
    auto bad_rating = parse_pairings(head + "1,1,pi1/t1,A,B,strong,\n");
    REQUIRE_FALSE(bad_rating);
    CHECK(bad_rating.error().message == "line 2: white_rating 'strong' is not a rating (1..9999)");
    CHECK_FALSE(parse_pairings(head + "1,1,,A,B,,\n")); // a game on the board needs its source
}
