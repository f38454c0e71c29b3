// eboard-winnable as its manual page describes it: one FEN -> one label; --batch -> one label per
// line, "!!" for a line that is not a FEN; bad usage -> exit 2. Runs the built binary.
#include <catch2/catch.hpp>

#include "ground_truth.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using namespace std::string_literals;

namespace {

struct Run {
    std::string out;
    int status = -1;
};

Run run(const std::string& args, const std::string& stdin_text = "") {
    // One input file per call and per process: ctest may run these tests in parallel.
    static int calls = 0;
    const std::string input = std::string(EBOARD_BIN_DIR) + "/../tests/winnable_stdin_" +
                              std::to_string(getpid()) + "_" + std::to_string(++calls) + ".txt";
    {
        std::ofstream f(input);
        f << stdin_text;
    }
    const std::string cmd =
        std::string(EBOARD_BIN_DIR) + "/eboard-winnable " + args + " < " + input + " 2>/dev/null";
    Run r;
    FILE* p = popen(cmd.c_str(), "r"); // NOLINT(cert-env33-c): the tool, as a shell runs it
    REQUIRE(p != nullptr);
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(p);
    std::remove(input.c_str());
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

} // namespace

TEST_CASE("eboard-winnable prints the label of one FEN") {
    Run r = run("'8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1'");
    CHECK(r.status == 0);
    CHECK(r.out == "--\n");
    r = run("'4k3/8/8/8/8/8/8/3QK3 w - - 0 1'");
    CHECK(r.status == 0);
    CHECK(r.out == "W-\n"); // K+Q v K is decided in quick mode too (winnability.md)
    r = run("--full 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'");
    CHECK(r.out == "-B\n");
}

TEST_CASE("eboard-winnable --batch answers every line in order, !! for a bad FEN") {
    const std::string in = "4k3/8/8/8/8/8/8/4KN2 w - - 0 1\n"
                           "not a fen\n"
                           "4k3/8/8/8/8/8/8/4KK2 w - - 0 1\n"
                           "\n"
                           "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\r\n";
    const Run r = run("--batch", in);
    CHECK(r.status == 0);
    CHECK(r.out == "--\n!!\n!!\n!!\n--\n");
}

TEST_CASE("eboard-winnable --batch: garbage, NUL bytes and a line longer than a read are each "
          "one !! line, and the run goes on") {
    std::string in = "4k3/8/8/8/8/8/8/4KN2 w - - 0 1\n";
    in += std::string("\0\xff\x01 w - -", 9) + "\n";           // binary bytes
    in += std::string(200000, 'p') + "\n";                       // spans several 64 KiB reads
    in += "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 trailing words\n";
    in += "4k3/8/8/8/8/8/8/4KN2 w - - 0 1 extra\n";
    in += "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n";
    const Run r = run("--full --batch", in);
    CHECK(r.status == 0);
    CHECK(r.out.substr(0, 9) == "--\n!!\n!!\n");
    CHECK(r.out.size() == 18); // six lines answered, in order
    CHECK(r.out.substr(15) == "--\n");
}

TEST_CASE("eboard-winnable --chess960 --full --batch reads Shredder-FEN") {
    const Run r = run("--chess960 --full --batch", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1\n");
    CHECK(r.status == 0);
    CHECK(r.out == "WB\n");
}

TEST_CASE("eboard-winnable: an invalid FEN or bad usage exits 2") {
    CHECK(run("'8/8/8/8/8/8/8/8 w - - 0 1'").status == 2);
    CHECK(run("").status == 2);
    CHECK(run("--bogus 'x'").status == 2);
    CHECK(run("--batch extra").status == 2);
}

TEST_CASE("eboard-winnable answers composed positions (nine pawns) and the initial position") {
    const Run r = run("--full --batch", "8/4p1p1/p1p1P1P1/P1P1pBp1/pBp1P1P1/P1P5/4K1P1/2k5 b - -\n"
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                                 "4k2P/8/8/8/8/8/8/4K3 w - - 0 1");  // no newline at the end
    CHECK(r.status == 0);
    REQUIRE(r.out.size() == 9);
    CHECK(r.out.substr(0, 3) != "!!\n");  // read, not refused
    CHECK(r.out.substr(3) == "WB\n!!\n");
}

TEST_CASE("5.2.2 eboard-winnable --batch over the whole ground truth: every position answered, "
          "none unsound") {
    // The FENs of data/deadpos/chasolver_positions.txt fed to the tool as an arbiter
    // would feed a file: one line each, none refused ("!!"), one label each, in order, and never
    // '-' where CHA's label has the letter (nor a letter where it has '-'). Quick mode gets every
    // line; full mode (about 40 s of CPU over the whole file since issue 25) every eighth.
    const auto truth = read_ground_truth();
    REQUIRE(truth.size() == 3414);
    for (const auto& [mode, step] : {std::pair<const char*, std::size_t>{"--batch", 1},
                                     std::pair<const char*, std::size_t>{"--full --batch", 8}}) {
        INFO(mode);
        std::vector<const GroundTruth*> fed;
        std::string in;
        for (std::size_t i = 0; i < truth.size(); i += step) {
            fed.push_back(&truth[i]);
            in += truth[i].fen + "\n";
        }
        const Run r = run(mode, in);
        CHECK(r.status == 0);
        std::size_t line = 0, pos = 0, undecided = 0;
        for (; pos < r.out.size() && line < fed.size(); ++line) {
            const GroundTruth& g = *fed[line];
            const std::size_t eol = r.out.find('\n', pos);
            REQUIRE(eol != std::string::npos);
            const std::string got = r.out.substr(pos, eol - pos);
            pos = eol + 1;
            INFO("line " << line + 1 << ": " << g.fen << " truth " << g.label);
            REQUIRE(got.size() == 2);
            REQUIRE(got != "!!");
            for (std::size_t side = 0; side < 2; ++side) {
                if (got[side] == '?') {
                    ++undecided;
                    continue;
                }
                CHECK((got[side] == '-') == (g.label[side] == '-'));
            }
        }
        CHECK(line == fed.size());
        CHECK(pos == r.out.size());
        CHECK(undecided < 2 * fed.size());
    }
}
