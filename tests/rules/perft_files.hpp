// Test helper: the perft reference files of data/perft, parsed.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/perft_suite.hpp"
#include "rules/position.hpp"

namespace eboard::test {

/// Reads data/perft/<name> through EBOARD_REPO_DATA; throws if it is missing or
/// malformed (a test that cannot read its data must fail, not pass vacuously).
inline std::vector<PerftCase> perft_file(const std::string& name) {
    const std::string path = std::string(EBOARD_REPO_DATA) + "/perft/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto cases = parse_perft_suite(ss.str());
    if (!cases) throw std::runtime_error(path + ":" + std::to_string(cases.error().line) + ": " +
                                         cases.error().message);
    if (cases->empty()) throw std::runtime_error(path + ": no positions");
    return std::move(cases).value();
}

/// Reads a FEN of a reference file the way the tools that published the counts did: standard
/// first, then Chess960 (X-FEN castling such as K with the king on c1); castling rights that
/// no rook or king supports are dropped (python-chess "clean castling rights"), which the
/// "Impossible castling rights" cases of tricky.perft expect. Other errors are returned.
inline Expected<Position> load_reference_position(const std::string& fen, bool chess960) {
    auto first = Position::from_fen(fen, chess960);
    if (first || first.error().message.find("castling") == std::string::npos) return first;
    if (!chess960) {
        auto as960 = Position::from_fen(fen, true);
        if (as960 || as960.error().message.find("castling") == std::string::npos) return as960;
    }
    std::vector<std::string> fields;
    std::istringstream in(fen);
    for (std::string f; in >> f;) fields.push_back(f);
    if (fields.size() < 3) return first;
    const auto with_castling = [&fields](const std::string& rights) {
        std::string out;
        for (std::size_t i = 0; i < fields.size(); ++i)
            out += (i ? " " : "") + (i == 2 ? (rights.empty() ? "-" : rights) : fields[i]);
        return out;
    };
    std::string kept;
    for (char c : fields[2])
        if (Position::from_fen(with_castling(kept + c), true)) kept += c;
    return Position::from_fen(with_castling(kept), true);
}

/// The five reference files, with whether their castling fields are Chess960.
struct PerftFileInfo {
    const char* name;
    bool chess960;
};
inline constexpr PerftFileInfo kPerftFiles[] = {
    {"classic6.perft", false}, {"perftsuite.epd", false}, {"tricky.perft", false},
    {"chess960.perft", true},  {"random.perft", false}};

} // namespace eboard::test
