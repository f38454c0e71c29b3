// `driver-options = KEY=VALUE[,...]` (docs/configuration.md "Driver options";
// daemon/driver_options.hpp): parsed per board and globally, checked at parse time against the
// options each driver declares in the registry and by the driver's own validation, so that a
// misspelt key or a bad value is an error naming the board - and the configured value wins over
// a learnt one.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/config.hpp"
#include "daemon/driver_options.hpp"

using namespace eboard;
using namespace eboard::daemon;

namespace {

Config parse_ok(const std::string& text) {
    auto c = parse_config_text(text, "x.conf");
    if (!c) FAIL(c.error().message);
    return *c;
}

std::string parse_error(const std::string& text) {
    auto c = parse_config_text(text, "x.conf");
    REQUIRE_FALSE(c.has_value());
    return c.error().message;
}

const BoardConfig& board(const Config& c, const std::string& name) {
    for (const auto& b : c.boards)
        if (b.name == name) return b;
    FAIL("no board " << name);
    return c.boards.front();
}

} // namespace

TEST_CASE("driver-options: KEY=VALUE pairs per board, several boards with different options") {
    const Config c = parse_ok("[board.t1]\nuri = sentio:/dev/ttyACM0\ndriver-options = vote-frames=1, orientation = rotated\n"
                              "[board.t2]\nuri = dgt:/dev/ttyACM1\ndriver-options = update-mode=update\n"
                              "[board.t3]\nuri = emu-millennium\ndriver-options = orientation=a8-first,debounce=0\n"
                              "[board.t4]\nuri = chessnut:usb\n");
    CHECK(board(c, "t1").driver_options == DriverParams{{"vote-frames", "1"}, {"orientation", "rotated"}});
    CHECK(board(c, "t2").driver_options == DriverParams{{"update-mode", "update"}});
    CHECK(board(c, "t3").driver_options == DriverParams{{"orientation", "a8-first"}, {"debounce", "0"}});
    CHECK(board(c, "t4").driver_options.empty());
    CHECK(c.driver_options.empty());
}

TEST_CASE("driver-options: the global one applies to every board, a board's own key wins") {
    auto inv = parse_command_line({"--board", "dgt:/dev/ttyACM0", "--driver-options", "orientation=rotated"});
    REQUIRE(inv.has_value());
    CHECK(inv->config.driver_options == DriverParams{{"orientation", "rotated"}});
    auto only = configured_driver_options(inv->config, inv->config.boards.front());
    REQUIRE(only.has_value());
    CHECK(*only == DriverParams{{"orientation", "rotated"}});

    const Config c = parse_ok("driver-options = orientation=rotated\n"
                              "[board.a]\nuri = dgt:/dev/ttyACM0\ndriver-options = orientation=normal,update-mode=update\n"
                              "[board.b]\nuri = emu-sentio\n");
    auto a = configured_driver_options(c, board(c, "a"));
    auto b = configured_driver_options(c, board(c, "b"));
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    CHECK(*a == DriverParams{{"orientation", "normal"}, {"update-mode", "update"}});
    CHECK(*b == DriverParams{{"orientation", "rotated"}});
}

TEST_CASE("driver-options: an unknown key names the board, the key and the keys its driver knows") {
    const std::string e = parse_error("[board.table1]\nuri = sentio:/dev/ttyACM0\ndriver-options = vote-frame=1\n");
    CHECK(e == "x.conf: board table1: driver-options: unknown option 'vote-frame' (sentio knows: orientation, "
               "vote-frames, silence-ms, led-interval-ms, led-repeats)");
    // Keys of another driver are unknown too: a global option must suit every board.
    const std::string g = parse_error("driver-options = vote-frames=1\n[board.d]\nuri = dgt:/dev/ttyACM0\n");
    CHECK(g.find("board d: driver-options: unknown option 'vote-frames' (dgt knows: orientation, update-mode,") !=
          std::string::npos);
    auto cl = parse_command_line({"--board", "emu-dgt", "--driver-options", "updatemode=update"});
    REQUIRE_FALSE(cl.has_value());
    CHECK(cl.error().message.find("board emu-dgt: driver-options: unknown option 'updatemode'") != std::string::npos);
}

