// Minimal PGN movetext reader for the driver tests: the games of ../shared/data/games as SAN
// tokens (headers, comments, variations, NAGs, move numbers and results dropped).
#pragma once

#include "drivers/core/board_state.hpp"
#include "rules/notation.hpp"
#include "rules/position.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace eboard::drivers::test {

struct PgnGame {
    std::string fen;  ///< the FEN tag, empty for the standard start
    bool chess960 = false;
    std::vector<std::string> san;
};

inline std::vector<PgnGame> read_pgn_games(const std::string& path, std::size_t max_games = 1000) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string text = ss.str();
    std::vector<PgnGame> games;
    PgnGame g;
    bool in_moves = false;
    std::size_t i = 0;
    const auto finish = [&] {
        if (!g.san.empty() || in_moves) games.push_back(std::move(g));
        g = PgnGame{};
        in_moves = false;
    };
    while (i < text.size() && games.size() < max_games) {
        const char c = text[i];
        if (c == '[' && !in_moves) {
            const auto end = text.find(']', i);
            const std::string tag = text.substr(i + 1, end - i - 1);
            const auto q1 = tag.find('"'), q2 = tag.rfind('"');
            const std::string value = q1 != std::string::npos && q2 > q1 ? tag.substr(q1 + 1, q2 - q1 - 1) : "";
            if (tag.rfind("FEN ", 0) == 0) g.fen = value;
            if (tag.rfind("Variant ", 0) == 0 && (value.find("960") != std::string::npos ||
                                                  value.find("ischer") != std::string::npos))
                g.chess960 = true;
            i = end == std::string::npos ? text.size() : end + 1;
        } else if (c == '{') {
            const auto end = text.find('}', i);
            i = end == std::string::npos ? text.size() : end + 1;
        } else if (c == ';') {
            const auto end = text.find('\n', i);
            i = end == std::string::npos ? text.size() : end + 1;
        } else if (c == '(') {
            int depth = 0;
            for (; i < text.size(); ++i) {
                if (text[i] == '(') ++depth;
                if (text[i] == ')' && --depth == 0) break;
            }
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else {
            std::size_t j = i;
            while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
                   text[j] != '{' && text[j] != '(' && text[j] != ')')
                ++j;
            std::string tok = text.substr(i, j - i);
            i = j;
            if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") {
                in_moves = true;
                finish();
                continue;
            }
            in_moves = true;
            if (tok[0] == '$') continue;
            const auto dot = tok.find_last_of('.');
            if (dot != std::string::npos) tok = tok.substr(dot + 1);
            if (!tok.empty() && !std::isdigit(static_cast<unsigned char>(tok[0]))) g.san.push_back(tok);
        }
    }
    if (!g.san.empty()) games.push_back(std::move(g));
    return games;
}

/// The pieces of a position as a board reading.
inline BoardState board_of(const Position& p) {
    BoardState b;
    for (int i = 0; i < 64; ++i) b.set(Square(i), p.piece_on(Square(i)));
    return b;
}

/// The pieces on the board at the start of `g` and after each of its moves (a null move,
/// "Z0" or "--", repeats the board). Stops at a move the rules core cannot parse (the caller
/// compares the size with g.san.size() + 1).
inline std::vector<BoardState> game_boards(const PgnGame& g) {
    auto start = g.fen.empty() ? Expected<Position>(Position::startpos()) : Position::from_fen(g.fen, g.chess960);
    std::vector<BoardState> boards;
    if (!start) return boards;
    Position pos = std::move(start.value());
    boards.push_back(board_of(pos));
    for (const std::string& san : g.san) {
        if (san == "Z0" || san == "--") {
            pos.make_null_move();
        } else {
            const auto m = parse_move(pos, san);
            if (!m) break;
            pos.make_move(m.value());
        }
        boards.push_back(board_of(pos));
    }
    return boards;
}

} // namespace eboard::drivers::test
