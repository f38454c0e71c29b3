// The end of the game in reconstruction: checkmate (5.1.1), stalemate (5.2.1), dead positions
// (5.2.2, proven or alerted), automatic draws (9.6), claimable draws for the arbiter (9.2,
// 9.3), and the DGT kings-in-the-centre result signal.
#include "rules/recon_impl.hpp"
#include "rules/winnable.hpp"

namespace eboard {

namespace {

MateAbility ability(Winnability w) {
    switch (w) {
    case Winnability::Winnable: return MateAbility::Can;
    case Winnability::Unwinnable: return MateAbility::Cannot;
    case Winnability::Undetermined: break;
    }
    return MateAbility::Unknown;
}

/// Every pawn stands blocked by an opposing pawn right in front of it (at least one pair): the
/// pawn structure of most dead positions that material alone does not prove.
bool pawns_rammed(const Position& p) {
    Bitboard wp = p.pieces(Color::White, PieceType::Pawn);
    Bitboard bp = p.pieces(Color::Black, PieceType::Pawn);
    return wp != 0 && ((wp << 8) & ~bp) == 0 && ((bp >> 8) & ~wp) == 0;
}

/// The pawn structure and the material of p, as one number (non-zero).
std::uint64_t structure_signature(const Position& p) {
    std::uint64_t h = p.pieces(Color::White, PieceType::Pawn) * 0x9E3779B97F4A7C15ull;
    h ^= p.pieces(Color::Black, PieceType::Pawn) * 0xC2B2AE3D27D4EB4Full;
    for (Color c : {Color::White, Color::Black})
        for (PieceType t : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen})
            h = h * 31 + static_cast<std::uint64_t>(count(p.pieces(c, t)));
    // Bishops on light and dark squares differ in what they can reach.
    h = h * 31 + static_cast<std::uint64_t>(count(p.pieces(PieceType::Bishop) & 0x55AA55AA55AA55AAull));
    return h | 1;
}

} // namespace

MateAbility Reconstructor::Impl::mate_ability(const Position& p, Color side) const {
    if (cfg.can_mate) return cfg.can_mate(p, side);
    return ability(can_checkmate(p, side, WinnableMode::Quick));
}

// The check after every move (game_end_checks) acts only on Cannot for both sides: the static
// analyses of the quick mode, without its helpmate search, which finds helpmates in middlegame
// positions and costs ~15 µs a side on the clock-press path (bench_reconstruction p99 1.6 ->
// 28 µs when it came in). Same dead verdict as Quick on every position of data/games
// and chasolver_positions.txt (docs/reconstruction.md, Benchmarks).
MateAbility Reconstructor::Impl::mate_ability_per_move(const Position& p, Color side) const {
    if (cfg.can_mate) return cfg.can_mate(p, side);
    return ability(can_checkmate(p, side, WinnableMode::Static));
}

MateAbility Reconstructor::Impl::mate_ability_deep(const Position& p, Color side) const {
    if (cfg.can_mate_deep) return cfg.can_mate_deep(p, side);
    return ability(can_checkmate(p, side, WinnableMode::Full));
}

void Reconstructor::Impl::end_game(const std::string& result, Termination termination,
                                   const std::string& article) {
    complete(made_plies(), Completion::GameEnd);
    out.emplace_back(ResultEvent{now, result, std::string(to_string(termination)), article});
    out.emplace_back(GameEvent{now, GameEvent::Kind::End, cur().fen(), std::nullopt, rotated, chess960_number});
    ended = true;
    cand_waiting = false;
    press_pending = false;
}

// The automatic ends and the claimable draws are the game line's (rules/game.hpp), under the
// profile: checkmate 5.1.1 (mate prevailing on the 75th move or not, draw.automatic.mate-
// prevails), stalemate 5.2.1, [23] 9.6.1/9.6.2, a dead position 5.2.2 by the per-move test;
// repetitions of 9.2 under the profile's "same position" (repetition.castling).
void Reconstructor::Impl::game_end_checks() {
    const Profile& profile = cfg.rules.profile;
    if (const Outcome& o = line->outcome(); o.ended())
        return end_game(std::string(to_pgn(o.result)), o.termination, o.article);
    dead_suspicion();
    if (ended) return;
    const int ply = made_plies();
    if (const int reps = line->repetition_count(); reps >= profile.claim_repetitions) {
        AlertEvent a;
        a.kind = AlertKind::DrawClaimable;
        a.article = profile.articles.threefold.empty() ? "9.2" : profile.articles.threefold;
        a.ply = ply;
        a.player = cur().side_to_move();
        a.count = reps;
        a.text = "the same position has appeared " + std::to_string(reps) + " times";
        alert(a);
    }
    if (!fifty_alerted && line->claim_fifty_moves().valid) {
        fifty_alerted = true;
        AlertEvent a;
        a.kind = AlertKind::DrawClaimable;
        a.article = profile.articles.fifty_moves.empty() ? "9.3" : profile.articles.fifty_moves;
        a.ply = ply;
        a.player = cur().side_to_move();
        a.text = "the last " + std::to_string(profile.claim_moves) +
                 " moves by each player were made without a pawn move or a capture";
        alert(a);
    }
}

