// Internal state of the Reconstructor (rules/reconstruction.hpp), shared by its .cpp files:
// reconstruction.cpp (inputs, bounce filter, timers), recon_match.cpp (board against legal
// moves), recon_touch.cpp (Art. 4.3/4.4), recon_game.cpp (moves made/completed, game state,
// irregularities), recon_end.cpp (end of the game, draws, dead positions), recon_stands.cpp
// (A.5.2). Not a public header.
#pragma once

#include <array>
#include <bit>
#include <optional>
#include <vector>

#include "rules/game.hpp"
#include "rules/reconstruction.hpp"

namespace eboard {

[[nodiscard]] constexpr Bitboard bit_of(Square s) noexcept { return Bitboard{1} << s.index(); }
[[nodiscard]] constexpr Square first_square(Bitboard b) noexcept {
    return Square(std::countr_zero(b));
}
[[nodiscard]] constexpr int count(Bitboard b) noexcept { return std::popcount(b); }
/// The board turned round: square s -> 63 - s for every bit.
[[nodiscard]] constexpr Bitboard rotate_bb(Bitboard b) noexcept {
    Bitboard r = 0;
    while (b) {
        r |= Bitboard{1} << (63 - std::countr_zero(b));
        b &= b - 1;
    }
    return r;
}
/// The square of the pawn an en passant capture removes.
[[nodiscard]] inline Square ep_victim(Move m) { return Square::at(m.to().file(), m.from().rank()); }

/// Squares a move changes on the board.
[[nodiscard]] inline Bitboard changed_squares(Move m) {
    switch (m.kind()) {
    case Move::Kind::Castling:
        return bit_of(m.from()) | bit_of(m.to()) | bit_of(m.king_to()) | bit_of(m.rook_to());
    case Move::Kind::EnPassant: return bit_of(m.from()) | bit_of(m.to()) | bit_of(ep_victim(m));
    default: return bit_of(m.from()) | bit_of(m.to());
    }
}

constexpr Bitboard kCentre = (Bitboard{1} << 27) | (Bitboard{1} << 28) | (Bitboard{1} << 35) |
                             (Bitboard{1} << 36);  // d4 e4 d5 e5

/// A lift the player on move is answerable for (Art. 4.3): square, the game's piece there.
struct Touch {
    Square sq;
    Piece piece = Piece::None;
    TimeMs t = 0;
};

/// A legal move of the anchor position and the occupancy it leaves.
struct Successor {
    Move m;
    Bitboard occ = 0;
};

struct Reconstructor::Impl {
    explicit Impl(ReconConfig c);

    ReconConfig cfg;
    std::vector<ReconEvent> out;
    TimeMs now = 0;

    // --- the board, as committed after the bounce filter (board numbering) ---
    BoardReading raw{};
    struct Deferred {
        TimeMs t = 0;
        SquareReading r;
    };
    std::array<Deferred, 64> deferred{};
    Bitboard deferred_bb = 0;
    TimeMs last_change = 0;
    bool board_seen = false; ///< a reading of the board arrived (SquareChange or BoardSnapshot)
    bool assume_game = false;  ///< resume_game: until board_seen, the board is taken to show cur()

    // --- the board in game orientation ---
    bool rotated = false;
    bool orientation_known = false;
    Bitboard occ = 0;    ///< occupied squares
    Bitboard known = 0;  ///< squares whose piece the board identifies
    std::array<Piece, 64> ident{};

    // --- the game ---
    bool game = false;
    bool ended = false;
    int chess960_number = -1;
    /// The game line under the rules profile (rules/game.hpp): the only record of the game's
    /// moves and positions here. The position after the last made move, the repetitions of 9.2
    /// under the profile's "same position", the claimable draws and the automatic ends of the
    /// game (outcome) come from it. Unset before the first game.
    std::optional<Game> line;
    /// promo_assumed[k]: ply k's promotion piece was assumed, not seen (a queen on an occupancy-only
    /// board); assumed[0] stands for the line's start. One entry per ply of the line.
    std::vector<bool> promo_assumed;
    int completed = 0;                  ///< plies of the line completed
    int ply_base = 0;                   ///< the game's ply at the line's start (an illegal move stood)
    std::optional<Position> stood;      ///< the position after an illegal move, if it may stand
    Square stood_from, stood_to;
    std::array<int, 2> illegal_counts{};
    std::array<int, 2> illegal_counts_qpf{};  ///< of them, in the quickplay finish ([01] 10.3)
    std::vector<Successor> succ;        ///< legal moves of cur()
    std::vector<Successor> succ_prev;   ///< legal moves before the last made move
    bool has_times = false;
    std::int64_t white_ms = 0, black_ms = 0;

