// Every move of every game in data/games/, in every vocabulary: announce_move()
// (built by access/ from the position and the move) against the move's SAN read word by word
// through word tables written HERE, straight from the Appendix and the notation keys - not
// through access/vocabulary.cpp, so that a wrong word there fails this test:
//   appendix-d  [23] D.2.1 (seed 002) / [05] F2.1 (seed 004): Anna .. Hector, eins .. acht,
//               König Dame Turm Läufer Springer Bauer, Kurze / Lange Rochade; the free words
//               (capture, check, mate, promotion) German as in the [05] E key: schlägt, Schach,
//               Matt, wird.
//   de          the [05] E key (seed 004): the same pieces, squares as "e4".
//   nl          the [23] C key (seed 002): pion paard loper toren dame koning, korte/lange rokade.
//   af          the [05] E key (seed 003): pion ruiter loper toring dame koning, buit, skaak,
//               skaakmat, rokering koningskant / dameskant.
//   en, fr      plain English and French chess words.
// The long form ([23] C.8) reads the departure square from the game's move. A few
// announcements are also spelled out literally below, as a player would hear them.
#include "../support/test_io.hpp"
#include "access/announce.hpp"
#include "rules/pgn.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

using namespace eboard;
using namespace eboard::access;

namespace {

const std::filesystem::path kGames = std::filesystem::path(EBOARD_REPO_DATA) / "games";

/// One vocabulary's words, as the sources above give them.
struct Key {
    Vocabulary vocabulary;
    std::array<std::string_view, 6> pieces; ///< pawn, N, B, R, Q, K
    std::array<std::string_view, 8> files;  ///< a .. h
    std::array<std::string_view, 8> ranks;  ///< 1 .. 8
    std::string_view square_gap;            ///< between file and rank: " " or ""
    std::string_view captures, to, en_passant, promotes, check, mate, short_castle, long_castle;
};

constexpr std::array<std::string_view, 8> kLetters = {"a", "b", "c", "d", "e", "f", "g", "h"};
constexpr std::array<std::string_view, 8> kDigits = {"1", "2", "3", "4", "5", "6", "7", "8"};
constexpr std::array<std::string_view, 6> kGerman = {"Bauer", "Springer", "Läufer",
                                                     "Turm",  "Dame",     "König"};

const std::array<Key, 6> kKeys = {{
    {Vocabulary::AppendixD,
     kGerman,
     {"Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"},
     {"eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"},
     " ",
     "schlägt",
     "",
     "en passant",
     "wird",
     "Schach",
     "Matt",
     "Kurze Rochade",
     "Lange Rochade"},
    {Vocabulary::English,
     {"pawn", "knight", "bishop", "rook", "queen", "king"},
     kLetters,
     kDigits,
     "",
     "takes",
     "to",
     "en passant",
     "promotes to",
     "check",
     "checkmate",
     "castles kingside",
     "castles queenside"},
    {Vocabulary::Dutch,
     {"pion", "paard", "loper", "toren", "dame", "koning"},
     kLetters,
     kDigits,
     "",
     "slaat",
     "naar",
     "en passant",
     "promoveert tot",
     "schaak",
     "mat",
     "korte rokade",
     "lange rokade"},
    {Vocabulary::German,
     kGerman,
     kLetters,
     kDigits,
     "",
     "schlägt",
     "nach",
     "en passant",
     "wird",
     "Schach",
     "Matt",
     "kurze Rochade",
     "lange Rochade"},
    {Vocabulary::Afrikaans,
     {"pion", "ruiter", "loper", "toring", "dame", "koning"},
     kLetters,
     kDigits,
     "",
     "buit",
     "na",
     "en passant",
     "promoveer tot",
     "skaak",
     "skaakmat",
     "rokering koningskant",
     "rokering dameskant"},
    {Vocabulary::French,
     {"pion", "cavalier", "fou", "tour", "dame", "roi"},
     kLetters,
     kDigits,
     "",
     "prend",
     "en",
     "en passant",
     "promu en",
     "échec",
     "échec et mat",
     "petit roque",
     "grand roque"},
}};

/// The piece a SAN letter names (English letters, PGN 8.2.3.2), as an index into Key::pieces.
std::size_t san_piece(char c) {
    static constexpr std::string_view kLettersOfPieces = "PNBRQK";
    const auto i = kLettersOfPieces.find(c);
    return i == std::string_view::npos ? 0 : i;
}

void add(std::string& out, std::string_view w) {
    if (w.empty()) return;
    if (!out.empty()) out += ' ';
    out += w;
}

std::string square(const Key& k, std::string_view name) {
    return std::string(k.files[static_cast<std::size_t>(name[0] - 'a')]) +
           std::string(k.square_gap) +
           std::string(k.ranks[static_cast<std::size_t>(name[1] - '1')]);
}

/// The announcement read off the SAN text, by the rules of Appendix D.2.1: the piece's name
/// (the pawn named too), each disambiguation character as its file or rank word, "x" as the
/// capture word, the arrival square, "e.p." (which PGN SAN omits, hence the flag), "=X" as the
/// promotion word and the piece, "+"/"#" as check/mate after a comma; O-O / O-O-O by name.
/// With `from` (a square name) the long form: the departure square instead of the
/// disambiguation, and the `to` word when nothing is taken.
std::string from_san(std::string san, bool en_passant, const Key& k, std::string_view from = {}) {
    std::string_view suffix;
    while (!san.empty() && (san.back() == '+' || san.back() == '#')) {
        suffix = san.back() == '#' ? k.mate : (suffix.empty() ? k.check : suffix);
        san.pop_back();
    }
    std::string out;
    if (san == "O-O-O") {
        out = k.long_castle;
    } else if (san == "O-O") {
        out = k.short_castle;
    } else {
        std::size_t promo = 0;
        if (const auto eq = san.find('='); eq != std::string::npos) {
            promo = san_piece(san[eq + 1]);
            san.erase(eq);
        }
        const std::size_t piece = san_piece(san[0]);
        if (piece != 0) san.erase(0, 1);
        add(out, k.pieces[piece]);
        const std::string dest = san.substr(san.size() - 2);
        std::string disambiguation; // a file, a rank, or a whole square (C.10)
        bool capture = false;
        for (const char c : san.substr(0, san.size() - 2)) {
            if (c == 'x')
                capture = true;
            else
                disambiguation += c;
        }
        if (!from.empty())
            add(out, square(k, from));
        else if (disambiguation.size() == 2)
            add(out, square(k, disambiguation));
        else if (disambiguation.size() == 1 && disambiguation[0] >= 'a')
            add(out, k.files[static_cast<std::size_t>(disambiguation[0] - 'a')]);
        else if (disambiguation.size() == 1)
            add(out, k.ranks[static_cast<std::size_t>(disambiguation[0] - '1')]);
        add(out, capture ? k.captures : (from.empty() ? std::string_view{} : k.to));
        add(out, square(k, dest));
        if (en_passant) add(out, k.en_passant);
        if (promo != 0) {
            add(out, k.promotes);
            add(out, k.pieces[promo]);
        }
    }
    if (!suffix.empty()) out += std::string(", ") + std::string(suffix);
    return out;
}

struct Counted {
    std::size_t games = 0, moves = 0;
};

/// Calls f(before, move, SAN) for every main-line move of every game of a file.
template <typename F>
Counted for_each_move(const std::filesystem::path& file, F&& f) {
    const std::string text = test::slurp(file);
    REQUIRE_FALSE(text.empty());
    PgnReader reader(text);
    Counted n;
    while (auto game = reader.next()) {
        REQUIRE(*game);
        auto start = (*game)->start_position();
        REQUIRE(start);
        Position pos = std::move(start.value());
        ++n.games;
        for (const GameMove& gm : (*game)->moves) {
            if (gm.move.is_none()) break;
            f(pos, gm.move, gm.san);
            pos.make_move(gm.move);
            ++n.moves;
        }
    }
    return n;
}

std::vector<std::filesystem::path> game_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(kGames))
        if (e.path().extension() == ".pgn") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// What announce_move said for every move of one game file, in one vocabulary and form.
