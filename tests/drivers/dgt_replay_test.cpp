// record.txt (a real DGT USB board, data/dgt/README.md) replayed through the
// emulator into the real driver: every dump decodes to the position the recording app
// decoded itself (its Position(64) blocks), with the recorded fragmentation.
#include "base/placement.hpp"
#include "harness.hpp"

#include "drivers/core/event_text.hpp"
#include "drivers/emu/replay.hpp"
#include "tests/support/test_io.hpp"

#include <cstdlib>

#include <fstream>
#include <sstream>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

/// The app's own decoding: `Position(64) [Map] {` blocks of `'a8' => { role: 'rook', color:
/// 'black' },` or `'e4' => null,` lines, a8..h1.
std::vector<BoardReading> app_positions(const std::string& text) {
    std::vector<BoardReading> out;
    std::istringstream in(text);
    std::string line;
    std::optional<BoardReading> cur;
    while (std::getline(in, line)) {
        if (line.rfind("Position(64)", 0) == 0) {
            cur = BoardReading{};
            continue;
        }
        if (!cur) continue;
        if (line.rfind('}', 0) == 0) {
            out.push_back(*cur);
            cur.reset();
            continue;
        }
        const auto q = line.find('\'');
        const Square sq = Square::parse(line.substr(q + 1, 2));
        if (!sq.valid() || line.find("null") != std::string::npos) continue;
        static const std::pair<const char*, PieceType> roles[] = {
            {"'pawn'", PieceType::Pawn}, {"'knight'", PieceType::Knight}, {"'bishop'", PieceType::Bishop},
            {"'rook'", PieceType::Rook}, {"'queen'", PieceType::Queen},   {"'king'", PieceType::King}};
        for (const auto& [name, type] : roles)
            if (line.find(name) != std::string::npos)
                cur->set(sq, make_piece(line.find("'black'") != std::string::npos ? Color::Black : Color::White, type));
    }
    return out;
}

const std::string kRecord = std::string(EBOARD_REPO_DATA) + "/dgt/record.txt";

} // namespace

TEST_CASE("record.txt parses into 181 writes and 1856 chunks") {
    const auto ex = emu::parse_record_log(eboard::test::slurp(kRecord));
    REQUIRE(ex.has_value());
    CHECK(ex->size() == 181);
    std::size_t chunks = 0, bytes = 0, dumps = 0;
    for (const auto& e : ex.value()) {
        chunks += e.chunks.size();
        for (const auto& c : e.chunks) bytes += c.size();
        dumps += e.host == std::vector<std::uint8_t>{0x42};
    }
    CHECK(chunks == 1856);
    CHECK(bytes == 11939);
    CHECK(dumps == 178);
    CHECK_FALSE(emu::parse_record_log("[ 1, 2,\n 300 ]").has_value());
    CHECK_FALSE(emu::parse_record_log("[ 1, 2,\n").has_value());
}

TEST_CASE("record.txt replays into its positions through the real driver") {
    const std::string text = eboard::test::slurp(kRecord);
    const auto positions = app_positions(text);
    REQUIRE(positions.size() == 177);
    emu::DgtEmulatorOptions eo;
    eo.replay = emu::parse_record_log(text).value();
    PtyHarness h(eo);
    REQUIRE(h.ready());
    REQUIRE(h.pump_until([&] { return !h.all<DeviceInfo>().empty() && !h.all<DeviceInfo>().back().serial.empty(); }));
    CHECK(h.all<DeviceInfo>().back().serial == "25805");
    CHECK(h.all<DeviceInfo>().back().version_major == 3);
    CHECK(h.all<DeviceInfo>().back().version_minor == 1);
    CHECK(h.all<BoardSnapshot>().front().board == BoardReading::start_position());
    // The driver's start-up took the first recorded dump; ask for the other 177, one by one.
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const std::size_t before = h.all<BoardSnapshot>().size();
        h.driver->request_board_dump();
        REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() > before; }));
        INFO("poll " << i + 2);
        CHECK(h.all<BoardSnapshot>().back().board == positions[i]);
    }
    CHECK_FALSE(h.driver->rotated());
    // 56 distinct consecutive placements (data README), the last with a black queen on c2.
    std::vector<BoardReading> distinct;
    for (const auto& d : h.all<BoardSnapshot>())
        if (distinct.empty() || !(distinct.back() == d.board)) distinct.push_back(d.board);
    CHECK(distinct.size() == 56);
    CHECK(distinct.back().at(Square::parse("c2")).piece == Piece::BQueen);
    CHECK(h.session->framer_stats().garbage_bytes == 0);
}

