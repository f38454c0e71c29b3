// A board read in frames (Tabutronic Sentio: the whole board every 100 ms) and the seeded
// trial of a pawn's double step paused on the square between, shared by the reconstruction's
// tests (recon_frames_test.cpp) and its misreading bench (bench/recon_misreadings.cpp).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "recon_support.hpp"

namespace eboard::test {

/// The hands' square changes as whole-board frames every `frame_ms` (the changes of a period
/// share the frame's time stamp); presses and ticks pass through at their own times.
inline std::vector<SensorEvent> as_frames(const std::vector<SensorEvent>& in, TimeMs frame_ms) {
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

/// The ranges (ms, inclusive) of one kind of paused double step: the pause on the square
/// between, the opponent's lift relative to the pawn landing (negative: before), his landing
/// after the pawn's, and White's press after the pawn lands (clock trials only).
struct PausedStep {
    int pause_lo = 100, pause_hi = 450;
    int lag_lo = -50, lag_hi = 150;
    int land_lo = 150, land_hi = 600;
    int press_lo = 110, press_hi = 300;
    TimeMs frame_ms = 100;
};

/// One seeded trial: White's pawn from rank 2 pauses on rank 3 and goes on to rank 4, Black's
/// reply (a knight or a pawn) begun around it, the whole read in frames; with `clock`, White
/// presses `press` ms after his pawn lands (before Black's landing, or 50 ms after it) and
/// Black after his reply. True when the reconstruction reads the double step and the reply
/// with no irregularity; else `why` says what it read.
inline bool paused_double_step(std::mt19937_64& rng, const PausedStep& k, bool clock, std::string* why = nullptr) {
    struct Reply {
        const char* from;
        const char* to;
        Piece piece;
    };
    static constexpr Reply kReplies[] = {{"b8", "c6", Piece::BKnight}, {"g8", "f6", Piece::BKnight},
                                         {"e7", "e5", Piece::BPawn},   {"d7", "d6", Piece::BPawn},
                                         {"h7", "h6", Piece::BPawn}};
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int file = uni(0, 7);
    const Reply& rep = kReplies[uni(0, 4)];
    const int pause = uni(k.pause_lo, k.pause_hi), lag = uni(k.lag_lo, k.lag_hi), land = uni(k.land_lo, k.land_hi);
    const int press_after = uni(k.press_lo, k.press_hi);
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
    r.feed(as_frames(h.take_events(), k.frame_ms));
    const std::vector<std::string> want{s2.name() + s4.name(), std::string(rep.from) + rep.to};
    const bool right = r.made == want && r.irregularities() == 0;
    if (!right && why) {
        *why = "clock " + std::to_string(clock) + " pause " + std::to_string(pause) + " lag " + std::to_string(lag) +
               " land " + std::to_string(land) + " press " + std::to_string(press_after) + ":";
        for (const std::string& m : r.made) *why += " " + m;
    }
    return right;
}

} // namespace eboard::test
