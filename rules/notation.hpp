// Algebraic notation of the Laws ([05] App. E, [23] App. C) and of PGN (SAN, PGN standard 8.2.3):
// moves out as SAN or long algebraic in any of six languages, moves in from SAN, long
// algebraic, UCI and the lenient forms people and programs write.
//
// Piece letters per language ([23] App. C.2, [05] App. E2/E3; docs/profiles.md names the editions):
//   English K Q R B N | Dutch K D T L P | German K D T L S | French R D T F C |
//   Italian R D T A C | Afrikaans K D T L R.
// Letters collide across languages (R: rook / king / knight), so the language is always given.
#pragma once

#include "base/expected.hpp"
#include "rules/position.hpp"
#include "base/types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eboard {

/// The languages whose piece letters eboardd knows (App. C / 2005 App. E, Afrikaans 2005 E2).
enum class Language : std::uint8_t { English, Dutch, German, French, Italian, Afrikaans };

/// The letter of a piece in `lang` ('K'..), '\0' for a pawn or PieceType::None (pawns get
/// no letter, App. C.4).
[[nodiscard]] char piece_letter(PieceType t, Language lang) noexcept;
/// The piece a letter names in `lang` (upper case only); PieceType::None if it names none.
[[nodiscard]] PieceType piece_from_letter(char c, Language lang) noexcept;
/// "en", "nl", "de", "fr", "it", "af".
[[nodiscard]] std::string_view language_code(Language lang) noexcept;
/// Inverse of language_code (also accepts the English names "english", "dutch", ...).
[[nodiscard]] std::optional<Language> language_from_code(std::string_view code) noexcept;

/// How moves are written. The default is PGN export SAN (PGN 8.2.3): English letters, `O-O`,
/// `e8=Q`, `+`, `#`. fide_format() gives the scoresheet form of App. C: `0-0`, `e8D`.
struct NotationFormat {
    Language language = Language::English;
    bool zero_castling = false;     ///< `0-0` (App. C.13) instead of `O-O` (PGN)
    bool promotion_equals = true;   ///< `e8=Q` (PGN) instead of `e8Q` (App. C.12)
    bool en_passant_suffix = false; ///< append ` e.p.` to en passant captures (App. C.11)
    bool figurines = false;         ///< UTF-8 figurines ♔♕♖♗♘ instead of letters
};

/// The App. C scoresheet form for a language: zeros in castling, no '=' in promotions.
[[nodiscard]] constexpr NotationFormat fide_format(Language lang) noexcept {
    return NotationFormat{lang, true, false, false, false};
}

/// Standard algebraic notation of the legal move `m` in `pos`: piece letter, the
/// disambiguation of App. C.10 / PGN 8.2.3.4 (departure file if it tells the pieces apart,
/// else the rank, else both), `x` for captures (pawn captures with the departure file),
/// arrival square, promotion, `+` check or `#` checkmate. Castling `O-O` (the rook on the
/// king's h-side, also in Chess960) and `O-O-O`. `m` must be legal in `pos`.
[[nodiscard]] std::string to_san(const Position& pos, Move m, const NotationFormat& fmt = {});

/// Long algebraic notation ([23] C.8, with separators): `e2-e4`, `Ng1-f3`, `Bb5xc6+`,
/// `e7-e8=Q`, castling as in to_san. `m` must be legal in `pos`.
[[nodiscard]] std::string to_lan(const Position& pos, Move m, const NotationFormat& fmt = {});

/// Reads a move written in `lang` and returns the legal move it names in `pos`. Lenient:
/// SAN (`Nf3`, `exd5`, `e8=Q`), castling `O-O`/`0-0`/`O-O-O`/`0-0-0` (also in Chess960),
/// promotion as `e8=Q`, `e8Q`, `e8(Q)`, `e8/Q`, `e8q`; captures with `x`, `:` or none
/// (`ed5`, [23] C.9); `e.p.` after en passant captures; trailing `+`, `#`, `++`, `!`, `?`,
/// `!?`, `(=)`; UTF-8 figurines for any language; long algebraic `e2-e4`, `Ng1-f3`, `e2xe4`,
/// `Pg1f3`; UCI `e2e4`, `e7e8q`, `e1h1`. Over-specified disambiguation is accepted.
/// Errors say why: "empty move", "cannot read 'Nz9'", "no legal move 'Nf5': no knight can
/// go to f5", "illegal move 'Ke2': the king would be in check", "ambiguous move 'Nd2':
/// Nbd2 or Nfd2", "promotion piece missing in 'e8'". Column = 1-based place in `text` of a
/// syntax error, 0 for the others. Never throws on any input.
[[nodiscard]] Expected<Move> parse_move(const Position& pos, std::string_view text,
                                        Language lang = Language::English);

/// `san` without the trailing check, mate and annotation marks (`+`, `#`, `!`, `?`) - the
/// part by which two SAN strings are compared.
[[nodiscard]] std::string_view bare_san(std::string_view san) noexcept;

} // namespace eboard
