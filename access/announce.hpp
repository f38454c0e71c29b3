// The spoken announcement of a move made ([23] Appendix D.2.1, [05] Appendix F2.1): "each
// move is announced clearly", in algebraic notation ([05] F2.1: "Die algebraische Notation
// wird benutzt") with words instead of letters, the promotion piece named ([23] D.2.1).
//
// SAN form (default), word for word the App. C / SAN of the move:
//   Nf3      -> "Springer Felix drei"             "knight f3"
//   Ngxf3+   -> "Springer Gustav schlägt Felix drei, Schach"
//   exd6 e.p.-> "Bauer Eva schlägt David sechs en passant"
//   e8=Q#    -> "Bauer Eva acht wird Dame, Matt"
//   O-O      -> "Kurze Rochade"                   "castles kingside"
// Pawns are named too ("Bauer Eva vier" for e4): the Appendix lists "Bauer" among the words,
// and a listener hears at once which piece went where.
// Long form ([23] C.8 long algebraic): the departure square always, "Springer Gustav eins
// Felix drei" ("knight g1 to f3"), captures "Läufer Felix eins schlägt Bella fünf".
// No I/O; every function here is pure.
#pragma once

#include "access/vocabulary.hpp"
#include "rules/position.hpp"
#include "base/types.hpp"

#include <string>

namespace eboard::access {

/// How moves are announced.
struct AnnounceOptions {
    Vocabulary vocabulary = Vocabulary::AppendixD;
    bool long_form = false; ///< say the departure square of every move ([23] C.8)
};

/// The announcement of the legal move `m` made in `before` (the position before the move):
/// piece, disambiguation as SAN ([23] C.10: departure file, else rank, else square), capture,
/// arrival square, en passant, promotion piece, check or mate; castling by its name (h-side
/// rook = short, also in Chess960, Guidelines II). `m` must be legal in `before`.
[[nodiscard]] std::string announce_move(const Position& before, Move m,
                                        const AnnounceOptions& options = {});

} // namespace eboard::access
