// eboard-perft [--chess960] [--divide] FEN DEPTH
// Prints the perft node count of FEN at DEPTH (eboard-perft(1)); with
// --divide one "UCI: count" line per legal move first, then the total. An invalid FEN or bad
// usage: one line on stderr, exit 2.
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.hpp"

namespace {

constexpr const char* kUsage = "usage: eboard-perft [--chess960] [--divide] FEN DEPTH";

int usage_error(const std::string& why) {
    std::fprintf(stderr, "eboard-perft: %s\n%s\n", why.c_str(), kUsage);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    bool chess960 = false;
    bool divide = false;
    std::vector<std::string_view> args;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--chess960") {
            chess960 = true;
        } else if (a == "--divide") {
            divide = true;
        } else if (a == "--help" || a == "-h") {
            std::printf("%s\n", kUsage);
            return 0;
        } else if (a.size() > 1 && a.substr(0, 2) == "--") {
            return usage_error("unknown option " + std::string(a));
        } else {
            args.push_back(a);
        }
    }
    if (args.size() != 2) return usage_error("need a FEN (one argument, quoted) and a depth");
    int depth = 0;
    const std::string_view d = args[1];
    const auto r = std::from_chars(d.data(), d.data() + d.size(), depth);
    if (r.ec != std::errc() || r.ptr != d.data() + d.size() || depth < 0 || depth > 20)
        return usage_error("depth must be a whole number 0..20, not '" + std::string(d) + "'");

    auto parsed = eboard::Position::from_fen(args[0], chess960);
    if (!parsed) {
        std::fprintf(stderr, "eboard-perft: invalid FEN: %s\n", parsed.error().message.c_str());
        return 2;
    }
    eboard::Position pos = std::move(parsed).value();
    std::uint64_t total = 0;
    if (divide && depth > 0) {
        for (const eboard::Move m : pos.legal_moves()) {
            const std::string uci = eboard::to_uci(pos, m);
            pos.make_move(m);
            const std::uint64_t n = eboard::perft(pos, depth - 1);
            pos.unmake_move();
            total += n;
            std::printf("%s: %llu\n", uci.c_str(), static_cast<unsigned long long>(n));
        }
    } else {
        total = eboard::perft(pos, depth);
    }
    std::printf("%llu\n", static_cast<unsigned long long>(total));
    return 0;
}
