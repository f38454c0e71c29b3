// The Recorder's two deliveries: every sink hears an event only once the store holds it (a
// completed move is durable before it is announced anywhere), except a Delivery::OnPublish
// sink (the speech of Appendix D), which hears each event as it is published, in order, so
// that a move made is said at once ([23] D.2.3: announcing is part of making the move).
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "daemon/recorder.hpp"
#include "daemon/store.hpp"
#include "tests/support/process.hpp"

using namespace eboard::daemon;

TEST_CASE("D.2.3 a move made is heard by the speech sink before the store has it, the rest after") {
    eboard::test::TempDir dir("eboardd-recorder");
    auto opened = Store::open(dir.path / "state");
    REQUIRE(opened.has_value());
    Store& store = **opened;
    boost::asio::io_context io;
    Recorder recorder(store, "", &io);
    auto plies = [&](const std::string& game) {
        auto g = store.load(game);
        REQUIRE(g.has_value());
        return g->moves.size();
    };
    struct Heard {
        std::string what;
        std::size_t plies_in_store;
    };
    std::vector<Heard> early, late;
    auto label = [](const Event& e) {
        if (const auto* m = std::get_if<MoveEvent>(&e)) return std::string(m->completed ? "completed " : "made ") + m->san;
        return std::string(std::holds_alternative<GameEvent>(e) ? "game" : "other");
    };
    auto id = store.create_game("t1", kStandardFen, {}, "fide-2023", 1700000000000);
    REQUIRE(id.has_value());
    recorder.add_sink([&](const Event& e, const std::string& line) {
        CHECK(line.back() == '\n');
        early.push_back({label(e), plies(*id)});
    }, Recorder::Delivery::OnPublish);
    recorder.add_sink([&](const Event& e, const std::string&) { late.push_back({label(e), plies(*id)}); });

    const std::string fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    recorder.publish(GameEvent{"t1", *id, GameEvent::Kind::Start, kStandardFen, std::nullopt}, 1);
    recorder.publish(MoveEvent{"t1", *id, 1, "e4", "e2e4", fen, false, std::nullopt}, 2);
    // Heard at once, in order, with nothing of it on disk yet; the other sinks wait.
    REQUIRE(early.size() == 2);
    CHECK(early[0].what == "game");
    CHECK(early[1].what == "made e4");
    CHECK(early[1].plies_in_store == 0);
    CHECK(late.empty());
    io.run(); // the flush: one transaction, then the announcements
    io.restart();
    REQUIRE(late.size() == 2);
    CHECK(late[1].what == "made e4");
    CHECK(late[1].plies_in_store == 1);

    // The completed move: no sink that announces it hears of it before the store holds it.
    recorder.publish(MoveEvent{"t1", *id, 1, "e4", "e2e4", fen, true, MoveClock{299000, 300000}}, 3);
    REQUIRE(early.size() == 3);
    CHECK(early[2].what == "completed e4");
    CHECK(late.size() == 2);
    io.run();
    REQUIRE(late.size() == 3);
    CHECK(late[2].what == "completed e4");
    auto g = store.load(*id);
    REQUIRE(g.has_value());
    CHECK(g->moves.at(0).completed);
}
