// `--livechess-api` (daemon/livechess_api.hpp): eboardd serves the LiveChess eBoards API and a
// client that behaves on the wire as lichess.org's DGT page does (lila ui/dgt/src/play.ts:
// `eboards` with id 1, the first board, `subscribe` with id 2 and feed id 1, `setup` with id 3
// once it knows the game's position; then every feed message's `san` compared with the last
// one: a repeated list ignored, the new moves taken from the end) follows emulated DGT and
// Certabo boards through whole games.
#include <catch2/catch.hpp>

#include "tests/daemon/harness.hpp"
#include "tests/support/ws_client.hpp"

#include <regex>

#include "rules/notation.hpp"
#include "rules/position.hpp"

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {

const std::string kGames = std::string(EBOARD_REPO_DATA) + "/games/";
const std::string kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The API's port, from eboardd's log line (written before READY=1).
std::uint16_t api_port(const fs::path& stderr_file) {
    static const std::regex line(R"(LiveChess eBoards API on ws://127\.0\.0\.1:(\d+)/api/v1\.0)");
    std::smatch m;
    const std::string text = slurp(stderr_file);
    REQUIRE(std::regex_search(text, m, line));
    return static_cast<std::uint16_t>(std::stoi(m[1].str()));
}

/// The position `san` reaches from `fen`.
Position play_out(const std::string& fen, const ojson& san) {
    auto pos = Position::from_fen(fen);
    REQUIRE(pos);
    Position p = pos->copy();
    for (const auto& s : san) {
        auto m = parse_move(p, s.get<std::string>());
        REQUIRE(m);
        p.make_move(*m);
    }
    return p;
}

/// A WebSocket client that does on the wire what lila's DGT page does with LiveChess.
class LichessLikeClient {
  public:
    /// Connects, asks for the boards (id 1) and subscribes (id 2, feed 1) to the one `pick`
    /// chooses (lila: the first).
    LichessLikeClient(std::uint16_t port, const std::function<bool(const ojson&)>& pick = {})
        : ws_("127.0.0.1", port, "/api/v1.0") {
        ws_.send(R"({"id":1,"call":"eboards"})");
        const ojson boards = next_reply(1);
        REQUIRE(boards["param"].is_array());
        REQUIRE_FALSE(boards["param"].empty());
        ojson chosen = boards["param"][0];
        if (pick)
            for (const auto& b : boards["param"])
                if (pick(b)) chosen = b;
        serialnr_ = chosen["serialnr"].get<std::string>();
        ws_.send(ojson{{"id", 2}, {"call", "subscribe"},
                       {"param", {{"feed", "eboardevent"}, {"id", 1}, {"param", {{"serialnr", serialnr_}}}}}}
                     .dump());
        const ojson subscribed = next_reply(2);
        CHECK(subscribed["param"].is_null());
    }

    /// The next reply to the call `id` (feed messages before it are kept for next_feed()).
    ojson next_reply(int id) {
        for (;;) {
            ojson m = ojson::parse(ws_.receive());
            if (m["response"] == "feed") {
                pending_.push_back(std::move(m));
                continue;
            }
            REQUIRE(m["id"] == id);
            return m;
        }
    }
    /// The next feed message, as lila takes it in (setup() resets what it compares with).
    ojson next_feed(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
        ojson m;
        if (!pending_.empty()) {
            m = std::move(pending_.front());
            pending_.erase(pending_.begin());
        } else {
            m = ojson::parse(ws_.receive(timeout));
        }
        REQUIRE(m["response"] == "feed");
        REQUIRE(m["id"] == 1);
        const ojson& p = m["param"];
        feeds.push_back(m);
        REQUIRE(p["san"].is_array());
        if (p["san"].empty() || (last_san_ && *last_san_ == p["san"])) return m; // lila: ignored
        const std::size_t before = last_san_ ? last_san_->size() : 0;
        const long fresh = static_cast<long>(p["san"].size()) - static_cast<long>(before);
        if (fresh > 1) ++several_at_once;
        last_san_ = p["san"];
        for (long i = fresh; i > 0; --i) {
            const std::string san = p["san"][p["san"].size() - static_cast<std::size_t>(i)].get<std::string>();
            auto move = parse_move(local, san);
            if (!move) {
                ++out_of_step;
                continue;
            }
            local.make_move(*move);
            played.push_back(std::string(bare_san(san)));
        }
        return m;
    }
    /// lila's sendBoardToLiveChess: `setup` (id 3, feed 1) with the game's position; from then
    /// the list counts from it.
    void setup(const std::string& fen) {
        ws_.send(ojson{{"id", 3}, {"call", "call"}, {"param", {{"id", 1}, {"method", "setup"}, {"param", {{"fen", fen}}}}}}
                     .dump());
        CHECK(next_reply(3)["param"].is_null());
        auto p = Position::from_fen(fen);
        REQUIRE(p);
        local = p->copy();
        last_san_ = ojson::array();
    }

    [[nodiscard]] const std::string& serialnr() const { return serialnr_; }
    WsClient& socket() { return ws_; }

    Position local = Position::startpos();  ///< lila's localBoard
    std::vector<std::string> played;        ///< the moves it took in, bare SAN
    std::vector<ojson> feeds;               ///< every feed message
    int several_at_once = 0;                ///< messages that brought more than one new move
    int out_of_step = 0;                    ///< moves that did not play on its board

  private:
    WsClient ws_;
    std::string serialnr_;
    std::optional<ojson> last_san_;
    std::vector<ojson> pending_;
};

/// Follows a whole game: once a first message shows the game, sets it up as lila does with the
/// lichess game's position, then takes every move in until the source game's last.
void follow_game(LichessLikeClient& client, const std::vector<std::string>& source) {
    const ojson first = client.next_feed();
    Position now = play_out(first["param"]["start"].get<std::string>(), first["param"]["san"]);
    const std::size_t known = first["param"]["san"].size();
    REQUIRE(known < source.size()); // the game is not over yet: the test follows its moves
    client.setup(now.fen());
    ojson after = client.next_feed();
    CHECK(after["param"]["start"] == now.fen());
    client.played.clear();
    const std::vector<std::string> rest(source.begin() + static_cast<std::ptrdiff_t>(known), source.end());
    while (client.played.size() < rest.size()) (void)client.next_feed();
    CHECK(client.played == rest);
    CHECK(client.several_at_once == 0);
    CHECK(client.out_of_step == 0);
    CHECK(client.feeds.back()["param"]["match"] == true);
}

std::vector<std::string> bare(const std::vector<std::string>& sans) {
    std::vector<std::string> out;
    out.reserve(sans.size());
    for (const auto& s : sans) out.emplace_back(bare_san(s));
    return out;
}

/// eboardd with one emulated board of `kind` replaying a whole game, followed by a lichess-like
/// client from a position it sets up; returns the client's feed messages.
std::vector<ojson> follow_emulated(const std::string& kind) {
    TempDir dir("eboardd-livechess");
    const std::string pgn = kGames + "molinari-bordais-1979.pgn"; // 10 plies, ends in checkmate
    const std::string conf = "white-side = left\nlivechess-api = 127.0.0.1:0\n"
                             "[board.table]\nuri = emu-" + kind + ":" + pgn + "\n";
    ReadyDaemon eboardd(dir.path, config_args(dir.path, conf, {"--speed", "1"}));
    EventLog log(eboardd.process);
    LichessLikeClient client(api_port(dir.path / "stderr"));
    follow_game(client, bare(sans_of(source_game("molinari-bordais-1979.pgn"))));
    REQUIRE_FALSE(log.wait_for("RESULT", "table").is_null());
    // Each completed move's clock (the MOVE event, ms) is shown by a feed message, in seconds.
    int shown = 0;
    int completed = 0;
    for (const auto& m : log.of("MOVE", "table")) {
        if (m["status"] != "completed" || !m.contains("clock")) continue;
        ++completed;
        const auto w = m["clock"]["white_ms"].get<std::int64_t>() / 1000;
        const auto b = m["clock"]["black_ms"].get<std::int64_t>() / 1000;
        for (const auto& f : client.feeds)
            if (f["param"]["clock"].is_object() && f["param"]["clock"]["white"] == w && f["param"]["clock"]["black"] == b) {
                ++shown;
                break;
            }
    }
    CHECK(shown == completed);
    CHECK((completed > 0) == (kind == "dgt"));
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
    return client.feeds;
}

} // namespace

