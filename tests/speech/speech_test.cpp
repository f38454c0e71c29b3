// Speech output: espeak-ng renders announcements to WAV files (checked with soxi), a
// speech-dispatcher started by the test speaks through libspeechd, and `auto` falls back to
// espeak-ng when no speech-dispatcher runs.
#include "../support/test_io.hpp"
#include "access/alerts.hpp"
#include "access/announce.hpp"
#include "speech/open.hpp"
#include "speech_support.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <vector>

using namespace eboard;
using namespace eboard::access;
using namespace std::chrono_literals;

namespace {

/// One announcement per vocabulary: e7xf8=N+ (capture, promotion, check) - the longest kind.
std::vector<speech::Utterance> promotion_in_every_vocabulary() {
    auto pos = Position::from_fen("5n2/4P2k/8/8/8/8/8/4K3 w - - 0 1");
    REQUIRE(pos);
    const Move m = move_from_uci(*pos, "e7f8n");
    std::vector<speech::Utterance> out;
    out.reserve(kVocabularies.size());
    for (const Vocabulary v : kVocabularies)
        out.push_back({announce_move(*pos, m, {v, false}), std::string(words(v).language)});
    return out;
}

/// Speech of a short phrase lasts some tenths of a second per word; a WAV that is much
/// shorter holds silence or nothing, much longer means garbage.
void check_plausible(const std::filesystem::path& wav, const std::string& text) {
    const double seconds = test::soxi_seconds(wav);
    INFO(wav << " (" << text << "): " << seconds << " s");
    CHECK(std::filesystem::file_size(wav) > 44); // more than the header
    CHECK(seconds >= 0.02 * static_cast<double>(text.size()));
    CHECK(seconds <= 0.25 * static_cast<double>(text.size()) + 1.0);
}

} // namespace

TEST_CASE("D.2.1 espeak-ng renders the announcement in every vocabulary to a WAV file") {
    test::TempDir dir;
    std::string note;
    auto q = speech::open_speech("wav:" + (dir.path() / "wav").string(), "", note);
    REQUIRE(q);
    REQUIRE(*q);
    CHECK((*q)->name() == "espeak-ng (wav)");
    const auto said = promotion_in_every_vocabulary();
    for (const auto& u : said) (*q)->say(u);
    // An alert, important, with squares in the Appendix D words.
    const std::vector<Square> squares = {Square::parse("e4"), Square::parse("d5")};
    (*q)->say({alert_text("both_boards_differ", squares, std::nullopt, Vocabulary::AppendixD), "de",
               true});
    (*q)->flush();
    CHECK((*q)->failures() == 0);
    const auto wavs = test::wait_for_files(dir.path() / "wav", ".wav", said.size() + 1, 0ms);
    REQUIRE(wavs.size() == said.size() + 1);
    for (std::size_t i = 0; i < said.size(); ++i) {
        auto txt = wavs[i];
        txt.replace_extension(".txt");
        CHECK(test::slurp(txt) == said[i].language + "\t" + said[i].text + "\n");
        check_plausible(wavs[i], said[i].text);
    }
    CHECK(test::slurp(dir.path() / "wav" / "000007.txt") ==
          "de\tBretter verschieden: Eva vier, David fünf\n");
    check_plausible(wavs.back(), "Bretter verschieden: Eva vier, David fünf");
}

TEST_CASE("D.2.1 speech-dispatcher started by the test speaks the announcements, and auto chooses it") {
    test::TempDir dir;
    test::OwnSpeechDispatcher sd(dir.path());
    const std::string why = sd.wait_ready();
    INFO(why);
    REQUIRE(why.empty());
    std::string note;
    auto q = speech::open_speech("speechd", "unix_socket:" + sd.socket().string(), note);
    INFO((q ? std::string() : q.error().message));
    REQUIRE(q);
    CHECK((*q)->name() == "speech-dispatcher");
    CHECK(note == "speech through speech-dispatcher");
    const auto said = promotion_in_every_vocabulary();
    for (const auto& u : said) (*q)->say(u);
    (*q)->flush();
    CHECK((*q)->failures() == 0);
    // The module speaks the messages one after the other; 20 s is a bound, not a wait.
    const auto wavs = test::wait_for_files(sd.out(), ".wav", said.size(), 20s);
    REQUIRE(wavs.size() == said.size());
    for (const auto& w : wavs) check_plausible(w, said.front().text);

    // `auto` (speech-dispatcher first, espeak-ng only when none runs) takes this one.
    auto first = speech::open_speech("auto", "unix_socket:" + sd.socket().string(), note);
    REQUIRE(first);
    REQUIRE(*first);
    CHECK((*first)->name() == "speech-dispatcher");
    CHECK(note == "speech through speech-dispatcher");
}

