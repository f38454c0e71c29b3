// The locked-pawn analysis of winnability (the "static" part of CHA, reduced to what can be
// proven simply): when every pawn is rammed against an enemy pawn and no piece can ever reach a
// square where it would capture a pawn or be captured by one, the pawn chain never changes. Each
// piece then stays in a region it can flood-fill through the chain, and a checkmate needs
//   1. a square m of the defending king's region attacked by some attacking piece from its
//      region, and
//   2. every flight square of m (a neighbour the king may stand on) attacked by an attacking
//      piece or by the attacking king standing on one square of its region (the same for
//      every flight) that is not next to m, or else occupied by a defending piece that can reach it, one piece a square
//      (mate_fits(), shared with the reachability analysis).
// Every region and attack set is an over-approximation (pieces other than pawns never block),
// so "no square m passes" proves the attacker can never checkmate.
#include <array>

#include "rules/bitboard.hpp"
#include "rules/winnable_detail.hpp"

namespace eboard::winnable_detail {

namespace {

constexpr std::array<std::array<std::uint8_t, 64>, 64> make_knight_distance() {
    std::array<std::array<std::uint8_t, 64>, 64> t{};
    for (int from = 0; from < 64; ++from) {
        for (auto& v : t[static_cast<std::size_t>(from)]) v = 255;
        Bitboard seen = bit(from), frontier = bit(from);
        std::uint8_t d = 0;
        while (frontier) {
            for (Bitboard f = frontier; f;) t[static_cast<std::size_t>(from)][static_cast<std::size_t>(pop_lsb(f))] = d;
            frontier = knight_spread(frontier) & ~seen;
            seen |= frontier;
            ++d;
        }
    }
    return t;
}
constexpr auto kKnightDistance = make_knight_distance();

/// Where one piece may ever stand while the chain is fixed, and what it may attack from there.
struct Reach {
    Bitboard region = 0;
    Bitboard attacks = 0;
};

/// Flood fill of a non-king piece from sq (own_pawns: its side's pawns); pawns are the only obstacles.
Reach piece_reach(PieceType t, int sq, Bitboard own_pawns, Bitboard pawns) {
    Reach r;
    r.region = bit(sq);
    Bitboard frontier = r.region;
    while (frontier) {
        Bitboard next = 0;
        for (Bitboard f = frontier; f;) {
            const Bitboard a = piece_attacks(t, pop_lsb(f), pawns);
            r.attacks |= a;
            next |= a;
        }
        next &= ~own_pawns & ~r.region;
        r.region |= next;
        frontier = next;
    }
    return r;
}

/// Flood fill of the king of colour c: it never enters a pawn's square or one a pawn of the
/// other side attacks.
Bitboard king_region(int sq, Bitboard pawns, Bitboard enemy_pawn_attacks) {
    const Bitboard allowed = ~(pawns | enemy_pawn_attacks);
    Bitboard region = bit(sq);
    for (;;) {
        const Bitboard next = region | (king_spread(region) & allowed);
        if (next == region) return region;
        region = next;
    }
}

} // namespace

// The magic-bitboard tables of rules/bitboard.hpp; they exist once any Position was made.
Bitboard bishop_attacks(int sq, Bitboard occupied) noexcept {
    return bitboards::bishop_attacks(sq, occupied);
}

Bitboard rook_attacks(int sq, Bitboard occupied) noexcept {
    return bitboards::rook_attacks(sq, occupied);
}

Bitboard piece_attacks(PieceType t, int sq, Bitboard occupied) noexcept {
    switch (t) {
    case PieceType::Knight: return knight_spread(bit(sq));
    case PieceType::Bishop: return bishop_attacks(sq, occupied);
    case PieceType::Rook: return rook_attacks(sq, occupied);
    case PieceType::Queen: return bishop_attacks(sq, occupied) | rook_attacks(sq, occupied);
    case PieceType::King: return king_spread(bit(sq));
    default: return 0;
    }
}

const std::array<std::uint8_t, 64>& knight_distances(int a) noexcept {
    return kKnightDistance[static_cast<std::size_t>(a)];
}

int knight_distance(int a, int b) noexcept {
    return kKnightDistance[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

bool pawns_rammed(const Position& pos) noexcept {
    const Bitboard wp = pos.pieces(Color::White, PieceType::Pawn);
    const Bitboard bp = pos.pieces(Color::Black, PieceType::Pawn);
    if (wp == 0) return false;  // nothing locked: the analysis would prove nothing
    if ((wp << 8) != bp) return false;
    if (pawn_attacks(Color::White, wp) & bp) return false;  // a pawn can take a pawn
    if (pos.ep_square().valid() || pos.in_check()) return false;
    for (Color c : {Color::White, Color::Black})
        if (pos.has_castling_right(c, true) || pos.has_castling_right(c, false)) return false;
    return true;
}

bool locked_pawns_unwinnable(const Position& pos, Color attacker) noexcept {
    if (!pawns_rammed(pos)) return false;
    const Bitboard pawns = pos.pieces(PieceType::Pawn);
    std::array<Bitboard, 2> own_pawns{pos.pieces(Color::White, PieceType::Pawn),
                                      pos.pieces(Color::Black, PieceType::Pawn)};
    std::array<Bitboard, 2> pawn_att{pawn_attacks(Color::White, own_pawns[0]),
                                     pawn_attacks(Color::Black, own_pawns[1])};

    std::array<Bitboard, 2> king_reg{};
    const std::size_t a = attacker == Color::White ? 0 : 1;
    const std::size_t d = 1 - a;
    MateRegions mate;
    for (std::size_t ci = 0; ci < 2; ++ci) {
        const Color c = ci == 0 ? Color::White : Color::Black;
        const std::size_t them = 1 - ci;
        const Bitboard k = king_region(pos.king_square(c).index(), pawns, pawn_att[them]);
        // A king next to an enemy pawn no pawn defends could take it: the chain would change.
        if (king_spread(k) & own_pawns[them] & ~pawn_att[them]) return false;
        king_reg[ci] = k;
        Bitboard pieces = pos.pieces(c) & ~pawns & ~pos.pieces(c, PieceType::King);
        while (pieces) {
            const int sq = pop_lsb(pieces);
            const Reach r =
                piece_reach(type_of(pos.piece_on(Square(sq))), sq, own_pawns[ci], pawns);
            // It could take a pawn, or a pawn could take it: the chain would change.
            if (r.region & (own_pawns[them] | pawn_att[them])) return false;
            if (ci == a) mate.attacks |= r.attacks;
            else if (mate.blocker_count < mate.blockers.size()) mate.blockers[mate.blocker_count++] = r.region;
            else mate.complete = false;  // composed material: more pieces than the test keeps
        }
    }
    mate.defender_king = king_reg[d];
    mate.attacker_king = king_reg[a];
    return !mate_fits(mate);
}

namespace {

/// Can the defender's pieces fill the flight squares `open`, one piece a square? Kuhn's
/// augmenting paths, at most 8 flights against at most 16 pieces.
inline bool flights_filled(const MateRegions& r, Bitboard open) noexcept {
    std::array<int, 16> holder{};  // the flight each piece fills, -1 none
    holder.fill(-1);
    std::array<int, 8> flights{};
    std::size_t nf = 0;
    while (open) flights[nf++] = pop_lsb(open);
    const auto augment = [&](auto&& self, std::size_t f, std::uint32_t& seen) -> bool {
        for (std::size_t p = 0; p < r.blocker_count; ++p) {
            if ((r.blockers[p] & bit(flights[f])) == 0 || (seen & (1u << p))) continue;
            seen |= 1u << p;
            if (holder[p] < 0 || self(self, static_cast<std::size_t>(holder[p]), seen)) {
                holder[p] = static_cast<int>(f);
                return true;
            }
        }
        return false;
    };
    for (std::size_t f = 0; f < nf; ++f) {
        std::uint32_t seen = 0;
        if (!augment(augment, f, seen)) return false;
    }
    return true;
}

} // namespace

bool mate_fits(const MateRegions& r) noexcept {
    if (!r.complete) return true;
    Bitboard candidates = r.defender_king & r.attacks;
    while (candidates) {
        const int m = pop_lsb(candidates);
        // The attacking king stands on one square of its region, not next to m (issue 25:
        // before, the union of its squares covered flights no single square covers, so two
        // bishops of one colour "mated" a king in their corner).
        const Bitboard kings = r.attacker_king & ~(king_spread(bit(m)) | bit(m));
        if (kings == 0) continue;
        const Bitboard open = king_spread(bit(m)) & r.defender_king & ~r.attacks;
        // First with the king on all its squares at once (one matching, the common case).
        const Bitboard loose = open & ~king_spread(kings);
        if (!flights_filled(r, loose)) continue;
        if (loose == open || flights_filled(r, open)) return true;  // a mate on m is not excluded
        for (Bitboard k = kings & king_spread(open); k;)
            if (flights_filled(r, open & ~king_spread(bit(pop_lsb(k))))) return true;
    }
    return false;
}

} // namespace eboard::winnable_detail
