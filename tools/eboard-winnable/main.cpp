// eboard-winnable [--chess960] [--full] FEN | --batch
// Prints the winnability label of a position (interfaces.md, section eboard-winnable): 'W' if
// White can still checkmate by some sequence of legal moves, else '-', then 'B' likewise for
// Black; '?' where the search could not decide. "--" is a dead position (Art. 5.2.2).
// --batch: one FEN per line on stdin, one label per line on stdout, in order; a line that is not
// a valid FEN prints "!!" (and the reason on stderr) and the run goes on. Exit 0.
// An invalid FEN on the command line: one line on stderr, exit 2. Bad usage: exit 2.
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.hpp"
#include "rules/winnable.hpp"

namespace {

constexpr const char* kUsage = "usage: eboard-winnable [--chess960] [--full] FEN\n"
                               "       eboard-winnable [--chess960] [--full] --batch < FENs";

int usage_error(const std::string& why) {
    std::fprintf(stderr, "eboard-winnable: %s\n%s\n", why.c_str(), kUsage);
    return 2;
}

int run_batch(bool chess960, eboard::WinnableMode mode) {
    std::string line;
    long number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto parsed = eboard::Position::from_fen(line, chess960);
        if (!parsed) {
            std::cerr << "eboard-winnable: line " << number
                      << ": invalid FEN: " << parsed.error().message << '\n';
            std::cout << "!!\n";
        } else {
            std::cout << eboard::winnability_label(parsed.value(), mode) << '\n';
        }
        // Answer at once when the caller waits for it (no more input already buffered).
        if (std::cin.rdbuf()->in_avail() == 0) std::cout.flush();
    }
    std::cout.flush();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    bool chess960 = false;
    bool batch = false;
    auto mode = eboard::WinnableMode::Quick;
    std::vector<std::string_view> args;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--chess960") {
            chess960 = true;
        } else if (a == "--full") {
            mode = eboard::WinnableMode::Full;
        } else if (a == "--batch") {
            batch = true;
        } else if (a == "--help" || a == "-h") {
            std::printf("%s\n", kUsage);
            return 0;
        } else if (a.size() > 1 && a.substr(0, 2) == "--") {
            return usage_error("unknown option " + std::string(a));
        } else {
            args.push_back(a);
        }
    }
    if (batch) {
        if (!args.empty()) return usage_error("--batch reads FENs from stdin, not arguments");
        return run_batch(chess960, mode);
    }
    if (args.empty()) return usage_error("need a FEN (one argument, quoted)");
    // A FEN given unquoted arrives as several arguments: join them with single spaces.
    std::string fen(args[0]);
    for (std::size_t i = 1; i < args.size(); ++i) fen += ' ' + std::string(args[i]);
    auto parsed = eboard::Position::from_fen(fen, chess960);
    if (!parsed) {
        std::fprintf(stderr, "eboard-winnable: invalid FEN: %s\n", parsed.error().message.c_str());
        return 2;
    }
    std::printf("%s\n", eboard::winnability_label(parsed.value(), mode).c_str());
    return 0;
}
