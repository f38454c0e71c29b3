// daemon/log.hpp: one "<N>text" line per call, whatever the text (issue 26: a board name with a
// newline, from a client, wrote a forged "<0>" line).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include "daemon/log.hpp"
#include "tests/daemon/harness.hpp"

using namespace eboard;
using namespace eboard::test;

TEST_CASE("log: control characters in the text are written escaped, one line per call") {
    TempDir dir("eboardd-log");
    const std::string path = (dir.path / "err").string();
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    REQUIRE(file >= 0);
    const int saved = ::dup(STDERR_FILENO);
    REQUIRE(::dup2(file, STDERR_FILENO) == STDERR_FILENO);
    daemon::log_notice(std::string("board x\n<0>forged\r\ta\0b\x7f attached", 32));
    daemon::log_info("plain");
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(file);
    CHECK(slurp(path) == "<5>board x\\n<0>forged\\r\\ta\\x00b\\x7f attached\n<6>plain\n");
}
