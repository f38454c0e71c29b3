// BoardSession: the game of one board against a real store, as the arbiter's commands act on
// it ([23] 5.1.2 resignation, 5.2.3 agreement; take-back events; illegal moves that stand).
#include <catch2/catch.hpp>

#include "tests/support/process.hpp"

#include "daemon/board_session.hpp"
#include "daemon/store.hpp"
#include "rules/position.hpp"

using namespace eboard;
using namespace eboard::daemon;

namespace {

struct Fixture {
    test::TempDir dir{"eboardd-session"};
    std::unique_ptr<Store> store = std::move(Store::open(dir.path).value());
    Recorder recorder{*store, ""};
    Config config;
    std::vector<Event> seen;
    std::unique_ptr<BoardSession> board;
    explicit Fixture(const std::string& rules = "fide-2023") {
        config.rules = rules;
        recorder.add_sink([this](const Event& e, const std::string&) { seen.push_back(e); });
        auto parsed = parse_config_text("[board.t1]\nuri = dgt:/dev/null\n", "test");
        REQUIRE(parsed.has_value());
        board = std::make_unique<BoardSession>(parsed->boards.at(0), config, recorder);
    }
    void play(const char* uci, int ply) {
        const Move m = move_from_uci(board->game()->position(), uci);
        REQUIRE(board->move(ply, m, Completion::Clock, std::nullopt, 0).has_value());
    }
};

} // namespace

TEST_CASE("5.2.3 no draw by agreement before each player has made a move (2023), unless the arbiter decides") {
    Fixture f;
    REQUIRE(f.board->new_game("", 0).has_value());
    auto early = f.board->check_result_command("1/2-1/2", "agreement");
    REQUIRE_FALSE(early.has_value());
    CHECK(early.error().message.find("no draw by agreement before each player has made 1 move(s)") == 0);
    CHECK(f.board->check_result_command("1/2-1/2", "arbiter").has_value());
    f.play("e2e4", 1);
    CHECK_FALSE(f.board->check_result_command("1/2-1/2", "agreement").has_value());
    f.play("e7e5", 2);
    CHECK(f.board->check_result_command("1/2-1/2", "agreement").has_value());
    // 2005: no such rule.
    Fixture old("fide-2005");
    REQUIRE(old.board->new_game("", 0).has_value());
    CHECK(old.board->check_result_command("1/2-1/2", "agreement").has_value());
}

TEST_CASE("5.1.2 a resignation is a draw when the winner cannot checkmate (2023)") {
    Fixture f;
    // White has K+N against a bare king: Black resigns, but White can never mate.
    REQUIRE(f.board->new_game("4k3/8/8/8/8/8/8/4K1N1 b - - 0 40", 0).has_value());
    auto r = f.board->check_result_command("1-0", "resignation");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message.find("White cannot checkmate by any series of legal moves") == 0);
    CHECK(f.board->check_result_command("0-1", "resignation").has_value() == false); // Black cannot either
    CHECK(f.board->check_result_command("1/2-1/2", "resignation").has_value());
    Fixture old("fide-2005");
    REQUIRE(old.board->new_game("4k3/8/8/8/8/8/8/4K1N1 b - - 0 40", 0).has_value());
    CHECK(old.board->check_result_command("1-0", "resignation").has_value());
}

TEST_CASE("5.1.2 a resignation where the full mode decides nothing stands, and its RESULT says undecided") {
    // Black's king boxed in behind its pawns (data/deadpos/chasolver_positions.txt 'W-'):
    // the full mode within 50 ms CPU proves neither way whether Black can checkmate (its
    // closure walk needs about 0.2 s: rules/winnable_tempo.cpp), so
    // White's resignation passes as a win for Black and says so.
    Fixture f;
    REQUIRE(f.board->new_game("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 60", 0).has_value());
    auto r = f.board->check_result_command("0-1", "resignation");
    REQUIRE(r.has_value());
    CHECK(*r == "undecided");
    REQUIRE(f.board->result("0-1", "resignation", true, 0, *r).has_value());
    const daemon::ResultEvent* result = nullptr;
    for (const Event& e : f.seen)
        if (const auto* p = std::get_if<daemon::ResultEvent>(&e)) result = p;
    REQUIRE(result != nullptr);
    CHECK(result->winnability == "undecided");
    CHECK(to_json(*result)["winnability"] == "undecided");
    // A decided answer leaves the field empty: K+Q can mate.
    REQUIRE(f.board->new_game("4k3/8/8/8/8/8/8/4K1Q1 b - - 0 40", 0).has_value());
    auto q = f.board->check_result_command("1-0", "resignation");
    REQUIRE(q.has_value());
    CHECK(q->empty());
}

TEST_CASE("take back: a GAME takeback event, the store's line is shorter") {
    Fixture f;
    auto id = f.board->new_game("", 0);
    REQUIRE(id.has_value());
    f.play("e2e4", 1);
    f.play("e7e5", 2);
    f.play("g1f3", 3);
    REQUIRE(f.board->take_back(1, 0).has_value());
    const auto* tb = std::get_if<daemon::GameEvent>(&f.seen.back());
    REQUIRE(tb != nullptr);
    CHECK(tb->kind == daemon::GameEvent::Kind::Takeback);
    CHECK(tb->ply == 1);
    CHECK(tb->fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK(f.store->load(*id)->moves.size() == 1);
    // Set position to the start: a restoration, back to ply 0; a foreign position: a new game.
    REQUIRE(f.board->set_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0).has_value());
    CHECK(f.board->game_id() == *id);
    CHECK(f.board->game()->plies() == 0);
    REQUIRE(f.board->set_position("4k3/8/8/8/8/8/8/4K1N1 w - - 0 40", 0).has_value());
    CHECK(f.board->game_id() != *id);
    CHECK_FALSE(f.board->take_back(3, 0).has_value());
}