TEST_CASE("a lichess-like client follows an emulated DGT board and its clock through a whole game") {
    const auto feeds = follow_emulated("dgt");
    // The DGT3000's times in whole seconds, `run` with the side whose clock runs (null before
    // the clock's first report).
    std::set<ojson> runs;
    for (const auto& f : feeds) {
        const ojson& c = f["param"]["clock"];
        if (c.is_null()) continue;
        REQUIRE(c.is_object());
        CHECK(c["white"].is_number_integer());
        CHECK(c["black"].is_number_integer());
        CHECK(c["time"].is_number_integer());
        runs.insert(c["run"]);
    }
    CHECK(runs.contains(true));
    CHECK(runs.contains(false));
}

TEST_CASE("a lichess-like client follows an emulated Certabo board through a whole game") {
    const auto feeds = follow_emulated("certabo");
    for (const auto& f : feeds) CHECK(f["param"]["clock"].is_null()); // no clock
}

TEST_CASE("boards listed with their state, a setup with a FEN, bad requests answered and the connection kept") {
    TempDir dir("eboardd-livechess-calls");
    const std::string conf = "livechess-api = 127.0.0.1:0\n"
                             "[board.idle]\nuri = emu-millennium\n" // stands in the start position
                             "[board.away]\nuri = dgt:" + (dir.path / "no-such-board").string() + "\n";
    ReadyDaemon eboardd(dir.path, config_args(dir.path, conf));
    EventLog log(eboardd.process);
    REQUIRE_FALSE(log.wait_for("GAME", "idle").is_null());
    const auto port = api_port(dir.path / "stderr");

    LichessLikeClient client(port);
    WsClient& ws = client.socket();
    ojson first = client.next_feed();
    CHECK(first["param"]["start"] == kStartFen);
    CHECK(first["param"]["san"].empty());
    CHECK(first["param"]["board"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    CHECK(first["param"]["match"] == true);
    CHECK(first["param"]["clock"].is_null());

    // The boards in configuration order; the same array over plain HTTP.
    ws.send(R"({"id":7,"call":"eboards","param":{}})");
    ojson boards = client.next_reply(7);
    REQUIRE(boards["param"].size() == 2);
    CHECK(boards["param"][0]["serialnr"] == "idle");
    CHECK(boards["param"][0]["state"] == "ACTIVE");
    CHECK(boards["param"][0]["source"] == "emu-millennium");
    CHECK(boards["param"][1]["serialnr"] == "away");
    CHECK(boards["param"][1]["state"] == "INACTIVE"); // not connected since eboardd started
    CHECK(boards["param"][1]["battery"].is_null());
    const auto http = http_get("127.0.0.1", port, "/api/v1.0/eboards");
    CHECK(http.status == 200);
    CHECK(ojson::parse(http.body) == boards["param"]);

    // A setup with a position the game is in: the list starts there. One it is not in: the
    // list waits for it, and the board does not show it.
    client.setup(kStartFen);
    ojson set = client.next_feed();
    CHECK(set["param"]["start"] == kStartFen);
    CHECK(set["param"]["san"].empty());
    CHECK(set["param"]["match"] == true);
    const std::string e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    client.setup(e4);
    ojson waiting = client.next_feed();
    CHECK(waiting["param"]["start"] == e4);
    CHECK(waiting["param"]["san"].empty());
    CHECK(waiting["param"]["match"] == false);
    // `flip` (clients written for LiveChess send it): the client says the board stands turned
    // round, its feed shows the reading so.
    ws.send(R"({"id":16,"call":"call","param":{"id":1,"method":"flip","param":{"flip":true}}})");
    CHECK(client.next_reply(16)["param"].is_null());
    ojson flipped = client.next_feed();
    CHECK(flipped["param"]["flipped"] == true);
    CHECK(flipped["param"]["board"] == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr");

    // Bad requests: an error reply each, with the request's id where it has one; the
    // connection answers the next call.
    auto error_for = [&](const std::string& request, const ojson& id) {
        ws.send(request);
        const ojson reply = ojson::parse(ws.receive());
        CHECK(reply["response"] == "error");
        CHECK(reply["id"] == id);
        CHECK(reply["param"]["message"].is_string());
        ws.send(R"({"id":99,"call":"eboards"})");
        const ojson again = ojson::parse(ws.receive());
        CHECK(again["response"] == "call");
        CHECK(again["id"] == 99);
        return reply["param"]["message"].get<std::string>();
    };
    CHECK(error_for("this is not JSON", nullptr) == "not a JSON object");
    CHECK(error_for(R"({"id":11,"call":"frobnicate"})", 11).find("frobnicate") != std::string::npos);
    CHECK(error_for(R"({"id":12,"call":"subscribe","param":{"feed":"eboardevent","id":5,"param":{"serialnr":"nope"}}})", 12)
              .find("nope") != std::string::npos);
    CHECK(error_for(R"({"id":13,"call":"call","param":{"id":42,"method":"setup","param":{"fen":")" + kStartFen + "\"}}}",
                    13)
              .find("42") != std::string::npos);
    CHECK(error_for(R"({"id":14,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"not a fen"}}})", 14)
              .find("setup") != std::string::npos);
    CHECK(error_for(R"({"id":15,"call":"eboards","param":")" + std::string(1 << 20, 'x') + "\"}", 15)
              .find("too large") != std::string::npos);
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
}

TEST_CASE("off by default, and a bad address is refused at start") {
    TempDir dir("eboardd-livechess-off");
    {
        ReadyDaemon eboardd(dir.path, config_args(dir.path, "[board.idle]\nuri = emu-millennium\n"));
        CHECK(slurp(dir.path / "stderr").find("LiveChess") == std::string::npos);
        eboardd.process.signal(SIGTERM);
        CHECK(eboardd.process.wait_exit() == 0);
    }
    Process d(eboardd_bin(), {"--livechess-api", "localhost", "--state-dir", (dir.path / "state").string()}, "",
              (dir.path / "stderr2").string());
    CHECK(d.wait_exit() != 0);
    CHECK(slurp(dir.path / "stderr2").find("--livechess-api") != std::string::npos);
}

TEST_CASE("serialnr is the DGT board's serial number, kept across a restart while the board is away") {
    TempDir dir("eboardd-livechess-serial");
    std::string serial;
    {
        ReadyDaemon eboardd(dir.path, config_args(dir.path, "livechess-api = 127.0.0.1:0\n[board.table]\nuri = emu-dgt\n"));
        LichessLikeClient client(api_port(dir.path / "stderr"));
        // The feed tells every change: the serial number comes once the driver read it.
        for (ojson f = client.next_feed(); f["param"]["serialnr"] == "table"; f = client.next_feed()) {
        }
        serial = client.feeds.back()["param"]["serialnr"].get<std::string>();
        eboardd.process.signal(SIGTERM);
        CHECK(eboardd.process.wait_exit() == 0);
    }
    CHECK(serial == "25805"); // the emulator's SERIALNR
    // The same board name, its device absent: the serial number from the store names it.
    ReadyDaemon again(dir.path,
                      config_args(dir.path, "livechess-api = 127.0.0.1:0\n[board.table]\nuri = dgt:" +
                                                (dir.path / "absent").string() + "\n"),
                      "2");
    const auto list = ojson::parse(http_get("127.0.0.1", api_port(dir.path / "stderr2"), "/api/v1.0/eboards").body);
    REQUIRE(list.size() == 1);
    CHECK(list[0]["serialnr"] == serial);
    CHECK(list[0]["state"] == "INACTIVE");
    again.process.signal(SIGTERM);
    CHECK(again.process.wait_exit() == 0);
}

TEST_CASE("flipped when a DGT board stands reversed, NOTRESPONDING once it goes away") {
    TempDir dir("eboardd-livechess-reversed");
    // A DGT board set up with White's pieces at the connector's right (dgt.md 7): its driver
    // turns the readings round.
    drivers::emu::DgtEmulatorOptions o;
    o.rotated = true;
    drivers::emu::DgtEmulator board(o);
    const fs::path link = dir.path / "table";
    fs::create_symlink(board.pty_slave_path(), link);
    ReadyDaemon eboardd(dir.path,
                        config_args(dir.path, "livechess-api = 127.0.0.1:0\n[board.table]\nuri = dgt:" + link.string() + "\n"));
    EventLog log(eboardd.process);
    REQUIRE_FALSE(log.wait_for("GAME", "table").is_null());
    const auto port = api_port(dir.path / "stderr");
    LichessLikeClient client(port);
    ojson f = client.next_feed();
    while (f["param"]["flipped"] != true) f = client.next_feed();
    // Shown from White's side all the same: the start position, the game's own.
    CHECK(f["param"]["board"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    CHECK(f["param"]["match"] == true);
    auto listed = [&] {
        const auto list = ojson::parse(http_get("127.0.0.1", port, "/api/v1.0/eboards").body);
        REQUIRE(list.size() == 1);
        return list[0];
    };
    const ojson active = listed();
    CHECK(active["state"] == "ACTIVE");
    CHECK(active["flipped"] == true);
    CHECK(active["board"] == f["param"]["board"]);

    // White's first move, made on the reversed board: the feed's list has it.
    board.move(Square::parse("e2"), Square::parse("e4"));
    f = client.next_feed();
    while (f["param"]["san"].empty()) f = client.next_feed();
    CHECK(f["param"]["san"] == ojson::array({"e4"}));
    CHECK(f["param"]["flipped"] == true);
    CHECK(f["param"]["board"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");

    // Unplugged: it was connected, it does not answer now.
    fs::remove(link);
    board.disconnect();
    REQUIRE_FALSE(log.wait_for("BOARD", "table", [](const ojson& e) { return e["state"] == "disconnected"; }).is_null());
    CHECK(listed()["state"] == "NOTRESPONDING");
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
}

TEST_CASE("battery: the eboards list says what the board's BOARD events say (one source)") {
    TempDir dir("eboardd-livechess-battery");
    drivers::emu::DgtEmulatorOptions eo;
    eo.battery_percent = 84;
    drivers::emu::DgtEmulator board(eo);
    ReadyDaemon eboardd(dir.path, config_args(dir.path, "livechess-api = 127.0.0.1:0\n[board.bt]\nuri = dgt.bluetooth:" +
                                                            board.pty_slave_path() +
                                                            "\ndriver-options = battery-poll-ms=50\n"));
    EventLog log(eboardd.process);
    const auto port = api_port(dir.path / "stderr");
    const auto listed = [&] {
        const auto list = ojson::parse(http_get("127.0.0.1", port, "/api/v1.0/eboards").body);
        REQUIRE(list.size() == 1);
        return list[0]["battery"];
    };
    for (const int percent : {84, 9}) {
        board.set_battery(percent, false);
        const ojson e = log.wait_for("BOARD", "bt", [&](const ojson& b) {
            return b.contains("battery") && b["battery"]["percent"] == percent;
        });
        REQUIRE_FALSE(e.is_null());
        CHECK(listed() == std::to_string(percent) + "%");
    }
    board.unplug();
    REQUIRE_FALSE(log.wait_for("BOARD", "bt", [](const ojson& b) { return b["state"] == "disconnected"; }).is_null());
    CHECK(listed().is_null());
    eboardd.process.signal(SIGTERM);
    CHECK(eboardd.process.wait_exit() == 0);
}
