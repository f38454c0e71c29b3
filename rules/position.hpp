// The position of the Laws (Art. 2-3): pieces on squares, side to move, castling rights, the
// en passant square, the 50-move clock (Art. 9.3) and the move number. Legal move generation for
// standard chess and Chess960 (Guidelines II), make/unmake with an undo stack, check, checkmate,
// stalemate, and the Zobrist key of the "same position" of Art. 9.2.
//
// Squares a1=0 .. h8=63 (base/types.hpp). Castling rights are kept as the squares of the
// castling rooks, so one representation serves standard chess and Chess960; a castling move is
// encoded king -> rook (Move::castling), its final squares by Move::king_to()/rook_to().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.hpp"
#include "base/sensors.hpp"
#include "base/types.hpp"

namespace eboard {

/// Up to 256 moves (more than the 218 any legal position has), no allocation.
class MoveList {
  public:
    static constexpr std::size_t kCapacity = 256;

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] Move operator[](std::size_t i) const noexcept { return moves_[i]; }
    [[nodiscard]] const Move* begin() const noexcept { return moves_.data(); }
    [[nodiscard]] const Move* end() const noexcept { return moves_.data() + size_; }
    [[nodiscard]] bool contains(Move m) const noexcept {
        for (Move x : *this)
            if (x == m) return true;
        return false;
    }
    /// Appends; the caller keeps size() < kCapacity (the generator does).
    void push_back(Move m) noexcept { moves_[size_++] = m; }
    void clear() noexcept { size_ = 0; }

  private:
    std::array<Move, kCapacity> moves_;
    std::size_t size_ = 0;
};

/// What Position::from_fen() demands of the material.
enum class FenMaterial : std::uint8_t {
    /// Material a game can reach (the default): at most 8 pawns and 16 pieces a side, and no
    /// more promoted pieces than missing pawns (Art. 3.7.5.1).
    Reachable,
    /// Composed positions (studies, the dead-position ground truth): any mix of at most 16
    /// pieces a side. Everything else is checked as for Reachable (one king each, no pawn on
    /// the first or eighth rank, the side not to move not in check, castling and en passant),
    /// and move_count_bound() of the position must fit a MoveList. Moves made from such a
    /// position may lead to one with more moves than a MoveList holds (queens unblocked):
    /// code that searches from it checks move_count_bound() before legal_moves().
    Composed,
};

/// A legal chess position with its history of made moves (for unmake_move).
/// Not copyable by accident: use copy(). Create with startpos(), chess960_start() or from_fen().
class Position {
  public:
    /// The standard initial position (Art. 2.3).
    [[nodiscard]] static Position startpos();
    /// Chess960 initial position by Scharnagl number 0..959 (518 = the standard array); other
    /// numbers are reduced modulo 960. The result has chess960() == true and all castling rights.
    [[nodiscard]] static Position chess960_start(int number);
    /// Reads FEN, X-FEN or Shredder-FEN (castling field KQkq, file letters AHah, or a mix).
    /// The halfmove clock and move number may be left out (EPD style: 0 and 1). With
    /// chess960 = false a castling right must be e1/e8 king with an a- or h-file rook.
    /// The Error message names what is wrong, e.g. "two white kings", "no black king",
    /// "side not to move is in check", "castling right without a rook on h1",
    /// "impossible en passant square", "pawn on the first rank", "bad FEN: ...".
    /// Never throws or crashes on any input. `material`: see FenMaterial.
    [[nodiscard]] static Expected<Position> from_fen(std::string_view fen, bool chess960 = false,
                                                     FenMaterial material = FenMaterial::Reachable);

    /// FEN with all six fields. In Chess960 the castling field is X-FEN: K/Q/k/q for the
    /// outermost rook on that side, the rook's file letter otherwise.
    [[nodiscard]] std::string fen() const;
    /// Shredder-FEN: castling rights as rook file letters (HAha), also for standard chess.
    [[nodiscard]] std::string shredder_fen() const;

    Position(Position&&) noexcept = default;
    Position& operator=(Position&&) noexcept = default;
    Position(const Position&) = delete;
    Position& operator=(const Position&) = delete;
    ~Position() = default;
    /// An explicit copy, including the undo stack.
    [[nodiscard]] Position copy() const;

