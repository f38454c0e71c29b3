// Builds the announcement from the position and the move (not from a SAN string), so that the
// tests can check it against an independent reading of the SAN of every game move.
#include "access/announce.hpp"

#include <string_view>

namespace eboard::access {

namespace {

/// Appends `word` after a space (nothing for an empty word).
void add(std::string& out, std::string_view word) {
    if (word.empty()) return;
    if (!out.empty()) out += ' ';
    out += word;
}

/// What tells `m` apart from the other moves of the same piece kind to the same square
/// ([23] C.10, PGN 8.2.3.4): "" (nothing), the departure file, the rank, or the square.
std::string disambiguation(const Position& before, Move m, const Words& w, Vocabulary v) {
    const PieceType t = type_of(before.moved_piece(m));
    bool other = false, same_file = false, same_rank = false;
    for (const Move o : before.legal_moves()) {
        if (o == m || o.is_castling() || o.to() != m.to() || o.from() == m.from()) continue;
        if (type_of(before.moved_piece(o)) != t) continue;
        other = true;
        same_file = same_file || o.from().file() == m.from().file();
        same_rank = same_rank || o.from().rank() == m.from().rank();
    }
    if (!other) return {};
    if (!same_file) return std::string(w.file[static_cast<std::size_t>(m.from().file())]);
    if (!same_rank) return std::string(w.rank[static_cast<std::size_t>(m.from().rank())]);
    return square_words(m.from(), v);
}

/// ", Schach" / ", Matt" / "" for the position after `m`.
std::string_view check_suffix(const Position& before, Move m, const Words& w) {
    if (!before.gives_check(m)) return {};
    Position after = before.copy();
    after.make_move(m);
    return after.has_legal_move() ? w.check : w.mate;
}

} // namespace

std::string announce_move(const Position& before, Move m, const AnnounceOptions& options) {
    const Vocabulary v = options.vocabulary;
    const Words& w = words(v);
    std::string out;
    if (m.is_castling()) {
        // The h-side rook is 0-0 in standard chess and Chess960 alike (Guidelines II.3).
        out = m.to().index() > m.from().index() ? w.castles_short : w.castles_long;
    } else {
        const PieceType t = type_of(before.moved_piece(m));
        const bool capture = before.is_capture(m);
        add(out, piece_words(t, v));
        if (options.long_form)
            add(out, square_words(m.from(), v));
        else if (t == PieceType::Pawn && capture) // exd5: the pawn's departure file (C.9)
            add(out, w.file[static_cast<std::size_t>(m.from().file())]);
        else if (t != PieceType::Pawn)
            add(out, disambiguation(before, m, w, v));
        add(out, capture ? w.captures : (options.long_form ? w.to : std::string_view{}));
        add(out, square_words(m.to(), v));
        if (m.kind() == Move::Kind::EnPassant) add(out, w.en_passant);
        if (m.kind() == Move::Kind::Promotion) {
            add(out, w.promotes_to);
            add(out, piece_words(m.promotion_type(), v));
        }
    }
    const std::string_view suffix = check_suffix(before, m, w);
    if (!suffix.empty()) {
        out += ", ";
        out += suffix;
    }
    return out;
}

} // namespace eboard::access
