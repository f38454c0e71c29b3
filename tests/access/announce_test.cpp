// Appendix D.2.1 [23] / F2.1 [05]: the announcement of each kind of move, written by hand in
// every vocabulary (Appendix D words, English, Dutch, German, Afrikaans, French).
#include "access/announce.hpp"

#include <array>
#include <catch2/catch.hpp>

using namespace eboard;
using namespace eboard::access;

namespace {

Position fen(const char* f, bool chess960 = false) {
    auto p = Position::from_fen(f, chess960);
    REQUIRE(p);
    return std::move(p.value());
}

/// One move and what is said for it, in kVocabularies order:
/// appendix-d, en, nl, de, af, fr.
struct Case {
    const char* fen;
    const char* uci;
    std::array<const char*, 6> said;
};

void check(const Case& c, bool long_form = false) {
    const Position pos = fen(c.fen);
    const Move m = move_from_uci(pos, c.uci);
    REQUIRE_FALSE(m.is_none());
    for (std::size_t i = 0; i < kVocabularies.size(); ++i) {
        INFO(c.fen << " " << c.uci << " in " << vocabulary_code(kVocabularies[i]));
        CHECK(announce_move(pos, m, {kVocabularies[i], long_form}) == c.said[i]);
    }
}

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

} // namespace

TEST_CASE("D.2.1 piece move: piece name and arrival square (Springer Felix drei)") {
    check({kStart,
           "g1f3",
           {"Springer Felix drei", "knight f3", "paard f3", "Springer f3", "ruiter f3",
            "cavalier f3"}});
}

TEST_CASE("D.2.1 pawn move: the pawn is named (Bauer Eva vier)") {
    check({kStart,
           "e2e4",
           {"Bauer Eva vier", "pawn e4", "pion e4", "Bauer e4", "pion e4", "pion e4"}});
}

TEST_CASE("D.2.1 pawn capture: departure file, capture word, arrival square") {
    check({"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
           "e4d5",
           {"Bauer Eva schlägt David fünf", "pawn e takes d5", "pion e slaat d5",
            "Bauer e schlägt d5", "pion e buit d5", "pion e prend d5"}});
}

TEST_CASE("D.2.1 check is announced after the move") {
    check({"rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
           "f1b5",
           {"Läufer Bella fünf, Schach", "bishop b5, check", "loper b5, schaak",
            "Läufer b5, Schach", "loper b5, skaak", "fou b5, échec"}});
}

TEST_CASE("D.2.1 piece capture giving mate") {
    check({"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
           "h5f7",
           {"Dame schlägt Felix sieben, Matt", "queen takes f7, checkmate", "dame slaat f7, mat",
            "Dame schlägt f7, Matt", "dame buit f7, skaakmat", "dame prend f7, échec et mat"}});
}

TEST_CASE("D.2.1 castling: Kurze Rochade and Lange Rochade") {
    check({"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
           "e1g1",
           {"Kurze Rochade", "castles kingside", "korte rokade", "kurze Rochade",
            "rokering koningskant", "petit roque"}});
    check({"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
           "e8c8",
           {"Lange Rochade", "castles queenside", "lange rokade", "lange Rochade",
            "rokering dameskant", "grand roque"}});
    check({"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
           "e1c1",
           {"Lange Rochade, Schach", "castles queenside, check", "lange rokade, schaak",
            "lange Rochade, Schach", "rokering dameskant, skaak", "grand roque, échec"}});
}

TEST_CASE("Guidelines II.3 Chess960 castling is named by the rook's side") {
    // King b1, rooks a1 and h1: O-O (h-side) puts the king on g1, O-O-O the king on c1.
    const Position pos = fen("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", true);
    const Move short_castle = move_from_uci(pos, "b1h1");
    const Move long_castle = move_from_uci(pos, "b1a1");
    REQUIRE(short_castle.is_castling());
    REQUIRE(long_castle.is_castling());
    CHECK(announce_move(pos, short_castle) == "Kurze Rochade");
    CHECK(announce_move(pos, long_castle) == "Lange Rochade");
}

