// FEN, X-FEN and Shredder-FEN: round trips and the validation messages (one test per message).
#include <catch2/catch.hpp>

#include "perft_files.hpp"
#include "rules/position.hpp"

using namespace eboard;

namespace {
/// The error message of from_fen, or "" if the FEN was accepted.
std::string error_of(std::string_view fen, bool chess960 = false) {
    const auto p = Position::from_fen(fen, chess960);
    return p ? std::string() : p.error().message;
}
} // namespace

TEST_CASE("FEN round trip: the start position and six-field FENs come back unchanged") {
    CHECK(Position::startpos().fen() ==
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (const char* fen : {
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 12 40",
             "r3k3/8/8/8/8/8/8/4K2R b Kq - 99 120",
         }) {
        const auto p = Position::from_fen(fen);
        REQUIRE(p.has_value());
        CHECK(p->fen() == fen);
    }
}

TEST_CASE("FEN round trip over every position of the perft files (fen and shredder_fen)") {
    int n = 0;
    for (const auto& file : test::kPerftFiles) {
        for (const auto& c : test::perft_file(file.name)) {
            INFO(file.name << ":" << c.line << " " << c.fen);
            auto p = test::load_reference_position(c.fen, file.chess960);
            REQUIRE(p.has_value());
            const std::string fen = p->fen();
            const auto again = Position::from_fen(fen, p->chess960());
            REQUIRE(again.has_value());
            CHECK(again->fen() == fen);
            CHECK(again->key() == p->key());
            const auto shredder = Position::from_fen(p->shredder_fen(), p->chess960());
            REQUIRE(shredder.has_value());
            CHECK(shredder->fen() == fen);
            // The first four fields are the input's (EPD-style inputs have no clocks).
            CHECK(fen.substr(0, fen.find(' ')) == c.fen.substr(0, c.fen.find(' ')));
            ++n;
        }
    }
    CHECK(n > 7900);
}

TEST_CASE("X-FEN writes K/Q for the outermost rook and the file letter for an inner one") {
    const auto p = Position::from_fen("1r2k1rr/ppppppp1/8/8/8/8/PPPPPPP1/1R2K1RR w GBgb - 0 1", true);
    REQUIRE(p.has_value());
    CHECK(p->castling_rook(Color::White, true) == Square::parse("g1"));
    CHECK(p->castling_rook(Color::White, false) == Square::parse("b1"));
    CHECK(p->castling_rook(Color::Black, true) == Square::parse("g8"));
    CHECK(p->fen() == "1r2k1rr/ppppppp1/8/8/8/8/PPPPPPP1/1R2K1RR w GQgq - 0 1");
    CHECK(p->shredder_fen() == "1r2k1rr/ppppppp1/8/8/8/8/PPPPPPP1/1R2K1RR w GBgb - 0 1");
    // K in X-FEN means the outermost rook: h1 here.
    const auto outer = Position::from_fen("1r2k1rr/8/8/8/8/8/8/1R2K1RR w K - 0 1", true);
    REQUIRE(outer.has_value());
    CHECK(outer->castling_rook(Color::White, true) == Square::parse("h1"));
}

TEST_CASE("Shredder-FEN letters for standard rooks are accepted in standard chess") {
    const auto p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    REQUIRE(p.has_value());
    CHECK(p->fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    CHECK(Position::startpos().shredder_fen() ==
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
}

TEST_CASE("EPD-style FEN without clocks gets halfmove 0 and move number 1") {
    const auto p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - -");
    REQUIRE(p.has_value());
    CHECK(p->halfmove_clock() == 0);
    CHECK(p->fullmove_number() == 1);
    CHECK(p->side_to_move() == Color::Black);
}

TEST_CASE("FEN error: two white kings") {
    CHECK(error_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1") == "two white kings");
}
TEST_CASE("FEN error: no black king") {
    CHECK(error_of("8/8/8/8/8/8/8/4K3 w - - 0 1") == "no black king");
}
TEST_CASE("FEN error: side not to move is in check") {
    CHECK(error_of("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1") == "side not to move is in check");
    CHECK(error_of("8/8/8/8/8/8/8/3kK3 b - - 0 1") == "side not to move is in check");
}
TEST_CASE("FEN error: castling right without a rook on h1") {
    CHECK(error_of("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1") ==
          "castling right without a rook on h1");
    CHECK(error_of("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1") ==
          "castling right without a rook on h8");
}
TEST_CASE("FEN error: castling right without the king on e1") {
    CHECK(error_of("r3k2r/8/8/8/8/8/8/R4K1R w KQ - 0 1") ==
          "castling right without the white king on e1");
}
TEST_CASE("FEN error: Chess960 castling letters in standard chess") {
    CHECK(error_of("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GB - 0 1") ==
          "castling right G is only possible in Chess960");
    CHECK(error_of("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", true).empty());
}
TEST_CASE("FEN error: Chess960 castling right without a rook on that side") {
    CHECK(error_of("1r4k1/8/8/8/8/8/8/1R4K1 w K - 0 1", true) ==
          "castling right without a rook on the king side of the white king");
    CHECK(error_of("1r4k1/8/8/8/8/8/8/1R4K1 w C - 0 1", true) ==
          "castling right without a rook on c1");
}
TEST_CASE("FEN error: two castling rights on the same side") {
    CHECK(error_of("1r2k1rr/8/8/8/8/8/8/1R2K1RR w GH - 0 1", true) ==
          "two white king-side castling rights");
}
TEST_CASE("FEN error: impossible en passant square") {
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w - e6 0 1") == "impossible en passant square e6");
    CHECK(error_of("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1") == "impossible en passant square d3");
    CHECK(error_of("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1") == "impossible en passant square d6");
    CHECK(error_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").empty());
}
TEST_CASE("FEN error: pawn on the first rank") {
    CHECK(error_of("4k3/8/8/8/8/8/8/P3K3 w - - 0 1") == "pawn on the first rank");
}
TEST_CASE("FEN error: pawn on the eighth rank") {
    CHECK(error_of("p3k3/8/8/8/8/8/8/4K3 w - - 0 1") == "pawn on the eighth rank");
}
TEST_CASE("FEN error: more than 8 pawns of one colour") {
    CHECK(error_of("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1") == "more than 8 black pawns");
}
TEST_CASE("FEN error: more than 16 pieces of one colour") {
    CHECK(error_of("4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/3QK3 w - - 0 1") == "more than 16 white pieces");
}
TEST_CASE("FEN error: more promoted pieces than missing pawns (3.7.5.1)") {
    CHECK(error_of("4k3/8/8/8/8/P7/QQQQQQQQ/3QK3 w - - 0 1") ==
          "too many white pieces: 1 pawns and 8 promoted pieces");
    CHECK(error_of("k7/8/8/8/8/8/NNNNNNNN/1N2K1N1 w - - 0 1").empty()); // 8 promoted, 0 pawns
}
TEST_CASE("FEN error: Chess960 castling right without the king on its first rank") {
    CHECK(error_of("1r2k1r1/8/8/8/8/8/4K3/1R4R1 w GB - 0 1", true) ==
          "castling right without the white king on the first rank");
}
TEST_CASE("FEN error: bad FEN syntax is named") {
    CHECK(error_of("") == "bad FEN: empty");
    CHECK(error_of("8/8/8/8/8/8/8/8") == "bad FEN: no side to move");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 x - - 0 1") == "bad FEN: side to move 'x', not w or b");
    CHECK(error_of("4k3/8/8/8/8/8/4K3 w - - 0 1") == "bad FEN: 7 ranks in the board, not 8");
    CHECK(error_of("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1") == "bad FEN: more than 8 ranks in the board");
    CHECK(error_of("4k4/8/8/8/8/8/8/4K3 w - - 0 1") ==
          "bad FEN: rank 8 has more than 8 squares");
    CHECK(error_of("4k2/8/8/8/8/8/8/4K3 w - - 0 1") == "bad FEN: rank 8 has 7 squares, not 8");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2 w - - 0 1") == "bad FEN: rank 1 has 7 squares, not 8");
    CHECK(error_of("4k3/8/8/8/8/8/8/4X3 w - - 0 1") == "bad FEN: unexpected 'X' in the board");
    CHECK(error_of("4k3/8/8/8/8/8/8/4\x01" "3 w - - 0 1") ==
          "bad FEN: unexpected byte 0x01 in the board");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w X - 0 1") ==
          "bad FEN: unexpected 'X' in the castling rights");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w - e9 0 1") == "bad FEN: en passant square 'e9'");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w - - -1 1") == "bad FEN: halfmove clock '-1'");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w - - 0 x") == "bad FEN: move number 'x'");
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra") == "bad FEN: more than six fields");
}
