// eboard-winnable [--chess960] [--full] FEN | --batch
// Prints the winnability label of a position (eboard-winnable(1)): 'W' if
// White can still checkmate by some sequence of legal moves, else '-', then 'B' likewise for
// Black; '?' where the search could not decide. "--" is a dead position (Art. 5.2.2).
// --batch: one FEN per line on stdin, one label per line on stdout, in order; a line that is not
// a valid FEN prints "!!" (and the reason on stderr) and the run goes on. Exit 0.
// An invalid FEN on the command line: one line on stderr, exit 2. Bad usage: exit 2.
// FENs are read as composed positions (FenMaterial::Composed): more than 8 pawns or more
// promoted pieces than missing pawns are answered, not refused; a FEN that is not a
// legal-looking position (no king, the side not to move in check, ...) is invalid.
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "rules/winnable.hpp"

namespace {

constexpr const char* kUsage = "usage: eboard-winnable [--chess960] [--full] FEN\n"
                               "       eboard-winnable [--chess960] [--full] --batch < FENs";

int usage_error(const std::string& why) {
    std::fprintf(stderr, "eboard-winnable: %s\n%s\n", why.c_str(), kUsage);
    return 2;
}

/// Writes all of `out` to stdout (retrying short writes); false if stdout is gone.
bool write_all(std::string& out) {
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    out.clear();
    return true;
}

/// --batch: stdin is read in chunks; every complete line is answered, and the answers are
/// written before the next read may block, so a caller that sends one line and waits gets its
/// answer at once, and a file is answered without a system call per line.
int run_batch(bool chess960, eboard::WinnableMode mode) {
    std::string pending;  // an incomplete last line
    std::string out;
    std::string errors;
    long number = 0;
    const auto answer = [&](std::string_view line) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const auto label = eboard::winnability_label_of_fen(line, chess960, mode);
        if (label) {
            out += label.value();
        } else {
            out += "!!";
            errors += "eboard-winnable: line " + std::to_string(number) +
                      ": invalid FEN: " + label.error().message + '\n';
        }
        out += '\n';
    };
    std::array<char, 65536> buf{};
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        std::string_view chunk(buf.data(), static_cast<std::size_t>(n));
        for (std::size_t eol; (eol = chunk.find('\n')) != std::string_view::npos;) {
            if (pending.empty()) {
                answer(chunk.substr(0, eol));
            } else {
                pending.append(chunk.substr(0, eol));
                answer(pending);
                pending.clear();
            }
            chunk.remove_prefix(eol + 1);
        }
        pending.append(chunk);
        if (!errors.empty()) {
            std::fputs(errors.c_str(), stderr);
            errors.clear();
        }
        if (!write_all(out)) return 0;  // nobody reads the answers any more
    }
    if (!pending.empty()) answer(pending);  // a last line without a newline
    if (!errors.empty()) std::fputs(errors.c_str(), stderr);
    write_all(out);
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
    const auto label = eboard::winnability_label_of_fen(fen, chess960, mode);
    if (!label) {
        std::fprintf(stderr, "eboard-winnable: invalid FEN: %s\n", label.error().message.c_str());
        return 2;
    }
    std::printf("%s\n", label.value().c_str());
    return 0;
}
