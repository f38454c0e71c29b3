// The words eboardd speaks to a visually impaired player (FIDE Laws [23] Appendix D.2.1,
// [05] Appendix F2.1): the recommended international vocabulary of the Appendix, and plain
// English, Dutch, German, Afrikaans and French.
//
// Appendix D.2.1 recommends, instead of letters: files Anna, Bella, Cesar ([05]: Cäsar), David,
// Eva, Felix, Gustav, Hector; ranks (White to Black) the German numbers eins .. acht ([23]:
// unless the arbiter decides otherwise); castling "Kurze Rochade" / "Lange Rochade"; pieces
// König, Dame, Turm, Läufer, Springer, Bauer ([23] D.2.1, [05] F2.1 in its German text: "Diese ganzen
// Bezeichnungen sind international in deutscher Sprache"). The words for capture, check, mate,
// en passant and promotion are not fixed by the Laws: the Appendix D vocabulary takes German
// ones (schlägt, Schach, Matt, wird), matching the German notation key of [05] E.
//
// The plain vocabularies write a square as its name ("e4", which speech synthesizers read
// well); the Appendix D vocabulary writes "Eva vier". No I/O here.
#pragma once

#include "base/types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace eboard::access {

/// Which words are spoken: the Appendix D vocabulary or a plain language.
enum class Vocabulary : std::uint8_t { AppendixD, English, Dutch, German, Afrikaans, French };

/// All vocabularies, in declaration order.
inline constexpr std::array<Vocabulary, 6> kVocabularies = {
    Vocabulary::AppendixD, Vocabulary::English,   Vocabulary::Dutch,
    Vocabulary::German,    Vocabulary::Afrikaans, Vocabulary::French};

/// The words of one vocabulary. Arrays by piece are indexed pawn, knight, bishop, rook,
/// queen, king (PieceType - 1).
struct Words {
    std::string_view code;     ///< "appendix-d", "en", "nl", "de", "af", "fr"
    std::string_view language; ///< the speech language (speech-dispatcher / espeak-ng voice)
    std::array<std::string_view, 6> piece;       ///< "Bauer" .. "König"
    std::array<std::string_view, 6> white_piece; ///< "weißer Bauer" (inflected per language)
    std::array<std::string_view, 6> black_piece; ///< "schwarzer Bauer"
    std::array<std::string_view, 8> file;        ///< "Anna" .. "Hector", or "a" .. "h"
    std::array<std::string_view, 8> rank;        ///< "eins" .. "acht", or "1" .. "8"
    bool square_in_words = false;                ///< "Eva vier" (true) or "e4" (false)
    std::string_view captures;                   ///< "schlägt"
    std::string_view to;            ///< long form between departure and arrival ("" = nothing)
    std::string_view check;         ///< "Schach"
    std::string_view mate;          ///< "Matt"
    std::string_view en_passant;    ///< "en passant"
    std::string_view promotes_to;   ///< "wird" (then the piece)
    std::string_view castles_short; ///< "Kurze Rochade" (0-0, the h-side rook)
    std::string_view castles_long;  ///< "Lange Rochade" (0-0-0, the a-side rook)
    // Information on request (D.2.10.4) and alerts.
    std::string_view white, black;                           ///< the sides: "Weiß", "Schwarz"
    std::string_view white_to_move, black_to_move;           ///< "Weiß am Zug"
    std::string_view move;                                   ///< the move number's word: "Zug"
    std::string_view no_moves;                               ///< "keine Züge"
    std::string_view empty;                                  ///< an empty square: "leer"
    std::string_view rank_word, file_word;                   ///< "Reihe", "Linie"
    // The clock's button menu (access/button_menu.hpp); its rank and file items are
    // rank_word and file_word.
    std::string_view menu;          ///< the menu opened: "Menü"
    std::string_view position_word; ///< the item "whole position": "Stellung"
    std::string_view square_word;   ///< the item "one square": "Feld"
    std::string_view menu_closed;   ///< the menu closed: "Menü Ende"
    std::array<std::string_view, 2> hours, minutes, seconds; ///< singular, plural
    std::string_view illegal_move;                           ///< ALERT illegal_move (Art. 7.5)
    std::string_view piece_displaced;                        ///< ALERT position_mismatch (Art. 7.4)
    std::string_view boards_differ; ///< ALERT both_boards_differ (App. D.2.9)
    std::string_view boards_agree;  ///< both boards show the same position again
    std::string_view flag_fall;     ///< ALERT flag (Art. 6.9)
};

/// The words of `v`.
[[nodiscard]] const Words& words(Vocabulary v) noexcept;

/// "appendix-d", "en", "nl", "de", "af", "fr".
[[nodiscard]] std::string_view vocabulary_code(Vocabulary v) noexcept;

/// Inverse of vocabulary_code; also "appendix-f" (the 2005 name of the Appendix) and the
/// English names "english", "dutch", "german", "afrikaans", "french". nullopt otherwise.
[[nodiscard]] std::optional<Vocabulary> vocabulary_from_code(std::string_view code) noexcept;

/// The spoken name of a square: "Eva vier" (Appendix D) or "e4". `s` must be valid.
[[nodiscard]] std::string square_words(Square s, Vocabulary v);

/// The spoken name of a piece with its colour ("weißer Springer"); "" for Piece::None.
[[nodiscard]] std::string_view colored_piece_words(Piece p, Vocabulary v) noexcept;

/// The piece's name without colour ("Springer"); "" for PieceType::None.
[[nodiscard]] std::string_view piece_words(PieceType t, Vocabulary v) noexcept;

/// Squares in words joined by ", " ("Eva vier, David fünf").
[[nodiscard]] std::string squares_words(std::span<const Square> squares, Vocabulary v);

} // namespace eboard::access