    [[nodiscard]] Piece piece_on(Square s) const noexcept { return board_[idx(s)]; }
    [[nodiscard]] Bitboard occupied() const noexcept { return by_color_[0] | by_color_[1]; }
    [[nodiscard]] Bitboard pieces(Color c) const noexcept { return by_color_[ci(c)]; }
    [[nodiscard]] Bitboard pieces(Color c, PieceType t) const noexcept {
        return by_color_[ci(c)] & by_type_[static_cast<std::size_t>(t)];
    }
    /// All pieces of type t, both colours.
    [[nodiscard]] Bitboard pieces(PieceType t) const noexcept {
        return by_type_[static_cast<std::size_t>(t)];
    }
    [[nodiscard]] Square king_square(Color c) const noexcept;
    [[nodiscard]] Color side_to_move() const noexcept { return stm_; }
    /// The en passant target square as FEN writes it (the square passed over by the pawn that
    /// just advanced two squares), or Square::none(). After a move it is set only when a pawn of
    /// the side to move attacks it; whether the capture is legal is a separate question (key()).
    [[nodiscard]] Square ep_square() const noexcept { return st().ep; }
    /// Plies since the last capture or pawn move (Art. 9.3).
    [[nodiscard]] int halfmove_clock() const noexcept { return st().halfmove; }
    /// The move number of FEN: starts at 1, incremented after Black's move.
    [[nodiscard]] int fullmove_number() const noexcept { return fullmove_; }
    [[nodiscard]] bool chess960() const noexcept { return chess960_; }
    [[nodiscard]] bool has_castling_right(Color c, bool king_side) const noexcept {
        return (st().castling & right_bit(c, king_side)) != 0;
    }
    /// The square of the rook that castles on that side, Square::none() if there is no right.
    [[nodiscard]] Square castling_rook(Color c, bool king_side) const noexcept {
        return has_castling_right(c, king_side) ? castling_rooks_[right_index(c, king_side)]
                                                : Square::none();
    }
    /// Number of moves made with make_move() that unmake_move() can take back.
    [[nodiscard]] std::size_t history_size() const noexcept { return states_.size() - 1; }
    /// The last move made (Move::none() if none).
    [[nodiscard]] Move last_move() const noexcept { return st().move; }

    /// Zobrist key of the "same position" of Art. 9.2 (2023): side to move, pieces on squares,
    /// castling rights (by rook square), and the en passant file ONLY when an en passant
    /// capture is actually legal. Equal positions in this sense have equal keys.
    [[nodiscard]] std::uint64_t key() const noexcept { return st().key; }

    [[nodiscard]] bool in_check() const noexcept { return st().checkers != 0; }
    /// The pieces giving check to the side to move.
    [[nodiscard]] Bitboard checkers() const noexcept { return st().checkers; }
    /// Pieces of colour `by` that attack square s, with the current occupancy.
    [[nodiscard]] Bitboard attackers_to(Square s, Color by) const noexcept;
    /// All legal moves (Art. 3), castling included (Art. 3.8.2, Guidelines II for Chess960).
    [[nodiscard]] MoveList legal_moves() const;
    /// True if the side to move has any legal move (faster than legal_moves().size()).
    [[nodiscard]] bool has_legal_move() const;
    /// True if m is a legal move here (any 16-bit value is safe to ask about).
    [[nodiscard]] bool is_legal(Move m) const;
    /// True if the legal move m checks the opponent's king (Art. 3.9). m must be legal.
    [[nodiscard]] bool gives_check(Move m) const;
    /// In check and no legal move (Art. 1.4.1).
    [[nodiscard]] bool is_checkmate() const { return in_check() && !has_legal_move(); }
    /// Not in check and no legal move (Art. 5.2.1).
    [[nodiscard]] bool is_stalemate() const { return !in_check() && !has_legal_move(); }
    /// True if the legal move m captures (en passant included; castling never does).
    [[nodiscard]] bool is_capture(Move m) const noexcept;
    /// The piece that moves (the king for castling).
    [[nodiscard]] Piece moved_piece(Move m) const noexcept { return piece_on(m.from()); }
    /// The captured piece (the pawn for en passant), Piece::None if m captures nothing.
    [[nodiscard]] Piece captured_piece(Move m) const noexcept;