// Art. 5.2.2 (docs/reconstruction.md): a game ends for a dead position only when that is
// proven; a position that may be dead goes to the arbiter. The quick check after every move
// proves material draws and simple locked pawn chains. Beyond it, a locked pawn structure on
// which the players have shuffled pieces for dead_suspect_moves moves each is examined in
// depth, once per structure and material (the full check may take a good part of a second):
// proven dead ends the game, undecided raises dead_position, winnable stays silent.
void Reconstructor::Impl::dead_suspicion() {
    int n = cfg.rules.dead_suspect_moves;
    if (n <= 0 || cur().halfmove_clock() < 2 * n || !pawns_rammed(cur())) return;
    std::uint64_t sig = structure_signature(cur());
    if (sig == dead_checked) return;
    dead_checked = sig;
    MateAbility white = mate_ability_deep(cur(), Color::White);
    if (white == MateAbility::Can) return;
    MateAbility black = mate_ability_deep(cur(), Color::Black);
    if (black == MateAbility::Can) return;
    if (white == MateAbility::Cannot && black == MateAbility::Cannot)
        return end_game("1/2-1/2", Termination::DeadPosition, cfg.rules.article_dead);
    AlertEvent a;
    a.kind = AlertKind::DeadPosition;
    a.article = cfg.rules.article_dead;
    a.ply = made_plies();
    a.player = cur().side_to_move();
    a.text = "the pawns are locked and " + std::to_string(n) +
             " moves by each player went by without a capture or pawn move: the position may "
             "be dead, which could not be proven";
    alert(a);
}

// The DGT convention (DGT LiveChess; picochess issues #80/#119): both kings put on the four
// centre squares signal the result: both on light squares 1-0, both on dark 0-1, else a draw.
// Two kings next to each other are never a legal position, so this is never a move. Players
// clear the centre squares to give it (a real recording: the d4 pawn taken off, then the kings
// set on e4 and d5): pieces of the centre squares may be off the board, or a king may stand where
// one of them stood (the square was emptied in between).
bool Reconstructor::Impl::kings_signal() {
    const Position& p = cur();
    const Bitboard kings = p.pieces(Color::White, PieceType::King) |
                           p.pieces(Color::Black, PieceType::King);
    Bitboard final_sq = 0;
    if (count(occ) == 2 && (occ & ~kCentre) == 0) {
        final_sq = occ;  // the kings alone on the board
    } else {
        const Bitboard missing = p.occupied() & ~occ;
        const Bitboard added = occ & ~p.occupied();
        const Bitboard replaced = p.occupied() & occ & kCentre & vacated & ~kings;
        const Bitboard moved_kings = kings & missing;
        if ((missing & ~kings & ~kCentre) || (added & ~kCentre) || moved_kings == 0) return false;
        const Bitboard landed = added | replaced;
        if (count(landed) != count(moved_kings)) return false;
        final_sq = (kings & occ) | landed;
        if (count(final_sq) != 2 || (final_sq & ~kCentre)) return false;
        if (diff_squares(p) & ~(missing | added | replaced)) return false;
    }
    for (Bitboard b = final_sq & known; b; b &= b - 1)
        if (type_of(ident[static_cast<std::size_t>(std::countr_zero(b))]) != PieceType::King)
            return false;
    int light = 0;
    for (Bitboard b = final_sq; b; b &= b - 1) light += first_square(b).light() ? 1 : 0;
    std::string result = light == 2 ? "1-0" : light == 0 ? "0-1" : "1/2-1/2";
    // The players declare the result: a resignation, or a draw agreed (5.1.2, 5.2.3).
    end_game(result, light == 1 ? Termination::Agreement : Termination::Resignation, "");
    return true;
}

} // namespace eboard
