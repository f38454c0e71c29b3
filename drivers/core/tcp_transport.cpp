// Raw TCP transport: a board behind ser2net (or any raw TCP bridge).
#include "drivers/core/fd_transport.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace eboard::drivers {

namespace {

/// Connects with a timeout of `timeout_ms`; returns the fd or -1 with errno set.
int connect_with_timeout(const addrinfo* ai, int timeout_ms) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                            ai->ai_protocol);
    if (fd < 0) return -1;
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) return fd;
    if (errno == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        if (::poll(&p, 1, timeout_ms) == 1) {
            int err = 0;
            socklen_t len = sizeof err;
            ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
            if (err == 0) return fd;
            errno = err;
        } else {
            errno = ETIMEDOUT;
        }
    }
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
}

} // namespace

Expected<std::unique_ptr<Transport>> open_tcp(const std::string& host, std::uint16_t port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* list = nullptr;
    const std::string name = "tcp:" + host + ":" + std::to_string(port);
    const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &list);
    if (rc != 0) return Error{name + ": " + ::gai_strerror(rc)};
    int fd = -1;
    int last_errno = 0;
    for (const addrinfo* ai = list; ai && fd < 0; ai = ai->ai_next) {
        fd = connect_with_timeout(ai, 3000);
        if (fd < 0) last_errno = errno;
    }
    ::freeaddrinfo(list);
    if (fd < 0) return Error{name + ": " + std::strerror(last_errno)};
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return std::unique_ptr<Transport>(std::make_unique<FdTransport>(fd, name));
}

} // namespace eboard::drivers
