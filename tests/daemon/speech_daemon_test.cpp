// Appendix D through the eboardd process (not only its speech sink): emulated DGT boards with
// DGT3000 clocks on ptys, the daemon speaking into WAV files (--speech wav:DIR, each utterance
// with its text beside it as "language<TAB>text"). Checked: the INFO clock request says what
// the clock shows now (Art. 6.10.1), also at a tactile board whose game's one clock is on the
// sighted board; an illegal move, a displaced piece, two boards that differ and a flag fall
// are each spoken once, in the board's configured language; and nothing else is spoken unasked
// ([23] D.2.10.4) besides the moves made. Waits are on events, emulator states, READY=1 and
// inotify, never sleeps.
#include <catch2/catch.hpp>

#include "access/information.hpp"
#include "tests/daemon/harness.hpp"
#include "access/announcer.hpp"
#include "tests/speech/speech_files.hpp"

#include <fstream>
#include <map>

using namespace eboard;
using namespace eboard::test;
namespace fs = std::filesystem;

namespace {


/// The clock of `board` in a BOARDS reply: {white_ms, black_ms}, null when none.
ojson clock_of(const std::string& socket, const std::string& board) {
    const ojson r = request(socket, {{"class", "BOARDS"}});
    for (const auto& b : r["boards"])
        if (b["board"] == board) return b.value("clock", ojson());
    return ojson();
}

/// Everything the daemon said into `dir` so far, in order: (language, text).
std::vector<std::pair<std::string, std::string>> said(const fs::path& dir) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& f : wait_for_files(dir, ".txt", 1000000, std::chrono::milliseconds(0))) {
        std::string t = slurp(f);
        if (!t.empty() && t.back() == '\n') t.pop_back();
        const auto tab = t.find('\t');
        out.emplace_back(t.substr(0, tab), t.substr(tab + 1));
    }
    return out;
}

std::vector<Square> squares_of(const ojson& alert) {
    std::vector<Square> out;
    for (const auto& s : alert.value("squares", ojson::array())) out.push_back(Square::parse(s.get<std::string>()));
    return out;
}

/// eboardd with `conf` (plus state dir, socket, events on stdout), ready.
struct Daemon {
    NotifySocket notify;
    Process process;
    EventLog log;
    Daemon(const TempDir& dir, const fs::path& conf)
        : notify((dir.path / "notify").string()),
          process(eboardd_bin(),
                  {"--config", conf.string(), "--state-dir", (dir.path / "state").string(), "--socket",
                   (dir.path / "s").string(), "--events", "-"},
                  notify.path(), (dir.path / "stderr").string()),
          log(process) {
        REQUIRE(notify.wait_for("READY=1"));
    }
    int stop() {
        process.signal(SIGTERM);
        const int status = process.wait_exit();
        log.stop();
        return status;
    }
};

} // namespace

