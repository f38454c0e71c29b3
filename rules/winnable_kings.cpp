// The coupled kings of the reachability analysis (issue 25, full mode): the kings' regions
// grown as one set of PAIRS of squares (White's king's, Black's king's) rather than one region
// each, so that a king that can never pass the other one is not let past it.
//
// Argument. Let S be the least set of pairs (w, b) that holds the pairs the game may begin with
// (w in White's king's start region, b in Black's, w and b not next to each other nor equal)
// and is closed under: (w, b) -> (w', b) for w' one king step from w in open[White], w' neither
// b nor next to b; and the same for Black's king. open[c] is the set the analysis lets the king
// of colour c enter in its own growth (not attacked for good by the other side's permanent
// pieces, no own permanent piece, not filtered: rules/winnable_reach.cpp). By induction over any
// sequence of legal moves, at the fixpoint of the analysis the kings' squares form a pair of S:
// at the start by the definition; a king's legal move goes to a square in open (the same
// argument as for the single region: the permanent pieces stand where they are), never next to
// or onto the other king (Art. 3.8.2, 3.9); every other move leaves the kings where they are
// (kings are never captured). So each king stands in S's projection for its colour, which is
// therefore a sound region. It is never larger than the single-king flood of the same `open`
// (each step of S is a step of that flood), and, as open only grows from round to round and S
// is rebuilt from the same start, it only grows: the analysis' fixpoint stays monotone.
//
// Example (data/deadpos/chasolver_positions.txt, 'W-'): BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/
// 1B2b2B b. Black's king may stand on e8 and d8 only (d7, f7 held by White's pawns, f8 by its
// own bishop); White's king, on c8, b7 or a6, can leave only by d7 or d8, both next to e8 and
// to d8. Alone, White's king region crosses to f8 and opens the chain; as pairs it stays on the
// light squares c8, b7, a6, where Black's dark-squared bishops and its pawns never check it.
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

/// The flood of one king's single steps from `from` through `open`.
Bitboard flood(Bitboard from, Bitboard open) noexcept {
    for (;;) {
        const Bitboard grown = from | (king_spread(from) & open);
        if (grown == from) return from;
        from = grown;
    }
}

/// S as above, indexed by the square of the king of index 1 (whose region should be small:
/// the work is a flood of the other king per square of it).
std::array<Bitboard, 2> pair_regions(const std::array<Bitboard, 2>& start,
                                     const std::array<Bitboard, 2>& open) noexcept {
    // pairs[b]: the squares of king 0 in a pair with king 1 on b.
    std::array<Bitboard, 64> pairs{};
    Bitboard black = 0;  // the squares b with pairs[b] nonempty
    for (Bitboard bs = start[1]; bs;) {
        const int b = pop_lsb(bs);
        pairs[static_cast<std::size_t>(b)] = start[0] & ~(king_spread(bit(b)) | bit(b));
        if (pairs[static_cast<std::size_t>(b)] != 0) black |= bit(b);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (Bitboard bs = black; bs;) {
            const int b = pop_lsb(bs);
            const Bitboard near_b = king_spread(bit(b)) | bit(b);
            Bitboard& w = pairs[static_cast<std::size_t>(b)];
            // King 0 moves, king 1 stays on b.
            for (;;) {
                const Bitboard grown = w | (king_spread(w) & open[0] & ~near_b);
                if (grown == w) break;
                w = grown;
                changed = true;
            }
            // King 1 moves from b to b2, king 0 stays.
            for (Bitboard to = king_spread(bit(b)) & open[1]; to;) {
                const int b2 = pop_lsb(to);
                Bitboard& w2 = pairs[static_cast<std::size_t>(b2)];
                const Bitboard add = w & ~(king_spread(bit(b2)) | bit(b2)) & ~w2;
                if (add == 0) continue;
                w2 |= add;
                black |= bit(b2);
                changed = true;
            }
        }
    }
    std::array<Bitboard, 2> regions{0, black};
    for (Bitboard bs = black; bs;) regions[0] |= pairs[static_cast<std::size_t>(pop_lsb(bs))];
    return regions;
}

} // namespace

std::array<Bitboard, 2> coupled_king_regions(const std::array<Bitboard, 2>& start,
                                             const std::array<Bitboard, 2>& open) noexcept {
    // The single floods hold S's projections. Where they never come next to each other, the
    // coupling changes nothing; where both are large, the pairs would cost too much for what
    // they may gain (a king boxed in is the case): the floods, sound and only wider, stand.
    constexpr int kSmallRegion = 12;
    const std::array<Bitboard, 2> single{flood(start[0], open[0]), flood(start[1], open[1])};
    if ((king_spread(single[0]) & single[1]) == 0) return single;
    if (popcount(single[1]) <= kSmallRegion) return pair_regions(start, open);
    if (popcount(single[0]) > kSmallRegion) return single;
    const std::array<Bitboard, 2> swapped = pair_regions({start[1], start[0]}, {open[1], open[0]});
    return {swapped[1], swapped[0]};
}

} // namespace eboard::winnable_detail
