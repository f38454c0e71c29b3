// The game side of reconstruction: moves made (Art. 4.7) and completed (6.2.1), illegal moves
// (7.5), takebacks and corrections to an earlier position (7.5/7.6), moves out of turn, and the
// checks that run once the board has settled on something that is not a legal move. The end
// of the game is in recon_end.cpp.
#include "rules/recon_impl.hpp"

#include <algorithm>
#include <cstdlib>

namespace eboard {

void Reconstructor::Impl::alert(AlertEvent a) {
    a.t_ms = now;
    // An irregularity on a board that shows an earlier position of the game: say which, so that
    // the arbiter can decide (a takeback is his command, never the board's word alone).
    if ((a.kind == AlertKind::IllegalMove || (a.kind == AlertKind::PositionMismatch && !a.cleared)) &&
        !a.earlier_ply && line) {
        if (const std::optional<int> k = earlier_position()) {
            a.earlier_ply = ply_base + *k;
            a.earlier_fen = fen_after(*k);
            a.text += "; the board shows the game's position after ply " + std::to_string(*a.earlier_ply);
        }
    }
    if (a.ply) *a.ply += ply_base;
    out.emplace_back(std::move(a));
}

Color Reconstructor::Impl::ply_color(int ply) const noexcept {
    Color first = line ? start_stm : Color::White;
    return (ply % 2 == 1) ? first : ~first;
}

void Reconstructor::Impl::describe(int ply, std::string& uci, std::string& fen) {
    const Move m = move_of(ply);
    Position p = position_after(ply - 1);
    uci = to_uci(p, m);
    p.make_move(m);
    fen = p.fen();
}

void Reconstructor::Impl::set_mismatch_clear() {
    if (mismatch_alerted) {
        AlertEvent a;
        a.kind = AlertKind::PositionMismatch;
        a.article = mismatch_article;
        a.cleared = true;
        a.ply = made_plies();
        a.text = "the board matches the game again";
        alert(a);
    }
    mismatch_alerted = false;
    mismatch_knocked = false;
    mismatch_since = -1;
}

void Reconstructor::Impl::note_off_board(std::optional<Color> own) {
    Bitboard missing = cur().occupied() & ~occ & ~knocked & ~off_board;
    if (own) missing &= cur().pieces(*own);
    if (!missing) return;
    if (!off_board_pending()) off_board_since = now;
    off_board |= missing;
}

// Art. 7.4 ([01]/[05] 7.3): a piece off the board across a turn change, still missing after
// the grace: knocked over (or taken off) and not put back in the player's own time.
void Reconstructor::Impl::alert_knocked(Bitboard sq) {
    knocked |= sq;
    if (mismatch_alerted) return;  // one alert until the board matches again
    mismatch_alerted = true;
    mismatch_knocked = true;
    AlertEvent a;
    a.kind = AlertKind::PositionMismatch;
    a.article = await_restore ? illegal_article() : cfg.rules.article_displaced;
    mismatch_article = a.article;
    a.squares = knocked & ~occ & cur().occupied();
    a.ply = made_plies();
    a.player = cur().side_to_move();
    a.text = "a piece is off the board since the last turn (knocked over?)";
    alert(a);
}

void Reconstructor::Impl::begin_game(Position p, int number, bool rot, bool orient_known) {
    if (game && !ended) out.emplace_back(GameEvent{now, GameEvent::Kind::End, cur().fen(), std::nullopt, rotated, chess960_number});
    set_orientation(rot);
    orientation_known = orient_known;
    chess960_number = number;
    start_line(std::move(p));
    completed = 0;
    ply_base = 0;
    stood.reset();
    illegal_counts = {};
    illegal_counts_qpf = {};
    successors(cur(), succ);
    succ_prev.clear();
    reset_evidence();
    saved_touches.clear();
    press_pending = false;
    press_completed_ply = -1;
    await_restore = false;
    illegal_episode = false;
    mismatch_alerted = false;
    mismatch_since = -1;
    fifty_alerted = false;
    dead_checked = 0;
    off_board = knocked = 0;
    game = true;
    ended = false;
    out.emplace_back(GameEvent{now, GameEvent::Kind::Start, cur().fen(), std::nullopt, rotated, number});
}

namespace {

/// The back rank (file a..h) of every Chess960 start array, by Scharnagl number.
const std::array<std::array<PieceType, 8>, 960>& chess960_ranks() {
    static const auto table = [] {
        std::array<std::array<PieceType, 8>, 960> t{};
        for (int n = 0; n < 960; ++n) {
            Position p = Position::chess960_start(n);
            for (int f = 0; f < 8; ++f)
                t[static_cast<std::size_t>(n)][static_cast<std::size_t>(f)] =
                    type_of(p.piece_on(Square::at(f, 0)));
        }
        return t;
    }();
    return table;
}

constexpr Bitboard kStartOcc = 0xFFFF00000000FFFFull;

} // namespace

// A start position on the board: the standard one or any Chess960 array (Guidelines II),
// either way round. Identity boards tell the array and the orientation; occupancy-only boards
// cannot (the start occupancy is symmetric): the configured array, orientation from the first
// move.
bool Reconstructor::Impl::try_start(bool during_game) {
    if (occ != kStartOcc) return false;
    if (during_game && made_plies() == 0 && board_is(cur())) return false;
    if ((known & kStartOcc) == kStartOcc) {
        for (int r = 0; r < 2; ++r) {
            bool rot = r == 1;
            auto at = [&](int f, int rank) {
                int s = rank * 8 + f;
                return raw[static_cast<std::size_t>(rot ? 63 - s : s)].piece;
            };
            bool ok = true;
            std::array<PieceType, 8> back{};
            for (int f = 0; f < 8 && ok; ++f) {
                back[static_cast<std::size_t>(f)] = type_of(at(f, 0));
                ok = at(f, 1) == Piece::WPawn && at(f, 6) == Piece::BPawn &&
                     color_of(at(f, 0)) == Color::White && at(f, 0) != Piece::None &&
                     at(f, 7) == make_piece(Color::Black, type_of(at(f, 0)));
            }
            if (!ok) continue;
            const auto& table = chess960_ranks();
            for (int n = 0; n < 960; ++n) {
                if (table[static_cast<std::size_t>(n)] != back) continue;
                bool standard = n == 518 && cfg.chess960_number < 0;
                begin_game(standard ? Position::startpos() : Position::chess960_start(n),
                           standard ? -1 : n, rot, true);
                return true;
            }
        }
        return false;
    }
    int n = cfg.chess960_number;
    bool rot = cfg.rotated ? *cfg.rotated : rotated;
    begin_game(n < 0 ? Position::startpos() : Position::chess960_start(n), n, rot,
               cfg.rotated.has_value());
    return true;
}

void Reconstructor::Impl::evaluate() {
    if (!game || ended) {
        try_start(false);
        return;
    }
    int made = made_plies();
    if (!orientation_known && made == 0 && !board_is(cur())) {
        // A game started from a FEN: the board shows it one way round or the other.
        set_orientation(!rotated);
        if (!board_is(cur())) set_orientation(!rotated);
    }
    bool assumed = false;
    std::optional<Move> m = find_move(cur(), succ, &assumed);
    if (!m && !orientation_known && made == 0 && !board_is(cur())) {
        // Occupancy-only start: the first move tells which way round the board stands.
        set_orientation(!rotated);
        m = find_move(cur(), succ, &assumed);
        if (!m) set_orientation(!rotated);
    }
    if (!m && await_restore && stood && illegal_stands()) return;
    if (m) {
        bool press_now = press_pending && press_by == cur().side_to_move();
        if (press_now || !may_grow(cur(), *m)) {
            make(*m, assumed, false);
        } else {
            cand_waiting = true;
            cand_replaces = false;
            cand = *m;
            cand_due = last_change + cfg.settle_ms;
        }
        return;
    }
    if (moved_on_after_press()) return;
    if (cand_waiting && !cand_replaces) tentative = true;
    cand_waiting = false;
    if (tentative && two_plies(false)) return;
    if (board_is(cur())) {
        // Back in the position: nothing moved (adjusted pieces), or the restored position
        // after an irregularity. Touches stay: 4.3 applies to the move still to come.
        if (made > completed && promo_assumed.back() &&
            promo_choice != PieceType::None && promo_choice != PieceType::Queen) {
            // The chosen piece is now on the square (4.4.4): the assumed queen was not it.
            Move old = last_move();
            unplay_last();
            std::swap(succ, succ_prev);
            touches = saved_touches;
            make(Move::promotion(old.from(), old.to(), promo_choice), false, true);
            return;
        }
        await_restore = false;
        illegal_episode = false;
        tentative = false;
        stood.reset();
        set_mismatch_clear();
        // The evidence stays: a captured piece lifted, then the promoted piece put on its
        // square before the pawn leaves, passes through this position (4.6 [23]).
        return;
    }
    // The player's own made move, not yet completed, went on to another square (a slide that
    // paused, a castling king put down before the rook came): the move from the position
    // before it that the board shows now replaces it.
    // Only when that player has lifted one of his pieces again: otherwise it is the opponent
    // starting his reply (without a clock every last move is uncompleted).
    if (made > completed && made > 0 && (vacated & cur().pieces(~cur().side_to_move()))) {
        const Move last = last_move();
        const Position before = position_after(made - 1);
        std::optional<Move> r = find_move(before, succ_prev, &assumed);
        bool grow = r && may_grow(before, *r);
        if (r && *r != last) {
            cand = *r;
            cand_replaces = true;
            if (grow && !(press_pending && press_by == ply_color(made))) {
                cand_waiting = true;
                cand_due = last_change + cfg.settle_ms;
            } else {
                replace_last();
            }
            return;
        }
    }
}

bool Reconstructor::Impl::replace_last(std::optional<Move> with) {
    if (made_plies() < 1) return false;
    Move old = last_move();
    bool old_assumed = promo_assumed.back();
    unplay_last();
    std::swap(succ, succ_prev);
    bool was_assumed = false;
    std::optional<Move> m = with ? with : find_move(cur(), succ, &was_assumed);
    if (!m) {
        m = old;
        was_assumed = old_assumed;
    }
    std::vector<Touch> t = saved_touches;
    for (const Touch& x : touches) {
        bool seen = false;
        for (const Touch& y : t) seen = seen || y.sq == x.sq;
        if (!seen) t.push_back(x);
    }
    touches = std::move(t);
    if (old.kind() == Move::Kind::Promotion && !old_assumed &&
        m->kind() == Move::Kind::Promotion && m->from() == old.from() && m->to() == old.to() &&
        m->promotion_type() != old.promotion_type()) {
        // [05] 4.4 d, [23] 4.4.4: the choice was final once the new piece touched the square.
        // The board's piece is recorded (as for a castling against 4.4.2); the arbiter decides.
        AlertEvent a;
        a.kind = AlertKind::TouchMove;
        a.article = "4.4";
        a.player = cur().side_to_move();
        a.ply = made_plies() + 1;
        a.squares = bit_of(old.to());
        a.text = std::string("4.4.4: the promotion piece ") +
                 piece_to_char(make_piece(cur().side_to_move(), old.promotion_type())) + " touched " +
                 old.to().name() + " first; the choice was final";
        alert(a);
    }
    make(*m, was_assumed, true);
    return true;
}

void Reconstructor::Impl::make(Move m, bool was_assumed, bool replaces) {
    Color us = cur().side_to_move();
    int ply = made_plies() + 1;
    // --clock none: the opponent's move is completed by this one (Art. 6.2.1).
    if (!replaces && !cfg.clock)
        for (int k = completed + 1; k < ply; ++k) complete(k, Completion::OpponentMove);
    check_touch_move(cur(), m, touches);
    MoveEvent ev;
    ev.t_ms = now;
    ev.ply = ply_base + ply;
    ev.move = m;
    ev.uci = to_uci(cur(), m);
    ev.promotion_assumed = was_assumed;
    ev.replaces = replaces;
    saved_touches = touches;
    std::swap(succ_prev, succ);
    line_play(m, was_assumed);
    successors(cur(), succ);
    ev.fen = cur().fen();
    out.emplace_back(std::move(ev));
    orientation_known = true;
    reset_evidence();
    await_restore = false;
    illegal_episode = false;
    off_board &= ~changed_squares(m);
    // The turn changes: the mover's hand is free (with a clock, the press notes the rest; without
    // one, this move is the only turn change there is).
    note_off_board(cfg.clock ? std::optional<Color>(us) : std::nullopt);
    if ((knocked & ~occ) == 0) set_mismatch_clear();  // a knocked piece still lying: stays
    if (press_pending && press_by == us) {
        press_pending = false;
        complete_all(us, Completion::Clock);
    }
    game_end_checks();
}

void Reconstructor::Impl::complete(int ply, Completion how) {
    if (ply <= completed) return;
    MoveEvent ev;
    ev.t_ms = now;
    ev.ply = ply_base + ply;
    ev.move = move_of(ply);
    ev.promotion_assumed = promo_assumed[static_cast<std::size_t>(ply)];
    ev.completed = how;
    describe(ply, ev.uci, ev.fen);
    if (has_times) ev.clock = MoveClock{white_ms, black_ms};
    completed = ply;
    out.emplace_back(std::move(ev));
}

void Reconstructor::Impl::complete_all(Color by, Completion how) {
    int made = made_plies();
    int last = 0;
    for (int k = completed + 1; k <= made; ++k)
        if (ply_color(k) == by) last = k;
    for (int k = completed + 1; k <= last; ++k) complete(k, how);
    if (how == Completion::Clock && last > 0) note_off_board(std::nullopt);
    // The board may not have shown yet where the last move's piece went on (a frame taken
    // before it left the square): moved_on_after_press looks at the readings that follow.
    if (how == Completion::Clock && last > 0 && last == made) {
        press_completed_ply = last;
        press_completed_t = now;
    }
}

void Reconstructor::Impl::takeback(int ply) {
    int made = made_plies();
    for (; made > ply; --made) unplay_last();
    completed = std::min(completed, ply);
    successors(cur(), succ);
    succ_prev.clear();
    if (ply > 0) successors(position_after(ply - 1), succ_prev);
    reset_evidence();
    saved_touches.clear();
    press_pending = false;
    await_restore = false;
    illegal_episode = false;
    if (!line->claim_fifty_moves().valid) fifty_alerted = false;
    off_board = knocked = 0;
    set_mismatch_clear();
    out.emplace_back(TakebackEvent{now, ply_base + ply, cur().fen()});
}

void Reconstructor::Impl::start_line(Position start) {
    start_stm = start.side_to_move();
    // 5.2.2 after every move: the reconstruction's own test (static analyses, or the caller's
    // can_mate), so that a position is dead in the line exactly when the game ends for it.
    line.emplace(cfg.rules.profile, std::move(start), [this](const Position& p) {
        return mate_ability_per_move(p, Color::White) == MateAbility::Cannot &&
               mate_ability_per_move(p, Color::Black) == MateAbility::Cannot;
    });
    promo_assumed.assign(1, false);
}

void Reconstructor::Impl::line_play(Move m, bool was_assumed) {
    // A start position that is already over (an arbiter's FEN of a dead position): the game
    // ends at the next move's checks, as the line follows the board until then.
    (void)line->play_on(m);  // m is one of succ, the legal moves of the line's position
    promo_assumed.push_back(was_assumed);
}

void Reconstructor::Impl::unplay_last() {
    (void)line->take_back_to(made_plies() - 1);
    promo_assumed.pop_back();
}

std::optional<int> Reconstructor::Impl::earlier_position() const {
    if (!line) return std::nullopt;
    Position p = cur().copy();
    for (int k = made_plies() - 1; k >= 0; --k) {
        p.unmake_move();
        if (board_is(p)) return k;
    }
    return std::nullopt;
}

bool Reconstructor::Impl::takeback_allowed(int k) const noexcept {
    const int made = made_plies();
    return k == made - 1 && (k >= completed || cfg.rules.players_take_back);
}

std::string Reconstructor::Impl::fen_after(int k) {
    return position_after(k).fen();
}

// Two moves at once: a reply made before the first move had settled (a fast opponent), or a
// board polled slowly (one DGT dump per second shows both). Tries the tentative move, or, once
// the board has settled, every legal move, each followed by every reply.
bool Reconstructor::Impl::two_plies(bool all_first_moves) {
    if (all_first_moves && moved_on_and_reply()) return true;
    std::vector<Move> firsts;
    if (all_first_moves) {
        for (const Successor& s : succ) firsts.push_back(s.m);
    } else {
        firsts.push_back(cand);
    }
    std::vector<Successor> list;
    Position p = cur().copy();  // each first move tried on it, then taken back
    for (Move m1 : firsts) {
        if (all_first_moves && m1.kind() == Move::Kind::Promotion &&
            m1.promotion_type() != promotion_wanted())
            continue;
        bool m1_captures = p.piece_on(m1.to()) != Piece::None && !m1.is_castling();
        p.make_move(m1);
        successors(p, list);
        bool a2 = false;
        std::optional<Move> m2 = find_move(p, list, &a2);
        bool m2_captures = m2 && p.piece_on(m2->to()) != Piece::None && !m2->is_castling();
        p.unmake_move();
        if (!m2) continue;
        // A recapture on the square the first move went to needs that piece seen lifted after
        // it arrived; until then the second player only holds his piece.
        if (m2_captures && m2->to() == m1.to() && !(known & bit_of(m1.to())) &&
            lifts[static_cast<std::size_t>(m1.to().index())] < (m1_captures ? 2 : 1))
            continue;
        touches.clear();  // whose touch was whose cannot be told apart here
        make(m1, false, false);
        if (ended) return true;
        make(*m2, a2, false);
        return true;
    }
    return false;
}

// The player's made move is not completed and its piece went on to another square in the same
// board report as the opponent's reply began (a pawn that paused on c3 long enough for c2-c3 to
// be made, then c3 left, c4 taken and a knight lifted in one 100 ms frame; the knight then
// lands). Without a press the player's move was still his to change (it had not been completed,
// Art. 6.2.1): the move that went on replaces it and the reply follows (1.c4 Nc6), rather than a
// reply and a second move by the same player (1.c3 Nc6 2.c4), which is one ply too many.
namespace {

/// True if `on` takes the piece of `last` (the same square left) on through last's square, in
/// the same direction and further: a pawn's c2-c4 through c3, a rook's a1-a5 through a3.
bool goes_through(Move last, Move on) {
    if (on.from() != last.from() || on.to() == last.to()) return false;
    const int f1 = last.to().file() - last.from().file(), r1 = last.to().rank() - last.from().rank();
    const int f2 = on.to().file() - on.from().file(), r2 = on.to().rank() - on.from().rank();
    return f1 * r2 == r1 * f2 && f1 * f2 >= 0 && r1 * r2 >= 0 &&
           std::max(std::abs(f2), std::abs(r2)) > std::max(std::abs(f1), std::abs(r1));
}

} // namespace

bool Reconstructor::Impl::moved_on_and_reply(bool through_only) {
    const int made = made_plies();
    if (made <= completed || made == 0) return false;
    const Move last = last_move();
    const PieceType promo = promotion_wanted();
    std::optional<Move> first, reply;
    bool a2 = false;
    std::vector<Successor> list;
    Position p = position_after(made - 1);
    for (const Successor& s : succ_prev) {
        const Move m1 = s.m;
        if (m1 == last || m1.from() != last.from() || (through_only && !goes_through(last, m1))) continue;
        if (m1.kind() == Move::Kind::Promotion && m1.promotion_type() != promo) continue;
        p.make_move(m1);
        successors(p, list);
        reply = find_move(p, list, &a2);
        p.unmake_move();
        if (reply) {
            first = m1;
            break;
        }
    }
    if (!first) return false;
    touches.clear();  // whose touch was whose cannot be told apart here
    saved_touches.clear();
    replace_last(first);
    if (ended) return true;
    make(*reply, a2, false);
    return true;
}

// The press of the player whose made move is the last one, while the board shows that move's
// piece gone on to another square (the pawn that paused on c3 now on c4) and, perhaps, a piece
// of the opponent already lifted for his reply: the press completes the move the board shows,
// so that one replaces the made move (the opponent's lifted piece is his, in his hand).
bool Reconstructor::Impl::moved_on_at_press(bool through_only) {
    if (made_plies() < 1 || board_is(cur()) || in_progress(cur())) return false;
    const Move last = last_move();
    const Color mover = ~cur().side_to_move();
    const PieceType promo = promotion_wanted();
    std::optional<Move> found;
    int readings = 0;
    Position p = position_after(made_plies() - 1);
    for (const Successor& s : succ_prev) {
        const Move m1 = s.m;
        if (m1 == last || m1.from() != last.from() || m1.is_castling()) continue;
        if (through_only && !goes_through(last, m1)) continue;
        if (m1.kind() == Move::Kind::Promotion && m1.promotion_type() != promo) continue;
        if (p.piece_on(m1.to()) != Piece::None) continue;  // a capture needs its own evidence
        p.make_move(m1);
        const bool shows = in_progress(p) && (occ & bit_of(m1.to())) &&
                           (p.pieces(mover) & ~occ) == 0;
        p.unmake_move();
        if (shows) {
            found = m1;
            ++readings;
        }
    }
    if (readings != 1) return false;  // none, or two readings: neither is taken
    replace_last(found);
    return true;
}

// The press of the player whose made move was the last completed it at once, while the board
// still showed that move: a frame taken before the pawn that paused on c3 left it for c4 (the
// press 50-100 ms after the pawn landed). The next reading within the press grace shows the
// pawn gone on, perhaps the opponent's hand already at work: the press completed the move the
// player had made by then (Art. 6.2.1), so the move it went on to replaces the intermediate one,
// completed by the same press. Any other reading is left to the other checks.
bool Reconstructor::Impl::moved_on_after_press() {
    const int made = made_plies();
    if (made == 0 || completed != made || press_completed_ply != made ||
        now > press_completed_t + cfg.press_grace_ms)
        return false;
    const Color mover = ply_color(made);
    // The piece left the square the press found it on: the board shows it gone on.
    if (occ & bit_of(last_move().to())) return false;
    completed = made - 1;  // the press's completion is taken again, for the move it went on to
    if (moved_on_at_press(true) || moved_on_and_reply(true)) {
        complete_all(mover, Completion::Clock);
        press_completed_ply = -1;  // one correction per press
        return true;
    }
    completed = made;
    return false;
}

// A move by the player not on move (moving out of turn; two moves before pressing). Under
// [23] 6.2.1 the player's previous move is completed by it; the move itself is illegal.
bool Reconstructor::Impl::out_of_turn() {
    if (cur().in_check()) return false;
    Position p = cur().copy();
    p.make_null_move();
    std::vector<Successor> list;
    successors(p, list);
    bool assumed = false;
    std::optional<Move> m = find_move(p, list, &assumed);
    if (!m) return false;
    Color who = ~cur().side_to_move();
    if (cfg.rules.next_move_completes || !cfg.clock) complete_all(who, Completion::NextMove);
    illegal(who, illegal_article(), "a move out of turn", diff_squares(cur()));
    return true;
}

void Reconstructor::Impl::illegal(Color who, const std::string& article, const std::string& text,
                                  Bitboard squares) {
    int& n = illegal_counts[static_cast<std::size_t>(who)];
    ++n;
    int& q = illegal_counts_qpf[static_cast<std::size_t>(who)];
    if (quickplay) ++q;
    // The rung: the player's count in the game, or, where only the quickplay finish punishes
    // illegal moves ([01] 10.3: "the first two illegal moves" there), his count in it.
    int rung = quickplay && cfg.rules.illegal_ladder.empty() ? q : n;
    AlertEvent a;
    a.kind = AlertKind::IllegalMove;
    a.article = article;
    a.player = who;
    a.count = n;
    a.ply = made_plies() + 1;
    a.squares = squares;
    const auto& ladder = quickplay ? cfg.rules.illegal_ladder_quickplay : cfg.rules.illegal_ladder;
    if (!ladder.empty()) {
        a.penalty = ladder[static_cast<std::size_t>(std::min<int>(rung, static_cast<int>(ladder.size())) - 1)];
        // [23] 7.5.5, [05] C3: not a loss (nor a win claim) when the opponent cannot mate.
        if ((a.penalty == "loss" || a.penalty == "win-claim") &&
            cfg.rules.loss_draw_if_cannot_mate && mate_ability(cur(), ~who) == MateAbility::Cannot)
            a.penalty = "draw";
    }
    a.text = text;
    alert(a);
    await_restore = squares != 0;
    illegal_episode = true;
}

// Checks that wait until the board has stood still for settle_ms on something that is neither
// the game position nor a legal move of it.
void Reconstructor::Impl::quiet_checks() {
    if (board_is(cur()) || cand_waiting) return;
    if (try_start(true)) return;
    if (kings_signal()) return;
    // An earlier position of the game: the last move, made and not completed, is taken back
    // (the player put his piece back before pressing); a completed one only where the profile
    // lets the players take back their last move; never more than one ply. Otherwise the board
    // alone never deletes a completed move: two fast moves that recreate it (a repetition) are
    // moves, anything else waits for the press (illegal_move, 7.5.1) or the grace
    // (position_mismatch, 7.4), both naming the earlier position, and the arbiter decides
    // (TAKEBACK, SET_POSITION).
    const std::optional<int> earlier = earlier_position();
    if (earlier && takeback_allowed(*earlier)) {
        takeback(*earlier);
        return;
    }
    if (!in_progress(cur()) && two_plies(true)) return;
    if (illegal_episode) return;
    // Only pieces missing is a move in progress (a piece in the hand, its victim lifted);
    // an opponent's capture out of turn would look the same.
    // A player setting his completed move back is not a move out of turn by him.
    if (!in_progress(cur()) && !earlier && out_of_turn()) return;
    if (cfg.illegal_immediate && !in_progress(cur()))
        illegal(cur().side_to_move(), illegal_article(), "an illegal move was made",
                diff_squares(cur()));
}

} // namespace eboard
