// The Reconstructor's inputs: the bounce filter, committing square changes (TOUCH events and
// the evidence of the move in progress), clock presses and the timers that only advance with
// the time stamps of the inputs.
#include "rules/reconstruction.hpp"

#include "rules/recon_impl.hpp"

#include <algorithm>

namespace eboard {

Reconstructor::Impl::Impl(ReconConfig c) : cfg(std::move(c)) {
    quickplay = cfg.quickplay_finish;
    if (cfg.rotated) {
        rotated = *cfg.rotated;
        orientation_known = true;
    }
    succ.reserve(64);
    succ_prev.reserve(64);
    touches.reserve(16);
    saved_touches.reserve(16);
    out.reserve(16);
}

void Reconstructor::Impl::feed(const SensorEvent& e) {
    TimeMs t = std::max(time_of(e), now);
    advance(t);
    if (const auto* c = std::get_if<SquareChange>(&e)) {
        if (!c->square.valid()) return;
        board_seen = true;
        defer(c->square, c->reading, t);
        if (cfg.bounce_ms <= 0) flush_deferred(t);
    } else if (const auto* b = std::get_if<BoardSnapshot>(&e)) {
        // The first reading of a resumed game: its differences from the game's position are
        // what happened on the board meanwhile (identity only where the board tells it).
        const bool first = !board_seen;
        if (first && assume_game && game && !ended) assume_board(&b->board);
        board_seen = true;
        // A board that reports its whole board on every change (Chessnut) shows a sensor
        // bounce as two reports: its differences pass the bounce filter like square changes,
        // and are committed together, as one report (flush_deferred). The first reading is
        // the board as it stands, not a change: committed at once (a start position stands
        // even if a lift follows within bounce_ms).
        for (int s = 0; s < 64; ++s) defer(Square(s), b->board[static_cast<std::size_t>(s)], t);
        if (first || cfg.bounce_ms <= 0) flush_deferred(t);
    } else if (const auto* p = std::get_if<LeverPressed>(&e)) {
        on_press(*p);
    } else if (const auto* ct = std::get_if<ClockTimes>(&e)) {
        has_times = true;
        white_ms = ct->white_ms;
        black_ms = ct->black_ms;
    } else if (const auto* f = std::get_if<FlagFall>(&e)) {
        if (game && !ended) {
            AlertEvent a;
            a.kind = AlertKind::Flag;
            a.article = cfg.rules.article_flag;
            a.player = f->side;
            a.ply = made_plies();
            bool draw = cfg.rules.flag_draw_if_cannot_mate &&
                        mate_ability(cur(), ~f->side) == MateAbility::Cannot;
            a.penalty = draw ? "draw" : "loss";
            a.text = std::string(f->side == Color::White ? "White's" : "Black's") +
                     " flag fell: " +
                     (draw ? "a draw, the opponent cannot checkmate" : "the game is lost");
            alert(a);
        }
    } else if (const auto* btn = std::get_if<ClockButton>(&e)) {
        if (game && !ended) {
            // A pawn of the side to move can promote, or a promotion made is not completed yet
            // (its piece may still be exchanged, 4.4.4; choose() decides).
            int made = made_plies();
            bool can_promote =
                made > completed && last_move().kind() == Move::Kind::Promotion;
            for (const Successor& s : succ)
                if (s.m.kind() == Move::Kind::Promotion) can_promote = true;
            if (can_promote) (void)choose(Reconstructor::promotion_for_button(btn->button));
        }
    }
    check_timers();
}

void Reconstructor::Impl::advance(TimeMs t) {
    now = t;
    flush_deferred(t - cfg.bounce_ms);
    check_timers();
}

void Reconstructor::Impl::defer(Square bsq, SquareReading r, TimeMs t) {
    auto i = static_cast<std::size_t>(bsq.index());
    if (!r.occupied) r.piece = Piece::None;
    if (deferred_bb & bit_of(bsq)) {
        // The square changes again before its last change was committed: if it is back to
        // the committed state, neither change happened (bounce, a slide passing over).
        if (r == raw[i]) deferred_bb &= ~bit_of(bsq);
        else deferred[i] = {deferred[i].t, r};
    } else if (!(r == raw[i])) {
        deferred[i] = {t, r};
        deferred_bb |= bit_of(bsq);
    }
}

// The changes of one time stamp are one report of the board (a snapshot, or the square changes
// of one scan): the board did not see in which order they happened, so none is invented. They
// are committed together and judged once: first the pieces put back on the square they were
// lifted from, then the lifts, then the other placements; their lifts share one time, which
// check_touch_move treats as unordered (Art. 4.3: an order that cannot be proved is not
// held against the player; no touch_move from a square order).
void Reconstructor::Impl::flush_deferred(TimeMs upto) {
    while (deferred_bb) {
        TimeMs oldest = 0;
        bool any = false;
        for (Bitboard b = deferred_bb; b; b &= b - 1) {
            TimeMs ts = deferred[static_cast<std::size_t>(std::countr_zero(b))].t;
            if (!any || ts < oldest) oldest = ts;
            any = true;
        }
        if (oldest > upto) break;
        Bitboard report = 0;
        for (Bitboard b = deferred_bb; b; b &= b - 1)
            if (deferred[static_cast<std::size_t>(std::countr_zero(b))].t == oldest)
                report |= Bitboard{1} << std::countr_zero(b);
        deferred_bb &= ~report;
        const bool playing = game && !ended;
        Bitboard stage[3] = {0, 0, 0};  // put back, lifted, placed
        for (Bitboard b = report; b; b &= b - 1) {
            const int s = std::countr_zero(b);
            const SquareReading& r = deferred[static_cast<std::size_t>(s)].r;
            const Piece there = playing ? cur().piece_on(game_sq(Square(s))) : Piece::None;
            const bool back = r.occupied && there != Piece::None &&
                              !raw[static_cast<std::size_t>(s)].occupied &&
                              (!r.known() || r.piece == there);
            stage[back ? 0 : !r.occupied ? 1 : 2] |= Bitboard{1} << s;
        }
        for (const Bitboard squares : stage)
            for (Bitboard b = squares; b; b &= b - 1) {
                const int s = std::countr_zero(b);
                apply(Square(s), deferred[static_cast<std::size_t>(s)].r, oldest);
            }
        if (playing) evaluate();
        else try_start(false);
    }
}

void Reconstructor::Impl::apply(Square bsq, const SquareReading& r, TimeMs t) {
    auto bi = static_cast<std::size_t>(bsq.index());
    if (game && !ended && raw[bi].occupied && !r.occupied && cand_waiting && !cand_replaces)
        opponent_started(game_sq(bsq));
    SquareReading before = raw[bi];
    raw[bi] = r;
    last_change = t;
    quiet_done = false;
    Square s = game_sq(bsq);
    auto i = static_cast<std::size_t>(s.index());
    Bitboard b = bit_of(s);
    if (r.occupied) occ |= b;
    else occ &= ~b;
    if (r.known()) known |= b;
    else known &= ~b;
    ident[i] = r.piece;

    bool playing = game && !ended;
    Piece game_piece = playing ? cur().piece_on(s) : Piece::None;
    if (before.occupied && !r.occupied) {
        if (playing)
            out.emplace_back(TouchEvent{t, s, true, game_piece != Piece::None ? game_piece : before.piece});
        if (playing) {
            vacated |= b;
            if (lifts[i] < 255) ++lifts[i];
            Bitboard air = cur().occupied() & ~occ;
            if (count(air) >= 2) co_lifted |= air;
        }
        if (playing && game_piece != Piece::None) {
            // Lifts after the player's own made move and before his press are his, not the
            // opponent's touches (with a clock; without one nobody can tell).
            bool before_press = cfg.clock && completed < made_plies();
            if (!before_press) {
                bool seen = false;
                for (const Touch& x : touches) seen = seen || x.sq == s;
                if (!seen && touches.size() < 32) touches.push_back({s, game_piece, t});
            }
        }
    } else if (r.occupied) {
        off_board &= ~b;
        knocked &= ~b;
        if (playing) out.emplace_back(TouchEvent{t, s, false, r.piece});
        place_seq[i] = ++seq;
        if (before.occupied && before.piece != r.piece && playing) retyped |= b;
    }
}

// A move waiting to settle is made as soon as the opponent lifts one of his pieces that the move
// could not still be reaching for: the player's hand has left (a fast reply, no clock).
void Reconstructor::Impl::opponent_started(Square s) {
    Piece p = cur().piece_on(s);
    Color mover = cur().side_to_move();
    if (p == Piece::None || color_of(p) == mover || s == cand.to()) return;
    Move m = cand;
    if (m.kind() == Move::Kind::Promotion && !(known & bit_of(m.to()))) return;
    PieceType t = type_of(cur().moved_piece(m));
    if (cur().piece_on(m.to()) == Piece::None &&
        (t == PieceType::Bishop || t == PieceType::Rook || t == PieceType::Queen)) {
        int df = m.to().file() - m.from().file(), dr = m.to().rank() - m.from().rank();
        int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
        for (int f = m.to().file() + sf, r = m.to().rank() + sr; f >= 0 && f < 8 && r >= 0 && r < 8;
             f += sf, r += sr)
            if (Square::at(f, r) == s) return;  // the slide may go on to capture there
    }
    if (type_of(cur().moved_piece(m)) == PieceType::King || t == PieceType::Rook)
        for (const Successor& x : succ)
            if (x.m.is_castling() && (x.m.from() == m.from() || x.m.to() == m.from())) return;
    bool assumed = false;
    std::optional<Move> again = find_move(cur(), succ, &assumed);
    if (!again || *again != m) return;
    cand_waiting = false;
    make(m, assumed, false);
}

void Reconstructor::Impl::rebuild_board() {
    occ = known = 0;
    for (int bs = 0; bs < 64; ++bs) {
        Square g = game_sq(Square(bs));
        const SquareReading& r = raw[static_cast<std::size_t>(bs)];
        if (r.occupied) occ |= bit_of(g);
        if (r.known()) known |= bit_of(g);
        ident[static_cast<std::size_t>(g.index())] = r.piece;
    }
}

void Reconstructor::Impl::assume_board(const BoardReading* reading) {
    for (int bs = 0; bs < 64; ++bs) {
        auto i = static_cast<std::size_t>(bs);
        Piece p = cur().piece_on(game_sq(Square(bs)));
        bool identity = reading == nullptr || (*reading)[i].known();
        raw[i] = SquareReading{p != Piece::None, identity ? p : Piece::None};
    }
    deferred_bb = 0;
    rebuild_board();
}

void Reconstructor::Impl::set_orientation(bool rot) {
    if (rot == rotated) return;
    rotated = rot;
    rebuild_board();
    vacated = rotate_bb(vacated);
    retyped = rotate_bb(retyped);
    co_lifted = rotate_bb(co_lifted);
    off_board = rotate_bb(off_board);
    knocked = rotate_bb(knocked);
    std::array<std::uint16_t, 64> ps{};
    for (int s = 0; s < 64; ++s) ps[static_cast<std::size_t>(63 - s)] = place_seq[static_cast<std::size_t>(s)];
    place_seq = ps;
    std::array<std::uint8_t, 64> ls{};
    for (int s = 0; s < 64; ++s) ls[static_cast<std::size_t>(63 - s)] = lifts[static_cast<std::size_t>(s)];
    lifts = ls;
    for (Touch& x : touches) x.sq = x.sq.rotate();
}

void Reconstructor::Impl::reset_evidence() {
    vacated = retyped = co_lifted = 0;
    lifts = {};
    touches.clear();
    promo_choice = PieceType::None;
    castling_declared = false;
    cand_waiting = false;
    tentative = false;
}

void Reconstructor::Impl::on_press(const LeverPressed& p) {
    // The press is definitive: whatever the board reported before it counts now.
    flush_deferred(p.t_ms);
    if (!game || ended) return;
    int made = made_plies();
    Color stm = cur().side_to_move();
    if (cand_waiting && !cand_replaces && p.by == stm) {
        // The board shows a move that might still have grown: the press ends it.
        cand_waiting = false;
        bool assumed = false;
        if (auto m = find_move(cur(), succ, &assumed)) {
            make(*m, assumed, false);
            complete_all(p.by, Completion::Clock);
            return;
        }
    }
    if (cand_waiting && cand_replaces && p.by == ~stm) {
        cand_waiting = false;
        replace_last();
        complete_all(p.by, Completion::Clock);
        return;
    }
    if (completed < made) {
        for (int k = completed + 1; k <= made; ++k) {
            if (ply_color(k) == p.by) {
                // The made move's piece went on before the press (the pawn that paused on c3
                // is on c4), the opponent's reply perhaps begun or made: the press completes
                // the move the board shows.
                if (k == made && p.by == ~stm && !board_is(cur()) && !in_progress(cur()) &&
                    !moved_on_and_reply())
                    (void)moved_on_at_press();
                complete_all(p.by, Completion::Clock);
                return;
            }
        }
    }
    if (p.by != stm) return;  // a second press, or the player not on move: nothing to complete
    press_pending = true;
    press_by = p.by;
    press_t = p.t_ms;
    check_timers();
}

void Reconstructor::Impl::judge_press() {
    press_pending = false;
    Color who = press_by;
    if (!game || ended || cur().side_to_move() != who) return;
    if (board_is(cur())) {
        if (cfg.rules.press_without_move_illegal)
            illegal(who, cfg.rules.article_press_without_move,
                    "the clock was pressed without a move", 0);
        return;
    }
    if (unpromoted_pawn(cur())) {
        if (cfg.rules.unpromoted_pawn_becomes_queen) {
            for (const Successor& s : succ) {
                if (s.m.kind() == Move::Kind::Promotion && s.occ == occ &&
                    s.m.promotion_type() == PieceType::Queen) {
                    illegal(who, cfg.rules.article_unpromoted_pawn,
                            "the pawn was left on the last rank: it becomes a queen", 0);
                    await_restore = false;
                    make(s.m, false, false);
                    complete_all(who, Completion::Clock);
                    return;
                }
            }
        }
        illegal(who, cfg.rules.article_unpromoted_pawn, "the pawn was left on the last rank",
                diff_squares(cur()));
        return;
    }
    if (const Bitboard missing = cur().occupied() & ~occ & ~knocked) {
        // A legal move on the board, but with pieces off it (knocked over as the hand left,
        // Art. 7.4; or lying since the press before): the move stands, and the pieces still
        // missing after the grace are alerted (check_timers), not an illegal move.
        const Bitboard was = knocked;
        knocked |= missing;
        bool assumed = false;
        std::optional<Move> m = find_move(cur(), succ, &assumed);
        knocked = was;
        if (m) {
            make(*m, assumed, false);
            complete_all(who, Completion::Clock);  // notes the pieces still off the board
            return;
        }
    }
    // The move and the opponent's fast reply, both on the board before it settled: the press
    // completes the first (make() sees press_pending).
    if (!in_progress(cur()) && two_plies(true)) return;
    if (illegal_episode) return;  // already alerted when made (--illegal-feedback immediate)
    illegal(who, illegal_article(), "the clock was pressed after an illegal move",
            diff_squares(cur()));
    if (cfg.rules.illegal_stands_if_unclaimed) prepare_stands();
}

void Reconstructor::Impl::check_timers() {
    if (!game || ended) return;
    if (cand_waiting && now >= cand_due) {
        cand_waiting = false;
        bool assumed = false;
        if (cand_replaces) replace_last();
        else if (auto m = find_move(cur(), succ, &assumed)) make(*m, assumed, false);
        if (!game || ended) return;
    }
    if (!quiet_done && now >= last_change + cfg.settle_ms) {
        quiet_done = true;
        quiet_checks();
        if (!game || ended) return;
    }
    if (press_pending && now >= press_t + cfg.press_grace_ms) judge_press();
    if (!game || ended) return;
    if (const Bitboard lying = off_board_pending();
        lying && now >= off_board_since + cfg.mismatch_grace_ms)
        alert_knocked(lying);
    if (mismatch_alerted && mismatch_knocked && (knocked & ~occ) == 0 && in_progress(cur()))
        set_mismatch_clear();  // put back while another piece is in a hand
    if (!board_is(cur()) && !in_progress(cur())) {
        if (mismatch_since < 0) mismatch_since = last_change;
        if (!mismatch_alerted && now >= mismatch_since + cfg.mismatch_grace_ms) {
            mismatch_alerted = true;
            AlertEvent a;
            a.kind = AlertKind::PositionMismatch;
            a.article = await_restore ? illegal_article() : cfg.rules.article_displaced;
            mismatch_article = a.article;
            a.squares = diff_squares(cur());
            a.ply = made_plies();
            a.player = cur().side_to_move();
            a.text = "the pieces are not where the game says";
            alert(a);
        }
    } else if (board_is(cur()) || !mismatch_alerted) {
        mismatch_since = -1;
    }
}

Reconstructor::Reconstructor(ReconConfig cfg) : impl_(std::make_unique<Impl>(std::move(cfg))) {}
Reconstructor::Reconstructor(Reconstructor&&) noexcept = default;
Reconstructor& Reconstructor::operator=(Reconstructor&&) noexcept = default;
Reconstructor::~Reconstructor() = default;

const std::vector<ReconEvent>& Reconstructor::feed(const SensorEvent& e) {
    impl_->out.clear();
    impl_->feed(e);
    return impl_->out;
}

std::optional<TimeMs> Reconstructor::next_deadline() const noexcept {
    const Impl& I = *impl_;
    std::optional<TimeMs> due;
    auto take = [&due](TimeMs t) {
        if (!due || t < *due) due = t;
    };
    // advance(t) commits a deferred change once t - bounce_ms reaches it.
    for (Bitboard b = I.deferred_bb; b; b &= b - 1)
        take(I.deferred[static_cast<std::size_t>(std::countr_zero(b))].t + I.cfg.bounce_ms);
    if (!I.game || I.ended) return due; // check_timers() does nothing then
    if (I.cand_waiting) take(I.cand_due);
    if (!I.quiet_done) take(I.last_change + I.cfg.settle_ms);
    if (I.press_pending) take(I.press_t + I.cfg.press_grace_ms);
    if (I.mismatch_since >= 0 && !I.mismatch_alerted) take(I.mismatch_since + I.cfg.mismatch_grace_ms);
    if (I.off_board_pending()) take(I.off_board_since + I.cfg.mismatch_grace_ms);
    return due;
}

const std::vector<ReconEvent>& Reconstructor::start_game(const Position& pos, TimeMs t_ms) {
    impl_->out.clear();
    impl_->now = std::max(impl_->now, t_ms);
    impl_->begin_game(pos.copy(), -1, impl_->rotated, impl_->cfg.rotated.has_value());
    return impl_->out;
}

const std::vector<ReconEvent>& Reconstructor::resume_game(const Position& pos, bool last_uncompleted,
                                                          TimeMs t_ms) {
    Impl& I = *impl_;
    I.out.clear();
    I.now = std::max(I.now, t_ms);
    // The moves pos remembers (make_move's undo stack), from the position it started from:
    // the line replays them, so that 9.2 and 9.3 count the positions before the resumption.
    Position start = pos.copy();
    std::vector<Move> moves;
    moves.reserve(start.history_size());
    while (start.history_size() > 0) {
        moves.push_back(start.last_move());
        start.unmake_move();
    }
    std::reverse(moves.begin(), moves.end());
    const bool uncompleted = last_uncompleted && !moves.empty();
    I.begin_game(std::move(start), -1, I.rotated, I.orientation_known || I.cfg.rotated.has_value());
    const std::size_t replayed = moves.size() - (uncompleted ? 1 : 0);
    for (std::size_t i = 0; i < replayed; ++i) I.line_play(moves[i], false);
    if (replayed > 0) {
        I.completed = static_cast<int>(replayed);
        I.successors(I.position_after(static_cast<int>(replayed) - 1), I.succ_prev);
        I.successors(I.cur(), I.succ);
    }
    if (uncompleted) {
        // Made again without a word: its MOVE was announced when the player made it.
        const auto announced = static_cast<std::ptrdiff_t>(I.out.size());
        I.make(moves.back(), false, false);
        I.out.erase(I.out.begin() + announced, I.out.end());
        // Made before the board was seen: no piece was off the board at that turn change (the
        // board's first reading says what stands where).
        I.off_board = 0;
    }
    I.assume_game = true;
    if (!I.board_seen) I.assume_board(nullptr);
    return I.out;
}

const std::vector<ReconEvent>& Reconstructor::lever_seen(Color by, TimeMs t_ms) {
    Impl& I = *impl_;
    I.out.clear();
    I.advance(std::max(t_ms, I.now));
    if (!I.game || I.ended) return I.out;
    // As at a press, whatever the board reported before it counts now.
    I.flush_deferred(I.now);
    if (I.game && !I.ended && I.unpressed_move_of(by)) I.on_press(LeverPressed{I.now, by});
    I.check_timers();
    return I.out;
}

bool Reconstructor::Impl::unpressed_move_of(Color by) const {
    const int made = made_plies();
    for (int k = completed + 1; k <= made; ++k)
        if (ply_color(k) == by) return true;
    if (cand_waiting && !cand_replaces) return cur().side_to_move() == by;
    if (cand_waiting && cand_replaces) return ~cur().side_to_move() == by;
    return false;
}

bool Reconstructor::choose_promotion(PieceType type, TimeMs t_ms) {
    impl_->out.clear();
    impl_->advance(std::max(t_ms, impl_->now));
    return impl_->choose(type);
}

// Art. 4.4.4: the choice is final once the new piece has touched the promotion square. A made,
// uncompleted promotion with an assumed queen whose square is empty again: the player is
// changing pieces and has not put the new one down yet, so the choice still counts.
bool Reconstructor::Impl::choose(PieceType type) {
    if (!game || ended) return false;
    if (type != PieceType::Queen && type != PieceType::Rook && type != PieceType::Bishop &&
        type != PieceType::Knight)
        return false;
    int made = made_plies();
    if (made > completed && last_move().kind() == Move::Kind::Promotion &&
        (occ & bit_of(last_move().to())))
        return false;
    promo_choice = type;
    return true;
}

PieceType Reconstructor::promotion_for_button(int button) noexcept {
    switch (button) {
    case 1: return PieceType::Rook;
    case 2: return PieceType::Bishop;
    case 3: return PieceType::Knight;
    default: return PieceType::Queen;
    }
}

void Reconstructor::declare_castling() noexcept { impl_->castling_declared = true; }
void Reconstructor::set_quickplay_finish(bool on) noexcept { impl_->quickplay = on; }
bool Reconstructor::in_game() const noexcept { return impl_->game && !impl_->ended; }
const Position& Reconstructor::position() const noexcept { return impl_->cur(); }
int Reconstructor::plies_made() const noexcept { return impl_->ply_base + impl_->made_plies(); }
int Reconstructor::plies_completed() const noexcept { return impl_->ply_base + impl_->completed; }
bool Reconstructor::rotated() const noexcept { return impl_->rotated; }
int Reconstructor::illegal_count(Color c) const noexcept {
    return impl_->illegal_counts[static_cast<std::size_t>(c)];
}

void Reconstructor::set_illegal_count(Color c, int count) noexcept {
    impl_->illegal_counts[static_cast<std::size_t>(c)] = count < 0 ? 0 : count;
}

std::size_t Reconstructor::memory_bytes() const noexcept {
    const Impl& I = *impl_;
    std::size_t n = sizeof(Reconstructor) + sizeof(Impl);
    n += I.out.capacity() * sizeof(ReconEvent);
    n += (I.succ.capacity() + I.succ_prev.capacity()) * sizeof(Successor);
    n += (I.touches.capacity() + I.saved_touches.capacity()) * sizeof(Touch);
    // The game line: its position's undo stack (one state of about 48 bytes per made move,
    // rounded up), moves and repetition keys, and its profile; a bit per ply beside it.
    if (I.line)
        n += sizeof(Game) + (I.line->position().history_size() + 1) * 64 +
             I.line->moves().capacity() * sizeof(Move) +
             I.line->repetition_keys().capacity() * sizeof(std::uint64_t) +
             I.promo_assumed.capacity() / 8;
    return n;
}

} // namespace eboard