TEST_CASE("D.2.10.4 INFO clocks and clock button 0 say what the clock shows now, at the tactile board too (6.10.1)") {
    TempDir dir("eboardd-speech-clock");
    const fs::path wav = dir.path / "wav";
    fs::create_directories(wav);
    GameRecord standard;
    EmulatedBoard s("s", dir.path / "s-board", standard, 1, 100);
    EmulatedBoard t("t", dir.path / "t-board", standard, 2, 100);
    t.emulator().set_clock_connected(false); // one clock for the game: the sighted board's
    {
        std::ofstream conf(dir.path / "eboardd.conf");
        conf << "white-side = left\nspeech = wav:" << wav.string() << "\n"
             << "[board.s]\nuri = " << s.uri() << "\nspeech-vocabulary = en\n"
             << "[board.t]\nuri = " << t.uri() << "\ntactile = yes\npair = s\nspeech-vocabulary = fr\n";
    }
    Daemon d(dir, dir.path / "eboardd.conf");
    const std::string socket = (dir.path / "s").string();
    REQUIRE(s.wait_driver_ready()); // t has no clock to ask for its version: its game is the sign
    REQUIRE_FALSE(d.log.wait_for("GAME", "s").is_null());
    REQUIRE_FALSE(d.log.wait_for("GAME", "t").is_null());

    // White plays e4 on both boards and presses the clock: Black's time runs.
    t.emulator().move(Square::parse("e2"), Square::parse("e4"));
    s.emulator().move(Square::parse("e2"), Square::parse("e4"));
    s.emulator().press_lever(drivers::ClockSide::Left);
    REQUIRE(d.log.wait_completed("s", 1));
    const ojson completed = d.log.wait_for("MOVE", "s", [](const ojson& e) { return e["status"] == "completed"; });
    const std::int64_t white = completed["clock"]["white_ms"], black = completed["clock"]["black_ms"];
    // Black thinks; the clock reports its running time (about once a second) until the daemon
    // has a reading at least 2 s below the completed move's.
    ojson now;
    for (int i = 0; i < 50; ++i) {
        now = clock_of(socket, "s");
        if (!now.is_null() && now["black_ms"].get<std::int64_t>() <= black - 2000) break;
        const std::int64_t seen = s.emulator().clock().times.right_ms;
        REQUIRE(s.emulator().wait_until(
            [seen](const drivers::emu::DgtBoardEmu& m) { return m.clock().state().times.right_ms <= seen - 200; },
            5000));
    }
    REQUIRE(now["black_ms"].get<std::int64_t>() <= black - 2000);

    // Asked now: the clock's latest report, never the completed move's times. (A report may
    // arrive between the two BOARDS requests and the INFO one: any of those readings will do.)
    auto clocks_said = [&](const std::string& board, access::Vocabulary v, const ojson& before) {
        const ojson info = request(socket, {{"class", "INFO"}, {"board", board}, {"request", "clocks"}});
        REQUIRE(info["class"] == "INFO");
        ojson after = clock_of(socket, "s");
        const std::string text = info["text"];
        CHECK(text != access::clocks_text(white, black, v));
        CHECK((text == access::clocks_text(before["white_ms"], before["black_ms"], v) ||
               text == access::clocks_text(after["white_ms"], after["black_ms"], v)));
        return after;
    };
    now = clocks_said("s", access::Vocabulary::English, now);
    // The tactile board has no clock of its own: its player hears the sighted board's, in
    // his own language.
    (void)clocks_said("t", access::Vocabulary::French, now);

    // eboardctl asks the same (D.2.10.4 through the command-line client): the whole position
    // at the tactile board, in French; a bad request is refused (exit 1).
    const ojson t1 = d.log.wait_for("MOVE", "t", [](const ojson& e) { return e["ply"] == 1; });
    const Position after_e4 = Position::from_fen(t1["fen"].get<std::string>()).value();
    const std::string ctl = eboardctl_bin() + " --socket " + socket + " info t ";
    const CommandResult position = run_command(ctl + "position");
    CHECK(position.status == 0);
    CHECK(position.out == access::position_text(after_e4, access::Vocabulary::French) + "\n");
    CHECK(run_command(ctl + "rank 9 2>/dev/null").status == 1);

    // Button 0 of the sighted board's DGT3000, the game's one clock: the visually impaired
    // player's (D.2.6), so both clocks, live, are said at the tactile board, in French.
    // Said so far: e4 at both boards, the two INFO clocks and the position.
    REQUIRE(wait_for_files(wav, ".txt", 5, std::chrono::seconds(20)).size() == 5);
    const ojson before = clock_of(socket, "s");
    s.emulator().press_button(0);
    const auto files = wait_for_files(wav, ".txt", 6, std::chrono::seconds(20));
    REQUIRE(files.size() == 6);
    const ojson after = clock_of(socket, "s");
    const std::string button = slurp(files.back());
    const auto french = access::Vocabulary::French;
    CHECK(button.rfind("fr\t", 0) == 0);
    CHECK(button != "fr\t" + access::clocks_text(white, black, french) + "\n");
    CHECK((button == "fr\t" + access::clocks_text(before["white_ms"], before["black_ms"], french) + "\n" ||
           button == "fr\t" + access::clocks_text(after["white_ms"], after["black_ms"], french) + "\n"));
    CHECK(d.stop() == 0);
}

