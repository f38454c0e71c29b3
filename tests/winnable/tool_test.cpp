// eboard-winnable as interfaces.md describes it: one FEN -> one label; --batch -> one label per
// line, "!!" for a line that is not a FEN; bad usage -> exit 2. Runs the built binary.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

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
    const Run r = run("--batch", "8/4p1p1/p1p1P1P1/P1P1pBp1/pBp1P1P1/P1P5/4K1P1/2k5 b - -\n"
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                                 "4k2P/8/8/8/8/8/8/4K3 w - - 0 1");  // no newline at the end
    CHECK(r.status == 0);
    REQUIRE(r.out.size() == 9);
    CHECK(r.out.substr(0, 3) != "!!\n");  // read, not refused
    CHECK(r.out.substr(3) == "WB\n!!\n");
}
