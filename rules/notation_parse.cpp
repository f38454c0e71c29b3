// Moves in: SAN, long algebraic, UCI and the lenient forms of App. C ([05] App. E, [23] App. C).
// The text is read into a description (piece, departure hints, arrival square, promotion), which
// is then matched against the legal moves; no match or several give an error that says why.
#include "rules/notation.hpp"

#include <cstddef>
#include <cstdlib>

namespace eboard {

namespace {

/// What the text says about the move.
struct Spec {
    PieceType piece = PieceType::None; // None: not given (a pawn unless from-square is given)
    int from_file = -1;
    int from_rank = -1;
    Square to;
    bool capture_mark = false;
    bool ep_mark = false;
    PieceType promo = PieceType::None;
    int castle = 0; // 1: O-O (h-side), 2: O-O-O (a-side)
};

bool is_file(char c) {
    return c >= 'a' && c <= 'h';
}
bool is_rank(char c) {
    return c >= '1' && c <= '8';
}
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// A UTF-8 chess figurine (U+2654..U+265F) at the start of s: its piece type, else None.
PieceType figurine_at(std::string_view s) {
    if (s.size() < 3 || s[0] != '\xE2' || s[1] != '\x99') return PieceType::None;
    const auto b = static_cast<unsigned char>(s[2]);
    if (b < 0x94 || b > 0x9F) return PieceType::None;
    constexpr PieceType order[6] = {PieceType::King,   PieceType::Queen,  PieceType::Rook,
                                    PieceType::Bishop, PieceType::Knight, PieceType::Pawn};
    return order[(b - 0x94) % 6];
}

bool ends_with_ci(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    const std::string_view tail = s.substr(s.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        char c = tail[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

/// Removes check/mate/annotation marks, draw offers and "e.p." from the end.
std::string_view strip_suffixes(std::string_view s, bool& ep) {
    for (;;) {
        const std::size_t before = s.size();
        while (!s.empty() && (is_space(s.back()) || s.back() == '+' || s.back() == '#' ||
                              s.back() == '!' || s.back() == '?')) {
            s.remove_suffix(1);
        }
        if (ends_with_ci(s, "(=)")) s.remove_suffix(3);
        for (std::string_view e : {"e.p.", "e.p", "ep"}) {
            // "ep" only when it cannot be part of a square ("Nep" is no move anyway).
            if (ends_with_ci(s, e) && s.size() > e.size()) {
                s.remove_suffix(e.size());
                ep = true;
                break;
            }
        }
        if (s.size() == before) return s;
    }
}

/// 1 for O-O, 2 for O-O-O (letters O, o or zeros, with or without hyphens), else 0.
int castling_form(std::string_view s) {
    int letters = 0, hyphens = 0;
    for (const char c : s) {
        if (c == 'O' || c == 'o' || c == '0') {
            ++letters;
        } else if (c == '-') {
            ++hyphens;
        } else {
            return 0;
        }
    }
    if (hyphens >= letters || (letters != 2 && letters != 3)) return 0;
    return letters == 2 ? 1 : 2;
}

Error syntax(std::string msg, std::size_t column) {
    return Error{std::move(msg), 0, static_cast<int>(column) + 1};
}

/// Reads a piece designator (letter of `lang` or figurine) at the end of `body`; on success
/// shrinks body and returns the piece.
PieceType take_promotion(std::string_view& body, Language lang) {
    if (body.size() >= 3) {
        const PieceType f = figurine_at(body.substr(body.size() - 3));
        if (f != PieceType::None) {
            body.remove_suffix(3);
            return f;
        }
    }
    if (body.empty()) return PieceType::None;
    const char c = body.back();
    PieceType t = piece_from_letter(c, lang);
    // UCI style lower-case promotion ("e7e8q") directly after a rank digit.
    if (t == PieceType::None && body.size() >= 3 && is_rank(body[body.size() - 2])) {
        if (c == 'n') t = PieceType::Knight;
        if (c == 'b') t = PieceType::Bishop;
        if (c == 'r') t = PieceType::Rook;
        if (c == 'q') t = PieceType::Queen;
    }
    if (t != PieceType::None) body.remove_suffix(1);
    return t;
}

/// Parses `s` (suffixes stripped, starting at column `col0` of the text) into spec.
std::optional<Error> read_spec(std::string_view s, std::size_t col0, Language lang,
                               const Position& pos, Spec& spec) {
    std::size_t i = 0;
    if (const PieceType f = figurine_at(s); f != PieceType::None) {
        spec.piece = f;
        i = 3;
    } else if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') {
        spec.piece = piece_from_letter(s[0], lang);
        if (spec.piece == PieceType::None && lang == Language::English && s[0] == 'P') {
            spec.piece = PieceType::Pawn;
        }
        if (spec.piece == PieceType::None) {
            return syntax(std::string("unknown piece letter '") + s[0] + "'", col0);
        }
        i = 1;
    }
    std::string_view body = s.substr(i);

    // Promotion at the end: "(Q)", "=Q", "/Q", "Q", "q".
    if (!body.empty() && body.back() == ')') {
        const std::size_t open = body.rfind('(');
        if (open == std::string_view::npos) return syntax("unbalanced ')'", col0 + s.size() - 1);
        std::string_view inner = body.substr(open + 1, body.size() - open - 2);
        spec.promo = take_promotion(inner, lang);
        if (spec.promo == PieceType::None || !inner.empty()) {
            return syntax("cannot read the promotion piece", col0 + i + open + 1);
        }
        body = body.substr(0, open);
    } else {
        spec.promo = take_promotion(body, lang);
    }
    if (spec.promo != PieceType::None) {
        if (!body.empty() && (body.back() == '=' || body.back() == '/')) body.remove_suffix(1);
        if (spec.promo == PieceType::King || spec.promo == PieceType::Pawn) {
            return syntax("a pawn cannot be promoted to that piece", col0 + i + body.size());
        }
    }

    // Arrival square at the end.
    if (body.size() < 2 || !is_file(body[body.size() - 2]) || !is_rank(body.back())) {
        return syntax("expected the arrival square",
                      col0 + i + (body.size() < 2 ? 0 : body.size() - 2));
    }
    spec.to = Square::at(body[body.size() - 2] - 'a', body.back() - '1');
    body.remove_suffix(2);
    if (!body.empty() && (body.back() == 'x' || body.back() == ':' || body.back() == '-')) {
        spec.capture_mark = body.back() != '-';
        body.remove_suffix(1);
    }
    // Departure hints: [file][rank].
    std::size_t j = 0;
    if (j < body.size() && is_file(body[j])) spec.from_file = body[j++] - 'a';
    if (j < body.size() && is_rank(body[j])) spec.from_rank = body[j++] - '1';
    if (j != body.size()) return syntax("cannot read the departure square", col0 + i + j);

    if (spec.piece == PieceType::None) {
        if (spec.from_file >= 0 && spec.from_rank >= 0) {
            // Long form without a letter ("g1-f3", UCI): the piece on the departure square.
            const Square from = Square::at(spec.from_file, spec.from_rank);
            const Piece p = pos.piece_on(from);
            if (p == Piece::None || color_of(p) != pos.side_to_move()) {
                return Error{std::string("no ") +
                                 (pos.side_to_move() == Color::White ? "white" : "black") +
                                 " piece on " + from.name(),
                             0, 0};
            }
            spec.piece = type_of(p);
        } else {
            spec.piece = PieceType::Pawn;
        }
    }
    return std::nullopt;
}

const char* piece_name(PieceType t) {
    switch (t) {
    case PieceType::Pawn:
        return "pawn";
    case PieceType::Knight:
        return "knight";
    case PieceType::Bishop:
        return "bishop";
    case PieceType::Rook:
        return "rook";
    case PieceType::Queen:
        return "queen";
    case PieceType::King:
        return "king";
    default:
        return "piece";
    }
}

bool matches(const Position& pos, Move m, const Spec& spec) {
    if (m.is_castling()) {
        // Long algebraic / UCI castling: king from its square to its final square ("e1g1",
        // not a one-square step, which is an ordinary move) or onto its own rook ("e1h1").
        if (spec.piece != PieceType::King || spec.from_file < 0 || spec.from_rank < 0) return false;
        if (Square::at(spec.from_file, spec.from_rank) != m.from()) return false;
        if (spec.to == m.to()) return true;
        return spec.to == m.king_to() && std::abs(m.king_to().file() - m.from().file()) >= 2;
    }
    if (m.to() != spec.to || type_of(pos.moved_piece(m)) != spec.piece) return false;
    if (spec.from_file >= 0 && m.from().file() != spec.from_file) return false;
    if (spec.from_rank >= 0 && m.from().rank() != spec.from_rank) return false;
    if (spec.piece == PieceType::Pawn && spec.from_file < 0 && !spec.capture_mark &&
        m.from().file() != m.to().file()) {
        return false; // "d5" is a pawn advance, never a capture
    }
    if (m.kind() == Move::Kind::Promotion) {
        if (spec.promo != PieceType::None && m.promotion_type() != spec.promo) return false;
    } else if (spec.promo != PieceType::None) {
        return false;
    }
    if (spec.ep_mark && m.kind() != Move::Kind::EnPassant) return false;
    return true;
}

/// Why no legal move matches: the move would be possible but for the king's safety, or no
/// piece of that kind reaches the square at all.
Error explain_no_match(const Position& pos, const Spec& spec, std::string_view text) {
    const Color us = pos.side_to_move();
    std::string quoted(1, '\'');
    quoted.append(text);
    quoted += '\'';
    if (spec.castle != 0) {
        const bool king_side = spec.castle == 1;
        if (!pos.has_castling_right(us, king_side)) {
            return Error{"illegal move " + quoted + ": no castling right on that side", 0, 0};
        }
        if (pos.in_check()) return Error{"illegal move " + quoted + ": the king is in check", 0, 0};
        return Error{"illegal move " + quoted +
                         ": squares between king and rook are occupied or attacked",
                     0, 0};
    }
    Bitboard hint = ~Bitboard{0};
    for (int sq = 0; sq < 64; ++sq) {
        const Square s(sq);
        if ((spec.from_file >= 0 && s.file() != spec.from_file) ||
            (spec.from_rank >= 0 && s.rank() != spec.from_rank)) {
            hint &= ~bb(s);
        }
    }
    const Bitboard own = pos.pieces(us, spec.piece) & hint;
    const Piece target = pos.piece_on(spec.to);
    const bool own_target = target != Piece::None && color_of(target) == us;
    bool reachable = false;
    if (!own_target && spec.piece != PieceType::Pawn) {
        reachable = (pos.attackers_to(spec.to, us) & own) != 0;
    } else if (!own_target) {
        const int dir = us == Color::White ? 8 : -8;
        const int to = spec.to.index();
        const bool push_ok = target == Piece::None;
        const int one = to - dir, two = to - 2 * dir;
        if (push_ok && one >= 0 && one < 64 && (own & bb(Square(one))) != 0) reachable = true;
        const int start_rank = us == Color::White ? 1 : 6;
        if (push_ok && two >= 0 && two < 64 && Square(two).rank() == start_rank &&
            (own & bb(Square(two))) != 0 && pos.piece_on(Square(one)) == Piece::None) {
            reachable = true;
        }
        // "d5" is an advance; "exd5", "ed5", "xd5" are captures.
        const bool capture =
            spec.capture_mark || (spec.from_file >= 0 && spec.from_file != spec.to.file());
        const bool capturable = (target != Piece::None) || spec.to == pos.ep_square();
        if (capture) reachable = false;
        if (capture && capturable && (pos.attackers_to(spec.to, us) & own) != 0) reachable = true;
    }
    if (reachable) {
        if (spec.piece == PieceType::King) {
            return Error{"illegal move " + quoted + ": the king would be in check", 0, 0};
        }
        if (pos.in_check()) {
            return Error{"illegal move " + quoted + ": it does not answer the check", 0, 0};
        }
        return Error{"illegal move " + quoted + ": it would leave the king in check", 0, 0};
    }
    return Error{"no legal move " + quoted + ": no " +
                     std::string(us == Color::White ? "white " : "black ") +
                     piece_name(spec.piece) + " can go to " + spec.to.name(),
                 0, 0};
}

} // namespace

Expected<Move> parse_move(const Position& pos, std::string_view text, Language lang) {
    std::size_t col0 = 0;
    while (col0 < text.size() && is_space(text[col0])) ++col0;
    std::string_view s = text.substr(col0);
    Spec spec;
    s = strip_suffixes(s, spec.ep_mark);
    if (s.empty()) return Error{"empty move", 0, static_cast<int>(col0) + 1};
    if (s == "--" || s == "Z0" || s == "0000" || s == "@@@@") {
        return Error{"null move '" + std::string(s) + "' is not a legal move", 0, 0};
    }

    if ((spec.castle = castling_form(s)) != 0) {
        const bool king_side = spec.castle == 1;
        for (const Move m : pos.legal_moves()) {
            if (m.is_castling() && (m.to().file() > m.from().file()) == king_side) return m;
        }
        spec.piece = PieceType::King;
        return explain_no_match(pos, spec, s);
    }

    if (auto err = read_spec(s, col0, lang, pos, spec)) {
        err->message += " in '" + std::string(s) + "'";
        return *err;
    }

    Move found[MoveList::kCapacity];
    std::size_t n = 0;
    const MoveList legal = pos.legal_moves();
    for (const Move m : legal) {
        if (matches(pos, m, spec)) found[n++] = m;
    }
    if (n == 1) return found[0];
    if (n == 0) return explain_no_match(pos, spec, s);

    bool all_promotions = true;
    for (std::size_t k = 0; k < n; ++k) {
        all_promotions = all_promotions && found[k].kind() == Move::Kind::Promotion &&
                         found[k].from() == found[0].from();
    }
    if (all_promotions) {
        return Error{"promotion piece missing in '" + std::string(s) + "'", 0, 0};
    }
    std::string msg = "ambiguous move '" + std::string(s) + "': ";
    const NotationFormat fmt{lang, false, true, false, false};
    for (std::size_t k = 0; k < n; ++k) {
        if (k > 0) msg += k + 1 == n ? " or " : ", ";
        msg += bare_san(to_san(pos, found[k], fmt));
    }
    return Error{msg, 0, 0};
}

} // namespace eboard
