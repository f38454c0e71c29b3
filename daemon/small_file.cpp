#include "daemon/small_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eboard::daemon {

namespace {

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

} // namespace

Expected<std::string> read_small_file(const std::string& path, std::size_t max_bytes) {
    // O_NONBLOCK: a FIFO without a writer opens at once (and is then refused below).
    const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
    if (f.fd < 0) return Error{"cannot read '" + path + "': " + std::strerror(errno)};
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) return Error{"cannot read '" + path + "': " + std::strerror(errno)};
    if (!S_ISREG(st.st_mode)) return Error{"cannot read '" + path + "': not a regular file"};
    if (static_cast<std::size_t>(st.st_size) > max_bytes)
        return Error{"cannot read '" + path + "': larger than " + std::to_string(max_bytes) + " bytes"};
    std::string text(max_bytes + 1, '\0');
    std::size_t got = 0;
    // Up to one byte more than allowed: a file that grew since fstat is refused too.
    while (got < text.size()) {
        const ssize_t n = ::read(f.fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Error{"cannot read '" + path + "': " + std::strerror(errno)};
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    if (got > max_bytes)
        return Error{"cannot read '" + path + "': larger than " + std::to_string(max_bytes) + " bytes"};
    text.resize(got);
    return text;
}

} // namespace eboard::daemon
