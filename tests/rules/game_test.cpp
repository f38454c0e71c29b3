// The game state of Art. 5 and 9 (rules/game.hpp) under the built-in profiles: one test per
// rule, named after its article and edition.
#include "rules/game.hpp"
#include "rules/notation.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

using namespace eboard;

namespace {

Profile profile(std::string_view name) {
    auto p = builtin_profile(name);
    REQUIRE(p);
    return p.value();
}

Position fen(std::string_view text) {
    auto p = Position::from_fen(text);
    INFO(text << ": " << (p ? std::string() : p.error().message));
    REQUIRE(p);
    return std::move(p.value());
}

/// Plays space-separated UCI moves; every one must be legal and leave the game going unless
/// it is the last.
Outcome play(Game& g, std::string_view uci_moves) {
    std::istringstream in{std::string(uci_moves)};
    std::string uci;
    Outcome last;
    while (in >> uci) {
        REQUIRE_FALSE(last.ended());
        auto o = g.play_uci(uci);
        INFO(uci << ": " << (o ? std::string() : o.error().message));
        REQUIRE(o);
        last = o.value();
    }
    return last;
}

Move uci(const Game& g, std::string_view text) {
    const Move m = move_from_uci(g.position(), text);
    REQUIRE_FALSE(m.is_none());
    return m;
}

/// The SAN moves of the game in `pgn_file` whose tags contain `tag`: a small reader for the
/// tests (tags, comments, move numbers and the result skipped; no variations in our files).
std::vector<std::string> pgn_moves(const std::string& pgn_file, std::string_view tag) {
    std::ifstream in(pgn_file);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const std::size_t at = text.find(tag);
    REQUIRE(at != std::string::npos);
    std::size_t start = text.find("\n\n", at);
    REQUIRE(start != std::string::npos);
    const std::size_t end = text.find("\n[", start);
    std::string movetext = text.substr(start, end == std::string::npos ? end : end - start);
    std::string clean;
    int depth = 0;
    for (char c : movetext) {
        if (c == '{')
            ++depth;
        else if (c == '}')
            --depth;
        else if (depth == 0)
            clean += c;
    }
    std::vector<std::string> moves;
    std::istringstream tokens(clean);
    std::string tok;
    while (tokens >> tok) {
        if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") break;
        const std::size_t dot = tok.find_last_of('.');
        if (dot != std::string::npos) tok = tok.substr(dot + 1);
        if (!tok.empty()) moves.push_back(tok);
    }
    return moves;
}

/// Knight shuffle that returns to the start position every four plies.
constexpr std::string_view kShuffle = "g1f3 g8f6 f3g1 f6g8";

} // namespace

TEST_CASE("5.1.1 checkmate ends the game, the result and termination for PGN and RESULT") {
    Game g(profile("fide-2023"));
    CHECK(to_pgn(g.outcome().result) == "*");
    const Outcome o = play(g, "f2f3 e7e5 g2g4 d8h4");
    CHECK(o.result == Result::BlackWins);
    CHECK(o.termination == Termination::Checkmate);
    CHECK(o.article == "5.1.1");
    CHECK(to_pgn(o.result) == "0-1");
    CHECK(to_string(o.termination) == "checkmate");
    CHECK(pgn_termination(o.termination) == "normal");
    CHECK(g.outcome() == o);
    // No move after the end.
    auto after = g.play_uci("e1f2");
    REQUIRE_FALSE(after);
    CHECK(after.error().message == "the game is over");
    // 2005 names the article differently.
    Game g05(profile("fide-2005"));
    CHECK(play(g05, "f2f3 e7e5 g2g4 d8h4").article == "5.1 a");
}

TEST_CASE("5.2.1 stalemate draws at once") {
    Game g(profile("fide-2023"), fen("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"));
    const Outcome o = play(g, "g6f7");
    CHECK(o.result == Result::Draw);
    CHECK(o.termination == Termination::Stalemate);
    CHECK(o.article == "5.2.1");
    CHECK(to_pgn(o.result) == "1/2-1/2");
}

