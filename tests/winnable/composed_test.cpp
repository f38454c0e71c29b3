// Composed positions (FenMaterial::Composed): the dead-position ground truth has positions no
// game can reach (nine pawns, three bishops of one colour and eight pawns, ...). Winnability is
// still a question about them (Art. 5.2.2 and 6.9 speak of the position on the board), so
// eboard-winnable reads them; everything that would make the position ill-formed or unsafe for
// the move generator is still refused.
#include <catch2/catch.hpp>

#include <string>

#include "rules/position.hpp"
#include "rules/winnable.hpp"

using namespace eboard;

namespace {

std::string refusal(const std::string& fen) {
    const auto p = Position::from_fen(fen, false, FenMaterial::Composed);
    return p ? std::string("accepted") : p.error().message;
}

} // namespace

TEST_CASE("3.7.5.1 more pawns or promoted pieces than a game can have: refused by default, "
          "read as a composed position") {
    const std::string nine_pawns = "8/4p1p1/p1p1P1P1/P1P1pBp1/pBp1P1P1/P1P5/4K1P1/2k5 b - -";
    const std::string three_bishops = "5k2/6p1/5pP1/4pP1B/3pP1B1/2pP1B1B/2P1B1B1/3B1BKB w - -";
    CHECK_FALSE(Position::from_fen(nine_pawns).has_value());
    CHECK(Position::from_fen(nine_pawns).error().message == "more than 8 white pawns");
    CHECK_FALSE(Position::from_fen(three_bishops).has_value());
    CHECK(refusal(nine_pawns) == "accepted");
    CHECK(refusal(three_bishops) == "accepted");
    const auto p = Position::from_fen(nine_pawns, false, FenMaterial::Composed);
    REQUIRE(p.has_value());
    CHECK(p->fen() == "8/4p1p1/p1p1P1P1/P1P1pBp1/pBp1P1P1/P1P5/4K1P1/2k5 b - - 0 1");
}

TEST_CASE("a composed position must still be a legal-looking position") {
    CHECK(refusal("4k3/8/8/8/8/8/8/4KK2 w - - 0 1") == "two white kings");
    CHECK(refusal("8/8/8/8/8/8/8/4K3 w - - 0 1") == "no black king");
    CHECK(refusal("4k2P/8/8/8/8/8/8/4K3 w - - 0 1") == "pawn on the eighth rank");
    CHECK(refusal("4k3/8/8/8/8/8/8/4K2r w - - 0 1") == "accepted");  // White to move, in check
    CHECK(refusal("4k3/8/8/8/8/8/8/4K2r b - - 0 1") == "side not to move is in check");
    CHECK(refusal("4k3/8/8/8/8/8/8/4K3 w K - 0 1") == "castling right without a rook on h1");
    CHECK(refusal("qqqqqqqq/qqqqqqqq/k7/8/8/8/8/4K3 w - - 0 1") == "more than 16 black pieces");
}

TEST_CASE("move_count_bound is never below the number of legal moves") {
    const char* fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/PPPPPPPP/Q4Q2/3Q4/1Q4Q1/K3Q3/2Q3bb/6rk w - - 0 1",  // composed: 8 pawns, 7 queens
        "6rk/6pp/Q1Q1Q1Q1/Q6Q/3Q1Q1Q/Q6Q/2Q1Q3/KQ4Q1 w - - 0 1",  // composed: 15 queens
        "4k3/qqqqqqqq/1rrrr3/8/8/8/B1B1B1B1/4K3 b - - 0 1",
    };
    for (const char* fen : fens) {
        INFO(fen);
        const auto p = Position::from_fen(fen, false, FenMaterial::Composed);
        REQUIRE(p.has_value());
        const int bound = move_count_bound(p.value());
        CHECK(bound >= static_cast<int>(p->legal_moves().size()));
        CHECK(bound <= static_cast<int>(MoveList::kCapacity));
    }
}

TEST_CASE("5.2.2 composed positions are answered, soundly") {
    // Labels from data/deadpos/chasolver_positions.txt (CHA's ground truth).
    const auto quick = [](const std::string& fen) {
        return winnability_label_of_fen(fen, false, WinnableMode::Quick).value();
    };
    const auto full = [](const std::string& fen) {
        return winnability_label_of_fen(fen, false, WinnableMode::Full).value();
    };
    // 12 black queens and rooks against four light bishops: White can never mate.
    CHECK(quick("4k3/qqqqqqqq/1rrrr3/8/8/8/B1B1B1B1/4K3 b - -")[0] == '-');
    CHECK(full("4k3/qqqqqqqq/1rrrr3/8/8/8/B1B1B1B1/4K3 b - -") == "-B");
    CHECK(full("qq6/qq6/qq6/qq6/kP3q1q/4q3/PP4K1/q2q4 w - -") == "-B");
    // Nine white pawns, a dead position (truth "--"): never a letter.
    const std::string nine = full("8/4p1p1/p1p1P1P1/P1P1pBp1/pBp1P1P1/P1P5/4K1P1/2k5 b - -");
    CHECK(nine[0] != 'W');
    CHECK(nine[1] != 'B');
}