TEST_CASE("driver-options: a bad value is refused by the driver's own check, naming the board") {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"sentio:/dev/ttyACM0", "vote-frames=0"},   // 1..15
        {"sentio:/dev/ttyACM0", "vote-frames=16"},
        {"certabo:/dev/ttyUSB0", "led-repeats=6"},  // 0..5
        {"certabo:/dev/ttyUSB0", "orientation=auto"}, // normal|rotated only
        {"dgt:/dev/ttyACM0", "update-mode=fast"},
        {"dgt:/dev/ttyACM0", "startup-delay-ms=-1"},
        {"millennium:/dev/ttyACM0", "debounce=5"},
        {"emu-millennium", "orientation=sideways"},
        {"chessnut:usb", "write-spacing-ms=soon"},
    };
    for (const auto& [uri, opt] : cases) {
        INFO(uri << " " << opt);
        const std::string e = parse_error("[board.b1]\nuri = " + uri + "\ndriver-options = " + opt + "\n");
        CHECK(e.rfind("x.conf: board b1: driver-options: ", 0) == 0);
        CHECK(e.find("unknown option") == std::string::npos);
        // The same options, well formed, pass.
    }
    CHECK(parse_config_text("[board.b1]\nuri = sentio:/dev/ttyACM0\ndriver-options = vote-frames=15\n", "x").has_value());
    CHECK(parse_config_text("[board.b1]\nuri = millennium:/dev/ttyACM0\ndriver-options = debounce=4\n", "x").has_value());
}

TEST_CASE("driver-options: what only eboardd sets (the Certabo calibration file) is refused") {
    const std::string e = parse_error("[board.c]\nuri = certabo:/dev/ttyUSB0\ndriver-options = calibration=/tmp/x\n");
    CHECK(e.find("board c: driver-options: option 'calibration' is set by eboardd itself") != std::string::npos);
}

TEST_CASE("driver-options: the text must be KEY=VALUE pairs, each key once") {
    CHECK(parse_error("[board.a]\nuri = dgt:/dev/ttyACM0\ndriver-options = rotated\n") ==
          "x.conf: [board.a] driver-options: 'rotated' is not KEY=VALUE");
    CHECK(parse_error("[board.a]\nuri = dgt:/dev/ttyACM0\ndriver-options = orientation=normal,,update-mode=nice\n") ==
          "x.conf: [board.a] driver-options: '' is not KEY=VALUE");
    CHECK(parse_error("[board.a]\nuri = dgt:/dev/ttyACM0\ndriver-options = orientation=normal,orientation=rotated\n") ==
          "x.conf: [board.a] driver-options: 'orientation' is given twice");
    auto cl = parse_command_line({"--driver-options", "=x"});
    REQUIRE_FALSE(cl.has_value());
    CHECK(cl.error().message == "--driver-options: '=x' is not KEY=VALUE");
    auto none = parse_driver_options("  ");
    REQUIRE(none.has_value());
    CHECK(none->empty());
}

TEST_CASE("driver-options: a configured value wins over a learnt one, and the override is reported") {
    drivers::DriverOptions learned;
    learned.params = {{"orientation", "h1-first"}, {"calibration", "/state/certabo-x.calibration"}};
    DriverParams overridden;
    const auto o = merge_driver_options(learned, {{"orientation", "a8-first"}, {"debounce", "0"}}, overridden);
    CHECK(o.params.at("orientation") == "a8-first");
    CHECK(o.params.at("debounce") == "0");
    CHECK(o.params.at("calibration") == "/state/certabo-x.calibration");
    CHECK(overridden == DriverParams{{"orientation", "h1-first"}});
    // The same value configured and learnt is no override.
    DriverParams none;
    (void)merge_driver_options(learned, {{"orientation", "h1-first"}}, none);
    CHECK(none.empty());
}

TEST_CASE("driver-options: docs/configuration.md holds the registry's table of every driver's options") {
    // EBOARD_TEST_DATA is <source>/tests/daemon/data (which need not exist).
    const auto source = std::filesystem::path(EBOARD_TEST_DATA).parent_path().parent_path().parent_path();
    std::ifstream in(source / "docs" / "configuration.md");
    REQUIRE(in);
    std::stringstream doc;
    doc << in.rdbuf();
    const std::string table = driver_options_table();
    INFO("docs/configuration.md must contain, as printed by the registry:\n" << table);
    CHECK(doc.str().find(table) != std::string::npos);
    // Every driver with options has its rows.
    for (const auto* d : drivers::all_drivers())
        if (!d->options.empty()) CHECK(table.find("| " + std::string(d->name) + " | `") != std::string::npos);
}