    // --- evidence of the move in progress (game orientation), since the last made move ---
    Bitboard vacated = 0;    ///< squares of the position that were emptied
    Bitboard retyped = 0;    ///< squares whose identity changed without being emptied
    Bitboard co_lifted = 0;  ///< squares that were empty at the same time as another
    std::array<std::uint16_t, 64> place_seq{};
    std::array<std::uint8_t, 64> lifts{};  ///< lifts per square

    std::uint16_t seq = 0;
    std::vector<Touch> touches;
    std::vector<Touch> saved_touches;   ///< of the last made move (if it is replaced)
    PieceType promo_choice = PieceType::None;
    /// The promotion piece an occupancy-only board is taken to show: the player's choice (clock
    /// buttons or a client command, Art. 4.4.4), else a queen.
    [[nodiscard]] PieceType promotion_wanted() const noexcept {
        return promo_choice == PieceType::None ? PieceType::Queen : promo_choice;
    }
    bool castling_declared = false;

    // --- timers and episodes ---
    bool cand_waiting = false;
    Move cand;
    bool cand_replaces = false;
    TimeMs cand_due = 0;
    bool tentative = false;           ///< cand stood but the board moved on before it settled
    bool quiet_done = true;           ///< the checks of a settled board ran since last change
    bool press_pending = false;
    Color press_by = Color::White;
    TimeMs press_t = 0;
    /// The last made ply completed by a press at once (the board showing it then), and when: a
    /// reading within press_grace_ms may show that its piece had gone on (moved_on_after_press).
    int press_completed_ply = -1;
    TimeMs press_completed_t = 0;
    TimeMs mismatch_since = -1;
    bool mismatch_alerted = false;
    bool await_restore = false;       ///< after an illegal move: the position must come back
    bool illegal_episode = false;     ///< an illegal move of this episode was already alerted
    bool fifty_alerted = false;
    std::string mismatch_article;     ///< of the raised position_mismatch (for its clearing)
    /// Pieces off the board at a turn change (Art. 7.4, [01]/[05] 7.3): missing when a clock
    /// press completed a move, or the mover's own pieces missing when his move was made. No
    /// hand holds a piece across its own press: one still missing mismatch_grace_ms later was
    /// knocked over (an occupancy board reads a piece lying on its side as an empty square).
    Bitboard off_board = 0;
    TimeMs off_board_since = 0;
    /// Of them, the ones alerted (position_mismatch): counted as standing on their squares when
    /// moves are matched, so that the game goes on, until a piece is put back there.
    Bitboard knocked = 0;
    bool mismatch_knocked = false;    ///< the raised position_mismatch is about `knocked`
    /// Pieces of off_board still missing and not yet alerted.
    [[nodiscard]] Bitboard off_board_pending() const noexcept {
        return off_board & ~knocked & ~occ & (line ? cur().occupied() : 0);
    }
    bool quickplay = false;           ///< in a quickplay finish (ReconConfig::quickplay_finish)
    std::uint64_t dead_checked = 0;   ///< pawn structure and material last examined in depth
    Color start_stm = Color::White;

    /// The position after the last made move (the line's; a game must be in progress).
    [[nodiscard]] const Position& cur() const noexcept { return line->position(); }
    /// Plies made since the line's start (0 without a line).
    [[nodiscard]] int made_plies() const noexcept { return line ? line->ply() : 0; }
    /// The move of ply k of the line (1 <= k <= made_plies()).
    [[nodiscard]] Move move_of(int k) const { return line->moves()[static_cast<std::size_t>(k - 1)]; }
    /// The last made move (made_plies() > 0).
    [[nodiscard]] Move last_move() const { return line->moves().back(); }
    /// The position after ply k of the line (0 <= k <= made_plies()), a copy.
    [[nodiscard]] Position position_after(int k) const { return line->position_at(k); }

    // reconstruction.cpp
    void feed(const SensorEvent& e);
    void advance(TimeMs t);
    /// A reading of one square into the bounce filter (committed by flush_deferred).
    void defer(Square board_sq, SquareReading r, TimeMs t);
    /// One committed change: the board, TOUCH events and the evidence (no judging; see
    /// flush_deferred, which judges each report once).
    void apply(Square board_sq, const SquareReading& r, TimeMs t);
    /// Commits the changes older than `upto`, one report (time stamp) at a time.
    void flush_deferred(TimeMs upto);
    void set_orientation(bool rot);
    void rebuild_board();  ///< occ, known, ident from raw (after the orientation or raw changed)
    /// The board is taken to show cur() (identity where `reading` knows it; all if null).
    void assume_board(const BoardReading* reading);
    void reset_evidence();
    void on_press(const LeverPressed& p);
    /// `by` has a move the lever would complete: made and not completed, or shown on the board
    /// and waiting to settle (Reconstructor::lever_seen).
    [[nodiscard]] bool unpressed_move_of(Color by) const;
    void judge_press();
    void check_timers();
    bool choose(PieceType type);
    void opponent_started(Square s);

