// The reachability analysis of winnability (the "saturation" idea of CHA, in a simpler form):
// an over-approximation of where every piece may ever stand, grown to a fixpoint together with
// the set P of "permanent" pieces that provably never move and are never captured.
//
//   start: every piece's region is its square; every piece is in P.
//   repeat until nothing changes:
//     - grow each region by the moves possible from any of its squares when only the pieces of
//       P are known to be on the board (P pieces of the own side block; those of the other side
//       block sliders but may be captured; a king never enters a square a P piece of the
//       other side attacks for good (pawns and kings; other pieces along lines no region
//       crosses); a pawn captures only onto a square some enemy piece may reach);
//     - P keeps a piece only if its region is still its own square and no enemy region holds it.
// Regions only grow and P only shrinks, so this ends. At the fixpoint, by induction over any
// sequence of legal moves, the P pieces stay where they are and every other piece stays inside
// its region. A promotion possibility, castling rights or an en passant square end the analysis
// without a proof.
//
// Mate test (mate_fits, shared with the locked-pawn analysis): a mate of the defending king
// needs a square m of its region attacked by an attacking piece from its region, every flight
// square of m that the king may stand on attacked by the attacker or filled by a defending
// piece that can reach it, one piece a square.
#include <array>
#include <optional>

#include "rules/bitboard.hpp"
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

constexpr Bitboard kRank1 = 0xFFULL, kRank8 = kRank1 << 56;

/// More than 32 squares set (the analysis keeps at most 32 pieces).
bool more_than_32(Bitboard b) {
    int n = 0;
    for (; b && n <= 32; b &= b - 1) ++n;
    return n > 32;
}

struct Unit {
    int square = 0;
    Color color = Color::White;
    PieceType type = PieceType::None;
    Bitboard region = 0;
    Bitboard captures = 0;  ///< squares where it may capture (pawns: diagonals; others: region)
};

/// What the mate test needs from the regions, for either side as the attacker (index 0:
/// White attacks).
void make_mate_regions(const std::array<Unit, 32>& units, std::size_t n,
                       std::array<MateRegions, 2>& mate) {
    mate = {};
    for (std::size_t i = 0; i < n; ++i) {
        const Unit& u = units[i];
        const std::size_t ci = u.color == Color::White ? 0 : 1;
        MateRegions& as_attacker = mate[ci];
        MateRegions& as_defender = mate[1 - ci];
        if (u.type == PieceType::King) {
            as_attacker.attacker_king = u.region;
            as_defender.defender_king = u.region;
            continue;
        }
        if (as_defender.blocker_count < as_defender.blockers.size())
            as_defender.blockers[as_defender.blocker_count++] = u.region;
        else
            as_defender.complete = false;  // composed material: more pieces than kept
        // Every square on a line from a region square, up to the first P piece, is in the
        // region or next to it (the region is closed under single steps past non-P squares).
        switch (u.type) {
        case PieceType::Pawn: as_attacker.attacks |= pawn_attacks(u.color, u.region); break;
        case PieceType::Knight: as_attacker.attacks |= knight_spread(u.region); break;
        case PieceType::Bishop: as_attacker.attacks |= diagonal_spread(u.region); break;
        case PieceType::Rook: as_attacker.attacks |= orthogonal_spread(u.region); break;
        default: as_attacker.attacks |= king_spread(u.region); break;
        }
    }
}

/// Adds to fixed_attacks what the P knights, bishops, rooks and queens on `guards` attack for
/// good: every square a piece may ever stand on (a region square) is taken to be occupied, so
/// the squares between are always empty. Out of line: the quick path never calls it.
[[gnu::noinline]] void add_officer_guards(const Position& pos, const std::array<Unit, 32>& units,
                                          std::size_t n, Bitboard guards,
                                          std::array<Bitboard, 2>& fixed_attacks) noexcept {
    Bitboard maybe_occupied = 0;
    for (std::size_t i = 0; i < n; ++i) maybe_occupied |= units[i].region;
    for (Bitboard g = guards; g;) {
        const int sq = pop_lsb(g);
        const Piece p = pos.piece_on(Square(sq));
        const Bitboard occ = maybe_occupied & ~bit(sq);
        const PieceType t = type_of(p);
        const Bitboard a = t == PieceType::Knight   ? knight_spread(bit(sq))
                           : t == PieceType::Bishop ? bitboards::bishop_attacks(sq, occ)
                           : t == PieceType::Rook   ? bitboards::rook_attacks(sq, occ)
                           : bitboards::bishop_attacks(sq, occ) | bitboards::rook_attacks(sq, occ);
        fixed_attacks[color_of(p) == Color::White ? 0 : 1] |= a;
    }
}

