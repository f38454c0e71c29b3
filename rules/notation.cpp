// Piece letters per language and moves out (SAN, long algebraic). Moves in: notation_parse.cpp.
#include "rules/notation.hpp"

#include <array>
#include <cstddef>

namespace eboard {

namespace {

// Letters indexed by PieceType (None, Pawn, Knight, Bishop, Rook, Queen, King).
constexpr std::array<std::string_view, 6> kLetters = {
    std::string_view("\0\0NBRQK", 7), // English (2005 German/Afrikaans texts, PGN)
    std::string_view("\0\0PLTDK", 7), // Dutch ([23] C.2: paard, loper, toren, dame, koning)
    std::string_view("\0\0SLTDK", 7), // German ([05] E2: Springer, Laeufer, Turm, Dame, Koenig)
    std::string_view("\0\0CFTDR", 7), // French (cavalier, fou, tour, dame, roi)
    std::string_view("\0\0CATDR", 7), // Italian (cavallo, alfiere, torre, donna, re)
    std::string_view("\0\0RLTDK", 7), // Afrikaans ([05] E2: ruiter, loper, toring, dame, koning)
};

constexpr std::array<std::string_view, 6> kCodes = {"en", "nl", "de", "fr", "it", "af"};
constexpr std::array<std::string_view, 6> kNames = {"english", "dutch",   "german",
                                                    "french",  "italian", "afrikaans"};

// White figurines U+2654..U+2659 (king, queen, rook, bishop, knight, pawn) in UTF-8.
std::string_view figurine(PieceType t) {
    switch (t) {
    case PieceType::King:
        return "\u2654";
    case PieceType::Queen:
        return "\u2655";
    case PieceType::Rook:
        return "\u2656";
    case PieceType::Bishop:
        return "\u2657";
    case PieceType::Knight:
        return "\u2658";
    default:
        return "";
    }
}

void append_piece(std::string& s, PieceType t, const NotationFormat& fmt) {
    if (fmt.figurines) {
        s += figurine(t);
        return;
    }
    const char c = piece_letter(t, fmt.language);
    if (c != '\0') s += c;
}

void append_castling(std::string& s, Move m, const NotationFormat& fmt) {
    const bool king_side = m.to().file() > m.from().file();
    const char o = fmt.zero_castling ? '0' : 'O';
    s += o;
    s += '-';
    s += o;
    if (!king_side) {
        s += '-';
        s += o;
    }
}

void append_promotion(std::string& s, Move m, const NotationFormat& fmt) {
    if (m.kind() != Move::Kind::Promotion) return;
    if (fmt.promotion_equals) s += '=';
    append_piece(s, m.promotion_type(), fmt);
}

/// `+` or `#` if m gives check (Art. 3.9) or checkmate (Art. 1.4.1, 5.1.1).
void append_check(std::string& s, const Position& pos, Move m) {
    if (!pos.gives_check(m)) return;
    Position after = pos.copy();
    after.make_move(m);
    s += after.has_legal_move() ? '+' : '#';
}

void append_square(std::string& s, Square sq) {
    s += static_cast<char>('a' + sq.file());
    s += static_cast<char>('1' + sq.rank());
}

} // namespace

char piece_letter(PieceType t, Language lang) noexcept {
    const auto i = static_cast<std::size_t>(t);
    const auto l = static_cast<std::size_t>(lang);
    if (l >= kLetters.size() || i >= kLetters[l].size()) return '\0';
    return kLetters[l][i];
}

PieceType piece_from_letter(char c, Language lang) noexcept {
    const auto l = static_cast<std::size_t>(lang);
    if (c == '\0' || l >= kLetters.size()) return PieceType::None;
    const auto i = kLetters[l].find(c);
    return i == std::string_view::npos ? PieceType::None : static_cast<PieceType>(i);
}

std::string_view language_code(Language lang) noexcept {
    const auto l = static_cast<std::size_t>(lang);
    return l < kCodes.size() ? kCodes[l] : std::string_view("?");
}

std::optional<Language> language_from_code(std::string_view code) noexcept {
    for (std::size_t i = 0; i < kCodes.size(); ++i) {
        if (code == kCodes[i] || code == kNames[i]) return static_cast<Language>(i);
    }
    return std::nullopt;
}

std::string to_san(const Position& pos, Move m, const NotationFormat& fmt) {
    std::string s;
    const PieceType pt = type_of(pos.moved_piece(m));
    if (m.is_castling()) {
        append_castling(s, m, fmt);
    } else if (pt == PieceType::Pawn) {
        if (pos.is_capture(m)) {
            s += static_cast<char>('a' + m.from().file());
            s += 'x';
        }
        append_square(s, m.to());
        append_promotion(s, m, fmt);
        if (fmt.en_passant_suffix && m.kind() == Move::Kind::EnPassant) s += " e.p.";
    } else {
        append_piece(s, pt, fmt);
        // App. C.10 / PGN 8.2.3.4: another piece of the same kind can go to the same square.
        bool other = false, same_file = false, same_rank = false;
        for (const Move o : pos.legal_moves()) {
            if (o == m || o.is_castling() || o.to() != m.to() || o.from() == m.from()) continue;
            if (type_of(pos.moved_piece(o)) != pt) continue;
            other = true;
            same_file = same_file || o.from().file() == m.from().file();
            same_rank = same_rank || o.from().rank() == m.from().rank();
        }
        if (other) {
            if (!same_file) {
                s += static_cast<char>('a' + m.from().file());
            } else if (!same_rank) {
                s += static_cast<char>('1' + m.from().rank());
            } else {
                append_square(s, m.from());
            }
        }
        if (pos.is_capture(m)) s += 'x';
        append_square(s, m.to());
    }
    append_check(s, pos, m);
    return s;
}

std::string to_lan(const Position& pos, Move m, const NotationFormat& fmt) {
    std::string s;
    if (m.is_castling()) {
        append_castling(s, m, fmt);
    } else {
        append_piece(s, type_of(pos.moved_piece(m)), fmt);
        append_square(s, m.from());
        s += pos.is_capture(m) ? 'x' : '-';
        append_square(s, m.to());
        append_promotion(s, m, fmt);
        if (fmt.en_passant_suffix && m.kind() == Move::Kind::EnPassant) s += " e.p.";
    }
    append_check(s, pos, m);
    return s;
}

std::string_view bare_san(std::string_view san) noexcept {
    while (!san.empty()) {
        const char c = san.back();
        if (c != '+' && c != '#' && c != '!' && c != '?' && c != ' ') break;
        san.remove_suffix(1);
    }
    return san;
}

} // namespace eboard
