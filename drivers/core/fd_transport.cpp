#include "drivers/core/fd_transport.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace eboard::drivers {

void FdTransport::fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    close();
}

void FdTransport::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (error_.empty()) error_ = "closed";
}

bool FdTransport::write(std::span<const std::uint8_t> bytes) {
    std::size_t done = 0;
    while (done < bytes.size() && fd_ >= 0) {
        const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            pollfd p{fd_, POLLOUT, 0};
            if (::poll(&p, 1, 1000) <= 0) {
                fail("write timed out");
                return false;
            }
        } else {
            fail(std::string("write: ") + std::strerror(errno));
            return false;
        }
    }
    return fd_ >= 0;
}

std::size_t FdTransport::read(std::span<std::uint8_t> buf, int timeout_ms) {
    if (fd_ < 0 || buf.empty()) return 0;
    pollfd p{fd_, POLLIN, 0};
    int r;
    do {
        r = ::poll(&p, 1, timeout_ms);
    } while (r < 0 && errno == EINTR);
    if (r <= 0) return 0;
    if (!(p.revents & POLLIN) && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
        fail("device hung up");
        return 0;
    }
    const ssize_t n = ::read(fd_, buf.data(), buf.size());
    if (n > 0) return static_cast<std::size_t>(n);
    if (n == 0) {
        fail("end of file");
    } else if (errno != EAGAIN && errno != EINTR) {
        fail(std::string("read: ") + std::strerror(errno));
    }
    return 0;
}

} // namespace eboard::drivers