/// The stalemate filter (after CHA's saturation): the squares t that the king of colour c may
/// not be counted as entering, because its move there would end the game in a stalemate of the
/// other side. Sound at the fixpoint, by this argument. Let the other side's non-king pieces
/// all have regions of one square (they never move, in any position the regions allow: their
/// growth rules over-approximate their legal moves and do not look at the moving king), and let
/// K be the other king's region, which no filter narrows (the filter is applied to one king
/// only), so K holds every square that king could step to. If c's king steps to t, the other
/// side is to move: its pieces cannot move, its king stands on a square of K not next to t and
/// may only step to squares of K not next to t; if K has at most one square neither t nor next
/// to t, that is the king's own square, and the other side has no legal move. The move to t
/// then ends the game in a stalemate, unless it gives check: a king move checks only by
/// uncovering a line, which needs a slider of c on a line through the king's source square s
/// (any square next to t that no permanent piece holds) that also meets K, with only squares
/// no permanent piece holds between; t is then not filtered. Whatever follows a move to t
/// never happens (the game is over), so the king's region need not hold t. Everything the
/// filter reads only weakens as regions grow and P shrinks (more squares in K, a piece that
/// may move, longer lines), so the filtered set only shrinks and the fixpoint stays monotone.
[[gnu::noinline]] Bitboard stalemating_squares(const std::array<Unit, 32>& units,
                                               std::size_t n, Color c,
                                               Bitboard permanent) noexcept {
    Bitboard other_king = 0, diagonal = 0, straight = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Unit& u = units[i];
        if (u.color != c) {
            if (u.type == PieceType::King) other_king = u.region;
            else if (u.region != bit(u.square)) return 0;  // the other side may move a piece
            continue;
        }
        if (u.type == PieceType::Bishop || u.type == PieceType::Queen) diagonal |= u.region;
        if (u.type == PieceType::Rook || u.type == PieceType::Queen) straight |= u.region;
    }
    // A king covers at most 9 squares of K (its own and its neighbours).
    if (popcount(other_king) > 10) return 0;
    Bitboard filtered = 0;
    for (Bitboard ts = king_spread(king_spread(other_king)) & ~other_king; ts;) {
        const int t = pop_lsb(ts);
        const Bitboard covered = king_spread(bit(t)) | bit(t);
        if (popcount(other_king & ~covered) > 1) continue;
        const Bitboard blockers = permanent | bit(t);
        bool uncovers = false;
        for (Bitboard ss = king_spread(bit(t)) & ~permanent; ss && !uncovers;) {
            const int s = pop_lsb(ss);
            const Bitboard d = bishop_attacks(s, blockers);
            const Bitboard r = rook_attacks(s, blockers);
            uncovers = ((d & other_king) != 0 && (d & diagonal) != 0) ||
                       ((r & other_king) != 0 && (r & straight) != 0);
        }
        if (!uncovers) filtered |= bit(t);
    }
    return filtered;
}

} // namespace