TEST_CASE("D.2.9 D.2.10.4 alerts through eboardd are spoken once in the board's language, nothing unasked") {
    TempDir dir("eboardd-speech-alerts");
    const fs::path wav = dir.path / "wav";
    fs::create_directories(wav);
    // White: K e1, N b1; Black: K e8, P e7. White to move.
    const std::string kFen = "4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 60";
    GameRecord standard, ending;
    ending.start_fen = kFen;
    const Position end_pos = Position::from_fen(kFen).value();
    // il: an illegal move (nl); mm: a displaced piece (af); fl: a flag fall (fr); t/s: a
    // two-board game (t: the Appendix D words, White's moves said; s: no moves said).
    EmulatedBoard il("il", dir.path / "il-board", standard, 1, 100);
    EmulatedBoard mm("mm", dir.path / "mm-board", ending, 2, 100);
    EmulatedBoard fl("fl", dir.path / "fl-board", ending, 3, 100);
    EmulatedBoard s("s", dir.path / "s-board", standard, 4, 100);
    EmulatedBoard t("t", dir.path / "t-board", standard, 5, 100);
    mm.plug(end_pos, 60000, 60000);
    fl.plug(end_pos, 60000, 2000); // Black (right) has 2 seconds
    {
        std::ofstream conf(dir.path / "eboardd.conf");
        conf << "white-side = left\nmismatch-grace = 0.5\nspeech = wav:" << wav.string() << "\n"
             << "[board.il]\nuri = " << il.uri() << "\nspeech-vocabulary = nl\n"
             << "[board.mm]\nuri = " << mm.uri() << "\nspeech-vocabulary = af\n"
             << "[board.fl]\nuri = " << fl.uri() << "\nspeech-vocabulary = fr\n"
             << "[board.s]\nuri = " << s.uri() << "\nspeech-moves = none\n"
             << "[board.t]\nuri = " << t.uri() << "\ntactile = yes\npair = s\nspeech-moves = white\n";
    }
    Daemon d(dir, dir.path / "eboardd.conf");
    const std::string socket = (dir.path / "s").string();
    for (EmulatedBoard* b : {&il, &mm, &fl, &s, &t}) REQUIRE(b->wait_driver_ready());
    for (EmulatedBoard* b : {&mm, &fl}) {
        REQUIRE(request(socket, {{"class", "NEW_GAME"}, {"board", b->name()}, {"fen", kFen}})["class"] == "OK");
        REQUIRE_FALSE(d.log.wait_for("GAME", b->name(), [&](const ojson& e) { return e["fen"] == kFen; }).is_null());
    }
    for (const char* b : {"il", "s", "t"}) REQUIRE_FALSE(d.log.wait_for("GAME", b).is_null());
    auto alert = [&](const std::string& board, const std::string& kind) {
        ojson a = d.log.wait_for("ALERT", board, [&](const ojson& e) { return e["kind"] == kind; });
        REQUIRE_FALSE(a.is_null());
        return a;
    };
    auto made = [&](const std::string& board, int ply, const std::string& san) {
        REQUIRE_FALSE(d.log.wait_for("MOVE", board, [&](const ojson& e) {
                          return e["ply"] == ply && e["san"] == san && e["status"] == "made";
                      }).is_null());
    };

    // 1. il: White's pawn e2 to e5 and the clock pressed: an illegal move completed (7.5.1);
    // then the pawn is put back.
    il.emulator().move(Square::parse("e2"), Square::parse("e5"));
    il.emulator().press_lever(drivers::ClockSide::Left);
    (void)alert("il", "illegal_move");
    il.emulator().move(Square::parse("e5"), Square::parse("e2"));

    // 2. mm: White's knight knocked one square aside (b1 -> c1, no move explains it):
    // position_mismatch once the grace has passed, naming both squares; then put back.
    mm.emulator().move(Square::parse("b1"), Square::parse("c1"));
    CHECK(squares_of(alert("mm", "position_mismatch")).size() == 2);
    mm.emulator().move(Square::parse("c1"), Square::parse("b1"));

    // 3. t/s: White (sighted) plays e4, repeated on the tactile board (said there: the
    // opponent's move); Black (tactile) plays d5, repeated wrongly as d6: the boards differ
    // (said, with the squares), then the sighted board is corrected (said: they agree).
    s.emulator().move(Square::parse("e2"), Square::parse("e4"));
    made("s", 1, "e4");
    t.emulator().move(Square::parse("e2"), Square::parse("e4"));
    made("t", 1, "e4");
    t.emulator().move(Square::parse("d7"), Square::parse("d5"));
    made("t", 2, "d5");
    s.emulator().move(Square::parse("d7"), Square::parse("d6"));
    CHECK(alert("t", "both_boards_differ")["squares"] == ojson::array({"d5", "d6"}));
    s.emulator().move(Square::parse("d6"), Square::parse("d5"));
    made("s", 2, "d5");

    // 4. fl: White plays Nc3 and presses; Black's 2 seconds run out: the flag (6.9), whose.
    fl.emulator().move(Square::parse("b1"), Square::parse("c3"));
    fl.emulator().press_lever(drivers::ClockSide::Left);
    CHECK(alert("fl", "flag")["player"] == "black");

    // What must have been said: per board, its moves made (as configured) and its alerts of
    // the spoken kinds, each once, in its vocabulary - built from the events with access/'s
    // words; plus "the boards agree again", which has no event.
    std::map<std::string, access::Announcer> boards;
    auto settings = [](access::Vocabulary v, access::SpokenSides sides) {
        access::SpeechSettings st;
        st.announce.vocabulary = v;
        st.moves = sides;
        return access::Announcer(st);
    };
    boards.emplace("il", settings(access::Vocabulary::Dutch, access::SpokenSides::Both));
    boards.emplace("mm", settings(access::Vocabulary::Afrikaans, access::SpokenSides::Both));
    boards.emplace("fl", settings(access::Vocabulary::French, access::SpokenSides::Both));
    boards.emplace("s", settings(access::Vocabulary::AppendixD, access::SpokenSides::None));
    boards.emplace("t", settings(access::Vocabulary::AppendixD, access::SpokenSides::White));
    std::multiset<std::pair<std::string, std::string>> expected{{"de", "Bretter wieder gleich"}};
    std::map<std::string, int> alerts;
    for (const ojson& e : d.log.events()) {
        const auto b = boards.find(e.value("board", ""));
        if (b == boards.end()) continue;
        access::Announcer& a = b->second;
        std::optional<access::Spoken> said;
        if (e["class"] == "GAME" && e["event"] == "start") a.game_started(e["fen"].get<std::string>());
        if (e["class"] == "MOVE" && e["status"] == "made")
            said = a.move_made(e["ply"], e["uci"].get<std::string>(), e["fen"].get<std::string>());
        if (e["class"] == "ALERT") {
            std::optional<Color> side;
            if (e.value("player", "") == "white") side = Color::White;
            if (e.value("player", "") == "black") side = Color::Black;
            said = a.alert(e["kind"].get<std::string>(), squares_of(e), side);
            if (said) ++alerts[b->first + " " + e["kind"].get<std::string>()];
        }
        if (said) expected.insert({std::string(said->language), said->text});
    }
    // Each of the four alerts was raised once (a displaced piece put back is not raised again).
    CHECK(alerts["il illegal_move"] == 1);
    CHECK(alerts["mm position_mismatch"] == 1);
    CHECK(alerts["t both_boards_differ"] == 1);
    CHECK(alerts["fl flag"] == 1);
    // The words of two of them, as the Appendix and our vocabularies write them.
    CHECK(expected.count({"de", "Bauer Eva vier"}) == 1);
    CHECK(expected.count({"de", "Bretter verschieden: David fünf, David sechs"}) == 1);

    // Everything is said (waited for with inotify); the daemon's exit then says what its queue
    // still holds, so that nothing said later escapes the count.
    REQUIRE(wait_for_files(wav, ".txt", expected.size(), std::chrono::seconds(20)).size() >= expected.size());
    CHECK(d.stop() == 0);
    const auto all = said(wav);
    for (const auto& [lang, text] : all) UNSCOPED_INFO(lang << "\t" << text);
    CHECK(std::multiset<std::pair<std::string, std::string>>(all.begin(), all.end()) == expected);
    for (const auto& w : wait_for_files(wav, ".wav", all.size(), std::chrono::milliseconds(0)))
        CHECK(soxi_seconds(w) > 0.3);
}