std::vector<std::string> said_in(const std::string& file, Vocabulary v, bool long_form) {
    std::vector<std::string> out;
    (void)for_each_move(kGames / file, [&](const Position& before, Move m, const std::string&) {
        out.push_back(announce_move(before, m, {v, long_form}));
    });
    return out;
}

} // namespace

TEST_CASE("D.2.1 every move of every shared game, in every vocabulary, reads as its SAN") {
    Counted total;
    std::size_t castlings = 0, promotions = 0, en_passants = 0, mates = 0;
    for (const auto& file : game_files()) {
        const Counted n =
            for_each_move(file, [&](const Position& before, Move m, const std::string& san) {
                // Chess960 castling is SAN "O-O" whatever the squares: from_san reads it by name.
                const bool ep = m.kind() == Move::Kind::EnPassant;
                castlings += m.is_castling() ? 1U : 0U;
                promotions += m.kind() == Move::Kind::Promotion ? 1U : 0U;
                en_passants += ep ? 1U : 0U;
                mates += san.ends_with('#') ? 1U : 0U;
                const std::string from(m.from().name());
                for (const Key& k : kKeys) {
                    const std::string said = announce_move(before, m, {k.vocabulary, false});
                    const std::string said_long = announce_move(before, m, {k.vocabulary, true});
                    const std::string want = from_san(san, ep, k);
                    const std::string want_long = from_san(san, ep, k, from);
                    if (said != want || said_long != want_long) {
                        INFO(file.filename().string() << " " << before.fen() << " " << san
                                                      << " in " << vocabulary_code(k.vocabulary));
                        REQUIRE(said == want);
                        REQUIRE(said_long == want_long);
                    }
                }
            });
        total.games += n.games;
        total.moves += n.moves;
    }
    // The shared set as read: 475 games, 30,072 moves (438 games from the lichess sample), with
    // every kind of move the Appendix names.
    CHECK(total.games == 475);
    CHECK(total.moves == 30072);
    CHECK(castlings > 0);
    CHECK(promotions > 0);
    CHECK(en_passants > 0);
    CHECK(mates > 0);
}

