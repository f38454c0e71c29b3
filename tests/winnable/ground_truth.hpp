// The winnability ground truth: data/deadpos/chasolver_positions.txt (CHA's test positions,
// composed ones among them) and data/deadpos/chasolver_lichess_sample.txt (a sample of CHA's
// real-game vectors), one position a line, "LL FEN" where LL is White's letter (W or -) then
// Black's (B or -); '#' lines comment.
#pragma once

#include <fstream>
#include <string>
#include <vector>

struct GroundTruth {
    std::string label;  // "WB", "W-", "-B" or "--"
    std::string fen;
};

/// The file data/deadpos/`name` (empty where it cannot be read: the callers check the count).
inline std::vector<GroundTruth> read_ground_truth(const std::string& name = "chasolver_positions.txt") {
    std::vector<GroundTruth> out;
    std::ifstream in(std::string(EBOARD_REPO_DATA "/deadpos/") + name);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.size() < 4) continue;
        out.push_back({line.substr(0, 2), line.substr(3)});
    }
    return out;
}
