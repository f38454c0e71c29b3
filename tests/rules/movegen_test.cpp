// Legal moves, make/unmake, check, checkmate, stalemate, gives_check and the key of Art. 9.2,
// cross-checked against each other over the perft trees of the reference files.
#include <catch2/catch.hpp>

#include <bit>

#include "perft_files.hpp"
#include "rules/position.hpp"

using namespace eboard;

namespace {

Position pos(std::string_view fen, bool chess960 = false) {
    auto p = Position::from_fen(fen, chess960);
    if (!p) FAIL("bad test FEN " << fen << ": " << p.error().message);
    return std::move(p).value();
}

struct TreeStats {
    std::uint64_t moves = 0;
    std::uint64_t checks = 0;
    std::uint64_t mates = 0;
    std::uint64_t stalemates = 0;
};

/// Walks the legal move tree to `depth` checking invariants at every node and move.
void walk(Position& p, int depth, TreeStats& stats) {
    const MoveList moves = p.legal_moves();
    CHECK(p.has_legal_move() == !moves.empty());
    CHECK(p.is_checkmate() == (moves.empty() && p.in_check()));
    CHECK(p.is_stalemate() == (moves.empty() && !p.in_check()));
    stats.mates += p.is_checkmate();
    stats.stalemates += p.is_stalemate();
    if (depth == 0) return;
    const std::string fen = p.fen();
    const std::uint64_t key = p.key();
    for (const Move m : moves) {
        ++stats.moves;
        const bool check = p.gives_check(m);
        const int pieces_before = std::popcount(p.occupied());
        const bool capture = p.is_capture(m);
        CHECK(p.is_legal(m));
        CHECK(move_from_uci(p, to_uci(p, m)) == m);
        p.make_move(m);
        INFO(fen << " move " << m.from().name() << m.to().name());
        CHECK(check == p.in_check());
        stats.checks += check;
        CHECK(capture == (std::popcount(p.occupied()) == pieces_before - 1));
        // The incremental key equals the key of the same position read from its FEN.
        CHECK(p.key() == pos(p.fen(), p.chess960()).key());
        walk(p, depth - 1, stats);
        p.unmake_move();
        CHECK(p.fen() == fen);
        CHECK(p.key() == key);
    }
}

} // namespace

TEST_CASE("gives_check, checkmate, stalemate and keys agree over the perft trees") {
    TreeStats stats;
    for (const auto& file : test::kPerftFiles) {
        const auto cases = test::perft_file(file.name);
        // Every position of the small files; a spread sample of the large ones.
        const std::size_t step = cases.size() > 100 ? cases.size() / 60 : 1;
        for (std::size_t i = 0; i < cases.size(); i += step) {
            INFO(file.name << ":" << cases[i].line);
            auto p = test::load_reference_position(cases[i].fen, file.chess960);
            REQUIRE(p.has_value());
            walk(*p, 2, stats);
        }
    }
    CHECK(stats.moves > 100000);
    CHECK(stats.checks > 1000);
    CHECK(stats.mates > 0);
}

TEST_CASE("1.4.1 checkmate: fool's mate") {
    Position p = Position::startpos();
    for (const char* uci : {"f2f3", "e7e5", "g2g4", "d8h4"}) {
        const Move m = move_from_uci(p, uci);
        REQUIRE_FALSE(m.is_none());
        p.make_move(m);
    }
    CHECK(p.in_check());
    CHECK(p.is_checkmate());
    CHECK_FALSE(p.is_stalemate());
    CHECK(p.legal_moves().empty());
    CHECK(p.checkers() == bb(Square::parse("h4")));
}

TEST_CASE("5.2.1 stalemate: the side to move has no legal move and is not in check") {
    const Position p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CHECK(p.is_stalemate());
    CHECK_FALSE(p.is_checkmate());
    CHECK_FALSE(p.has_legal_move());
}

TEST_CASE("9.2 same position: an en passant square counts only if the capture is legal") {
    // d5 pawn pinned against the king on a5? No: here the e5 pawn is pinned on the a5-h5 rank
    // (king a5, rook h5), so exd6 e.p. would expose the king: not a possible move.
    const Position pinned = pos("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2");
    const Position no_ep = pos("4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2");
    CHECK(pinned.ep_square() == Square::parse("d6"));
    CHECK(pinned.legal_moves().size() == no_ep.legal_moves().size());
    CHECK(pinned.key() == no_ep.key());
    // Without the pin the capture is possible, so the positions differ.
    const Position free = pos("4k3/8/8/3pP3/8/8/8/K7 w - d6 0 2");
    const Position free_no_ep = pos("4k3/8/8/3pP3/8/8/8/K7 w - - 0 2");
    CHECK(free.key() != free_no_ep.key());
    CHECK(free.legal_moves().contains(Move::en_passant(Square::parse("e5"), Square::parse("d6"))));
}

