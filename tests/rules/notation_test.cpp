// Algebraic notation: App. C of the 2023 Laws (App. E of 2005) and PGN 8.2.3 SAN.
#include "rules/notation.hpp"

#include <catch2/catch.hpp>

using namespace eboard;

namespace {

Position fen(const char* f, bool chess960 = false) {
    auto p = Position::from_fen(f, chess960);
    REQUIRE(p);
    return std::move(p.value());
}

Move mv(const Position& pos, std::string_view text, Language lang = Language::English) {
    auto m = parse_move(pos, text, lang);
    INFO(text << ": " << (m ? std::string() : m.error().message));
    REQUIRE(m);
    return *m;
}

std::string error_of(const Position& pos, std::string_view text,
                     Language lang = Language::English) {
    auto m = parse_move(pos, text, lang);
    INFO(text);
    REQUIRE_FALSE(m);
    return m.error().message;
}

Move uci(const Position& pos, std::string_view u) {
    const Move m = move_from_uci(pos, u);
    REQUIRE_FALSE(m.is_none());
    return m;
}

constexpr Language kLanguages[] = {Language::English, Language::Dutch,   Language::German,
                                   Language::French,  Language::Italian, Language::Afrikaans};

} // namespace

TEST_CASE("C.2 piece letters of six languages, both ways") {
    struct Row {
        Language lang;
        const char* kqrbn;
    };
    for (const Row r : {Row{Language::English, "KQRBN"}, Row{Language::Dutch, "KDTLP"},
                        Row{Language::German, "KDTLS"}, Row{Language::French, "RDTFC"},
                        Row{Language::Italian, "RDTAC"}, Row{Language::Afrikaans, "KDTLR"}}) {
        const PieceType types[] = {PieceType::King, PieceType::Queen, PieceType::Rook,
                                   PieceType::Bishop, PieceType::Knight};
        for (int i = 0; i < 5; ++i) {
            CHECK(piece_letter(types[i], r.lang) == r.kqrbn[i]);
            CHECK(piece_from_letter(r.kqrbn[i], r.lang) == types[i]);
        }
        CHECK(piece_letter(PieceType::Pawn, r.lang) == '\0');
        CHECK(language_from_code(language_code(r.lang)) == r.lang);
    }
    CHECK(piece_from_letter('X', Language::English) == PieceType::None);
    CHECK(language_from_code("afrikaans") == Language::Afrikaans);
    CHECK_FALSE(language_from_code("xx"));
}

TEST_CASE("C.2 the knight's first move in each language, printed and read") {
    const Position start = Position::startpos();
    const Move ng1f3 = uci(start, "g1f3");
    const char* expected[] = {"Nf3", "Pf3", "Sf3", "Cf3", "Cf3", "Rf3"};
    for (std::size_t i = 0; i < 6; ++i) {
        const NotationFormat fmt{kLanguages[i]};
        CHECK(to_san(start, ng1f3, fmt) == expected[i]);
        CHECK(mv(start, expected[i], kLanguages[i]) == ng1f3);
    }
    // Letters collide: "Pf3" is a pawn move in English and a knight move in Dutch.
    CHECK(mv(start, "Pf3", Language::English) == uci(start, "f2f3"));
    CHECK(mv(start, "Pf3", Language::Dutch) == ng1f3);
    CHECK(mv(start, "Pg1f3", Language::Dutch) == ng1f3); // long notation, [23] C.8
}

TEST_CASE("C.2 every legal move round trips through SAN and long notation in every language") {
    const char* fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // Kiwipete
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", // promotions, captures onto the last rank
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    for (const char* f : fens) {
        const Position pos = fen(f);
        for (const Move m : pos.legal_moves()) {
            for (const Language lang : kLanguages) {
                for (const NotationFormat fmt : {NotationFormat{lang}, fide_format(lang)}) {
                    const std::string san = to_san(pos, m, fmt);
                    const std::string lan = to_lan(pos, m, fmt);
                    INFO(f << " " << to_uci(pos, m) << " " << san << " " << lan);
                    CHECK(mv(pos, san, lang) == m);
                    CHECK(mv(pos, lan, lang) == m);
                }
            }
            NotationFormat figurines;
            figurines.figurines = true;
            CHECK(mv(pos, to_san(pos, m, figurines)) == m);
            CHECK(mv(pos, to_uci(pos, m)) == m);
        }
    }
}

TEST_CASE("C.10 two knights on one rank: the departure file (Ngf3 / Nef3)") {
    const Position pos = fen("4k3/8/8/8/8/8/8/4NKN1 w - - 0 1");
    CHECK(to_san(pos, uci(pos, "g1f3")) == "Ngf3");
    CHECK(to_san(pos, uci(pos, "e1f3")) == "Nef3");
    CHECK(to_san(pos, uci(pos, "g1f3"), NotationFormat{Language::Dutch}) == "Pgf3");
    CHECK(to_san(pos, uci(pos, "g1f3"), NotationFormat{Language::Afrikaans}) == "Rgf3");
    CHECK(to_san(pos, uci(pos, "g1h3")) == "Nh3"); // only one knight reaches h3
}