TEST_CASE("D.2.1 en passant capture is said as such") {
    check({"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
           "e5f6",
           {"Bauer Eva schlägt Felix sechs en passant", "pawn e takes f6 en passant",
            "pion e slaat f6 en passant", "Bauer e schlägt f6 en passant",
            "pion e buit f6 en passant", "pion e prend f6 en passant"}});
}

TEST_CASE("D.2.1 [23] a promoting player names the piece chosen") {
    check({"8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
           "e7e8q",
           {"Bauer Eva acht wird Dame", "pawn e8 promotes to queen", "pion e8 promoveert tot dame",
            "Bauer e8 wird Dame", "pion e8 promoveer tot dame", "pion e8 promu en dame"}});
    // Underpromotion with capture and check: the knight on f8 attacks the king on h7.
    check(
        {"5n2/4P2k/8/8/8/8/8/4K3 w - - 0 1",
         "e7f8n",
         {"Bauer Eva schlägt Felix acht wird Springer, Schach",
          "pawn e takes f8 promotes to knight, check",
          "pion e slaat f8 promoveert tot paard, schaak",
          "Bauer e schlägt f8 wird Springer, Schach", "pion e buit f8 promoveer tot ruiter, skaak",
          "pion e prend f8 promu en cavalier, échec"}});
}

TEST_CASE("C.10 two like pieces: the departure file tells them apart") {
    check({"rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3",
           "b1d2",
           {"Springer Bella David zwei", "knight b d2", "paard b d2", "Springer b d2",
            "ruiter b d2", "cavalier b d2"}});
}

TEST_CASE("C.10 two like pieces on one file: the departure rank tells them apart") {
    check({"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1",
           "a1a3",
           {"Turm eins Anna drei", "rook 1 a3", "toren 1 a3", "Turm 1 a3", "toring 1 a3",
            "tour 1 a3"}});
}

TEST_CASE("C.10 three like pieces: the whole departure square") {
    check({"K7/2k5/8/8/4Q2Q/8/8/7Q w - - 0 1",
           "h4e1",
           {"Dame Hector vier Eva eins", "queen h4 e1", "dame h4 e1", "Dame h4 e1", "dame h4 e1",
            "dame h4 e1"}});
}

TEST_CASE("C.8 long form: the departure square of every move") {
    check({kStart,
           "g1f3",
           {"Springer Gustav eins Felix drei", "knight g1 to f3", "paard g1 naar f3",
            "Springer g1 nach f3", "ruiter g1 na f3", "cavalier g1 en f3"}},
          true);
    check({"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
           "e4d5",
           {"Bauer Eva vier schlägt David fünf", "pawn e4 takes d5", "pion e4 slaat d5",
            "Bauer e4 schlägt d5", "pion e4 buit d5", "pion e4 prend d5"}},
          true);
    check({"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
           "e1g1",
           {"Kurze Rochade", "castles kingside", "korte rokade", "kurze Rochade",
            "rokering koningskant", "petit roque"}},
          true);
}

TEST_CASE("D.2.1 vocabulary codes") {
    for (const Vocabulary v : kVocabularies) CHECK(vocabulary_from_code(vocabulary_code(v)) == v);
    CHECK(vocabulary_from_code("appendix-f") == Vocabulary::AppendixD);
    CHECK(vocabulary_from_code("german") == Vocabulary::German);
    CHECK_FALSE(vocabulary_from_code("klingon"));
    CHECK(square_words(Square::parse("c8"), Vocabulary::AppendixD) == "Cesar acht");
    CHECK(square_words(Square::parse("h1"), Vocabulary::AppendixD) == "Hector eins");
    CHECK(square_words(Square::parse("h1"), Vocabulary::French) == "h1");
}