TEST_CASE("5.2.2 dead position: the game calls the dead-position test after every move") {
    Game g(profile("fide-2023"), fen("8/8/8/8/3p4/8/4K3/k7 b - - 0 1"));
    int calls = 0;
    g.set_dead_position_test([&calls](const Position& p) {
        ++calls;
        return p.pieces(PieceType::Pawn) == 0; // bare kings: proven dead
    });
    CHECK_FALSE(g.outcome().ended());
    CHECK(play(g, "a1b1").termination == Termination::None);
    const Outcome o = play(g, "e2f3 b1c1 f3e4 c1d1 e4d4"); // Kxd4 leaves bare kings
    CHECK(o.result == Result::Draw);
    CHECK(o.termination == Termination::DeadPosition);
    CHECK(o.article == "5.2.2");
    CHECK(calls >= 4);
}

TEST_CASE("5.2.2 dead position: by default the winnability check ends the game") {
    // Kxd4 leaves bare kings.
    Game g(profile("fide-2023"), fen("8/8/8/8/3p4/4K3/8/k7 w - - 0 1"));
    CHECK_FALSE(g.outcome().ended());
    const Outcome o = play(g, "e3d4");
    CHECK(o.termination == Termination::DeadPosition);
    CHECK(o.article == "5.2.2");
    CHECK(to_pgn(o.result) == "1/2-1/2");
    // Bishops on squares of one colour only: dead at once, also as a start position.
    Game b(profile("fide-2005"), fen("8/8/3k4/4b3/8/2B5/8/4K3 w - - 0 1"));
    CHECK(b.outcome().termination == Termination::DeadPosition);
    CHECK(b.outcome().article == "5.2 b");
    // A knight and a bishop against a king can still mate: play on.
    Game kbn(profile("fide-2023"), fen("8/8/3k4/8/8/2BN4/8/4K3 w - - 0 1"));
    CHECK_FALSE(kbn.outcome().ended());
}

TEST_CASE("9.2 threefold repetition needs the same possible moves: an en passant capture counts "
          "only if legal") {
    SECTION("a legal en passant capture makes the first position different") {
        Game g(profile("fide-2023"));
        // After 2...d5 White may take en passant (exd6): not the same as the later positions.
        play(g, "e2e4 g8f6 e4e5 d7d5");
        CHECK(g.position().ep_square() == Square::parse("d6"));
        CHECK(g.repetition_count() == 1);
        play(g, "g1f3 f6g8 f3g1 g8f6");
        CHECK(g.repetition_count() == 1); // e.p. no longer possible: a different position
        play(g, "g1f3 f6g8 f3g1 g8f6");
        CHECK(g.repetition_count() == 2);
        CHECK_FALSE(g.claim_threefold().valid);
        play(g, "g1f3 f6g8 f3g1 g8f6");
        const ClaimVerdict v = g.claim_threefold();
        CHECK(v.valid);
        CHECK(v.article == "9.2");
        CHECK(v.occurrences == std::vector<int>{8, 12, 16});
        const auto& keys = g.repetition_keys();
        REQUIRE(keys.size() == 17);
        CHECK(keys[4] != keys[8]);
        CHECK(keys[8] == keys[16]);
    }
    SECTION("an en passant capture that is illegal (pinned pawn) changes nothing") {
        // White king a5, pawn b5; after ...c7-c5 bxc6 e.p. would open the 5th rank to the
        // rook on h5, so the capture is illegal and the position is the same as later ones.
        Game g(profile("fide-2023"), fen("7k/2p5/8/KP5r/8/8/8/6N1 b - - 0 1"));
        play(g, "c7c5");
        CHECK(g.position().ep_square() == Square::parse("c6")); // FEN still names it
        play(g, "g1f3 h8g8 f3g1 g8h8");
        CHECK(g.occurrences() == std::vector<int>{1, 5});
        play(g, "g1f3 h8g8 f3g1 g8h8");
        CHECK(g.claim_threefold().valid);
        CHECK(g.claim_threefold().occurrences == std::vector<int>{1, 5, 9});
    }
}