bool reach_regions(const Position& pos, std::array<MateRegions, 2>& mate,
                   std::optional<Color> stalemate_filter, bool officer_guards, Bitboard held,
                   Bitboard* permanent_out, ReachCase* split) noexcept {
    if (pos.ep_square().valid() || (held != 0 && stalemate_filter)) return false;
    for (Color c : {Color::White, Color::Black})
        if (pos.has_castling_right(c, true) || pos.has_castling_right(c, false)) return false;

    if (more_than_32(pos.occupied())) return false;
    std::array<Unit, 32> units{};
    std::size_t n = 0;
    // Pawns first: a round grows each region from what was known at its start, so the order
    // does not change the fixpoint, and a pawn that may promote ends the analysis before the
    // other pieces' floods are paid for (most analyses that fail, fail so).
    const Bitboard pawns = pos.pieces(PieceType::Pawn);
    const Bitboard present = pos.occupied() & ~(split ? split->absent : 0);
    Bitboard permanent = present;
    for (const Bitboard part : {pawns & present, present & ~pawns})
        for (Bitboard occ = part; occ && n < units.size();) {
            const int sq = pop_lsb(occ);
            const Piece p = pos.piece_on(Square(sq));
            Bitboard region = bit(sq);
            if (split && split->start[static_cast<std::size_t>(sq)] != 0) {
                region = split->start[static_cast<std::size_t>(sq)];
                if (region != bit(sq)) permanent &= ~bit(sq);
            }
            units[n++] = Unit{sq, color_of(p), type_of(p), region, 0};
        }

    const Bitboard officers = present & ~pawns & ~pos.pieces(PieceType::King);
    // Full mode: the kings grown as pairs (rules/winnable_kings.cpp), from their start regions.
    // Not with the stalemate filter: its argument needs the other king's region to hold every
    // square that king may step to after the filtered move, which the pairs, built without the
    // filtered squares, need not.
    std::array<Bitboard, 2> king_start{};
    for (std::size_t i = 0; i < n; ++i)
        if (units[i].type == PieceType::King) king_start[units[i].color == Color::White ? 0 : 1] |= units[i].region;
    const bool coupled = officer_guards && !stalemate_filter &&
                         popcount(pos.pieces(PieceType::King) & present) == 2 &&
                         king_start[0] != 0 && king_start[1] != 0;
    for (int round = 0;; ++round) {
        // What is known for the whole game, given P.
        std::array<Bitboard, 2> fixed_attacks{};  // by P pieces, per colour
        std::array<Bitboard, 2> region_of{};      // union of regions of non-king pieces
        std::array<Bitboard, 2> fixed_king{};     // the king's square if the king is in P
        for (std::size_t i = 0; i < n; ++i) {
            const Unit& u = units[i];
            const std::size_t ci = u.color == Color::White ? 0 : 1;
            if (u.type != PieceType::King) region_of[ci] |= u.region;
            if ((permanent & bit(u.square)) == 0) continue;
            if (u.type == PieceType::Pawn) fixed_attacks[ci] |= pawn_attacks(u.color, bit(u.square));
            if (u.type == PieceType::King) {
                fixed_attacks[ci] |= king_spread(bit(u.square));
                fixed_king[ci] = bit(u.square);
            }
        }
        // A P knight, bishop, rook or queen attacks for good every square it attacks when
        // every square some piece may ever stand on (a region square) is taken to be
        // occupied: the squares between are then always empty. A king never steps there.
        // (Only where the caller asks: it costs quick mode about 6 % of its speed.)
        if (officer_guards && (permanent & officers) != 0)
            add_officer_guards(pos, units, n, permanent & officers, fixed_attacks);
        std::array<Bitboard, 2> own_fixed{permanent & pos.pieces(Color::White),
                                          permanent & pos.pieces(Color::Black)};
        std::array<Bitboard, 2> all_captures{};
        for (std::size_t i = 0; i < n; ++i)
            all_captures[units[i].color == Color::White ? 0 : 1] |= units[i].captures;
        if (officer_guards) {  // bishops packed in a pocket (rules/winnable_walled.cpp)
            std::array<PieceRegion, 32> regions{};
            for (std::size_t i = 0; i < n; ++i) regions[i] = {units[i].color, units[i].type, units[i].region};
            add_pocket_guards(regions, n, all_captures, fixed_attacks);
        }
        // Opposing pawns that both stay on their file, the far one never captured, never pass
        // each other: the near one stops short of the far one's square. steady[c]: squares of
        // the pawns of colour c that stay on their file and are never captured.
        std::array<Bitboard, 2> steady{};
        for (std::size_t i = 0; i < n; ++i) {
            const Unit& v = units[i];
            if (v.type != PieceType::Pawn) continue;
            const std::size_t cv = v.color == Color::White ? 0 : 1;
            if ((v.region & ~(kFileA << (v.square & 7))) == 0 && (v.region & all_captures[1 - cv]) == 0)
                steady[cv] |= bit(v.square);
        }
        std::array<Bitboard, 32> pawn_cap{};
        for (std::size_t i = 0; i < n; ++i) {
            const Unit& u = units[i];
            pawn_cap[i] = ~Bitboard{0};
            if (u.type != PieceType::Pawn) continue;
            const Bitboard file = kFileA << (u.square & 7);
            if (u.region & ~file) continue;
            if (u.color == Color::White) {
                const Bitboard ahead = steady[1] & file & ~((bit(u.square) << 1) - 1);
                if (ahead) pawn_cap[i] = bit(std::countr_zero(ahead)) - 1;  // below the nearest
            } else {
                const Bitboard ahead = steady[0] & file & (bit(u.square) - 1);
                if (ahead) pawn_cap[i] = ~((bit(63 - std::countl_zero(ahead)) << 1) - 1);
            }
        }

        // Squares the filtered king may not enter (stalemating_squares()), from the regions as
        // they stand at the start of the round.
        std::array<Bitboard, 2> stalemating{};
        if (stalemate_filter)
            stalemating[*stalemate_filter == Color::White ? 0 : 1] =
                stalemating_squares(units, n, *stalemate_filter, permanent);

        std::array<Bitboard, 2> king_open{};  // as the King case below; none for a held king
        for (std::size_t c = 0; c < 2; ++c)
            if ((held & pos.pieces(c == 0 ? Color::White : Color::Black, PieceType::King)) == 0)
                king_open[c] = ~fixed_attacks[1 - c] & ~own_fixed[c] & ~fixed_king[1 - c] &
                               ~(split ? split->barred[c] : 0) & ~stalemating[c];
        const std::array<Bitboard, 2> king_pairs =
            coupled ? coupled_king_regions(king_start, king_open) : std::array<Bitboard, 2>{};

        // Each region is grown to its own fixpoint given what is known now (P and the other
        // regions as they stand); the outer loop repeats until nothing changes at all.
        bool changed = false;
        for (std::size_t i = 0; i < n; ++i) {
            Unit& u = units[i];
            const std::size_t ci = u.color == Color::White ? 0 : 1;
            const std::size_t them = 1 - ci;
            const Bitboard allowed =
                ~(own_fixed[ci] | fixed_king[them] | (split ? split->barred[ci] : 0));
            const Bitboard before = u.region;
            if ((held & bit(u.square)) != 0) {
                // Held by the caller (its moves end the game): the region stays its square.
                if (u.type != PieceType::Pawn) u.captures = u.region;
                continue;
            }
            switch (u.type) {
            case PieceType::Pawn: {
                const Bitboard push_to = ~permanent & pawn_cap[i] & allowed;
                for (;;) {
                    const Bitboard ahead = u.color == Color::White ? u.region << 8 : u.region >> 8;
                    const Bitboard takes = pawn_attacks(u.color, u.region) & region_of[them] & allowed;
                    u.captures |= takes;
                    const Bitboard grown = u.region | (ahead & push_to) | takes;
                    if (grown == u.region) break;
                    u.region = grown;
                }
                if (u.region & (kRank1 | kRank8)) return false;  // it may promote
                break;
            }
            case PieceType::King: {
                if (coupled) {
                    u.region |= king_pairs[ci];
                    break;
                }
                const Bitboard open = ~fixed_attacks[them] & allowed & ~stalemating[ci];
                for (;;) {
                    const Bitboard grown = u.region | (king_spread(u.region) & open);
                    if (grown == u.region) break;
                    u.region = grown;
                }
                break;
            }
            case PieceType::Knight:
                for (;;) {
                    const Bitboard grown = u.region | (knight_spread(u.region) & allowed);
                    if (grown == u.region) break;
                    u.region = grown;
                }
                break;
            default: {
                // A slide is a run of single steps through squares no P piece blocks; it may
                // end on (take) a P piece of the other side and go on from there in a later
                // move: the region is the flood of single steps through `allowed`.
                const bool diagonal = u.type != PieceType::Rook;
                const bool straight = u.type != PieceType::Bishop;
                for (;;) {
                    const Bitboard step = (diagonal ? diagonal_spread(u.region) : 0) |
                                          (straight ? orthogonal_spread(u.region) : 0);
                    const Bitboard grown = u.region | (step & allowed);
                    if (grown == u.region) break;
                    u.region = grown;
                }
                break;
            }
            }
            if (u.type != PieceType::Pawn) u.captures = u.region;
            if (u.region != before) changed = true;
        }

        // P: never moved, never reachable by the other side (kings are never captured).
        Bitboard next_permanent = permanent;
        all_captures = {};
        for (std::size_t i = 0; i < n; ++i)
            all_captures[units[i].color == Color::White ? 0 : 1] |= units[i].captures;
        for (std::size_t i = 0; i < n; ++i) {
            const Unit& u = units[i];
            const std::size_t them = u.color == Color::White ? 1 : 0;
            const bool moved = u.region != bit(u.square);
            const bool capturable =
                u.type != PieceType::King && (all_captures[them] & bit(u.square)) != 0;
            if (moved || capturable) next_permanent &= ~bit(u.square);
        }
        if (next_permanent != permanent) {
            permanent = next_permanent;
            changed = true;
        }
        if (!changed) break;
        // Regions only grow, and the mate test only passes more easily with larger regions:
        // if it passes for both sides after the first round, the fixpoint can prove nothing.
        if (round == 0) {
            make_mate_regions(units, n, mate);
            if (mate_fits(mate[0]) && mate_fits(mate[1])) return false;
        }
    }

    make_mate_regions(units, n, mate);
    if (permanent_out != nullptr) *permanent_out = permanent;
    if (split) {
        split->regions = {};
        for (std::size_t i = 0; i < n; ++i)
            split->regions[static_cast<std::size_t>(units[i].square)] = units[i].region;
        split->permanent = permanent;
    }
    return true;
}

bool reach_unwinnable(const Position& pos, Color attacker) noexcept {
    std::array<MateRegions, 2> mate;
    return reach_regions(pos, mate) && !mate_fits(mate[attacker == Color::White ? 0 : 1]);
}

} // namespace eboard::winnable_detail