TEST_CASE("speech-dispatcher restarted: the output connects again and goes on speaking") {
    test::TempDir dir;
    std::string note;
    std::unique_ptr<speech::SpeechQueue> q;
    {
        test::OwnSpeechDispatcher first(dir.path());
        REQUIRE(first.wait_ready().empty());
        auto opened =
            speech::open_speech("speechd", "unix_socket:" + first.socket().string(), note);
        REQUIRE(opened);
        q = std::move(opened.value());
        q->say({"Springer Felix drei", "de"});
        q->flush();
        REQUIRE(test::wait_for_files(first.out(), ".wav", 1, 20s).size() == 1);
    } // stopped (SIGTERM); its socket is gone
    std::filesystem::remove(dir.path() / "speechd.sock");
    for (const auto& f : std::filesystem::directory_iterator(dir.path() / "out"))
        std::filesystem::remove(f.path());
    test::OwnSpeechDispatcher second(dir.path());
    REQUIRE(second.wait_ready().empty());
    // The old connection is dead: the write fails (EPIPE, not a SIGPIPE that would end the
    // process), the synthesizer connects again and repeats the request.
    q->say({"Bauer Eva vier", "de"});
    q->flush();
    CHECK(q->failures() == 0);
    const auto wavs = test::wait_for_files(second.out(), ".wav", 1, 20s);
    REQUIRE(wavs.size() == 1);
    check_plausible(wavs[0], "Bauer Eva vier");
    q.reset(); // the client goes first, as eboardd's does at its exit, then the server
}

TEST_CASE("auto: espeak-ng direct when no speech-dispatcher runs") {
    test::TempDir dir;
    std::string note;
    const std::string nowhere = "unix_socket:" + (dir.path() / "none.sock").string();
    auto q = speech::open_speech("auto", nowhere, note);
    REQUIRE(q);
    REQUIRE(*q);
    CHECK((*q)->name() == "espeak-ng");
    CHECK(note.starts_with("speech through espeak-ng (no speech-dispatcher: "));
    // Without a sound card espeak-ng still accepts the text (it cannot be heard here).
    (*q)->say({"Springer Felix drei", "de"});
    (*q)->flush();
    CHECK((*q)->failures() == 0);
    q->reset();

    auto only = speech::open_speech("speechd", nowhere, note);
    REQUIRE_FALSE(only);
    CHECK(only.error().message.starts_with("speech-dispatcher: "));
    auto none = speech::open_speech("none", "", note);
    REQUIRE(none);
    CHECK_FALSE(*none);
    auto bad = speech::open_speech("festival", "", note);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "unknown speech output 'festival'");
    CHECK_FALSE(speech::valid_speech_backend("wav:"));
    CHECK(speech::valid_speech_backend("wav:/tmp/x"));
}

TEST_CASE("espeak-ng: one synthesizer per process, a voice it lacks is an error") {
    test::TempDir dir;
    std::string note;
    auto q = speech::open_speech("wav:" + dir.path().string(), "", note);
    REQUIRE(q);
    auto second = speech::open_speech("espeak", "", note);
    REQUIRE_FALSE(second);
    CHECK(second.error().message == "espeak-ng is already in use");
    (*q)->say({"x", "xx-nonexistent"});
    (*q)->say({"ok", "en"});
    (*q)->flush();
    CHECK((*q)->failures() == 1);
}

TEST_CASE("D.2.10.4 speech-dispatcher: a new menu utterance cancels the menu's stale speech, never a move") {
    test::TempDir dir;
    test::OwnSpeechDispatcher sd(dir.path());
    const std::string why = sd.wait_ready();
    INFO(why);
    REQUIRE(why.empty());
    std::string note;
    auto q = speech::open_speech("speechd", "unix_socket:" + sd.socket().string(), note);
    REQUIRE(q);
    REQUIRE(*q);
    // Each utterance handed to speech-dispatcher before the next (flush): eboardd's own queue
    // never drops one here; what speech-dispatcher says is up to the menu's connection.
    auto say = [&](const std::string& text, const std::string& menu_of) {
        speech::Utterance u{text, "de"};
        u.menu = menu_of;
        (*q)->say(std::move(u));
        (*q)->flush();
    };
    say("Bauer Eva vier", ""); // a move made: being said while the player presses on
    for (const char* rank : {"Reihe eins: leer", "Reihe zwei: leer", "Reihe drei: leer",
                             "Reihe vier: Eva vier, weißer Bauer"})
        say(rank, "t");
    // Another board's menu (a second tactile board): its own connection, it cancels nothing
    // of board t's.
    say("Linie Anna: Anna eins, weißer Turm", "u");
    say("Springer Felix drei", ""); // the next move made, queued behind the last scan
    CHECK((*q)->failures() == 0);
    // The module speaks one message after the other, the next move last: done when its text
    // is there. (20 s is a bound, not a wait.)
    std::multiset<std::string> said;
    for (std::size_t n = 4; n <= 7 && !said.count("Springer Felix drei"); ++n) {
        said.clear();
        for (auto f : test::wait_for_files(sd.out(), ".wav", n, 20s)) {
            f.replace_extension(".txt");
            said.insert(test::slurp(f));
        }
    }
    for (const auto& t : said) UNSCOPED_INFO(t);
    CHECK(said.count("Bauer Eva vier") == 1);
    CHECK(said.count("Springer Felix drei") == 1);
    CHECK(said.count("Reihe vier: Eva vier, weißer Bauer") == 1);
    CHECK(said.count("Linie Anna: Anna eins, weißer Turm") == 1);
    // The first scans were cancelled while the move before them was still being said (the
    // module takes far longer per message than the four requests together).
    CHECK(said.size() < 7);
}