    /// Plays m, which must be legal (is_legal), and remembers it for unmake_move().
    void make_move(Move m);
    /// Takes back the last make_move() (or make_null_move()). Does nothing if there is none.
    void unmake_move();
    /// Passes the move (for search only; not a legal move). Must not be in check.
    void make_null_move();
    void unmake_null_move() { unmake_move(); }

  private:
    /// What make_move() changes beyond the pieces, kept per ply for unmake_move().
    struct State {
        std::uint64_t key = 0;       // full key of Art. 9.2 (see key())
        std::uint64_t key_noep = 0;  // key without the en passant part
        Bitboard checkers = 0;
        Move move;                   // the move that led here
        Square ep;                   // FEN en passant square
        Piece captured = Piece::None;
        std::uint8_t castling = 0;   // bit right_index(c, king_side)
        int halfmove = 0;
    };

    Position() = default;
    static constexpr std::size_t ci(Color c) noexcept { return static_cast<std::size_t>(c); }
    static constexpr std::size_t idx(Square s) noexcept {
        return static_cast<std::size_t>(s.index());
    }
    static constexpr std::size_t right_index(Color c, bool king_side) noexcept {
        return ci(c) * 2 + (king_side ? 0 : 1);
    }
    static constexpr std::uint8_t right_bit(Color c, bool king_side) noexcept {
        return static_cast<std::uint8_t>(1u << right_index(c, king_side));
    }
    [[nodiscard]] const State& st() const noexcept { return states_.back(); }
    State& st() noexcept { return states_.back(); }

    void put_piece(Piece p, Square s) noexcept;
    void remove_piece(Square s) noexcept;
    void move_piece(Square from, Square to) noexcept;
    void set_castling_right(Color c, Square rook);
    void finish_setup();
    [[nodiscard]] std::uint64_t compute_key_noep() const noexcept;
    [[nodiscard]] std::uint64_t ep_key() const noexcept;
    [[nodiscard]] bool ep_capture_legal(Square from) const noexcept;
    [[nodiscard]] Bitboard attackers_to(Square s, Bitboard occ) const noexcept;
    [[nodiscard]] Bitboard pinned(Color c) const noexcept;
    template <bool AnyOnly>
    bool generate(MoveList& list) const;

    friend struct FenReader;
    friend std::uint64_t perft(Position& pos, int depth);

    std::array<Piece, 64> board_{};
    std::array<Bitboard, 7> by_type_{};  // index = PieceType; 0 unused
    std::array<Bitboard, 2> by_color_{};
    Color stm_ = Color::White;
    int fullmove_ = 1;
    bool chess960_ = false;
    std::array<Square, 4> castling_rooks_{};      // by right_index
    std::array<Bitboard, 4> castling_empty_{};    // must be empty (king and rook excepted)
    std::array<Bitboard, 4> castling_safe_{};     // king's squares that must not be attacked
    std::array<std::uint8_t, 64> castling_loss_{}; // rights lost when a move touches a square
    std::vector<State> states_;                   // states_.back() = current
};

/// An upper bound of pos.legal_moves().size(): the pseudo-legal destinations of the pieces of
/// the side to move (a pawn counts 4, or 12 on its seventh rank; castling 2). Used to keep
/// FenMaterial::Composed positions within a MoveList; with reachable material the true count
/// never exceeds 218, whatever this bound says.
[[nodiscard]] int move_count_bound(const Position& pos) noexcept;

/// The pieces of `pos` as a board that identifies every piece would read them (its FEN
/// placement field is write_placement(board_reading(pos)), base/placement.hpp).
[[nodiscard]] BoardReading board_reading(const Position& pos) noexcept;

/// Perft: number of leaf nodes of the legal move tree to `depth` (depth <= 0 gives 1).
/// Counts the moves at the last ply without making them (bulk counting), as Stockfish does.
std::uint64_t perft(Position& pos, int depth);
/// The move in UCI: "e2e4", "e7e8q"; castling "e1g1" in standard chess and king -> rook
/// ("e1h1") in Chess960 (UCI_Chess960 convention).
[[nodiscard]] std::string to_uci(const Position& pos, Move m);
/// The legal move written in UCI (both castling forms accepted in standard chess: "e1g1" and
/// "e1h1"), Move::none() if the text is not a legal move here.
[[nodiscard]] Move move_from_uci(const Position& pos, std::string_view uci);

} // namespace eboard
