// Small I/O helpers shared by the test binaries: reading a whole file, and reading lines
// from a pipe or socket. Header-only; tests/support has no .cpp, so it makes no test binary.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace eboard::test {

/// The whole file, bytes as they are; "" if it cannot be read.
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Reads newline-terminated lines from a file descriptor it does not own.
class FdLineReader {
  public:
    explicit FdLineReader(int fd) : fd_(fd) {}
    /// Blocks until a whole line arrived and returns it without the '\n'; "" at EOF or error.
    std::string line() {
        for (;;) {
            const auto nl = buf_.find('\n');
            if (nl != std::string::npos) {
                std::string l = buf_.substr(0, nl);
                buf_.erase(0, nl + 1);
                return l;
            }
            char c[4096];
            const ssize_t n = read(fd_, c, sizeof c);
            if (n <= 0) return "";
            buf_.append(c, static_cast<std::size_t>(n));
        }
    }

  private:
    int fd_;
    std::string buf_;
};

} // namespace eboard::test