TEST_CASE("D.2.10.4 the clock's ok button opens a spoken menu: rank scans and a square, nothing else said") {
    TempDir dir("eboardd-speech-menu");
    const fs::path wav = dir.path / "wav";
    fs::create_directories(wav);
    // m: the menu, in the Appendix D words; p: a pawn that can promote, in English.
    const std::string kFen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 60";
    GameRecord standard, promotion;
    promotion.start_fen = kFen;
    EmulatedBoard m("m", dir.path / "m-board", standard, 1, 100);
    EmulatedBoard p("p", dir.path / "p-board", promotion, 2, 100); // shows kFen
    {
        std::ofstream conf(dir.path / "eboardd.conf");
        conf << "white-side = left\nspeech = wav:" << wav.string() << "\n"
             << "[board.m]\nuri = " << m.uri() << "\n"
             << "[board.p]\nuri = " << p.uri() << "\nspeech-vocabulary = en\n";
    }
    Daemon d(dir, dir.path / "eboardd.conf");
    const std::string socket = (dir.path / "s").string();
    for (EmulatedBoard* b : {&m, &p}) REQUIRE(b->wait_driver_ready());
    REQUIRE_FALSE(d.log.wait_for("GAME", "m").is_null());
    std::vector<std::pair<std::string, std::string>> expected;
    // Each press or move is heard before the next (a player listens): one more file each.
    auto heard = [&](const std::string& lang, const std::string& text) {
        expected.emplace_back(lang, text);
        const auto files = wait_for_files(wav, ".txt", expected.size(), std::chrono::seconds(20));
        REQUIRE(files.size() == expected.size());
        CHECK(slurp(files.back()) == lang + "\t" + text + "\n");
    };

    // 1. m: 1.e4 e5 2.Nf3 made (each announced); then ok, plus, plus (Reihe), ok: the scan of
    // the third rank, where the last move arrived; minus: the second rank.
    Position pos = Position::startpos();
    const std::vector<std::pair<const char*, const char*>> moves = {
        {"e2e4", "Bauer Eva vier"}, {"e7e5", "Bauer Eva fünf"}, {"g1f3", "Springer Felix drei"}};
    for (const auto& [uci, said] : moves) {
        const Move mv = move_from_uci(pos, uci);
        m.emulator().move(mv.from(), mv.to());
        pos.make_move(mv);
        heard("de", said);
    }
    const auto v = access::Vocabulary::AppendixD;
    auto press = [&](EmulatedBoard& b, int button, const std::string& lang, const std::string& text) {
        b.emulator().press_button(button);
        heard(lang, text);
    };
    press(m, 4, "de", "Menü, Stellung");
    press(m, 3, "de", "Feld");
    press(m, 3, "de", "Reihe");
    press(m, 4, "de", access::rank_text(pos, 2, v));
    press(m, 1, "de", access::rank_text(pos, 1, v));
    // back to the items; minus to Feld, ok: the file choice from f; ok: the square f3.
    press(m, 0, "de", "Reihe");
    press(m, 1, "de", "Feld");
    press(m, 4, "de", "Felix");
    press(m, 1, "de", "Eva");
    press(m, 4, "de", access::square_text(pos, Square::parse("e3"), v));
    press(m, 3, "de", "Eva vier, weißer Bauer");
    press(m, 0, "de", "Eva");
    press(m, 0, "de", "Feld");
    press(m, 0, "de", "Menü Ende");
    press(m, 1, "de", access::moves_text(pos, v)); // closed: button 1 is the number of moves

    // 2. p: the menu opened, then the arbiter's new game (closes it) where White's a-pawn can promote:
    // buttons choose the promotion piece then, and nothing is said; after a king move no
    // pawn can promote, and button 1 is the number of moves again (not the menu's minus).
    press(p, 4, "en", "menu, position");
    REQUIRE(request(socket, {{"class", "NEW_GAME"}, {"board", "p"}, {"fen", kFen}})["class"] == "OK");
    REQUIRE_FALSE(d.log.wait_for("GAME", "p", [&](const ojson& e) { return e["fen"] == kFen; }).is_null());
    for (const int button : {4, 3, 1, 0, 2}) p.emulator().press_button(button);
    p.emulator().move(Square::parse("e1"), Square::parse("d1"));
    heard("en", "king d1");
    press(p, 1, "en", "move 60, Black to move");

    // Nothing else was said: the daemon's exit says what its queue still holds.
    CHECK(d.stop() == 0);
    const auto all = said(wav);
    for (const auto& [lang, text] : all) UNSCOPED_INFO(lang << "\t" << text);
    CHECK(all == expected);
}
