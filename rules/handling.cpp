// Human handling of moves as sensor events (rules/handling.hpp).
#include "rules/handling.hpp"

namespace eboard {

BoardHands::BoardHands(HandlingOptions o) : o_(o), rng_(o.seed) {}

SquareReading BoardHands::reading(Piece p) const noexcept {
    if (p == Piece::None) return SquareReading::empty();
    return o_.identity ? SquareReading::of(p) : SquareReading::unknown();
}

TimeMs BoardHands::between(TimeMs lo, TimeMs hi) {
    if (hi <= lo) return lo;
    return std::uniform_int_distribution<TimeMs>(lo, hi)(rng_);
}

bool BoardHands::chance(int percent) {
    return std::uniform_int_distribution<int>(0, 99)(rng_) < percent;
}

std::vector<SensorEvent> BoardHands::take_events() {
    std::vector<SensorEvent> e;
    e.swap(events_);
    return e;
}

void BoardHands::setup(const Position& p) {
    BoardSnapshot s;
    s.t_ms = now_;
    for (int i = 0; i < 64; ++i) {
        Square sq(i);
        board_[static_cast<std::size_t>(i)] = p.piece_on(sq);
        s.board[static_cast<std::size_t>(board_sq(sq).index())] = reading(p.piece_on(sq));
    }
    events_.emplace_back(s);
}

void BoardHands::clear() {
    board_ = {};
    events_.emplace_back(BoardSnapshot{now_, {}});
}

void BoardHands::lift(Square s) {
    board_[static_cast<std::size_t>(s.index())] = Piece::None;
    events_.emplace_back(SquareChange{now_, board_sq(s), SquareReading::empty()});
}

void BoardHands::place(Square s, Piece p) {
    board_[static_cast<std::size_t>(s.index())] = p;
    events_.emplace_back(SquareChange{now_, board_sq(s), reading(p)});
}

void BoardHands::retype(Square s, Piece p) { place(s, p); }

void BoardHands::shift(Square from, Square to, TimeMs gap) {
    Piece p = on(from);
    lift(from);
    wait(gap);
    place(to, p);
}

void BoardHands::bounce(Square s, TimeMs ms) {
    Piece p = on(s);
    SquareReading back = reading(p);
    SquareReading other = p == Piece::None ? SquareReading::unknown() : SquareReading::empty();
    if (p == Piece::None && o_.identity) other = SquareReading::of(Piece::WPawn);
    events_.emplace_back(SquareChange{now_, board_sq(s), other});
    now_ += ms;
    events_.emplace_back(SquareChange{now_, board_sq(s), back});
}

void BoardHands::wait(TimeMs ms) {
    TimeMs end = now_ + ms;
    while (o_.tick_ms > 0 && now_ + o_.tick_ms < end) {
        now_ += o_.tick_ms;
        events_.emplace_back(Tick{now_});
    }
    now_ = end;
    events_.emplace_back(Tick{now_});
}

void BoardHands::press(Color by) { events_.emplace_back(LeverPressed{now_, by}); }
void BoardHands::button(int b) { events_.emplace_back(ClockButton{now_, b}); }
void BoardHands::flag(Color side) { events_.emplace_back(FlagFall{now_, side}); }

// A piece carried over the squares between from and to (exclusive) of its line; most slides
// are faster than the bounce filter, some pause on a square for up to a scan.
void BoardHands::slide_over(Square from, Square to, Piece p) {
    int df = to.file() - from.file(), dr = to.rank() - from.rank();
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    if (df != 0 && dr != 0 && df != dr && df != -dr) return;  // not a line (knight)
    bool slow = chance(20);
    for (int f = from.file() + sf, r = from.rank() + sr; f != to.file() || r != to.rank();
         f += sf, r += sr) {
        Square s = Square::at(f, r);
        if (on(s) != Piece::None) return;
        place(s, p);
        step(slow ? 60 : 5, slow ? 160 : 25);
        lift(s);
        step(3, 15);
    }
}

void BoardHands::play_castling(Move m, Piece king, Piece rook) {
    Square k = m.from(), r = m.to(), kt = m.king_to(), rt = m.rook_to();
    if (k == kt) {
        // Rook-only castling: king off the board first (the recommended order, Guidelines II).
        lift(k);
        step(100, 300);
        shift(r, rt, between(150, 400));
        step(100, 300);
        place(k, king);
        return;
    }
    bool king_first_alone = kt != r && on(kt) == Piece::None && r != rt;
    if (o_.vary_orders && king_first_alone && chance(50)) {
        shift(k, kt, between(150, 400));  // the king first, put down, then the rook
        step(80, 300);
        shift(r, rt, between(150, 400));
        return;
    }
    // Both lifted, king first; placed in either order.
    lift(k);
    step(60, 200);
    lift(r);
    step(100, 300);
    if (chance(50)) {
        place(rt, rook);
        step(60, 200);
        place(kt, king);
    } else {
        place(kt, king);
        step(60, 200);
        place(rt, rook);
    }
}

void BoardHands::play_promotion(const Position& p, Move m) {
    Piece pawn = p.moved_piece(m);
    Piece piece = make_piece(color_of(pawn), m.promotion_type());
    bool capture = p.piece_on(m.to()) != Piece::None;
    auto choose = [&] {
        if (o_.identity) return;
        switch (m.promotion_type()) {
        case PieceType::Rook: button(1); break;
        case PieceType::Bishop: button(2); break;
        case PieceType::Knight: button(3); break;
        default: break;
        }
    };
    int order = o_.vary_orders ? static_cast<int>(between(0, 2)) : 0;
    if (order == 0) {  // pawn off, victim off, new piece on
        lift(m.from());
        step(80, 250);
        if (capture) {
            lift(m.to());
            step(80, 250);
        }
        choose();
        step(300, 900);  // reaching for the piece
        place(m.to(), piece);
    } else if (order == 1) {  // the pawn first put on the promotion square (4.7.3)
        if (capture) {
            lift(m.to());
            step(80, 250);
        }
        shift(m.from(), m.to(), between(100, 300));
        step(100, 250);
        lift(m.to());
        step(80, 200);
        choose();
        step(300, 900);
        place(m.to(), piece);
    } else {  // the new piece first, then the pawn off the board
        if (capture) {
            lift(m.to());
            step(80, 250);
        }
        choose();
        step(300, 900);
        place(m.to(), piece);
        step(60, 200);
        lift(m.from());
    }
}

void BoardHands::play(const Position& p, Move m) {
    step(o_.think_min, o_.think_max);
    Piece mover = p.moved_piece(m);
    if (o_.bounce && chance(15)) {
        // One draw after the other: as arguments of one call their order would be the
        // compiler's (gcc and clang differ), and a seed must give the same game on both.
        const Square s(static_cast<int>(between(0, 63)));
        bounce(s, between(2, 15));
        step(20, 80);
    }
    if (o_.jadoube && chance(10)) {
        // Adjusting the piece about to be moved: lifted and put back on its square.
        Square s = m.from();
        lift(s);
        step(120, 300);
        place(s, mover);
        step(150, 400);
    }
    if (m.is_castling()) {
        play_castling(m, mover, p.piece_on(m.to()));
    } else if (m.kind() == Move::Kind::Promotion) {
        play_promotion(p, m);
    } else if (m.kind() == Move::Kind::EnPassant) {
        Square victim = Square::at(m.to().file(), m.from().rank());
        switch (o_.vary_orders ? between(0, 2) : 0) {
        case 0:
            shift(m.from(), m.to(), between(150, 400));
            step(80, 300);
            lift(victim);
            break;
        case 1:
            lift(victim);
            step(80, 300);
            shift(m.from(), m.to(), between(150, 400));
            break;
        default:
            lift(m.from());
            step(80, 300);
            lift(victim);
            step(80, 300);
            place(m.to(), mover);
        }
    } else if (p.piece_on(m.to()) != Piece::None) {
        bool scan = o_.identity && o_.dgt_scan && chance(60);
        if (scan) {
            // One scan sees the capturer on the target, never the target empty (dgt.md 8 b).
            if (chance(50)) {
                retype(m.to(), mover);
                step(0, 40);
                lift(m.from());
            } else {
                lift(m.from());
                step(100, 300);
                retype(m.to(), mover);
            }
        } else if (!o_.vary_orders || chance(50)) {  // the captured piece removed first
            lift(m.to());
            step(80, 300);
            lift(m.from());
            step(100, 300);
            if (o_.slides) slide_over(m.from(), m.to(), mover);
            place(m.to(), mover);
        } else {  // the capturing piece lifted first
            lift(m.from());
            step(80, 300);
            lift(m.to());
            step(100, 300);
            place(m.to(), mover);
        }
    } else if (o_.identity && o_.dgt_scan && chance(40)) {
        // Reverse order within one scan (dgt.md 8 a).
        place(m.to(), mover);
        step(0, 30);
        lift(m.from());
    } else {
        lift(m.from());
        step(40, 150);
        if (o_.slides && chance(50)) slide_over(m.from(), m.to(), mover);
        step(20, 200);
        place(m.to(), mover);
    }
    if (o_.clock) {
        step(o_.press_min, o_.press_max);
        press(color_of(mover));
    }
}

std::vector<SensorEvent> handle_game(const Position& start, const std::vector<Move>& moves,
                                     const HandlingOptions& o) {
    BoardHands h(o);
    h.setup(start);
    h.wait(500);
    Position p = start.copy();
    for (Move m : moves) {
        h.play(p, m);
        p.make_move(m);
    }
    h.wait(1500);
    return h.take_events();
}

} // namespace eboard
