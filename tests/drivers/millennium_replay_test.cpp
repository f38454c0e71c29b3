// gpsd-style replay of a recorded Millennium conversation (tests/drivers/data/millennium.trace,
// in the core's wire-trace format) through the emulator's pty into the real driver; the events
// it decodes are checked in (millennium.events, EBOARD_REGENERATE=1 rewrites them). No real
// ChessLink log exists beyond python-mchess's version exchange, so the recording was made with
// the hidden test "[.record]" below: the emulator reporting a8 first, with noise and fragments,
// the driver playing the Ruy Lopez exchange variation; its version reply is byte for byte the
// one in python-mchess's BLE log. Also: eboard-emu millennium as a separate process.
#include "base/placement.hpp"
#include "drivers/core/event_text.hpp"
#include "drivers/emu/replay.hpp"
#include "millennium_harness.hpp"
#include "pgn_moves.hpp"
#include "tests/support/test_io.hpp"

#include <fstream>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;
using namespace eboard::drivers::millennium;

namespace {

const std::string kTrace = std::string(EBOARD_TEST_DATA) + "/millennium.trace";
const std::string kEvents = std::string(EBOARD_TEST_DATA) + "/millennium.events";

PgnGame recorded_game() {
    PgnGame g;
    g.san = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"};
    return g;
}

BoardReading final_position() { return game_boards(recorded_game()).back(); }

std::string describe_board_events(const std::vector<DriverEvent>& events) {
    std::string out;
    for (const auto& e : events)
        if (std::holds_alternative<BoardSnapshot>(e) || std::holds_alternative<DeviceInfo>(e) ||
            std::holds_alternative<SquareChange>(e))
            out += describe(e) + "\n";
    return out;
}

} // namespace

TEST_CASE("millennium: record the replay conversation", "[.record]") {
    // Writes tests/drivers/data/millennium.trace, by hand only:
    //   EBOARD_RECORD=1 build/tests/test_drivers "[.record]"
    // then EBOARD_REGENERATE=1 for millennium.events.
    if (!std::getenv("EBOARD_RECORD")) {
        WARN("set EBOARD_RECORD=1 to record " << kTrace);
        return;
    }
    std::string trace;
    set_trace_sink([&](std::string_view line) {
        if (line.starts_with("millennium ")) (trace += line) += '\n';
    });
    (void)enable_traces("millennium");
    emu::MillenniumEmulatorOptions eo;
    eo.order = SquareOrder::A8First;
    eo.noise_probability = 0.2;
    eo.fragment_max = 23;
    eo.seed = 4;
    {
        MillenniumHarness h(eo);
        REQUIRE(h.ready());
        const auto boards = game_boards(recorded_game());
        for (std::size_t i = 1; i < boards.size(); ++i) {
            play_on_board(*h.emu, boards[i - 1], boards[i]);
            REQUIRE(h.pump_until([&] { return h.driver->board() == boards[i]; }));
        }
    }
    disable_traces();
    set_trace_sink(nullptr);
    std::ofstream(kTrace, std::ios::binary) << trace;
    WARN("recorded " << kTrace);
}

TEST_CASE("millennium recorded conversation: a trace log with python-mchess's real version reply") {
    const auto recorded = emu::parse_trace_log(eboard::test::slurp(kTrace), "millennium");
    REQUIRE(recorded.has_value());
    REQUIRE(recorded->size() >= 5);
    // The version exchange is the real one of python-mchess's BLE log: V56 -> v010374.
    std::vector<std::uint8_t> answers;
    for (const auto& e : recorded.value())
        if (e.host == encode("V"))
            for (const auto& c : e.chunks) answers.insert(answers.end(), c.begin(), c.end());
    const std::vector<std::uint8_t> real = {'v', 0xb0, '1', 0xb0, 0xb3, '7', '4'};
    CHECK(std::search(answers.begin(), answers.end(), real.begin(), real.end()) != answers.end());
}

TEST_CASE("millennium replay: the recorded conversation decodes into the checked-in events") {
    emu::MillenniumEmulatorOptions eo;
    eo.replay = emu::parse_trace_log(eboard::test::slurp(kTrace), "millennium").value();
    MillenniumHarness h(eo);
    REQUIRE(h.ready());
    const BoardReading end = final_position();
    REQUIRE(h.pump_until([&] { return h.driver->board() == end; }));
    CHECK(h.driver->order() == SquareOrder::A8First);
    CHECK(h.session->framer_stats().bad_checks + h.session->framer_stats().garbage_bytes >
          0); // the noise
    const std::string got = describe_board_events(h.events);
    if (std::getenv("EBOARD_REGENERATE")) {
        std::ofstream(kEvents, std::ios::binary) << got;
        WARN("regenerated " << kEvents);
    }
    const std::string want = eboard::test::slurp(kEvents);
    REQUIRE_FALSE(want.empty());
    CHECK(got == want);
}

TEST_CASE("eboard-emu millennium prints its pty and serves the driver a8 first") {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    const std::string bin = std::string(EBOARD_BIN_DIR) + "/eboard-emu";
    const std::string fen = "4k3/8/8/8/8/8/4P3/4K3";
    std::vector<std::string> args = {bin,       "millennium", "--fen",      fen,
                                     "--order", "a8-first",   "--fragment", "5"};
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    std::string path; // the readiness line
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') path += c;
    ::close(out[0]);
    REQUIRE(path.rfind("/dev/pts/", 0) == 0);

    std::vector<DriverEvent> events;
    DriverOptions opt;
    opt.params["orientation"] = "a8-first"; // a middle game cannot show the orientation
    opt.params["startup-delay-ms"] = "0";
    auto s = open_device(
        "millennium.exclusive:" + path, [&](const DriverEvent& e) { events.push_back(e); }, opt);
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
    ::kill(pid, SIGTERM);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("millennium registry: models, 7O1 / 8N1 lines with DTR off, no USB ids, bad options") {
    const DriverInfo* info = find_driver("millennium");
    REQUIRE(info != nullptr);
    REQUIRE(info->model("") != nullptr);
    CHECK(info->model("")->name == "eone");
    CHECK(info->model("eone")->serial.str() == "38400/8n1");
    CHECK(info->model("exclusive")->serial.str() == "38400/7o1");
    CHECK(info->model("performance")->quirks == quirk::no_ack);
    CHECK_FALSE(info->model("exclusive")->serial.dtr);
    CHECK(info->model("exclusive")->serial.rts);
    CHECK(info->usb_ids.empty()); // not known from any source (millennium.md 1)
    DriverOptions bad;
    bad.params["orientation"] = "sideways";
    CHECK(info->create(bad) == nullptr);
    bad.params["orientation"] = "rotated";
    bad.params["debounce"] = "5";
    CHECK(info->create(bad) == nullptr);
    bad.params["debounce"] = "4";
    CHECK(info->create(bad) != nullptr);
}