TEST_CASE("9.2 castling rights: a right lost by moving the king or rook makes positions differ") {
    for (std::string_view name : {"fide-2023", "fide-2005", "fide-2001"}) {
        INFO(name);
        Game g(profile(name));
        // The rook goes to g1 and back: White has lost castling on the king's side for good.
        play(g, "g1f3 g8f6 h1g1 f6g8 g1h1 g8f6 f3g1 f6g8");
        const std::string placement = g.position().fen();
        CHECK(placement.substr(0, placement.find(' ')) ==
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"); // the same squares
        CHECK(g.repetition_count() == 1);                     // but not the start position
        play(g, std::string(kShuffle) + " " + std::string(kShuffle));
        CHECK(g.occurrences() == std::vector<int>{8, 12, 16});
        CHECK(g.claim_threefold().valid);
    }
    SECTION("castling prevented for now in every occurrence is still the same position") {
        // The rook on f8 attacks f1: O-O is impossible each time the position stands, so
        // neither the 2023 nor the 2005 ("temporarily") wording sees a difference. Whether
        // castling is possible now follows from the squares and the permanent rights.
        for (std::string_view name : {"fide-2023", "fide-2005"}) {
            INFO(name);
            Game g(profile(name), fen("5rk1/8/8/8/8/8/8/1N2K2R w K - 0 1"));
            play(g, "b1c3 g8g7 c3b1 g7g8 b1c3 g8g7 c3b1 g7g8");
            CHECK(g.position().has_castling_right(Color::White, true));
            CHECK(g.occurrences() == std::vector<int>{0, 4, 8});
            // Moving the rook and back loses the right: a new position.
            play(g, "h1h2 g8g7 h2h1 g7g8");
            CHECK(g.occurrences() == std::vector<int>{12});
        }
    }
}

TEST_CASE("9.2 a claim by announcing the move that would produce the repetition") {
    Game g(profile("fide-2023"));
    play(g, std::string(kShuffle) + " g1f3 g8f6 f3g1");
    // Black to move: ...Ng8 would make the start position appear a third time.
    CHECK(g.repetition_count() == 2);
    CHECK_FALSE(g.claim_threefold().valid);
    const ClaimVerdict v = g.claim_threefold(uci(g, "f6g8"));
    CHECK(v.valid);
    CHECK(v.occurrences == std::vector<int>{0, 4, 8});
    CHECK_FALSE(g.claim_threefold(uci(g, "b8c6")).valid);
    CHECK_FALSE(g.claim_threefold(Move::normal(Square::parse("e1"), Square::parse("e5"))).valid);
    const Game::Claimable c = g.claimable_draws();
    CHECK_FALSE(c.threefold_now);
    CHECK(c.threefold_moves == std::vector<Move>{uci(g, "f6g8")});
    CHECK(c.fifty_moves_moves.empty());
    CHECK(g.ply() == 7); // asking changed nothing
    CHECK(g.repetition_count() == 2);
}

TEST_CASE("9.3 fifty moves: Ushenina-Girya, Geneva 2013, claimable from move 122") {
    const auto sans = pgn_moves(std::string(EBOARD_REPO_DATA) + "/games/ushenina-girya-2013.pgn",
                                "[White \"Anna Ushenina\"]");
    REQUIRE(sans.size() == 251); // 126. Bd3, then Black claimed
    Game g(profile("fide-2023"));
    for (std::size_t i = 0; i < sans.size(); ++i) {
        INFO("ply " << i + 1 << " " << sans[i]);
        auto m = parse_move(g.position(), sans[i]);
        REQUIRE(m);
        if (i + 1 == 243) { // 122. Nb2+: the 50th move of each side after 72. Nxc3
            CHECK_FALSE(g.claim_fifty_moves().valid);
            const ClaimVerdict announced = g.claim_fifty_moves(m.value());
            CHECK(announced.valid); // 9.3.1: by writing down and announcing Nb2+
            CHECK(announced.moves_without_capture_or_pawn_move == 50);
            CHECK(g.claimable_draws().fifty_moves_moves.size() >= 1);
        }
        auto o = g.play(m.value());
        REQUIRE(o);
        CHECK_FALSE(o->ended()); // no 75-move draw yet, no mate
        if (i + 1 == 242) {
            CHECK(g.claim_fifty_moves().moves_without_capture_or_pawn_move == 49);
        }
    }
    const ClaimVerdict v = g.claim_fifty_moves();
    CHECK(v.valid); // Black's claim after 126. Bd3
    CHECK(v.article == "9.3");
    CHECK(g.position().halfmove_clock() == 251 - 143);
    g.end({Result::Draw, Termination::FiftyMoves, v.article});
    CHECK(to_pgn(g.outcome().result) == "1/2-1/2");
}

TEST_CASE("9.6.1 fivefold repetition ends the game (2023)") {
    Game g(profile("fide-2023"));
    for (int i = 0; i < 3; ++i) play(g, kShuffle);
    CHECK(g.claim_threefold().valid); // the 4th time: claimable, not automatic
    CHECK_FALSE(g.outcome().ended());
    const Outcome o = play(g, kShuffle); // the 5th time
    CHECK(g.repetition_count() == 5);
    CHECK(o.result == Result::Draw);
    CHECK(o.termination == Termination::FivefoldRepetition);
    CHECK(o.article == "9.6.1");
    CHECK(to_string(o.termination) == "fivefold_repetition");
}

TEST_CASE("9.6.2 seventy-five moves, mate on the last move prevails") {
    // 149 plies without capture or pawn move: White's next move is the 75th of each side.
    const std::string_view start = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120";
    SECTION("a quiet move draws") {
        Game g(profile("fide-2023"), fen(start));
        CHECK_FALSE(g.outcome().ended());
        const Outcome o = play(g, "g1f1");
        CHECK(o.result == Result::Draw);
        CHECK(o.termination == Termination::SeventyFiveMoves);
        CHECK(o.article == "9.6.2");
    }
    SECTION("checkmate on that move prevails") {
        Game g(profile("fide-2023"), fen(start));
        const Outcome o = play(g, "a1a8");
        CHECK(o.result == Result::WhiteWins);
        CHECK(o.termination == Termination::Checkmate);
    }
    SECTION("a profile that says mate does not prevail draws instead") {
        auto p = parse_profile("inherit = fide-2023\ndraw.automatic.mate-prevails = no\n");
        REQUIRE(p);
        Game g(p.value(), fen(start));
        CHECK(play(g, "a1a8").termination == Termination::SeventyFiveMoves);
    }
    SECTION("a pawn move resets the count") {
        Game g(profile("fide-2023"), fen("6k1/5ppp/8/8/8/8/P7/R5K1 w - - 149 120"));
        CHECK_FALSE(play(g, "a2a3").ended());
    }
}

TEST_CASE("no automatic draw under fide-2005 (nor 2001, nor the club)") {
    for (std::string_view name : {"fide-2005", "fide-2005-rapid", "fide-2001", "club-2014"}) {
        INFO(name);
        Game g(profile(name));
        for (int i = 0; i < 6; ++i) play(g, kShuffle);
        CHECK(g.repetition_count() == 7);
        CHECK_FALSE(g.outcome().ended());
        CHECK(g.claim_threefold().valid);
        Game late(profile(name), fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120"));
        CHECK_FALSE(play(late, "g1f1 g8h8 f1g1").ended()); // 151 plies: no 75-move draw
        CHECK(late.claim_fifty_moves().valid);
    }
}

TEST_CASE("6.9 flag fall: a loss, or a draw if the opponent cannot mate (2023, 2005 6.10)") {
    // White's flag falls; Black has K+N against K+R.
    const Position pos = fen("8/8/8/3k4/8/3n4/8/R3K3 w - - 0 60");
    CHECK(material_signature(pos, Color::Black) == "KN");
    CHECK(material_signature(pos, Color::White) == "KR");
    CHECK(material_signature(fen("4k3/pp6/8/8/8/8/8/RN2KQ2 w - - 0 1"), Color::White) == "KQRN");
    const Profile y23 = profile("fide-2023");
    // K+N can mate K+R with the rook's help: the flag loses.
    Outcome o =
        flag_fall_outcome(y23, pos, Color::White, [](const Position&, Color) { return true; });
    CHECK(o.result == Result::BlackWins);
    CHECK(o.termination == Termination::TimeForfeit);
    CHECK(o.article == "6.9");
    CHECK(flag_fall_outcome(y23, pos, Color::White).result ==
          Result::BlackWins); // no test: no draw
    // A bare king cannot mate: draw.
    o = flag_fall_outcome(
        y23, fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 60"), Color::White,
        [](const Position& p, Color side) { return p.pieces(side) != bb(p.king_square(side)); });
    CHECK(o.result == Result::Draw);
    CHECK(flag_fall_outcome(profile("fide-2005"), pos, Color::White).article == "6.10");
}

TEST_CASE("club Art. 3: a lone K, K+N or K+B cannot win on time (2014 regulation)") {
    const Profile club = profile("club-2014");
    auto always = [](const Position&, Color) { return true; };
    // Black (K+N) would win under FIDE; the club says draw.
    const Position kn = fen("8/8/8/3k4/8/3n4/8/R3K3 w - - 0 60");
    CHECK(flag_fall_outcome(profile("fide-2005"), kn, Color::White, always).result ==
          Result::BlackWins);
    const Outcome o = flag_fall_outcome(club, kn, Color::White, always);
    CHECK(o.result == Result::Draw);
    CHECK(o.article == "6.10, club 3");
    CHECK(flag_fall_outcome(club, fen("8/8/8/3k4/8/3b4/8/R3K3 w - - 0 60"), Color::White, always)
              .result == Result::Draw);
    // K+B+N or K+P are not on the list: a win.
    CHECK(flag_fall_outcome(club, fen("8/8/8/3k4/8/3bn3/8/R3K3 w - - 0 60"), Color::White, always)
              .result == Result::BlackWins);
    CHECK(flag_fall_outcome(club, fen("8/8/8/3k4/8/3p4/8/R3K3 w - - 0 60"), Color::White, always)
              .result == Result::BlackWins);
    // White's flag: White has K+R and wins on Black's time.
    CHECK(flag_fall_outcome(club, kn, Color::Black, always).result == Result::WhiteWins);
}

TEST_CASE("taking moves back returns the game to that ply") {
    Game g(profile("fide-2023"));
    play(g, "f2f3 e7e5 g2g4 d8h4");
    REQUIRE(g.outcome().ended());
    CHECK(g.take_back_to(3));
    CHECK_FALSE(g.outcome().ended());
    CHECK(g.ply() == 3);
    CHECK(g.position().fen() == g.position_at(3).fen());
    CHECK(g.position_at(0).fen() == Position::startpos().fen());
    CHECK(play(g, "b8c6").termination == Termination::None);
    CHECK_FALSE(g.take_back_to(5));
    CHECK_FALSE(g.take_back_to(-1));
    CHECK(g.take_back_to(0));
    CHECK(g.moves().empty());
    CHECK(g.position().fen() == Position::startpos().fen());

    // After a fivefold repetition the takeback also forgets the repetitions taken back.
    Game r(profile("fide-2023"));
    for (int i = 0; i < 4; ++i) play(r, kShuffle);
    REQUIRE(r.outcome().termination == Termination::FivefoldRepetition);
    CHECK(r.take_back_to(16)); // nothing taken back: still the fifth time
    CHECK(r.repetition_count() == 5);
    CHECK(r.outcome().termination == Termination::FivefoldRepetition);
    CHECK(r.take_back_to(12));
    CHECK(r.repetition_count() == 4);
    CHECK_FALSE(r.outcome().ended());
    // An outcome set by command is dropped too.
    r.end({win_for(Color::White), Termination::Resignation, "5.1.2"});
    CHECK(to_pgn(r.outcome().result) == "1-0");
    CHECK(r.take_back_to(12));
    CHECK_FALSE(r.outcome().ended());
}

TEST_CASE("result and termination strings for PGN and the RESULT event") {
    CHECK(to_pgn(Result::Ongoing) == "*");
    CHECK(to_pgn(Result::WhiteWins) == "1-0");
    CHECK(to_pgn(Result::BlackWins) == "0-1");
    CHECK(to_pgn(Result::Draw) == "1/2-1/2");
    CHECK(to_string(Termination::SeventyFiveMoves) == "seventy_five_moves");
    CHECK(to_string(Termination::TimeForfeit) == "time_forfeit");
    CHECK(pgn_termination(Termination::TimeForfeit) == "time forfeit");
    CHECK(pgn_termination(Termination::IllegalMoves) == "rules infraction");
    CHECK(pgn_termination(Termination::None) == "unterminated");
}

TEST_CASE("one termination vocabulary: every RESULT termination reads back, earlier spellings too") {
    for (auto t : {Termination::Checkmate, Termination::Stalemate, Termination::DeadPosition,
                   Termination::FivefoldRepetition, Termination::SeventyFiveMoves,
                   Termination::ThreefoldRepetition, Termination::FiftyMoves, Termination::Resignation,
                   Termination::Agreement, Termination::TimeForfeit, Termination::IllegalMoves,
                   Termination::Arbiter}) {
        INFO(to_string(t));
        CHECK(termination_from_string(to_string(t)) == t);
    }
    CHECK(termination_from_string("dead position") == Termination::DeadPosition);
    CHECK(termination_from_string("75-move rule") == Termination::SeventyFiveMoves);
    CHECK(termination_from_string("rules infraction") == Termination::IllegalMoves);
    CHECK(termination_from_string("arbiter decision") == Termination::Arbiter);
    CHECK(termination_from_string("time forfeit") == Termination::TimeForfeit);
    CHECK_FALSE(termination_from_string("").has_value());
    CHECK_FALSE(termination_from_string("normal").has_value()); // a PGN tag value, not a reason
    CHECK_FALSE(termination_from_string("kings in the centre").has_value());
}