TEST_CASE("9.2 same position: knights out and back repeat the start key, castling rights count") {
    Position p = Position::startpos();
    const std::uint64_t start = p.key();
    for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8"}) p.make_move(move_from_uci(p, uci));
    CHECK(p.key() == start);
    CHECK(p.fen() != Position::startpos().fen()); // clocks differ, the position does not
    const Position rights = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const Position fewer = pos("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1");
    CHECK(rights.key() != fewer.key());
    const Position black = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    CHECK(rights.key() != black.key());
}

TEST_CASE("3.8.2 castling: not out of, through or into check, squares between must be empty") {
    CHECK(pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").legal_moves().size() == 26);
    // f1 attacked: no king-side castling; b1 attacked does not matter for queen-side.
    const Position through = pos("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    CHECK_FALSE(through.is_legal(Move::castling(Square::parse("e1"), Square::parse("h1"))));
    const Position b1 = pos("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
    CHECK(b1.is_legal(Move::castling(Square::parse("e1"), Square::parse("a1"))));
    const Position blocked = pos("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    CHECK_FALSE(blocked.is_legal(Move::castling(Square::parse("e1"), Square::parse("a1"))));
    CHECK(to_uci(b1, Move::castling(Square::parse("e1"), Square::parse("a1"))) == "e1c1");
    CHECK(move_from_uci(b1, "e1c1") == Move::castling(Square::parse("e1"), Square::parse("a1")));
    CHECK(move_from_uci(b1, "e1a1") == Move::castling(Square::parse("e1"), Square::parse("a1")));
}

TEST_CASE("Guidelines II castling: the castling rook may shield the king's final square") {
    // King d1, castling rook b1, black queen a1: before castling b1 blocks the a1 queen, after
    // O-O-O (king c1, rook d1) c1 would be attacked along the first rank. Illegal.
    const Position shield = pos("4k3/8/8/8/8/8/8/qR1K4 w B - 0 1", true);
    CHECK_FALSE(shield.is_legal(Move::castling(Square::parse("d1"), Square::parse("b1"))));
    // Same without the queen: legal, written king -> rook in Chess960 UCI.
    const Position free = pos("4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", true);
    const Move ooo = Move::castling(Square::parse("d1"), Square::parse("b1"));
    REQUIRE(free.is_legal(ooo));
    CHECK(to_uci(free, ooo) == "d1b1");
    Position after = free.copy();
    after.make_move(ooo);
    CHECK(after.piece_on(Square::parse("c1")) == Piece::WKing);
    CHECK(after.piece_on(Square::parse("d1")) == Piece::WRook);
    CHECK(after.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    after.unmake_move();
    CHECK(after.fen() == free.fen());
}

TEST_CASE("Guidelines II castling: king already on g1 and rook on f1's way") {
    // King g1 castles with the h1 rook: only the rook moves (to f1). f1 must be empty.
    const Position p = pos("6k1/8/8/8/8/8/8/6KR w K - 0 1", true);
    const Move oo = Move::castling(Square::parse("g1"), Square::parse("h1"));
    REQUIRE(p.is_legal(oo));
    CHECK(p.gives_check(oo) == false);
    Position q = p.copy();
    q.make_move(oo);
    CHECK(q.fen() == "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Rook on f1 and king on g1 swapped: Kf1 castles with the g1 rook into king g1, rook f1.
    const Position swap = pos("k7/8/8/8/8/8/8/5KR1 w K - 0 1", true);
    CHECK(swap.is_legal(Move::castling(Square::parse("f1"), Square::parse("g1"))));
    // The castling rook gives check from f1 onto the f-file king.
    const Position check = pos("5k2/8/8/8/8/8/8/6KR w K - 0 1", true);
    CHECK(check.gives_check(Move::castling(Square::parse("g1"), Square::parse("h1"))));
}

TEST_CASE("is_legal answers any 16-bit value without crashing") {
    for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1"}) {
        const Position p = pos(fen);
        const MoveList legal = p.legal_moves();
        std::size_t accepted = 0;
        for (unsigned raw = 0; raw < 65536; ++raw) {
            const Move m = std::bit_cast<Move>(static_cast<std::uint16_t>(raw));
            const bool ok = p.is_legal(m);
            CHECK(ok == legal.contains(m));
            accepted += ok;
        }
        CHECK(accepted == legal.size());
    }
}

TEST_CASE("captured_piece and moved_piece name the pieces, e.p. included") {
    const Position p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    const Move ep = Move::en_passant(Square::parse("e5"), Square::parse("d6"));
    CHECK(p.is_capture(ep));
    CHECK(p.captured_piece(ep) == Piece::BPawn);
    CHECK(p.moved_piece(ep) == Piece::WPawn);
    CHECK(move_from_uci(p, "e5d6") == ep);
    CHECK(move_from_uci(p, "e5e7").is_none());
    CHECK(move_from_uci(p, "zz").is_none());
}
