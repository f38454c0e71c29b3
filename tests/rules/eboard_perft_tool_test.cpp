// The eboard-perft binary (eboard-perft(1)): output format and exit codes.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Run {
    int status = -1;
    std::string out;
    std::string err;
};

/// Runs build/bin/eboard-perft with the given (already shell-quoted) arguments.
Run run(const std::string& args) {
    // A file of its own per run: ctest runs the test cases of this file in parallel.
    char err_template[] = "/tmp/eboard-perft-test-XXXXXX";
    const int fd = mkstemp(err_template);
    REQUIRE(fd >= 0);
    close(fd);
    const std::string err_file = err_template;
    const std::string cmd =
        std::string(EBOARD_BIN_DIR) + "/eboard-perft " + args + " 2>" + err_file;
    Run r;
    // NOLINTNEXTLINE(cert-env33-c): a shell command by design (quoted FENs, 2> redirect)
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::array<char, 4096> buf;
    for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (FILE* e = fopen(err_file.c_str(), "r")) {
        for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), e)) > 0;) r.err.append(buf.data(), n);
        fclose(e);
    }
    std::remove(err_file.c_str());
    return r;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

} // namespace

TEST_CASE("eboard-perft prints the node count and nothing else") {
    const Run r = run("'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3");
    CHECK(r.status == 0);
    CHECK(r.out == "97862\n");
    CHECK(r.err.empty());
    CHECK(run("'4k3/8/8/8/8/8/8/4K3 w - - 0 1' 0").out == "1\n");
}

TEST_CASE("eboard-perft --divide prints 'UCI: count' per move, then the total") {
    const Run r = run("--divide 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' 2");
    CHECK(r.status == 0);
    CHECK(lines(r.out) == 21);
    CHECK(r.out.find("e2e4: 20\n") != std::string::npos);
    CHECK(r.out.find("g1f3: 20\n") != std::string::npos);
    CHECK(r.out.substr(r.out.size() - 4) == "400\n");
}

TEST_CASE("eboard-perft --chess960 reads X-FEN/Shredder-FEN and writes castling king->rook") {
    const Run r =
        run("--chess960 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9' 3");
    CHECK(r.status == 0);
    CHECK(r.out == "12189\n");
    const Run d = run("--chess960 --divide '4k3/8/8/8/8/8/8/1R1K4 w B - 0 1' 1");
    CHECK(d.out.find("d1b1: 1\n") != std::string::npos);
}

TEST_CASE("eboard-perft: an invalid FEN is one line on stderr naming the fault, exit 2") {
    const Run r = run("'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1' 1");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("two white kings") != std::string::npos);
    const Run junk = run("'$$$ garbage' 1");
    CHECK(junk.status == 2);
    CHECK(lines(junk.err) == 1);
}

TEST_CASE("eboard-perft: bad usage is a message and exit 2") {
    CHECK(run("").status == 2);
    CHECK(run("'4k3/8/8/8/8/8/8/4K3 w - - 0 1'").status == 2);
    const Run depth = run("'4k3/8/8/8/8/8/8/4K3 w - - 0 1' x");
    CHECK(depth.status == 2);
    CHECK(depth.err.find("depth") != std::string::npos);
    CHECK(run("--bogus '4k3/8/8/8/8/8/8/4K3 w - - 0 1' 1").status == 2);
}
