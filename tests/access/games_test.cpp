// Every move of every game in ../shared/data/games/, in every vocabulary: announce_move()
// (built from the position and the move) against a reading of the move's SAN written straight
// from Appendix D.2.1 (each SAN character replaced by its word), and against a golden file for
// the famous games (tests/access/data/announcements.golden; EBOARD_REGEN_GOLDEN=1 rewrites
// it; a sample of it was checked by hand against the Appendix, see the file's header).
#include "../support/test_io.hpp"
#include "access/announce.hpp"
#include "rules/pgn.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace eboard;
using namespace eboard::access;

namespace {

const std::filesystem::path kGames = std::filesystem::path(EBOARD_SHARED_DATA) / "games";
const std::filesystem::path kGolden =
    std::filesystem::path(EBOARD_TEST_DATA) / "announcements.golden";

/// The piece a SAN letter names (English letters, PGN 8.2.3.2).
PieceType san_piece(char c) {
    switch (c) {
    case 'N':
        return PieceType::Knight;
    case 'B':
        return PieceType::Bishop;
    case 'R':
        return PieceType::Rook;
    case 'Q':
        return PieceType::Queen;
    case 'K':
        return PieceType::King;
    default:
        return PieceType::None;
    }
}

void add(std::string& out, std::string_view w) {
    if (w.empty()) return;
    if (!out.empty()) out += ' ';
    out += w;
}

/// The announcement read off the SAN text alone, by the rules of Appendix D.2.1: the piece's
/// name (the pawn named too), each disambiguation character as its file or rank word, "x" as
/// the capture word, the arrival square, "e.p." (which PGN SAN omits, hence the flag), "=X" as
/// the promotion word and the piece, "+"/"#" as check/mate after a comma; O-O / O-O-O by name.
std::string from_san(std::string san, bool en_passant, Vocabulary v) {
    const Words& w = words(v);
    std::string_view suffix;
    while (!san.empty() && (san.back() == '+' || san.back() == '#')) {
        suffix = san.back() == '#' ? w.mate : (suffix.empty() ? w.check : suffix);
        san.pop_back();
    }
    std::string out;
    if (san == "O-O-O") {
        out = w.castles_long;
    } else if (san == "O-O") {
        out = w.castles_short;
    } else {
        PieceType promo = PieceType::None;
        if (const auto eq = san.find('='); eq != std::string::npos) {
            promo = san_piece(san[eq + 1]);
            san.erase(eq);
        }
        PieceType piece = san_piece(san[0]);
        if (piece == PieceType::None)
            piece = PieceType::Pawn;
        else
            san.erase(0, 1);
        add(out, piece_words(piece, v));
        const std::string dest = san.substr(san.size() - 2);
        std::string from; // the disambiguation: a file, a rank, or a whole square (C.10)
        bool capture = false;
        for (const char c : san.substr(0, san.size() - 2)) {
            if (c == 'x')
                capture = true;
            else
                from += c;
        }
        if (from.size() == 2)
            add(out, square_words(Square::parse(from), v));
        else if (from.size() == 1 && from[0] >= 'a')
            add(out, w.file[static_cast<std::size_t>(from[0] - 'a')]);
        else if (from.size() == 1)
            add(out, w.rank[static_cast<std::size_t>(from[0] - '1')]);
        if (capture) add(out, w.captures);
        add(out, square_words(Square::parse(dest), v));
        if (en_passant) add(out, w.en_passant);
        if (promo != PieceType::None) {
            add(out, w.promotes_to);
            add(out, piece_words(promo, v));
        }
    }
    if (!suffix.empty()) out += std::string(", ") + std::string(suffix);
    return out;
}

struct Counted {
    std::size_t games = 0, moves = 0;
};

/// Calls f(file name, before, move, SAN) for every main-line move of every game of a file.
template <typename F>
Counted for_each_move(const std::filesystem::path& file, F&& f) {
    const std::string text = test::slurp(file);
    REQUIRE_FALSE(text.empty());
    PgnReader reader(text);
    Counted n;
    while (auto game = reader.next()) {
        REQUIRE(*game);
        auto start = (*game)->start_position();
        REQUIRE(start);
        Position pos = std::move(start.value());
        ++n.games;
        for (const GameMove& gm : (*game)->moves) {
            if (gm.move.is_none()) break;
            f(pos, gm.move, gm.san);
            pos.make_move(gm.move);
            ++n.moves;
        }
    }
    return n;
}

std::vector<std::filesystem::path> game_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(kGames))
        if (e.path().extension() == ".pgn") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("D.2.1 every move of every shared game, in every vocabulary, reads as its SAN") {
    Counted total;
    for (const auto& file : game_files()) {
        const Counted n =
            for_each_move(file, [&](const Position& before, Move m, const std::string& san) {
                // Chess960 castling is SAN "O-O" whatever the squares: from_san reads it by name.
                const bool ep = m.kind() == Move::Kind::EnPassant;
                for (const Vocabulary v : kVocabularies) {
                    const std::string said = announce_move(before, m, {v, false});
                    if (said != from_san(san, ep, v)) {
                        INFO(file.filename().string()
                             << " " << before.fen() << " " << san << " in " << vocabulary_code(v));
                        REQUIRE(said == from_san(san, ep, v));
                    }
                }
            });
        total.games += n.games;
        total.moves += n.moves;
    }
    // The shared set as read: 475 games, 30,072 moves (438 games from the lichess sample).
    CHECK(total.games == 475);
    CHECK(total.moves == 30072);
}

TEST_CASE("D.2.1 the famous games against the golden announcements") {
    std::string got =
        "# SAN\tappendix-d\ten\tnl\tde\taf\tfr (long form in the Appendix D words last)\n";
    for (const auto& file : game_files()) {
        if (file.filename() == "lichess-db-sample.pgn") continue;
        got += "## " + file.filename().string() + "\n";
        (void)for_each_move(file, [&](const Position& before, Move m, const std::string& san) {
            got += san;
            for (const Vocabulary v : kVocabularies)
                got += "\t" + announce_move(before, m, {v, false});
            got += "\t" + announce_move(before, m, {Vocabulary::AppendixD, true}) + "\n";
        });
    }
    if (std::getenv("EBOARD_REGEN_GOLDEN") != nullptr) {
        // Keep the hand-written header (lines starting with "#!") when regenerating.
        std::string header;
        std::istringstream old(test::slurp(kGolden));
        for (std::string line; std::getline(old, line);)
            if (line.rfind("#!", 0) == 0) header += line + "\n";
        std::ofstream(kGolden, std::ios::binary) << header << got;
    }
    std::string want;
    std::istringstream in(test::slurp(kGolden));
    for (std::string line; std::getline(in, line);)
        if (line.rfind("#!", 0) != 0) want += line + "\n";
    REQUIRE_FALSE(want.empty());
    // Line by line, so that a failure names the move.
    std::istringstream g(got), e(want);
    std::string gl, el;
    int line = 0;
    while (std::getline(e, el)) {
        ++line;
        REQUIRE(std::getline(g, gl));
        INFO("golden line " << line);
        REQUIRE(gl == el);
    }
    CHECK_FALSE(std::getline(g, gl));
}