TEST_CASE("C.10 two knights on one file: the departure rank (N5f3)") {
    const Position pos = fen("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1");
    CHECK(to_san(pos, uci(pos, "g5f3")) == "N5f3");
    CHECK(to_san(pos, uci(pos, "g1f3")) == "N1f3");
    CHECK(mv(pos, "N5f3") == uci(pos, "g5f3"));
    CHECK(mv(pos, "Ng5f3") == uci(pos, "g5f3")); // over-specified is accepted
}

TEST_CASE("C.10 three queens: file, rank, or the whole departure square") {
    const Position pos = fen("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    CHECK(to_san(pos, uci(pos, "a1b2")) == "Qa1b2");
    CHECK(to_san(pos, uci(pos, "c1b2")) == "Qcb2");
    CHECK(to_san(pos, uci(pos, "a3b2")) == "Q3b2");
    CHECK(mv(pos, "Qa1b2") == uci(pos, "a1b2"));
    CHECK(error_of(pos, "Qab2").find("ambiguous") != std::string::npos);
    CHECK(error_of(pos, "Qb2") == "ambiguous move 'Qb2': Qa1b2, Qcb2 or Q3b2");
}

TEST_CASE("C.10 a pinned piece does not need to be told apart (PGN 8.2.3.4)") {
    const Position pos = fen("4k3/8/8/8/1b6/8/3N3N/4K3 w - - 0 1");
    CHECK(to_san(pos, uci(pos, "h2f3")) == "Nf3");
    CHECK(mv(pos, "Nf3") == uci(pos, "h2f3"));
    CHECK(error_of(pos, "Ndf3") == "illegal move 'Ndf3': it would leave the king in check");
}

TEST_CASE("C.9 captures: x, pawn captures with the departure file, x optional in 2023") {
    const Position pos = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    const Move exd5 = uci(pos, "e4d5");
    CHECK(to_san(pos, exd5) == "exd5");
    CHECK(to_lan(pos, exd5) == "e4xd5");
    CHECK(mv(pos, "ed5") == exd5);
    CHECK(mv(pos, "e:d5") == exd5);
    CHECK(mv(pos, "xd5") == exd5);
    CHECK(error_of(pos, "d5") == "no legal move 'd5': no white pawn can go to d5");
}

TEST_CASE("C.11 en passant: arrival square, e.p. optional") {
    const Position pos = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    const Move ep = uci(pos, "e5d6");
    CHECK(ep.kind() == Move::Kind::EnPassant);
    CHECK(to_san(pos, ep) == "exd6");
    NotationFormat fmt = fide_format(Language::German);
    fmt.en_passant_suffix = true;
    CHECK(to_san(pos, ep, fmt) == "exd6 e.p.");
    for (const char* t : {"exd6", "exd6 e.p.", "exd6e.p.", "exd6 ep", "ed6 e.p.", "e5xd6"}) {
        CHECK(mv(pos, t) == ep);
    }
    CHECK_FALSE(parse_move(pos, "e6 e.p.")); // not an en passant capture
}

TEST_CASE("C.12 promotion: e8=Q in PGN, e8D on a Dutch scoresheet, lenient forms") {
    const Position pos = fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    const Move q = Move::promotion(Square::parse("e7"), Square::parse("e8"), PieceType::Queen);
    const Move n = Move::promotion(Square::parse("e7"), Square::parse("e8"), PieceType::Knight);
    CHECK(to_san(pos, q) == "e8=Q");
    CHECK(to_san(pos, q, fide_format(Language::Dutch)) == "e8D");
    CHECK(to_san(pos, n, fide_format(Language::Afrikaans)) == "e8R");
    CHECK(to_san(pos, n, fide_format(Language::German)) == "e8S");
    CHECK(to_lan(pos, q) == "e7-e8=Q");
    for (const char* t :
         {"e8=Q", "e8Q", "e8(Q)", "e8/Q", "e7e8q", "e7-e8=Q", "e8=\u2655", "e8Q+"}) {
        CHECK(mv(pos, t) == q);
    }
    CHECK(mv(pos, "e8D", Language::Dutch) == q);
    CHECK(mv(pos, "e8P", Language::Dutch) == n);
    CHECK(error_of(pos, "e8") == "promotion piece missing in 'e8'");
    CHECK(error_of(pos, "e8=K").find("cannot be promoted") != std::string::npos);
}

TEST_CASE("C.13 check + and checkmate #, annotations and draw offer ignored on input") {
    const Position pos = fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2");
    const Move qh4 = uci(pos, "d8h4");
    CHECK(to_san(pos, qh4) == "Qh4#");
    CHECK(to_lan(pos, qh4) == "Qd8-h4#");
    for (const char* t : {"Qh4", "Qh4#", "Qh4++", "Qh4+", "Qh4!", "Qh4!?", "Qh4 (=)", " Qh4# "}) {
        CHECK(mv(pos, t) == qh4);
    }
    const Position check = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    CHECK(to_san(check, uci(check, "a1a8")) == "Ra8+");
}

TEST_CASE("C.13 castling O-O and O-O-O, 0-0 with zeros") {
    const Position pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const Move oo = uci(pos, "e1g1");
    const Move ooo = uci(pos, "e1c1");
    CHECK(oo.is_castling());
    CHECK(to_san(pos, oo) == "O-O");
    CHECK(to_san(pos, ooo) == "O-O-O");
    CHECK(to_san(pos, oo, fide_format(Language::Dutch)) == "0-0");
    CHECK(to_lan(pos, ooo) == "O-O-O");
    for (const char* t : {"O-O", "0-0", "o-o", "OO", "O-O+", "Ke1-g1", "e1g1", "e1h1"}) {
        CHECK(mv(pos, t) == oo);
    }
    for (const char* t : {"O-O-O", "0-0-0", "Ke1c1", "e1c1", "e1a1"}) CHECK(mv(pos, t) == ooo);
    CHECK(mv(pos, "Kf1") == uci(pos, "e1f1"));
    const Position no_right = fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    CHECK(error_of(no_right, "O-O") == "illegal move 'O-O': no castling right on that side");
    const Position attacked = fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    CHECK(error_of(attacked, "0-0").find("attacked") != std::string::npos);
}

TEST_CASE("Guidelines II.3 Chess960 castling written O-O / O-O-O, read from UCI king->rook") {
    // King b1, rooks a1 and h1: O-O-O puts the king on c1 (one square) and the rook on d1.
    const Position pos = fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", true);
    const Move ooo = Move::castling(Square::parse("b1"), Square::parse("a1"));
    REQUIRE(pos.is_legal(ooo));
    CHECK(to_san(pos, ooo) == "O-O-O");
    CHECK(mv(pos, "O-O-O") == ooo);
    CHECK(mv(pos, "0-0-0") == ooo);
    CHECK(mv(pos, "b1a1") == ooo);
    // The one-square step b1-c1 stays an ordinary king move.
    CHECK(mv(pos, "Kc1") == Move::normal(Square::parse("b1"), Square::parse("c1")));
    CHECK(mv(pos, "Kb1-c1") == Move::normal(Square::parse("b1"), Square::parse("c1")));
}

TEST_CASE("App. C lenient input: figurines, long algebraic, UCI, white space") {
    const Position start = Position::startpos();
    const Move e4 = uci(start, "e2e4");
    const Move nf3 = uci(start, "g1f3");
    for (const char* t : {"e4", "e2-e4", "e2e4", "Pe4", "e2xe4", " e4 ", "\u2659e4"}) {
        CHECK(mv(start, t) == e4);
    }
    for (const char* t : {"Nf3", "Ng1-f3", "g1f3", "Ngf3", "N1f3", "\u2658f3", "\u265ef3"}) {
        CHECK(mv(start, t) == nf3);
    }
    CHECK(mv(start, "\u2658f3", Language::Dutch) == nf3); // figurines in any language
}

TEST_CASE("App. C move errors say why") {
    const Position start = Position::startpos();
    CHECK(error_of(start, "") == "empty move");
    CHECK(error_of(start, "  !? ") == "empty move");
    CHECK(error_of(start, "Xf3") == "unknown piece letter 'X' in 'Xf3'");
    auto bad = parse_move(start, "Nz9");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().column == 2);
    CHECK(error_of(start, "Qh5") == "no legal move 'Qh5': no white queen can go to h5");
    CHECK(error_of(start, "e5") == "no legal move 'e5': no white pawn can go to e5");
    CHECK(error_of(start, "e3e4") == "no white piece on e3 in 'e3e4'");
    CHECK(error_of(start, "Z0").find("null move") != std::string::npos);
    CHECK(error_of(start, "Nf3", Language::German).find("unknown piece letter 'N'") == 0);

    const Position king = fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    CHECK(error_of(king, "Ke2") == "illegal move 'Ke2': the king would be in check");
    CHECK(error_of(king, "Kd1") == "illegal move 'Kd1': the king would be in check");

    const Position in_check = fen("4k3/8/8/8/8/8/8/r3K1N1 w - - 0 1");
    CHECK(error_of(in_check, "Nf3") == "illegal move 'Nf3': it does not answer the check");
    CHECK(error_of(fen("4k3/8/8/8/8/8/8/4NKN1 w - - 0 1"), "Nf3") ==
          "ambiguous move 'Nf3': Nef3 or Ngf3");
}

TEST_CASE("bare SAN drops check, mate and annotation marks") {
    CHECK(bare_san("Qh4#") == "Qh4");
    CHECK(bare_san("e8=Q+!?") == "e8=Q");
    CHECK(bare_san("O-O") == "O-O");
    CHECK(bare_san("") == "");
}