TEST_CASE("D.2.1 a whole game as the visually impaired player hears it (Molinari-Bordais 1979)") {
    // 1. e4 c5 2. c4 Nc6 3. Ne2 Nf6 4. Nbc3 Nb4 5. g3 Nd3#, spelled out by hand from D.2.1.
    const std::vector<std::string> appendix_d = {
        "Bauer Eva vier",       "Bauer Cesar fünf",          "Bauer Cesar vier",
        "Springer Cesar sechs", "Springer Eva zwei",         "Springer Felix sechs",
        "Springer Bella Cesar drei", "Springer Bella vier", "Bauer Gustav drei",
        "Springer David drei, Matt"};
    CHECK(said_in("molinari-bordais-1979.pgn", Vocabulary::AppendixD, false) == appendix_d);
    const std::vector<std::string> long_form = {
        "Bauer Eva zwei Eva vier",          "Bauer Cesar sieben Cesar fünf",
        "Bauer Cesar zwei Cesar vier",      "Springer Bella acht Cesar sechs",
        "Springer Gustav eins Eva zwei",    "Springer Gustav acht Felix sechs",
        "Springer Bella eins Cesar drei",   "Springer Cesar sechs Bella vier",
        "Bauer Gustav zwei Gustav drei",    "Springer Bella vier David drei, Matt"};
    CHECK(said_in("molinari-bordais-1979.pgn", Vocabulary::AppendixD, true) == long_form);
    const std::vector<std::string> english = {
        "pawn e4",   "pawn c5",   "pawn c4",     "knight c6", "knight e2",
        "knight f6", "knight b c3", "knight b4", "pawn g3",   "knight d3, checkmate"};
    CHECK(said_in("molinari-bordais-1979.pgn", Vocabulary::English, false) == english);
    const auto french = said_in("molinari-bordais-1979.pgn", Vocabulary::French, false);
    REQUIRE(french.size() == 10);
    CHECK(french.back() == "cavalier d3, échec et mat");
    CHECK(said_in("molinari-bordais-1979.pgn", Vocabulary::Dutch, false).back() ==
          "paard d3, mat");
    CHECK(said_in("molinari-bordais-1979.pgn", Vocabulary::Afrikaans, false).back() ==
          "ruiter d3, skaakmat");
    CHECK(said_in("molinari-bordais-1979.pgn", Vocabulary::German, false).back() ==
          "Springer d3, Matt");
}
