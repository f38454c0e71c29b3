// The winnability ground truth: data/deadpos/chasolver_positions.txt, one position a
// line, "LL FEN" where LL is White's letter (W or -) then Black's (B or -); '#' lines comment.
#pragma once

#include <fstream>
#include <string>
#include <vector>

struct GroundTruth {
    std::string label;  // "WB", "W-", "-B" or "--"
    std::string fen;
};

inline std::vector<GroundTruth> read_ground_truth() {
    std::vector<GroundTruth> out;
    std::ifstream in(EBOARD_REPO_DATA "/deadpos/chasolver_positions.txt");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.size() < 4) continue;
        out.push_back({line.substr(0, 2), line.substr(3)});
    }
    return out;
}
