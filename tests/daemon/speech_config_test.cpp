// The speech options of eboardd (docs/configuration.md, "Speech and visually impaired
// players"; FIDE Laws [23] Appendix D): command line, config file, per-board keys, errors.
#include "daemon/config.hpp"
#include "daemon/speech_sink.hpp"

#include <catch2/catch.hpp>

using namespace eboard::daemon;

TEST_CASE("D.2.1 speech options: defaults, command line and [board.NAME] keys") {
    auto none = parse_command_line({});
    REQUIRE(none);
    CHECK(none->config.speech.output == "none");
    CHECK(none->config.speech.vocabulary == "appendix-d");
    CHECK(none->config.speech.moves == "both");
    CHECK_FALSE(none->config.speech.long_form);

    auto inv = parse_command_line({"--speech", "wav:/tmp/x", "--speech-vocabulary", "nl",
                                   "--speech-moves", "black", "--speech-long-form", "yes",
                                   "--speech-address", "unix_socket:/run/s.sock"});
    REQUIRE(inv);
    CHECK(inv->config.speech.output == "wav:/tmp/x");
    CHECK(inv->config.speech.vocabulary == "nl");
    CHECK(inv->config.speech.moves == "black");
    CHECK(inv->config.speech.long_form);
    CHECK(inv->config.speech.address == "unix_socket:/run/s.sock");

    auto file =
        parse_config_text("speech = auto\n[board.t]\nuri = dgt:/dev/ttyACM0\ntactile = yes\n"
                          "pair = s\nspeech-moves = white\nspeech-vocabulary = fr\n"
                          "[board.s]\nuri = dgt:/dev/ttyACM1\n",
                          "test.conf");
    REQUIRE(file);
    CHECK(file->speech.output == "auto");
    REQUIRE(file->boards.size() == 2);
    const BoardConfig& t = file->boards[0];
    CHECK(t.access.tactile);
    CHECK(t.access.pair == "s");
    CHECK(t.access.moves == "white");
    CHECK(t.access.vocabulary == "fr");
    CHECK_FALSE(file->boards[1].access.tactile);
}

TEST_CASE("D.2.1 speech options: errors name the option and its values") {
    auto e = parse_command_line({"--speech", "festival"});
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "--speech: 'festival' is not auto|speechd|espeak|wav:DIR|none");
    e = parse_command_line({"--speech-vocabulary", "klingon"});
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "--speech-vocabulary: 'klingon' is not appendix-d|en|nl|de|af|fr");
    e = parse_command_line({"--speech-moves", "mine"});
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "--speech-moves: 'mine' is not both|white|black|none");
    auto f = parse_config_text("[board.t]\nuri = dgt:/dev/x\ntactile = maybe\n", "t.conf");
    REQUIRE_FALSE(f);
    CHECK(f.error().message == "t.conf: [board.t] tactile: 'maybe' is not yes|no");
    f = parse_config_text("[board.t]\nuri = dgt:/dev/x\nvoice = loud\n", "t.conf");
    REQUIRE_FALSE(f);
    CHECK(f.error().message.find("speech-vocabulary, speech-moves, tactile, pair") !=
          std::string::npos);
}

TEST_CASE("D.1 a pair names another configured board, and a board is in one pair only") {
    auto c = parse_config_text("[board.t]\nuri = dgt:/dev/a\npair = nowhere\n", "p.conf");
    REQUIRE(c);
    auto sink = SpeechSink::open(*c, nullptr);
    REQUIRE_FALSE(sink);
    CHECK(sink.error().message == "[board.t] pair: no other board 'nowhere'");
    c = parse_config_text("[board.t]\nuri = dgt:/dev/a\npair = s\n[board.u]\nuri = dgt:/dev/b\n"
                          "pair = s\n[board.s]\nuri = dgt:/dev/c\n",
                          "p.conf");
    REQUIRE(c);
    sink = SpeechSink::open(*c, nullptr);
    REQUIRE_FALSE(sink);
    CHECK(sink.error().message == "[board.u] pair: a board can be in one pair only");
    // By URI too; and texts without speech.
    c = parse_config_text(
        "[board.t]\nuri = dgt:/dev/a\npair = dgt:/dev/c\n[board.s]\nuri = dgt:/dev/c\n", "p.conf");
    REQUIRE(c);
    sink = SpeechSink::open(*c, nullptr);
    REQUIRE(sink);
    CHECK((*sink)->note() == "speech off");
    auto said = (*sink)->info("dgt:/dev/a", "moves");
    REQUIRE(said);
    CHECK(said->text == "Zug 1, Weiß am Zug");
    CHECK((*sink)->info("x", "moves").error().message == "no board 'x'");
}
