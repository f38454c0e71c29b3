// The word tables. Sources: Appendix D.2.1 [23] (seed 002) and F2.1 [05] (seed 004) for the
// Appendix D vocabulary; the notation keys of [05] App. E (German 004 E, Afrikaans 003 E) and
// [23] App. C (Dutch 002) for the piece names and the capture, check and mate words.
#include "access/vocabulary.hpp"

#include <cstddef>

namespace eboard::access {

namespace {

constexpr std::array<std::string_view, 8> kLetters = {"a", "b", "c", "d", "e", "f", "g", "h"};
constexpr std::array<std::string_view, 8> kDigits = {"1", "2", "3", "4", "5", "6", "7", "8"};

// German words shared by the Appendix D vocabulary (which is German by the Appendix's own
// choice) and plain German.
constexpr std::array<std::string_view, 6> kGermanPieces = {"Bauer", "Springer", "Läufer",
                                                           "Turm",  "Dame",     "König"};
constexpr std::array<std::string_view, 6> kGermanWhite = {"weißer Bauer",  "weißer Springer",
                                                          "weißer Läufer", "weißer Turm",
                                                          "weiße Dame",    "weißer König"};
constexpr std::array<std::string_view, 6> kGermanBlack = {"schwarzer Bauer",  "schwarzer Springer",
                                                          "schwarzer Läufer", "schwarzer Turm",
                                                          "schwarze Dame",    "schwarzer König"};

constexpr Words german_words(bool appendix_d) {
    Words w{};
    w.code = appendix_d ? "appendix-d" : "de";
    w.language = "de";
    w.piece = kGermanPieces;
    w.white_piece = kGermanWhite;
    w.black_piece = kGermanBlack;
    w.file = appendix_d ? std::array<std::string_view, 8>{"Anna", "Bella", "Cesar",  "David",
                                                          "Eva",  "Felix", "Gustav", "Hector"}
                        : kLetters;
    w.rank = appendix_d ? std::array<std::string_view, 8>{"eins", "zwei",  "drei",   "vier",
                                                          "fünf", "sechs", "sieben", "acht"}
                        : kDigits;
    w.square_in_words = appendix_d;
    w.captures = "schlägt";
    w.to = appendix_d ? "" : "nach";
    w.check = "Schach";
    w.mate = "Matt";
    w.en_passant = "en passant";
    w.promotes_to = "wird";
    w.castles_short = appendix_d ? "Kurze Rochade" : "kurze Rochade";
    w.castles_long = appendix_d ? "Lange Rochade" : "lange Rochade";
    w.white = "Weiß";
    w.black = "Schwarz";
    w.white_to_move = "Weiß am Zug";
    w.black_to_move = "Schwarz am Zug";
    w.move = "Zug";
    w.no_moves = "noch keine Züge";
    w.empty = "leer";
    w.rank_word = "Reihe";
    w.file_word = "Linie";
    w.menu = "Menü";
    w.position_word = "Stellung";
    w.square_word = "Feld";
    w.menu_closed = "Menü Ende";
    w.hours = {"Stunde", "Stunden"};
    w.minutes = {"Minute", "Minuten"};
    w.seconds = {"Sekunde", "Sekunden"};
    w.illegal_move = "Regelwidriger Zug";
    w.piece_displaced = "Figur verstellt";
    w.boards_differ = "Bretter verschieden";
    w.boards_agree = "Bretter wieder gleich";
    w.flag_fall = "Fallblättchen gefallen";
    return w;
}

constexpr Words english_words() {
    Words w{};
    w.code = "en";
    w.language = "en";
    w.piece = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    w.white_piece = {"white pawn", "white knight", "white bishop",
                     "white rook", "white queen",  "white king"};
    w.black_piece = {"black pawn", "black knight", "black bishop",
                     "black rook", "black queen",  "black king"};
    w.file = kLetters;
    w.rank = kDigits;
    w.captures = "takes";
    w.to = "to";
    w.check = "check";
    w.mate = "checkmate";
    w.en_passant = "en passant";
    w.promotes_to = "promotes to";
    w.castles_short = "castles kingside";
    w.castles_long = "castles queenside";
    w.white = "White";
    w.black = "Black";
    w.white_to_move = "White to move";
    w.black_to_move = "Black to move";
    w.move = "move";
    w.no_moves = "no moves yet";
    w.empty = "empty";
    w.rank_word = "rank";
    w.file_word = "file";
    w.menu = "menu";
    w.position_word = "position";
    w.square_word = "square";
    w.menu_closed = "menu closed";
    w.hours = {"hour", "hours"};
    w.minutes = {"minute", "minutes"};
    w.seconds = {"second", "seconds"};
    w.illegal_move = "illegal move";
    w.piece_displaced = "piece displaced";
    w.boards_differ = "boards differ";
    w.boards_agree = "boards agree again";
    w.flag_fall = "flag fall";
    return w;
}

constexpr Words dutch_words() {
    Words w{};
    w.code = "nl";
    w.language = "nl";
    w.piece = {"pion", "paard", "loper", "toren", "dame", "koning"};
    // "paard" is a het-word: "wit paard", but "witte loper".
    w.white_piece = {"witte pion",  "wit paard",  "witte loper",
                     "witte toren", "witte dame", "witte koning"};
    w.black_piece = {"zwarte pion",  "zwart paard", "zwarte loper",
                     "zwarte toren", "zwarte dame", "zwarte koning"};
    w.file = kLetters;
    w.rank = kDigits;
    w.captures = "slaat";
    w.to = "naar";
    w.check = "schaak";
    w.mate = "mat";
    w.en_passant = "en passant";
    w.promotes_to = "promoveert tot";
    w.castles_short = "korte rokade"; // [23] C.13 Dutch key: "korte rokade", "lange rokade"
    w.castles_long = "lange rokade";
    w.white = "wit";
    w.black = "zwart";
    w.white_to_move = "wit aan zet";
    w.black_to_move = "zwart aan zet";
    w.move = "zet";
    w.no_moves = "nog geen zetten";
    w.empty = "leeg";
    w.rank_word = "rij";
    w.file_word = "lijn";
    w.menu = "menu";
    w.position_word = "stelling";
    w.square_word = "veld";
    w.menu_closed = "menu gesloten";
    w.hours = {"uur", "uur"};
    w.minutes = {"minuut", "minuten"};
    w.seconds = {"seconde", "seconden"};
    w.illegal_move = "onreglementaire zet";
    w.piece_displaced = "stuk verplaatst";
    w.boards_differ = "borden verschillen";
    w.boards_agree = "borden weer gelijk";
    w.flag_fall = "vlag gevallen";
    return w;
}

constexpr Words afrikaans_words() {
    Words w{};
    w.code = "af";
    w.language = "af";
    // Seed 003 (2005 Afrikaans): koning, dame, toring, loper, ruiter, pion; x = "buit / neem",
    // + = "skaak", # = "skaakmat"; castling "Rokering ... (koningskant / dameskant)".
    w.piece = {"pion", "ruiter", "loper", "toring", "dame", "koning"};
    w.white_piece = {"wit pion", "wit ruiter", "wit loper", "wit toring", "wit dame", "wit koning"};
    w.black_piece = {"swart pion",   "swart ruiter", "swart loper",
                     "swart toring", "swart dame",   "swart koning"};
    w.file = kLetters;
    w.rank = kDigits;
    w.captures = "buit";
    w.to = "na";
    w.check = "skaak";
    w.mate = "skaakmat";
    w.en_passant = "en passant";
    w.promotes_to = "promoveer tot";
    w.castles_short = "rokering koningskant";
    w.castles_long = "rokering dameskant";
    w.white = "wit";
    w.black = "swart";
    w.white_to_move = "wit aan die beurt";
    w.black_to_move = "swart aan die beurt";
    w.move = "skuif";
    w.no_moves = "nog geen skuiwe";
    w.empty = "leeg";
    w.rank_word = "gelid";
    w.file_word = "lyn";
    w.menu = "kieslys";
    w.position_word = "stelling";
    w.square_word = "blokkie";
    w.menu_closed = "kieslys gesluit";
    w.hours = {"uur", "uur"};
    w.minutes = {"minuut", "minute"};
    w.seconds = {"sekonde", "sekondes"};
    w.illegal_move = "onwettige skuif";
    w.piece_displaced = "stuk verskuif";
    w.boards_differ = "borde verskil";
    w.boards_agree = "borde weer gelyk";
    w.flag_fall = "vlag geval";
    return w;
}

constexpr Words french_words() {
    Words w{};
    w.code = "fr";
    w.language = "fr";
    w.piece = {"pion", "cavalier", "fou", "tour", "dame", "roi"};
    w.white_piece = {"pion blanc",   "cavalier blanc", "fou blanc",
                     "tour blanche", "dame blanche",   "roi blanc"};
    w.black_piece = {"pion noir",  "cavalier noir", "fou noir",
                     "tour noire", "dame noire",    "roi noir"};
    w.file = kLetters;
    w.rank = kDigits;
    w.captures = "prend";
    w.to = "en";
    w.check = "échec";
    w.mate = "échec et mat";
    w.en_passant = "en passant";
    w.promotes_to = "promu en";
    w.castles_short = "petit roque";
    w.castles_long = "grand roque";
    w.white = "blancs";
    w.black = "noirs";
    w.white_to_move = "trait aux blancs";
    w.black_to_move = "trait aux noirs";
    w.move = "coup";
    w.no_moves = "aucun coup joué";
    w.empty = "vide";
    w.rank_word = "rangée";
    w.file_word = "colonne";
    w.menu = "menu";
    w.position_word = "position";
    w.square_word = "case";
    w.menu_closed = "menu fermé";
    w.hours = {"heure", "heures"};
    w.minutes = {"minute", "minutes"};
    w.seconds = {"seconde", "secondes"};
    w.illegal_move = "coup illégal";
    w.piece_displaced = "pièce déplacée";
    w.boards_differ = "échiquiers différents";
    w.boards_agree = "échiquiers de nouveau identiques";
    w.flag_fall = "drapeau tombé";
    return w;
}

constexpr std::array<Words, 6> kWords = {german_words(true),  english_words(),   dutch_words(),
                                         german_words(false), afrikaans_words(), french_words()};

} // namespace

const Words& words(Vocabulary v) noexcept {
    return kWords[static_cast<std::size_t>(v)];
}

std::string_view vocabulary_code(Vocabulary v) noexcept {
    return words(v).code;
}

std::optional<Vocabulary> vocabulary_from_code(std::string_view code) noexcept {
    for (const Vocabulary v : kVocabularies)
        if (code == words(v).code) return v;
    if (code == "appendix-f") return Vocabulary::AppendixD;
    constexpr std::array<std::string_view, 6> kNames = {"",       "english",   "dutch",
                                                        "german", "afrikaans", "french"};
    for (std::size_t i = 1; i < kNames.size(); ++i)
        if (code == kNames[i]) return kVocabularies[i];
    return std::nullopt;
}

std::string square_words(Square s, Vocabulary v) {
    const Words& w = words(v);
    std::string out(w.file[static_cast<std::size_t>(s.file())]);
    if (w.square_in_words) out += ' ';
    out += w.rank[static_cast<std::size_t>(s.rank())];
    return out;
}

std::string_view colored_piece_words(Piece p, Vocabulary v) noexcept {
    const PieceType t = type_of(p);
    if (t == PieceType::None) return {};
    const auto i = static_cast<std::size_t>(t) - 1;
    return color_of(p) == Color::White ? words(v).white_piece[i] : words(v).black_piece[i];
}

std::string_view piece_words(PieceType t, Vocabulary v) noexcept {
    if (t == PieceType::None) return {};
    return words(v).piece[static_cast<std::size_t>(t) - 1];
}

std::string squares_words(std::span<const Square> squares, Vocabulary v) {
    std::string out;
    for (const Square s : squares) {
        if (!out.empty()) out += ", ";
        out += square_words(s, v);
    }
    return out;
}

} // namespace eboard::access