    // recon_match.cpp
    [[nodiscard]] Square game_sq(Square board_sq) const noexcept {
        return rotated ? board_sq.rotate() : board_sq;
    }
    [[nodiscard]] bool board_is(const Position& p) const;
    [[nodiscard]] bool in_progress(const Position& p) const;
    [[nodiscard]] std::optional<Move> find_move(const Position& p,
                                                const std::vector<Successor>& list,
                                                bool* assumed) const;
    [[nodiscard]] bool may_grow(const Position& p, Move m) const;
    [[nodiscard]] bool unpromoted_pawn(const Position& p) const;
    [[nodiscard]] Bitboard diff_squares(const Position& p) const;
    static void successors(const Position& p, std::vector<Successor>& list);

    // recon_touch.cpp
    void check_touch_move(const Position& p, Move m, const std::vector<Touch>& t);

    // recon_game.cpp (and recon_end.cpp: game_end_checks .. kings_signal, mate_ability*)
    void evaluate();
    void quiet_checks();
    bool try_start(bool during_game);
    void begin_game(Position p, int number, bool rot, bool orientation_known);
    void make(Move m, bool assumed, bool replaces);
    void complete(int ply, Completion how);
    void complete_all(Color by, Completion how);
    void game_end_checks();
    void dead_suspicion();
    void end_game(const std::string& result, Termination termination,
                  const std::string& article);
    void takeback(int ply);
    /// A new game line from `start` (begin_game, an illegal move that stands).
    void start_line(Position start);
    /// The last made move leaves the line.
    void unplay_last();
    /// The legal move m joins the line; `was_assumed`: its promotion piece was assumed.
    void line_play(Move m, bool was_assumed);
    /// The latest earlier ply k (< the plies made) whose position the board shows, if any.
    [[nodiscard]] std::optional<int> earlier_position() const;
    /// A board set back to the position after ply k is a takeback: one ply, the last, and it
    /// was not completed, or the profile lets the players take back their last move.
    [[nodiscard]] bool takeback_allowed(int k) const noexcept;
    /// The FEN of the position after ply k (k <= the plies made).
    [[nodiscard]] std::string fen_after(int k);
    /// Replaces the last made, uncompleted move with the move the board shows from the position
    /// before it, or with `with` when given (false when there is no move to replace).
    bool replace_last(std::optional<Move> with = std::nullopt);
    /// two_plies' first reading: the last made, uncompleted move went on (same piece, another
    /// square) and the opponent's reply followed.
    /// `through_only`: only a move on through the last move's square (moved_on_after_press).
    bool moved_on_and_reply(bool through_only = false);
    /// At the press of the player whose made move is the last: the same piece went on to
    /// another square, the opponent's hand perhaps already holding a piece; replaces it.
    bool moved_on_at_press(bool through_only = false);
    /// A reading soon after a press that completed the last made ply at once shows that ply's
    /// piece gone on (the press came before the frame that shows it): the move it went on to
    /// replaces it, completed by that press (the opponent's reply perhaps begun or made).
    bool moved_on_after_press();
    bool kings_signal();
    bool out_of_turn();
    bool two_plies(bool all_first_moves);
    bool illegal_stands();
    void prepare_stands();
    void illegal(Color who, const std::string& article, const std::string& text, Bitboard sq);
    void set_mismatch_clear();
    /// Notes the pieces missing at a turn change (off_board); `own` limits them to one side's.
    void note_off_board(std::optional<Color> own);
    /// position_mismatch for pieces left off the board (knocked over): `sq` joins `knocked`.
    void alert_knocked(Bitboard sq);
    [[nodiscard]] MateAbility mate_ability(const Position& p, Color side) const;
    /// The dead-position check after every move: cfg.can_mate, else the static analyses only.
    [[nodiscard]] MateAbility mate_ability_per_move(const Position& p, Color side) const;
    [[nodiscard]] MateAbility mate_ability_deep(const Position& p, Color side) const;
    [[nodiscard]] Color ply_color(int ply) const noexcept;
    /// The article of an illegal move: the quickplay finish's when in one ([01] 10.3).
    [[nodiscard]] const std::string& illegal_article() const noexcept {
        return quickplay ? cfg.rules.article_illegal_quickplay : cfg.rules.article_illegal;
    }
    void describe(int ply, std::string& uci, std::string& fen);
    void alert(AlertEvent a);
};

} // namespace eboard
