// A board read in frames (Tabutronic Sentio: the whole board every 100 ms) catches a pawn's
// double step on the square between when the hand pauses there; when the pause outlasts
// settle_ms the single step is made, and the pawn going on must replace it, whatever the
// opponent's hand and the clock do around it (recon_moves_test.cpp has the single cases).
// Seeded Monte Carlo over pauses, the opponent's lift, his landing and White's press.
#include <catch2/catch.hpp>

#include <random>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

/// The hands' square changes as whole-board frames every `frame_ms` (the changes of a period
/// share the frame's time stamp); presses and ticks pass through at their own times.
std::vector<SensorEvent> as_frames(const std::vector<SensorEvent>& in, TimeMs frame_ms) {
    std::vector<SensorEvent> out;
    BoardReading board{}, sent{};
    TimeMs next = frame_ms;
    bool first = true;
    for (const SensorEvent& e : in) {
        for (const TimeMs te = time_of(e); te >= next; next += frame_ms) {
            if (first || board != sent) out.emplace_back(BoardSnapshot{next, board});
            sent = board;
            first = false;
        }
        if (const auto* c = std::get_if<SquareChange>(&e))
            board[static_cast<std::size_t>(c->square.index())] = c->reading;
        else if (const auto* b = std::get_if<BoardSnapshot>(&e))
            board = b->board;
        else
            out.push_back(e);
    }
    out.emplace_back(BoardSnapshot{next, board});
    out.emplace_back(Tick{next + 1000});
    return out;
}

struct Reply {
    const char* from;
    const char* to;
    Piece piece;
};

} // namespace

TEST_CASE("4.7 6.2.1 a double step paused on the square between, 100 ms frames: one move and the reply, 400 seeded trials") {
    std::mt19937_64 rng(20261124);  // NOLINT(cert-msc32-c,cert-msc51-cpp): reproducible trials
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const Reply replies[] = {{"b8", "c6", Piece::BKnight}, {"g8", "f6", Piece::BKnight},
                             {"e7", "e5", Piece::BPawn},   {"d7", "d6", Piece::BPawn},
                             {"h7", "h6", Piece::BPawn}};
    int wrong = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const bool clock = trial % 2 == 1;
        const int file = uni(0, 7);
        const Reply& rep = replies[uni(0, 4)];
        // The pause on the square between (up to 1.5 settle_ms), the opponent's lift relative
        // to the pawn landing, his landing after it; White's press at least one frame after
        // the landing (a press before the frame that shows the pawn's square is a known limit,
        // docs/reconstruction.md).
        const int pause = uni(100, 450), lag = uni(-50, 150), land = uni(150, 600);
        const int press_after = uni(110, 300);
        BoardHands h(plain_hands(false));
        h.setup(Position::startpos());
        h.wait(500 + uni(0, 99));
        const Square s2 = Square::at(file, 1), s3 = Square::at(file, 2), s4 = Square::at(file, 3);
        h.lift(s2);
        h.wait(uni(20, 80));
        h.place(s3, Piece::WPawn);
        h.wait(pause);
        h.lift(s3);
        h.wait(uni(5, 30));
        if (lag < 0) {
            h.lift(sq(rep.from));
            h.wait(-lag);
            h.place(s4, Piece::WPawn);
        } else {
            h.place(s4, Piece::WPawn);
            h.wait(lag);
            h.lift(sq(rep.from));
        }
        bool pressed = false;
        if (clock && press_after < land) {
            h.wait(press_after);
            h.press(Color::White);
            pressed = true;
        }
        h.wait(pressed ? land - press_after : land);
        h.place(sq(rep.to), rep.piece);
        if (clock && !pressed) {
            h.wait(50);
            h.press(Color::White);
        }
        h.wait(100);
        if (clock) h.press(Color::Black);
        h.wait(800);
        ReconConfig cfg;
        cfg.clock = clock;
        Run r(cfg);
        r.feed(as_frames(h.take_events(), 100));
        const std::vector<std::string> want{s2.name() + s4.name(),
                                            std::string(rep.from) + rep.to};
        if (r.made != want || r.irregularities() != 0) {
            ++wrong;
            UNSCOPED_INFO("trial " << trial << " clock " << clock << " pause " << pause << " lag "
                                   << lag << " land " << land << " press " << press_after
                                   << ": " << (r.made.empty() ? "" : r.made[0]) << " ...");
        }
    }
    CHECK(wrong == 0);
}
