// gpsd-style replay: a recorded Chessnut conversation (tests/drivers/data/chessnut-session.trace,
// `--trace chessnut` format) is served by the emulator to the real driver; the decoded board,
// device and battery events must equal tests/drivers/data/chessnut-session.events.
// EBOARD_REGENERATE=1 rewrites that file (then review the diff).
#include "chessnut_harness.hpp"

#include "drivers/core/event_text.hpp"
#include "drivers/emu/replay.hpp"
#include "tests/support/test_io.hpp"

#include <fstream>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {
const std::string kTrace = std::string(EBOARD_TEST_DATA) + "/chessnut-session.trace";
}

TEST_CASE("chessnut trace parses into host writes and the reports after each") {
    const auto ex = emu::parse_trace_log(eboard::test::slurp(kTrace), "chessnut");
    REQUIRE(ex.has_value());
    REQUIRE(ex->size() == 4);
    CHECK(ex->at(0).host == std::vector<std::uint8_t>{0x21, 0x01, 0x00});
    CHECK(ex->at(0).chunks.size() == 1);
    CHECK(ex->at(3).host == std::vector<std::uint8_t>{0x29, 0x01, 0x00});
    CHECK(ex->at(3).chunks.size() == 18);
    CHECK(ex->at(3).chunks[9].size() == 20);  // the report cut short
    CHECK_FALSE(emu::parse_trace_log("chessnut < 01 2g\n", "chessnut").has_value());
    CHECK_FALSE(emu::parse_trace_log("x\nchessnut > 100\n", "chessnut").has_value());
    CHECK(emu::parse_trace_log("dgt < 01\nchessnut : note\n", "chessnut")->empty());
}

TEST_CASE("chessnut replay: decoded events equal the checked-in file") {
    auto eo = ChessnutHarness::fast_emulator();
    eo.replay = emu::parse_trace_log(eboard::test::slurp(kTrace), "chessnut").value();
    ChessnutHarness h(eo);
    REQUIRE(h.ready());
    // The last report of the recording: the start position, set up the normal way again.
    REQUIRE(h.pump_until([&] { return h.all<BoardSnapshot>().size() >= 9 && !h.driver->rotated(); }));
    REQUIRE(h.pump_until([&] { return h.all<BatteryInfo>().size() >= 2; }));
    CHECK(h.driver->invalid_reports() == 1);
    CHECK(h.session->framer_stats().truncated >= 1);
    CHECK(h.session->framer_stats().bad_headers >= 1);
    CHECK(h.driver->board() == BoardReading::start_position());
    std::string got;
    for (const auto& e : h.events)
        if (std::holds_alternative<BoardSnapshot>(e) || std::holds_alternative<DeviceInfo>(e) ||
            std::holds_alternative<BatteryInfo>(e))
            got += describe(e) + "\n";
    const std::string path = std::string(EBOARD_TEST_DATA) + "/chessnut-session.events";
    if (std::getenv("EBOARD_REGENERATE")) {
        std::ofstream(path, std::ios::binary) << got;
        WARN("regenerated " << path);
    }
    const std::string want = eboard::test::slurp(path);
    REQUIRE_FALSE(want.empty());
    CHECK(got == want);
}
