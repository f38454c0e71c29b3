// Position: piece placement, attacks, the Zobrist key of Art. 9.2, make/unmake.
// FEN in/out is in fen.cpp, move generation in movegen.cpp.
#include "rules/position.hpp"

#include "rules/bitboard.hpp"
#include "rules/zobrist.hpp"

namespace eboard {

using namespace bitboards;

namespace {
inline std::uint64_t psq(Piece p, Square s) {
    return zobrist::keys.piece_square[static_cast<std::size_t>(p)]
                                     [static_cast<std::size_t>(s.index())];
}
} // namespace

Position Position::copy() const {
    Position p;
    p.board_ = board_;
    p.by_type_ = by_type_;
    p.by_color_ = by_color_;
    p.stm_ = stm_;
    p.fullmove_ = fullmove_;
    p.chess960_ = chess960_;
    p.castling_rooks_ = castling_rooks_;
    p.castling_empty_ = castling_empty_;
    p.castling_safe_ = castling_safe_;
    p.castling_loss_ = castling_loss_;
    p.states_ = states_;
    return p;
}

void Position::put_piece(Piece p, Square s) noexcept {
    const Bitboard b = bb(s);
    board_[idx(s)] = p;
    by_type_[static_cast<std::size_t>(type_of(p))] |= b;
    by_color_[ci(color_of(p))] |= b;
}

void Position::remove_piece(Square s) noexcept {
    const Piece p = board_[idx(s)];
    const Bitboard b = bb(s);
    by_type_[static_cast<std::size_t>(type_of(p))] &= ~b;
    by_color_[ci(color_of(p))] &= ~b;
    board_[idx(s)] = Piece::None;
}

void Position::move_piece(Square from, Square to) noexcept {
    const Piece p = board_[idx(from)];
    const Bitboard b = bb(from) | bb(to);
    by_type_[static_cast<std::size_t>(type_of(p))] ^= b;
    by_color_[ci(color_of(p))] ^= b;
    board_[idx(from)] = Piece::None;
    board_[idx(to)] = p;
}

Square Position::king_square(Color c) const noexcept {
    const Bitboard k = pieces(c, PieceType::King);
    return k ? Square(lsb(k)) : Square::none();
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const noexcept {
    const int sq = s.index();
    const Bitboard rooks = by_type_[4] | by_type_[5];
    const Bitboard bishops = by_type_[3] | by_type_[5];
    return (pawn_attacks(Color::White, sq) & pieces(Color::Black, PieceType::Pawn)) |
           (pawn_attacks(Color::Black, sq) & pieces(Color::White, PieceType::Pawn)) |
           (knight_attacks(sq) & by_type_[2]) | (king_attacks(sq) & by_type_[6]) |
           (bishop_attacks(sq, occ) & bishops) | (rook_attacks(sq, occ) & rooks);
}

Bitboard Position::attackers_to(Square s, Color by) const noexcept {
    if (!s.valid()) return 0;
    return attackers_to(s, occupied()) & pieces(by);
}

bool Position::is_capture(Move m) const noexcept {
    if (m.is_castling()) return false;
    return m.kind() == Move::Kind::EnPassant || piece_on(m.to()) != Piece::None;
}

Piece Position::captured_piece(Move m) const noexcept {
    if (m.is_castling()) return Piece::None;
    if (m.kind() == Move::Kind::EnPassant) return make_piece(~stm_, PieceType::Pawn);
    return piece_on(m.to());
}

std::uint64_t Position::compute_key_noep() const noexcept {
    std::uint64_t k = stm_ == Color::Black ? zobrist::keys.black_to_move : 0;
    for (Bitboard b = occupied(); b;) {
        const Square s(pop_lsb(b));
        k ^= psq(board_[idx(s)], s);
    }
    for (std::size_t i = 0; i < 4; ++i)
        if (st().castling & (1u << i))
            k ^= zobrist::keys.castling_rook[idx(castling_rooks_[i])];
    return k;
}

// Art. 9.2: positions are the same only if the same moves are possible, so the en passant
// file counts only when some en passant capture is actually legal.
std::uint64_t Position::ep_key() const noexcept {
    const Square ep = st().ep;
    if (!ep.valid()) return 0;
    for (Bitboard b = pawn_attacks(~stm_, ep.index()) & pieces(stm_, PieceType::Pawn); b;)
        if (ep_capture_legal(Square(pop_lsb(b))))
            return zobrist::keys.ep_file[static_cast<std::size_t>(ep.file())];
    return 0;
}

// An en passant capture removes two pieces from one line at once, so it is checked by
// recomputing the attacks on the king with the occupancy after the capture.
bool Position::ep_capture_legal(Square from) const noexcept {
    const Square to = st().ep;
    const Square capsq(to.index() + (stm_ == Color::White ? -8 : 8));
    const Bitboard occ = (occupied() ^ bb(from) ^ bb(capsq)) | bb(to);
    const Square k = king_square(stm_);
    return (attackers_to(k, occ) & pieces(~stm_) & ~bb(capsq)) == 0;
}

void Position::make_move(Move m) {
    const State& prev = st();
    State ns;
    ns.castling = prev.castling;
    ns.halfmove = prev.halfmove + 1;
    ns.move = m;
    std::uint64_t k = prev.key_noep ^ zobrist::keys.black_to_move;
    const Color us = stm_;
    const Color them = ~us;
    const Square from = m.from();
    const Square to = m.to();
    const Piece pc = board_[idx(from)];

    if (m.is_castling()) {
        const Square kto = m.king_to();
        const Square rto = m.rook_to();
        const Piece rook = board_[idx(to)];
        remove_piece(from);
        remove_piece(to);
        put_piece(pc, kto);
        put_piece(rook, rto);
        k ^= psq(pc, from) ^ psq(pc, kto) ^ psq(rook, to) ^ psq(rook, rto);
    } else {
        Square capsq = to;
        if (m.kind() == Move::Kind::EnPassant) capsq = Square(to.index() + (us == Color::White ? -8 : 8));
        const Piece cap = board_[idx(capsq)];
        if (cap != Piece::None) {
            remove_piece(capsq);
            k ^= psq(cap, capsq);
            ns.halfmove = 0;
        }
        ns.captured = cap;
        move_piece(from, to);
        k ^= psq(pc, from) ^ psq(pc, to);
        if (type_of(pc) == PieceType::Pawn) {
            ns.halfmove = 0;
            if (m.kind() == Move::Kind::Promotion) {
                const Piece promo = make_piece(us, m.promotion_type());
                remove_piece(to);
                put_piece(promo, to);
                k ^= psq(pc, to) ^ psq(promo, to);
            } else if ((to.index() ^ from.index()) == 16) {
                const Square mid((to.index() + from.index()) / 2);
                if (pawn_attacks(us, mid.index()) & pieces(them, PieceType::Pawn)) ns.ep = mid;
            }
        }
    }
    const auto lost = static_cast<std::uint8_t>(
        ns.castling & (castling_loss_[idx(from)] | castling_loss_[idx(to)]));
    if (lost) {
        for (std::size_t i = 0; i < 4; ++i)
            if (lost & (1u << i)) k ^= zobrist::keys.castling_rook[idx(castling_rooks_[i])];
        ns.castling = static_cast<std::uint8_t>(ns.castling & ~lost);
    }
    ns.key_noep = k;
    stm_ = them;
    if (us == Color::Black) ++fullmove_;
    states_.push_back(ns);
    State& s = states_.back();
    s.checkers = attackers_to(king_square(them), occupied()) & pieces(us);
    s.key = k ^ ep_key();
}

void Position::unmake_move() {
    if (states_.size() <= 1) return;
    const State s = states_.back();
    states_.pop_back();
    stm_ = ~stm_;
    const Color us = stm_;
    if (us == Color::Black) --fullmove_;
    const Move m = s.move;
    if (m.is_none()) return; // null move
    const Square from = m.from();
    const Square to = m.to();
    if (m.is_castling()) {
        const Piece king = board_[idx(m.king_to())];
        const Piece rook = board_[idx(m.rook_to())];
        remove_piece(m.king_to());
        remove_piece(m.rook_to());
        put_piece(king, from);
        put_piece(rook, to);
        return;
    }
    if (m.kind() == Move::Kind::Promotion) {
        remove_piece(to);
        put_piece(make_piece(us, PieceType::Pawn), from);
    } else {
        move_piece(to, from);
    }
    if (s.captured != Piece::None) {
        const Square capsq = m.kind() == Move::Kind::EnPassant
                                 ? Square(to.index() + (us == Color::White ? -8 : 8))
                                 : to;
        put_piece(s.captured, capsq);
    }
}

void Position::make_null_move() {
    State ns;
    ns.castling = st().castling;
    ns.halfmove = st().halfmove + 1;
    ns.key_noep = st().key_noep ^ zobrist::keys.black_to_move;
    ns.key = ns.key_noep;
    if (stm_ == Color::Black) ++fullmove_;
    stm_ = ~stm_;
    states_.push_back(ns);
    State& s = states_.back();
    s.checkers = attackers_to(king_square(stm_), occupied()) & pieces(~stm_);
}

} // namespace eboard