TEST_CASE("record.txt replay: decoded board and device events equal the checked-in file") {
    // gpsd-style regression: the events the driver decodes from the recorded conversation are
    // kept in tests/drivers/data/record.events; EBOARD_REGENERATE=1 rewrites that file.
    emu::DgtEmulatorOptions eo;
    eo.replay = emu::parse_record_log(eboard::test::slurp(kRecord)).value();
    eo.clock.connected = false;  // the recording has no clock
    PtyHarness h(eo);
    REQUIRE(h.ready());
    for (int i = 0; i < 177; ++i) {
        const std::size_t before = h.all<BoardSnapshot>().size();
        h.driver->request_board_dump();
        REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() > before; }));
    }
    std::string got;
    for (const auto& e : h.events)
        if (std::holds_alternative<BoardSnapshot>(e) || std::holds_alternative<DeviceInfo>(e) ||
            std::holds_alternative<SquareChange>(e))
            got += describe(e) + "\n";
    const std::string path = std::string(EBOARD_TEST_DATA) + "/record.events";
    if (std::getenv("EBOARD_REGENERATE")) {
        std::ofstream(path, std::ios::binary) << got;
        WARN("regenerated " << path);
    }
    const std::string want = eboard::test::slurp(path);
    REQUIRE_FALSE(want.empty());
    CHECK(got == want);
}

TEST_CASE("eboard-emu prints its pty and serves a rotated position to the driver") {
    const std::string fen = "4k3/8/8/8/8/8/4P3/4K3";
    EmuProcess emu({"--fen", fen, "--rotated", "--fragment", "5"});
    const std::string path = emu.pty;

    std::vector<DriverEvent> events;
    DriverOptions opt;
    opt.params["orientation"] = "rotated";
    opt.params["startup-delay-ms"] = "0";
    auto s = open_device("dgt:" + path, [&](const DriverEvent& e) { events.push_back(e); }, opt);
    REQUIRE(s.has_value());
    s.value()->start();
    const auto dump = [&]() -> const BoardSnapshot* {
        for (const auto& e : events)
            if (const auto* d = std::get_if<BoardSnapshot>(&e)) return d;
        return nullptr;
    };
    const TimeMs end = steady_now_ms() + 3000;
    while (!dump() && steady_now_ms() < end) s.value()->poll(20);
    REQUIRE(dump() != nullptr);
    CHECK(write_placement(dump()->board) == fen);
    CHECK(emu.stop() == 0);
}

TEST_CASE("eboard-emu --replay record.txt serves the recorded board to the driver") {
    EmuProcess emu({"--replay", kRecord});
    std::vector<DriverEvent> events;
    DriverOptions opt;
    opt.params["startup-delay-ms"] = "0";
    auto s = open_device("dgt:" + emu.pty, [&](const DriverEvent& e) { events.push_back(e); }, opt);
    REQUIRE(s.has_value());
    s.value()->start();
    const auto count = [&]() {
        std::size_t n = 0;
        for (const auto& e : events) n += std::holds_alternative<BoardSnapshot>(e) ? 1u : 0u;
        return n;
    };
    const auto& driver = dynamic_cast<dgt::DgtDriver&>(s.value()->driver());
    const TimeMs end = steady_now_ms() + 5000;
    while ((count() == 0 || !driver.ready()) && steady_now_ms() < end) s.value()->poll(20);
    REQUIRE(count() == 1);
    CHECK(driver.board() == BoardReading::start_position()); // the recording's first dump
    // The next dump asked for is the recording's second one.
    s.value()->driver().request_board_dump();
    const TimeMs end2 = steady_now_ms() + 5000;
    while (count() < 2 && steady_now_ms() < end2) s.value()->poll(20);
    REQUIRE(count() == 2);
    CHECK(driver.board() == app_positions(eboard::test::slurp(kRecord)).at(0));
    CHECK(emu.stop() == 0);
}
