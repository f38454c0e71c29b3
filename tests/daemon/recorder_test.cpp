// The Recorder's two deliveries: every sink hears an event only once the store holds it (a
// completed move is durable before it is announced anywhere), except a Delivery::OnPublish
// sink (the speech of Appendix D), which hears each event as it is published, in order, so
// that a move made is said at once ([23] D.2.3: announcing is part of making the move).
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "daemon/recorder.hpp"
#include "daemon/store.hpp"
#include "tests/support/process.hpp"

using namespace eboard::daemon;
using eboard::MoveClock;

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
        if (const auto* m = std::get_if<MoveEvent>(&e)) return std::string(m->is_completed() ? "completed " : "made ") + m->san;
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
    recorder.publish(GameEvent::of("t1", *id, GameEvent::Kind::Start, kStandardFen), 1);
    recorder.publish(MoveEvent::of("t1", *id, 1, "e4", "e2e4", fen, false, std::nullopt), 2);
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
    recorder.publish(MoveEvent::of("t1", *id, 1, "e4", "e2e4", fen, true, MoveClock{299000, 300000}), 3);
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

namespace {
std::string file_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// The position after 1. e4.
constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// A store in a fresh directory holding one game of board "t1", and a PGN directory for it.
struct OneGame {
    eboard::test::TempDir dir{"eboardd-recorder"};
    std::unique_ptr<Store> opened;
    std::filesystem::path pgn_dir = dir.path / "pgn";
    std::string id;
    OneGame() {
        auto s = Store::open(dir.path / "state");
        REQUIRE(s.has_value());
        opened = std::move(*s);
        auto created = opened->create_game("t1", kStandardFen, {}, "fide-2023", 1700000000000);
        REQUIRE(created.has_value());
        id = *created;
    }
    [[nodiscard]] Store& store() { return *opened; }
};
} // namespace

TEST_CASE("PGN after the announcement: written by the writer thread, the store's note cleared once it is") {
    OneGame g;
    Store& store = g.store();
    const auto& pgn_dir = g.pgn_dir;
    const auto file = pgn_dir / (g.id + ".pgn");
    {
        boost::asio::io_context io;
        Recorder recorder(store, pgn_dir.string(), &io);
        std::vector<std::size_t> pending_when_announced;
        recorder.add_sink([&](const Event&, const std::string&) { pending_when_announced.push_back(store.pgn_pending().size()); });
        recorder.publish(MoveEvent::of("t1", g.id, 1, "e4", "e2e4", kAfterE4, true, MoveClock{299000, 300000}), 2);
        io.poll();
        // Announced with the game noted in the same commit: the file may still lag the store.
        REQUIRE(pending_when_announced.size() == 1);
        CHECK(pending_when_announced[0] == 1);
        recorder.sync_pgn_files();
        CHECK(file_text(file).find("1. e4") != std::string::npos);
        CHECK(store.pgn_pending() == std::vector<std::string>{g.id}); // cleared with the next commit
        recorder.finish();
        CHECK(store.pgn_pending().empty());
    }
}

TEST_CASE("PGN files that lag the store after a crash are written again at start-up") {
    OneGame g;
    Store& store = g.store();
    const auto& pgn_dir = g.pgn_dir;
    // The commit noted the game, then the process died before the file was renamed: as if no
    // writer had run (a recorder without a PGN directory records the same store rows).
    {
        Recorder no_files(store, "");
        no_files.publish(MoveEvent::of("t1", g.id, 1, "e4", "e2e4", kAfterE4, true, MoveClock{299000, 300000}), 2);
    }
    REQUIRE(store.mark_pgn_pending(g.id).has_value());
    const auto file = pgn_dir / (g.id + ".pgn");
    CHECK_FALSE(std::filesystem::exists(file));
    boost::asio::io_context io;
    Recorder recorder(store, pgn_dir.string(), &io);
    CHECK(recorder.repair_pgn_files() == 1);
    CHECK(file_text(file).find("1. e4") != std::string::npos);
    recorder.finish();
    CHECK(store.pgn_pending().empty());
}
